//! The display-ready copy of a review.
//!
//! Every string a list row shows is sanitised here, once per finding, so
//! that drawing a frame never touches untrusted text again and costs the
//! same at 100,000 findings as at 10. A row is built the first time it is
//! asked for ([`Rows::get`]): a frame asks for the rows on screen only, so
//! opening a large review builds a screenful of rows, not every one (the
//! list's rows on screen are built in `update`, [`crate::tui::nav::sync`],
//! so drawing the list only reads them). The
//! header counts and the rank order are computed at load from the findings'
//! enums (no text is touched), and the search fields are folded on first
//! search ([`crate::tui::fuzzy`]).

use crate::model::finding::{Classification, Disposition, Finding, Origin, RiverStatus, Severity, ThreadTransition};
use crate::model::review::ReviewSet;
use crate::sanitize::clean_line;
use std::sync::{Arc, OnceLock};

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

/// The short labels of a finding as its row shows them (no text is sanitised).
#[derive(Debug, Clone, Copy)]
struct Labels {
    disposition: &'static str,
    thread: ThreadMark,
    outdated: bool,
    class: &'static str,
    blocking: bool,
}

impl Labels {
    fn of(finding: &Finding) -> Labels {
        match &finding.origin {
            Origin::ReviewGate(r) => Labels {
                disposition: disposition_short(r.disposition),
                thread: ThreadMark::Transition(r.thread.transition),
                outdated: r.thread.outdated,
                class: class_short(r.classification),
                blocking: r.blocking_reason.is_some(),
            },
            Origin::River(r) => Labels {
                disposition: river_status_short(r.status),
                thread: ThreadMark::NoThreads,
                outdated: false,
                class: r.severity.map_or("", |s| s.as_str()),
                blocking: false,
            },
        }
    }
}

/// The short disposition (ReviewGate) or status (River) label of a finding,
/// as its row's disposition column shows it.
pub fn disposition_label(finding: &Finding) -> &'static str {
    Labels::of(finding).disposition
}

impl Row {
    /// Builds the row of one finding.
    pub fn new(finding: &Finding) -> Row {
        let Labels {
            disposition,
            thread,
            outdated,
            class,
            blocking,
        } = Labels::of(finding);
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

/// The rows of a review, indexed like `ReviewSet::findings`, each built on
/// first use; shared, so cloning an [`crate::tui::app::App`] copies none.
#[derive(Clone, Default)]
pub struct Rows {
    /// Boxed: an unbuilt row costs a pointer, not a row's size.
    cells: Arc<Vec<OnceLock<Box<Row>>>>,
}

impl Rows {
    /// Room for `n` rows, none built yet.
    pub fn new(n: usize) -> Rows {
        Rows {
            cells: Arc::new((0..n).map(|_| OnceLock::new()).collect()),
        }
    }

    /// The row of finding `i` of `findings` (the findings these rows were
    /// made for), built now if it was not before.
    pub fn get<'a>(&'a self, findings: &[Finding], i: usize) -> Option<&'a Row> {
        let cell = self.cells.get(i)?;
        let finding = findings.get(i)?;
        Some(cell.get_or_init(|| Box::new(Row::new(finding))))
    }

    /// Number of findings the rows are for.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True when there are no findings.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// How many rows have been built so far.
    pub fn built(&self) -> usize {
        self.cells.iter().filter(|c| c.get().is_some()).count()
    }
}

impl std::fmt::Debug for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rows({} findings)", self.cells.len())
    }
}

