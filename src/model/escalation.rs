//! The escalation packet: a bounded Markdown summary of one finding for the
//! person who has to decide it (a `needs_human` decision, or thread drift).
//!
//! Safety of untrusted text (claims, excerpts, logins, replies, paths):
//! - it only ever appears inside fenced code blocks whose fence is longer than
//!   any backtick run in the text, so it cannot close the block or add headings,
//!   links or images;
//! - `@` becomes `＠` (U+FF20) so pasting the packet into GitHub mentions nobody;
//! - `<!--` and `-->` are broken up (`<! --`, `-- >`) so it cannot open or close
//!   an HTML comment (which would hide or forge parts of the packet);
//! - control characters (except newline and tab), bidi and other invisible
//!   format controls become U+FFFD.
//!
//! Only enum names, counts and the question are written outside the fences.
//! The whole packet stays under [`MAX_PACKET_BYTES`]: long fields are cut at a
//! character boundary with a visible `[… N bytes cut]` marker, and if the
//! packet is still too big every field budget is halved until it fits.

use super::finding::{Finding, HistoryRecord, ThreadTransition};
use super::review::Scope;
use std::fmt::Write as _;

/// The packet is always strictly shorter than 4 KiB.
pub const MAX_PACKET_BYTES: usize = 4095;

/// Why the finding is being escalated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EscalationReason {
    /// The reviewer chose `needs_human` (optionally with the evidence they drafted).
    NeedsHuman {
        /// The reviewer's draft evidence, if any.
        note: Option<String>,
    },
    /// GitHub's thread state disagrees with the canonical state.
    Drift,
}

/// Everything the packet describes.
#[derive(Debug, Clone, Copy)]
pub struct EscalationInput<'a> {
    pub finding: &'a Finding,
    pub reason: &'a EscalationReason,
    pub scope: &'a Scope,
    pub reviewed_sha: Option<&'a str>,
    /// Why thread state is unknown, when it is.
    pub threads_unavailable: Option<&'a str>,
}

/// Per-field byte budgets; halved until the packet fits.
#[derive(Debug, Clone, Copy)]
struct Budget {
    field: usize,
    long: usize,
    items: usize,
}

/// Builds the packet (always < 4 KiB).
pub fn escalation_packet(input: &EscalationInput<'_>) -> String {
    let mut budget = Budget {
        field: 300,
        long: 900,
        items: 6,
    };
    loop {
        let packet = render(input, budget);
        if packet.len() <= MAX_PACKET_BYTES {
            return packet;
        }
        if budget.field <= 16 {
            return minimal(input);
        }
        budget = Budget {
            field: budget.field / 2,
            long: budget.long / 2,
            items: budget.items.max(2) - 1,
        };
    }
}

fn render(input: &EscalationInput<'_>, b: Budget) -> String {
    let f = input.finding;
    let mut out = header(input);
    let mut ident = String::new();
    match input.scope {
        Scope::PullRequest {
            repository,
            pull_request_number,
        } => {
            let _ = writeln!(
                ident,
                "pull request: {}#{}",
                cut(repository, b.field),
                pull_request_number
            );
        }
        Scope::Local => ident.push_str("scope: local review\n"),
    }
    if let Some(sha) = input.reviewed_sha {
        let _ = writeln!(ident, "reviewed sha: {}", cut(sha, 64));
    }
    let _ = writeln!(ident, "fingerprint: {}", cut(f.key.as_str(), b.field));
    let location = match (&f.path, f.line) {
        (Some(p), Some(l)) => format!("{}:{l}", cut(p, b.field)),
        (Some(p), None) => cut(p, b.field),
        _ => "(whole pull request)".to_owned(),
    };
    let _ = writeln!(ident, "location: {location}");
    let _ = writeln!(ident, "claim: {}", cut(f.headline(), b.long));
    section(&mut out, "Finding", &ident);
    section(&mut out, "Evidence", &evidence_text(f, b));
    out.push_str(&state_text(input, b));
    if let Some(r) = f.reviewgate() {
        section(&mut out, "History", &history_text(&r.history, b));
    }
    if let EscalationReason::NeedsHuman { note: Some(note) } = input.reason {
        section(&mut out, "Reviewer's note", &cut(note, b.long));
    }
    let _ = write!(out, "### Question\n\n{}\n", question(input));
    out
}

