//! The display-ready copy of a review, built once at load.
//!
//! Every string a list row shows is sanitised here, once, so that drawing a
//! frame never touches untrusted text again and costs the same at 10,000
//! findings as at 10. Search fields are kept here too, folded on first search ([`crate::tui::fuzzy`]).

use crate::model::finding::{Classification, Disposition, Finding, Origin, RiverStatus, Severity, ThreadTransition};
use crate::model::review::ReviewSet;
use crate::sanitize::clean_line;

/// The longest headline kept for a row (a row never shows more).
const HEADLINE_CHARS: usize = 240;
/// The longest part of a path the path filter looks at.
const PATH_CHARS: usize = 2_000;

/// What a row shows in its thread column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadMark {
    /// The format has no review threads (River Review).
    NoThreads,
    /// A ReviewGate thread transition.
    Transition(ThreadTransition),
}

impl ThreadMark {
    /// One display cell that tells the state without colour.
    pub fn glyph(self) -> &'static str {
        match self {
            ThreadMark::NoThreads => " ",
            ThreadMark::Transition(t) => match t {
                ThreadTransition::NotPublished => "·",
                ThreadTransition::Unknown => "?",
                ThreadTransition::Retained => "○",
                ThreadTransition::Reopened => "↻",
                ThreadTransition::ResolutionPending => "◐",
                ThreadTransition::ResolvedExternally => "!",
                ThreadTransition::ResolvedFixed
                | ThreadTransition::ResolvedRejectedWithEvidence
                | ThreadTransition::ResolvedIntentionalContract
                | ThreadTransition::ResolvedSuperseded => "●",
            },
        }
    }
}

/// One finding, ready to draw as a list row and to search.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Cross-format rank (P0..P4).
    pub rank: Severity,
    /// The finding blocks the merge (ReviewGate `blocking_reason` set).
    pub blocking: bool,
    /// Short disposition (ReviewGate) or status (River) label.
    pub disposition: &'static str,
    /// Thread column.
    pub thread: ThreadMark,
    /// The thread is outdated on GitHub (shown as `~`).
    pub outdated: bool,
    /// Short classification label (River: its own severity name).
    pub class: &'static str,
    /// Sanitised `path:line`, or `(pull request)` when the finding has no path.
    pub location: String,
    /// Sanitised one-line headline.
    pub headline: String,
    /// Confidence as shown in the list: `0.93` (ReviewGate), River's own word cut to 4 columns, or empty.
    pub confidence: String,
    /// The lower-cased path (for the path filter).
    pub path_lower: String,
    /// Sanitised live thread facts for the drift lane: who resolved it, who replied last.
    pub thread_people: Option<String>,
}

impl Row {
    /// Builds the row of one finding.
    pub fn new(finding: &Finding) -> Row {
        let (disposition, thread, outdated, class, blocking) = match &finding.origin {
            Origin::ReviewGate(r) => (
                disposition_short(r.disposition),
                ThreadMark::Transition(r.thread.transition),
                r.thread.outdated,
                class_short(r.classification),
                r.blocking_reason.is_some(),
            ),
            Origin::River(r) => {
                let class = r.severity.map_or("", |s| s.as_str());
                (river_status_short(r.status), ThreadMark::NoThreads, false, class, false)
            }
        };
        Row {
            rank: finding.rank,
            blocking,
            disposition,
            thread,
            outdated,
            class,
            location: location(finding, 160),
            headline: headline(finding.headline()),
            confidence: confidence(finding),
            path_lower: lower(finding.path.as_deref().unwrap_or("")),
            thread_people: thread_people(finding),
        }
    }
}

fn confidence(finding: &Finding) -> String {
    match &finding.origin {
        Origin::ReviewGate(r) => format!("{:.2}", r.confidence),
        Origin::River(r) => r
            .confidence
            .as_deref()
            .map(|c| crate::sanitize::clean_line(c).chars().take(4).collect())
            .unwrap_or_default(),
    }
}