/// Rows are a function of the findings they were made for (which a
/// [`crate::tui::app::Document`] compares), so two are equal when they are
/// for as many findings.
impl PartialEq for Rows {
    fn eq(&self, other: &Rows) -> bool {
        Arc::ptr_eq(&self.cells, &other.cells) || self.cells.len() == other.cells.len()
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

/// The rows (built on first use), the rank order, and the header counts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Prepared {
    pub rows: Rows,
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
        let mut counts = Counts::default();
        let mut labels: Vec<(&'static str, usize)> = Vec::new();
        for finding in &set.findings {
            let l = Labels::of(finding);
            counts.per_rank[finding.rank as usize] += 1;
            counts.repair += usize::from(finding.in_repair_set());
            counts.blocking += usize::from(l.blocking);
            match labels.iter_mut().find(|(d, _)| *d == l.disposition) {
                Some((_, n)) => *n += 1,
                None => labels.push((l.disposition, 1)),
            }
        }
        labels.sort_by_key(|(l, _)| disposition_order(l));
        counts.per_disposition = labels;
        let search = crate::tui::fuzzy::SearchIndex::new(set.findings.len());
        Prepared {
            rows: Rows::new(set.findings.len()),
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
        (Some(p), Some(l)) => format!("{}:{l}", clean_line(&ends(p, max_chars))),
        (Some(p), None) => clean_line(&ends(p, max_chars)),
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

/// `s` in at most `n` chars: whole when it fits, else its first and last
/// chars around a `…`, so a long path keeps its file name (the list
/// shortens it further from the middle, see `view::list::shorten_middle`).
fn ends(s: &str, n: usize) -> String {
    if s.chars().nth(n).is_none() {
        return s.to_string();
    }
    let Some(keep) = n.checked_sub(1) else {
        return String::new();
    };
    let tail = keep / 2;
    let head = keep - tail;
    let start_of_tail = s
        .char_indices()
        .rev()
        .nth(tail.saturating_sub(1))
        .map_or(s.len(), |(i, _)| i);
    let tail = if tail == 0 { "" } else { &s[start_of_tail..] };
    format!("{}…{tail}", first_chars(s, head))
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

    #[test]
    fn a_long_path_keeps_its_start_and_its_file_name() {
        let deep = format!("app/{}/x.py", "d".repeat(200));
        let kept = ends(&deep, 160);
        assert_eq!(kept.chars().count(), 160);
        assert!(kept.starts_with("app/ddd") && kept.ends_with("ddd/x.py"), "{kept}");
        assert!(kept.contains('…'));
        assert_eq!(ends("src/lib.rs", 160), "src/lib.rs");
        assert_eq!(ends("src/lib.rs", 10), "src/lib.rs");
        assert_eq!(ends("src/lib.rs", 9), "src/…b.rs");
        assert_eq!(ends("αβγδε", 2), "α…");
        assert_eq!(ends("αβγδε", 1), "…");
        assert_eq!(ends("αβγδε", 0), "");
    }
    use crate::tui::fixture;

    #[test]
    fn rows_are_sanitised_and_ranked() {
        let set = fixture::sample_set();
        let prepared = Prepared::new(Some(&set));
        assert_eq!(prepared.rows.len(), set.findings.len());
        assert_eq!(prepared.rows.built(), 0, "no row is built before it is asked for");
        let row = |i: usize| prepared.rows.get(&set.findings, i).unwrap();
        let ranks: Vec<Severity> = prepared.ranked.iter().map(|&i| row(i).rank).collect();
        let mut sorted = ranks.clone();
        sorted.sort();
        assert_eq!(ranks, sorted);
        for i in 0..set.findings.len() {
            assert!(!row(i).headline.chars().any(char::is_control), "{:?}", row(i).headline);
            assert!(!row(i).location.chars().any(char::is_control));
        }
        assert_eq!(prepared.rows.built(), set.findings.len());
        assert!(prepared.rows.get(&set.findings, set.findings.len()).is_none());
        assert_eq!(prepared.counts.per_rank.iter().sum::<usize>(), set.findings.len());
    }

    #[test]
    fn counts_agree_with_the_rows() {
        let set = fixture::sample_set();
        let prepared = Prepared::new(Some(&set));
        let rows: Vec<&Row> = (0..set.findings.len())
            .map(|i| prepared.rows.get(&set.findings, i).unwrap())
            .collect();
        assert_eq!(prepared.counts.blocking, rows.iter().filter(|r| r.blocking).count());
        for (label, n) in &prepared.counts.per_disposition {
            assert_eq!(*n, rows.iter().filter(|r| r.disposition == *label).count(), "{label}");
        }
        for (f, r) in set.findings.iter().zip(&rows) {
            assert_eq!(disposition_label(f), r.disposition);
        }
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