fn header(input: &EscalationInput<'_>) -> String {
    let f = input.finding;
    let why = match input.reason {
        EscalationReason::NeedsHuman { .. } => "needs a human decision".to_owned(),
        EscalationReason::Drift => match f.reviewgate() {
            Some(r) => format!("thread drift ({})", r.thread.transition.as_str()),
            None => "thread drift".to_owned(),
        },
    };
    format!("## Escalation: {} finding, {why}\n\n", f.severity_label())
}

fn evidence_text(f: &Finding, b: Budget) -> String {
    if f.evidence.is_empty() {
        return "(no evidence excerpts)\n".to_owned();
    }
    let mut text = String::new();
    for e in f.evidence.iter().take(b.items) {
        let _ = writeln!(
            text,
            "{}:{} ({} side): {}",
            cut(&e.path, b.field),
            e.line,
            e.side.as_str(),
            cut(&e.excerpt, b.field)
        );
        let _ = writeln!(text, "  why: {}", cut(&e.reason, b.field));
    }
    if f.evidence.len() > b.items {
        let _ = writeln!(text, "(+{} more excerpts not shown)", f.evidence.len() - b.items);
    }
    text
}

fn state_text(input: &EscalationInput<'_>, b: Budget) -> String {
    let Some(r) = input.finding.reviewgate() else {
        return "### State\n\nNot a ReviewGate finding: no canonical or GitHub thread state.\n\n".to_owned();
    };
    let t = &r.thread;
    let mut out = String::from("### State\n\n");
    let _ = writeln!(out, "- Canonical (ReviewGate): {}", r.disposition.as_str());
    let _ = writeln!(
        out,
        "- GitHub thread: {}{}; transition {}",
        t.status.as_str(),
        if t.outdated { " (outdated)" } else { "" },
        t.transition.as_str()
    );
    if input.threads_unavailable.is_some() {
        out.push_str("- Thread state could not be read from GitHub (reason below).\n");
    }
    out.push('\n');
    let mut facts = String::new();
    if let Some(reason) = input.threads_unavailable {
        let _ = writeln!(facts, "why unknown: {}", cut(reason, b.field));
    }
    if let Some(x) = &t.facts {
        if let Some(by) = &x.resolved_by {
            let when = x
                .resolved_at
                .as_deref()
                .map(|w| format!(" at {}", cut(w, 40)))
                .unwrap_or_default();
            let _ = writeln!(facts, "resolved by: {}{when}", cut(by, 80));
        }
        if let Some(reply) = &x.last_reply {
            let _ = writeln!(
                facts,
                "last reply by {}: {}",
                cut(&reply.author, 80),
                cut(&reply.excerpt, b.field)
            );
        }
        if let Some(url) = &x.url {
            let _ = writeln!(facts, "thread: {}", cut(url, 200));
        }
    }
    if !facts.is_empty() {
        fenced(&mut out, &facts);
    }
    out
}

fn history_text(history: &[HistoryRecord], b: Budget) -> String {
    if history.is_empty() {
        return "(no earlier decisions)\n".to_owned();
    }
    let mut text = String::new();
    let skip = history.len().saturating_sub(b.items);
    if skip > 0 {
        let _ = writeln!(text, "({skip} older records not shown)");
    }
    for h in &history[skip..] {
        let submitted = h
            .submitted
            .map(|s| format!(" (submitted {})", s.as_str()))
            .unwrap_or_default();
        let _ = writeln!(
            text,
            "{}{submitted} by {} at {}: {}",
            h.disposition.as_str(),
            cut(&h.actor, 80),
            h.reviewed_sha.chars().take(12).collect::<String>(),
            cut(&h.evidence_summary, b.field)
        );
    }
    text
}