/// `resolved by X · last reply by Y`, from a live read of the thread.
fn thread_people(finding: &Finding) -> Option<String> {
    let facts = finding.reviewgate()?.thread.facts.as_ref()?;
    let mut parts = Vec::new();
    if let Some(who) = &facts.resolved_by {
        parts.push(format!("resolved by {}", clean_line(&first_chars(who, 60))));
    }
    if let Some(reply) = &facts.last_reply {
        parts.push(format!("last reply by {}", clean_line(&first_chars(&reply.author, 60))));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// Counts shown in the header, computed once.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Counts {
    /// Findings per rank, P0 first.
    pub per_rank: [usize; 5],
    /// Findings per disposition (or River status), in a fixed order, zeros left out.
    pub per_disposition: Vec<(&'static str, usize)>,
    /// Findings in the repair set.
    pub repair: usize,
    /// Findings that block.
    pub blocking: usize,
}

/// Rows for every finding (indexed like `ReviewSet::findings`), the rank
/// order, and the header counts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Prepared {
    pub rows: Vec<Row>,
    /// Finding indices sorted by rank ([`ReviewSet::ranked`]).
    pub ranked: Vec<usize>,
    pub counts: Counts,
    /// The folded search fields (see [`crate::tui::fuzzy`]).
    pub search: crate::tui::fuzzy::SearchIndex,
}

impl Prepared {
    /// Prepares a whole review (`None`: nothing could be read).
    pub fn new(set: Option<&ReviewSet>) -> Prepared {
        let Some(set) = set else {
            return Prepared::default();
        };
        let rows: Vec<Row> = set.findings.iter().map(Row::new).collect();
        let mut counts = Counts::default();
        let mut labels: Vec<(&'static str, usize)> = Vec::new();
        for (finding, row) in set.findings.iter().zip(&rows) {
            counts.per_rank[row.rank as usize] += 1;
            counts.repair += usize::from(finding.in_repair_set());
            counts.blocking += usize::from(row.blocking);
            match labels.iter_mut().find(|(l, _)| *l == row.disposition) {
                Some((_, n)) => *n += 1,
                None => labels.push((row.disposition, 1)),
            }
        }
        labels.sort_by_key(|(l, _)| disposition_order(l));
        counts.per_disposition = labels;
        let search = crate::tui::fuzzy::SearchIndex::new(set.findings.iter().map(|f| {
            [
                f.title.as_deref().unwrap_or(""),
                f.claim.as_deref().unwrap_or(""),
                f.path.as_deref().unwrap_or(""),
                f.key.as_str(),
            ]
        }));
        Prepared {
            rows,
            ranked: set.ranked(),
            counts,
            search,
        }
    }
}

/// Short label of a canonical disposition (fits a 6-cell column).
pub fn disposition_short(d: Disposition) -> &'static str {
    match d {
        Disposition::StillOpen => "open",
        Disposition::Fixed => "fixed",
        Disposition::RejectedWithEvidence => "reject",
        Disposition::IntentionalContract => "intent",
        Disposition::Disputed => "disput",
        Disposition::Superseded => "supers",
    }
}

fn river_status_short(s: Option<RiverStatus>) -> &'static str {
    match s {
        None | Some(RiverStatus::Open) => "open",
        Some(RiverStatus::Suppressed) => "suppr",
        Some(RiverStatus::Verified) => "verif",
    }
}

/// Header order of disposition labels: open states first.
fn disposition_order(label: &str) -> usize {
    const ORDER: [&str; 9] = [
        "open", "disput", "fixed", "reject", "intent", "supers", "suppr", "verif", "",
    ];
    ORDER.iter().position(|l| *l == label).unwrap_or(ORDER.len())
}

/// Short label of a classification (fits an 8-cell column).
pub fn class_short(c: Classification) -> &'static str {
    match c {
        Classification::Defect => "defect",
        Classification::Security => "security",
        Classification::ReliabilityRisk => "reliab",
        Classification::ContractAmbiguity => "contract",
        Classification::Suggestion => "suggest",
    }
}

/// Sanitised `path:line` (the path cut to `max_chars`), or `(pull request)`
/// for a finding about the whole pull request.
pub fn location(finding: &Finding, max_chars: usize) -> String {
    match (&finding.path, finding.line) {
        (Some(p), Some(l)) => format!("{}:{l}", clean_line(&first_chars(p, max_chars))),
        (Some(p), None) => clean_line(&first_chars(p, max_chars)),
        (None, Some(l)) => format!("(pull request):{l}"),
        (None, None) => "(pull request)".to_string(),
    }
}

fn headline(text: &str) -> String {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut out = clean_line(&first_chars(first, HEADLINE_CHARS));
    if text.lines().filter(|l| !l.trim().is_empty()).nth(1).is_some() || first.chars().nth(HEADLINE_CHARS).is_some() {
        out.push('…');
    }
    out
}

fn lower(text: &str) -> String {
    first_chars(text, PATH_CHARS).to_lowercase()
}

/// The first `n` chars of `s` (no allocation beyond the copy).
fn first_chars(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture;

    #[test]
    fn rows_are_sanitised_and_ranked() {
        let set = fixture::sample_set();
        let prepared = Prepared::new(Some(&set));
        assert_eq!(prepared.rows.len(), set.findings.len());
        let ranks: Vec<Severity> = prepared.ranked.iter().map(|&i| prepared.rows[i].rank).collect();
        let mut sorted = ranks.clone();
        sorted.sort();
        assert_eq!(ranks, sorted);
        for row in &prepared.rows {
            assert!(!row.headline.chars().any(char::is_control), "{:?}", row.headline);
            assert!(!row.location.chars().any(char::is_control));
        }
        assert_eq!(prepared.counts.per_rank.iter().sum::<usize>(), set.findings.len());
    }

    #[test]
    fn headline_keeps_first_line_and_marks_more() {
        assert_eq!(headline("\n  \nfirst\nsecond"), "first…");
        assert_eq!(headline("only"), "only");
        let long = "x".repeat(HEADLINE_CHARS + 5);
        assert_eq!(headline(&long).chars().count(), HEADLINE_CHARS + 1);
    }

    #[test]
    fn glyphs_tell_threads_apart_without_colour() {
        use ThreadTransition as T;
        let glyphs: Vec<&str> = [
            T::NotPublished,
            T::Unknown,
            T::Retained,
            T::Reopened,
            T::ResolutionPending,
            T::ResolvedExternally,
            T::ResolvedFixed,
        ]
        .into_iter()
        .map(|t| ThreadMark::Transition(t).glyph())
        .collect();
        let mut unique = glyphs.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), glyphs.len());
    }
}