/// The question for the decider: written from enums only.
fn question(input: &EscalationInput<'_>) -> String {
    let Some(r) = input.finding.reviewgate() else {
        return "Is this finding valid, and what should be done about it?".to_owned();
    };
    let canonical = r.disposition.as_str();
    match (input.reason, r.thread.transition) {
        (EscalationReason::Drift, ThreadTransition::ResolvedExternally) => format!(
            "GitHub shows the thread resolved while ReviewGate still tracks the finding as {canonical}. \
             Was it really fixed on the reviewed commit (record it with evidence), or should the thread be reopened?"
        ),
        (EscalationReason::Drift, ThreadTransition::ResolutionPending) => format!(
            "ReviewGate records the finding as {canonical} but its thread is still open. \
             Does the recorded evidence hold, so the thread can be resolved?"
        ),
        (EscalationReason::Drift, ThreadTransition::Unknown) => format!(
            "The thread state could not be read from GitHub while ReviewGate tracks the finding as {canonical}. \
             What does the pull request conversation show: is the thread open, resolved, or missing?"
        ),
        (EscalationReason::Drift, ThreadTransition::Reopened) => {
            "The finding was settled before and new evidence reopened it. Does the new evidence hold?".to_owned()
        }
        (EscalationReason::Drift, _) => format!(
            "The thread state ({}) needs checking against the canonical state ({canonical}). Which one is right?",
            r.thread.transition.as_str()
        ),
        (EscalationReason::NeedsHuman { .. }, _) => {
            "The reviewer could not safely choose. Is this finding valid for the reviewed commit: should it be \
             fixed, rejected with evidence, or accepted as an intentional contract?"
                .to_owned()
        }
    }
}

/// The smallest packet: header, state enums and the question only.
fn minimal(input: &EscalationInput<'_>) -> String {
    let mut out = header(input);
    out.push_str("(details omitted: packet size limit)\n\n");
    let _ = write!(out, "### Question\n\n{}\n", question(input));
    out
}

fn section(out: &mut String, title: &str, body: &str) {
    let _ = write!(out, "### {title}\n\n");
    fenced(out, body);
}

/// Appends `body` (untrusted) neutralised, inside a fence longer than any backtick run in it.
fn fenced(out: &mut String, body: &str) {
    let body = neutralise(body);
    let fence = "`".repeat(longest_backtick_run(&body).max(2) + 1);
    let _ = write!(out, "{fence}text\n{}", body);
    if !body.ends_with('\n') {
        out.push('\n');
    }
    let _ = write!(out, "{fence}\n\n");
}

fn longest_backtick_run(s: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Breaks mentions and HTML comment markers; replaces control and format characters.
pub fn neutralise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '@' => out.push('\u{FF20}'),
            '\n' | '\t' => out.push(c),
            c if is_hidden_control(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out.replace("<!--", "<! --").replace("-->", "-- >")
}

fn is_hidden_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// At most `max` bytes of `s`, cut at a character boundary, with a visible marker when cut.
pub fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_owned();
    }
    let mut end = max;
    while end > 0 && !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}[… {} bytes cut]", &s[..end], s.len() - end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::finding::{
        Classification, Disposition, Evidence, FindingKey, Origin, ReviewGateFields, Severity, Side, Thread,
        ThreadFacts, ThreadReply, ThreadStatus,
    };

    fn finding(claim: &str, excerpt: &str, history: usize) -> Finding {
        let record = HistoryRecord {
            disposition: Disposition::Fixed,
            submitted: None,
            submission_id: None,
            evidence_summary: "looked fixed".into(),
            actor: "bob".into(),
            reviewed_sha: "a".repeat(40),
            code_fingerprint: "c".into(),
        };
        let thread = Thread {
            status: ThreadStatus::Resolved,
            transition: ThreadTransition::ResolvedExternally,
            outdated: true,
            id: Some("T1".into()),
            facts: Some(ThreadFacts {
                resolved_by: Some("mallory".into()),
                resolved_at: None,
                last_reply: Some(ThreadReply {
                    author: "eve".into(),
                    excerpt: "done @team".into(),
                    created_at: None,
                }),
                url: Some("https://github.com/o/r/pull/7#discussion_r1".into()),
            }),
        };
        Finding {
            index: 0,
            id: "F1".into(),
            key: FindingKey::Semantic("defect:src/a.rs:key".into()),
            rank: Severity::P1,
            title: None,
            claim: Some(claim.into()),
            suggested_fix: None,
            path: Some("src/a.rs".into()),
            line: Some(42),
            evidence: vec![Evidence {
                path: "src/a.rs".into(),
                side: Side::New,
                line: 42,
                excerpt: excerpt.into(),
                reason: "the check is missing".into(),
            }],
            origin: Origin::ReviewGate(ReviewGateFields {
                severity: Severity::P1,
                confidence: 0.9,
                classification: Classification::Defect,
                disposition: Disposition::StillOpen,
                blocking_reason: None,
                causal_evidence: None,
                reproduction: None,
                verification: None,
                thread,
                reopening_evidence: None,
                history: vec![record; history],
                code_fingerprint: None,
            }),
        }
    }

    fn packet(f: &Finding, reason: &EscalationReason) -> String {
        let scope = Scope::PullRequest {
            repository: "o/r".into(),
            pull_request_number: 7,
        };
        let sha = "b".repeat(40);
        escalation_packet(&EscalationInput {
            finding: f,
            reason,
            scope: &scope,
            reviewed_sha: Some(&sha),
            threads_unavailable: None,
        })
    }

    /// Lines outside any fence: where Markdown structure lives.
    fn outside_fences(md: &str) -> Vec<String> {
        let mut fence: Option<String> = None;
        let mut outside = vec![];
        for line in md.lines() {
            match &fence {
                Some(f) if line == f => fence = None,
                Some(_) => {}
                None if line.starts_with("```") => {
                    let n = line.chars().take_while(|&c| c == '`').count();
                    fence = Some("`".repeat(n));
                }
                None => outside.push(line.to_owned()),
            }
        }
        assert!(fence.is_none(), "a fence was left open");
        outside
    }

    #[test]
    fn drift_packet_has_every_part() {
        let f = finding("the guard is missing", "if x {", 2);
        let md = packet(&f, &EscalationReason::Drift);
        assert!(md.starts_with("## Escalation: P1 finding, thread drift (resolved_externally)"));
        for part in [
            "### Finding",
            "fingerprint: defect:src/a.rs:key",
            "location: src/a.rs:42",
            "claim: the guard is missing",
            "### Evidence",
            "src/a.rs:42 (new side): if x {",
            "### State",
            "- Canonical (ReviewGate): still_open",
            "- GitHub thread: resolved (outdated); transition resolved_externally",
            "resolved by: mallory",
            "last reply by eve: done \u{FF20}team",
            "### History",
            "fixed by bob at aaaaaaaaaaaa: looked fixed",
            "### Question",
            "reopened?",
            "pull request: o/r#7",
        ] {
            assert!(md.contains(part), "missing {part:?} in\n{md}");
        }
        assert!(md.len() < 4096);
    }

    #[test]
    fn hostile_text_stays_inside_its_fence() {
        let hostile = "````\n# Approved\n@admin please merge <!-- hidden --> \u{202E}evil\u{1b}[31m\n```````";
        let f = finding(hostile, hostile, 1);
        let md = packet(
            &f,
            &EscalationReason::NeedsHuman {
                note: Some(hostile.into()),
            },
        );
        for line in outside_fences(&md) {
            assert!(
                !line.contains("Approved") && !line.contains("admin"),
                "escaped line: {line:?}"
            );
        }
        assert!(!md.contains('@'));
        assert!(!md.contains("<!--") && !md.contains("-->"));
        assert!(!md.contains('\u{202E}') && !md.contains('\u{1b}'));
        assert!(md.contains("\u{FF20}admin please merge <! -- hidden -- >"));
        // The fence around the claim is longer than the 7-backtick run inside it.
        assert!(md.contains("````````text\n"));
    }

    #[test]
    fn huge_fields_are_bounded_and_cut_visibly_at_char_boundaries() {
        let big = "é".repeat(5000) + &"`".repeat(50);
        let f = finding(&big, &big, 40);
        for reason in [
            EscalationReason::Drift,
            EscalationReason::NeedsHuman {
                note: Some(big.clone()),
            },
        ] {
            let md = packet(&f, &reason);
            assert!(md.len() <= MAX_PACKET_BYTES, "{} bytes", md.len());
            assert!(md.contains("bytes cut]"));
            assert!(md.contains("### Question"));
            outside_fences(&md);
        }
    }

    #[test]
    fn neutralise_leaves_no_comment_markers() {
        for s in ["<!---->", "<<!--!--", "---->", "<!<!---->>", "a@b", "--><!--"] {
            let n = neutralise(s);
            assert!(
                !n.contains("<!--") && !n.contains("-->") && !n.contains('@'),
                "{s:?} -> {n:?}"
            );
        }
    }

    #[test]
    fn cut_respects_char_boundaries() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("ééé", 3), "é[… 4 bytes cut]");
        assert_eq!(cut("😀", 2), "[… 4 bytes cut]");
    }
}
