//! The detail pane's text for one finding: every field a reviewer needs,
//! sanitised, as styled lines (wrapping happens later, per pane width).
//!
//! Each field shows at most [`SHOWN_BYTES`] of its text, followed by a note
//! of how much more the file holds: the text is built, sanitised and wrapped
//! on the UI thread whenever the selection or the width changes, so its
//! cost must not grow with a field's size (a review output may carry
//! megabytes in one field). The full text stays in the file and in what is
//! submitted; only the pane is bounded.

use super::app::SubmitState;
use super::drift::Drift;
use super::text::{TextLine, Tone, lines_of};
use crate::model::finding::{Finding, HistoryRecord, Origin, ReviewGateFields, RiverFields, ThreadFacts, Verification};
use crate::sanitize::clean_line;

/// What the decision section shows besides the finding itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct DecisionFacts<'a> {
    /// The finding's decision workflow.
    pub state: Option<&'a SubmitState>,
    /// A kept draft: its status (if chosen) and its size in bytes.
    pub draft: Option<(Option<&'a str>, usize)>,
    /// Why nothing can be submitted for it now, if so.
    pub blocked: Option<&'a str>,
    /// What the pull request holds for it.
    pub ledger: LedgerFacts<'a>,
}

/// The decisions the pull request holds for one finding, for the timeline.
#[derive(Debug, Clone, Copy, Default)]
pub enum LedgerFacts<'a> {
    /// Not a pull-request result, or not read yet.
    #[default]
    None,
    /// The ledger could not be read: why.
    Unknown(&'a str),
    /// The finding's entries (oldest first) and the ledger they belong to.
    Entries(
        &'a crate::model::ledger::Ledger,
        &'a [&'a crate::model::ledger::Recorded],
    ),
}

/// Builds the detail lines of a finding.
pub fn build(finding: &Finding, facts: DecisionFacts<'_>) -> Vec<TextLine> {
    let mut out = Vec::new();
    summary(finding, &mut out);
    recorded(facts.ledger, &mut out);
    section(&mut out, "Claim", finding.claim.as_deref());
    if let Origin::ReviewGate(rg) = &finding.origin {
        section(&mut out, "Causal path", rg.causal_evidence.as_deref());
        section(&mut out, "Reproduction", rg.reproduction.as_deref());
    }
    section(&mut out, "Suggested fix", finding.suggested_fix.as_deref());
    match &finding.origin {
        Origin::ReviewGate(rg) => reviewgate(finding, rg, &mut out),
        Origin::River(r) => river(r, &mut out),
    }
    decision(facts, &mut out);
    out
}

/// The most bytes of one field the pane shows (about 800 lines of 80 columns).
pub const SHOWN_BYTES: usize = 64 * 1024;

/// The first [`SHOWN_BYTES`] of `text` (cut at a character boundary) and how
/// many bytes were left out.
fn bounded(text: &str) -> (&str, usize) {
    if text.len() <= SHOWN_BYTES {
        return (text, 0);
    }
    let mut end = SHOWN_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (&text[..end], text.len() - end)
}

/// The note that follows a field shown in part.
fn left_out(out: &mut Vec<TextLine>, bytes: usize) {
    if bytes > 0 {
        out.push(TextLine::one(
            Tone::Dim,
            format!("  … {bytes} more bytes of this field are not shown here"),
        ));
    }
}

fn field(out: &mut Vec<TextLine>, label: &str, value: &str) {
    let (shown, more) = bounded(value);
    let mut line = TextLine::one(Tone::Label, format!("{label}: ")).push(Tone::Plain, clean_line(shown));
    if more > 0 {
        line = line.push(Tone::Dim, format!(" … ({more} more bytes)"));
    }
    out.push(line);
}

fn heading(out: &mut Vec<TextLine>, title: &str) {
    out.push(TextLine::blank());
    out.push(TextLine::one(Tone::Heading, title.to_string()));
}

fn body(out: &mut Vec<TextLine>, tone: Tone, text: &str) {
    let (shown, more) = bounded(text);
    out.extend(
        lines_of(shown)
            .into_iter()
            .map(|l| TextLine::one(tone, format!("  {l}"))),
    );
    left_out(out, more);
}

/// A titled block of multi-line text (skipped when absent).
fn section(out: &mut Vec<TextLine>, title: &str, text: Option<&str>) {
    if let Some(text) = text {
        heading(out, title);
        body(out, Tone::Plain, text);
    }
}

fn summary(f: &Finding, out: &mut Vec<TextLine>) {
    let sev = TextLine::one(Tone::Severity(f.rank as u8), format!("{} ", f.rank.as_str()));
    let line = match &f.origin {
        Origin::ReviewGate(rg) => {
            let mut l = sev.push(
                Tone::Plain,
                format!("{} · {}", rg.classification.as_str(), rg.disposition.as_str()),
            );
            if let Some(b) = rg.blocking_reason {
                l = l.push(Tone::Error, format!(" ■ blocking: {}", b.as_str()));
            }
            l.push(Tone::Dim, format!(" · confidence {:.2}", rg.confidence))
        }
        Origin::River(r) => sev
            .push(Tone::Plain, format!("river severity {}", f.severity_label()))
            .push(
                Tone::Dim,
                r.confidence
                    .as_deref()
                    .map(|c| format!(" · confidence {}", clean_line(c)))
                    .unwrap_or_default(),
            ),
    };
    out.push(line);
    if let Some(t) = &f.title {
        let (shown, more) = bounded(t);
        out.push(TextLine::one(Tone::Heading, clean_line(shown)));
        left_out(out, more);
    }
    let at = super::prepared::location(f, usize::MAX);
    out.push(TextLine::one(Tone::Label, "at: ").push(Tone::Plain, at));
    field(out, "fingerprint", f.key.as_str());
    field(out, "id", &f.id);
}

fn reviewgate(f: &Finding, rg: &ReviewGateFields, out: &mut Vec<TextLine>) {
    if let Some(v) = &rg.verification {
        verification(v, out);
    }
    heading(out, "Thread");
    let t = &rg.thread;
    let mut line = TextLine::one(Tone::Label, "state: ".to_string()).push(
        Tone::Plain,
        format!("{} ({})", t.status.as_str(), t.transition.as_str()),
    );
    if t.outdated {
        line = line.push(Tone::Warning, " outdated");
    }
    out.push(line);
    if let Some(id) = &t.id {
        field(out, "thread id", id);
    }
    if let Some(facts) = &t.facts {
        thread_facts(facts, out);
    }
    if let Some(d) = Drift::of(f) {
        out.push(TextLine::one(Tone::Warning, format!("! {}", d.label())));
        body(out, Tone::Plain, d.explain());
    }
    section(out, "Reopening evidence", rg.reopening_evidence.as_deref());
    if !rg.history.is_empty() {
        heading(out, "Prior dispositions (oldest first)");
        for (n, rec) in rg.history.iter().enumerate() {
            history(n + 1, rec, out);
        }
    }
    if let Some(code) = &rg.code_fingerprint {
        field(out, "code fingerprint", code);
    }
}

/// What a live read of GitHub said about the thread (GitHub's text, sanitised).
fn thread_facts(facts: &ThreadFacts, out: &mut Vec<TextLine>) {
    if let Some(who) = &facts.resolved_by {
        let when = facts
            .resolved_at
            .as_deref()
            .map(|t| format!(" at {}", clean_line(t)))
            .unwrap_or_default();
        out.push(TextLine::one(Tone::Label, "resolved by: ").push(Tone::Plain, format!("{}{when}", clean_line(who))));
    }
    if let Some(reply) = &facts.last_reply {
        let when = reply
            .created_at
            .as_deref()
            .map(|t| format!(" at {}", clean_line(t)))
            .unwrap_or_default();
        out.push(
            TextLine::one(Tone::Label, "last reply: ")
                .push(Tone::Plain, format!("{}{when}", clean_line(&reply.author))),
        );
        body(out, Tone::Dim, &reply.excerpt);
    }
    if let Some(url) = &facts.url {
        field(out, "thread link", url);
    }
}

fn verification(v: &Verification, out: &mut Vec<TextLine>) {
    heading(out, "Verification");
    let tone = match v.state {
        crate::model::finding::VerificationState::Verified => Tone::Plain,
        _ => Tone::Warning,
    };
    out.push(
        TextLine::one(Tone::Label, "state: ".to_string())
            .push(tone, v.state.as_str())
            .push(Tone::Dim, format!(" by {}", clean_line(&v.model))),
    );
    body(out, Tone::Plain, &v.reason);
    for e in &v.evidence {
        out.push(TextLine::one(
            Tone::Dim,
            format!("  cites {}:{} ({})", clean_line(&e.path), e.line, e.side.as_str()),
        ));
    }
    for (n, c) in v.conflicting.iter().enumerate() {
        out.push(
            TextLine::one(Tone::Warning, format!("  conflicting decision {}: ", n + 1))
                .push(Tone::Plain, format!("{} by {}", c.state.as_str(), clean_line(&c.model))),
        );
        body(out, Tone::Dim, &c.reason);
    }
}

fn history(n: usize, rec: &HistoryRecord, out: &mut Vec<TextLine>) {
    let submitted = match (rec.submitted, rec.submission_id) {
        (Some(s), Some(id)) => format!(" (submitted {} #{id})", s.as_str()),
        _ => " (canonical)".to_string(),
    };
    let sha: String = rec.reviewed_sha.chars().take(12).collect();
    out.push(
        TextLine::one(Tone::Label, format!("{n}. {}", rec.disposition.as_str()))
            .push(Tone::Dim, submitted)
            .push(
                Tone::Plain,
                format!(" by {} at {}", clean_line(&rec.actor), clean_line(&sha)),
            ),
    );
    body(out, Tone::Plain, &rec.evidence_summary);
}

fn river(r: &RiverFields, out: &mut Vec<TextLine>) {
    heading(out, "River Review");
    let fields: [(&str, Option<&str>); 9] = [
        ("rule", r.rule_id.as_deref()),
        ("phase", r.phase.as_deref()),
        (
            "status",
            r.status.map(|s| match s {
                crate::model::finding::RiverStatus::Open => "open",
                crate::model::finding::RiverStatus::Suppressed => "suppressed",
                crate::model::finding::RiverStatus::Verified => "verified",
            }),
        ),
        ("validated status", r.validated_status.as_deref()),
        ("agreement", r.agreement.as_deref()),
        ("scope", r.scope.as_deref()),
        ("reviewer", r.reviewer.as_deref()),
        ("source", r.source_kind.as_deref()),
        ("suggestion", r.suggestion.as_deref()),
    ];
    for (label, value) in fields {
        if let Some(v) = value {
            field(out, label, v);
        }
    }
    if let Some(end) = r.line_end {
        field(out, "line end", &end.to_string());
    }
    for (name, value) in &r.extra {
        field(out, name, value);
    }
    if !r.evidence.is_empty() {
        heading(out, "Evidence (as stated)");
        for e in &r.evidence {
            body(out, Tone::Code, e);
        }
    }
}

fn recorded(facts: LedgerFacts<'_>, out: &mut Vec<TextLine>) {
    match facts {
        LedgerFacts::None => {}
        LedgerFacts::Unknown(why) => {
            heading(out, "Recorded on the pull request");
            out.push(TextLine::one(Tone::Warning, format!("  unknown: {}", clean_line(why))));
        }
        LedgerFacts::Entries(_, []) => {
            heading(out, "Recorded on the pull request");
            out.push(TextLine::one(Tone::Dim, "  nothing recorded for this finding"));
        }
        LedgerFacts::Entries(ledger, entries) => {
            heading(out, "Recorded on the pull request (newest last)");
            for e in entries {
                recorded_entry(ledger, e, out);
            }
        }
    }
}

fn recorded_entry(ledger: &crate::model::ledger::Ledger, e: &crate::model::ledger::Recorded, out: &mut Vec<TextLine>) {
    let Some(d) = &e.decision else {
        return;
    };
    let sha: String = d.reviewed_sha.chars().take(12).collect();
    let (tone, state) = match e.authorised.as_str() {
        "receipt" | "permission" => (Tone::Accent, "recorded, awaiting the next review"),
        "stale" => (Tone::Warning, "for an older head"),
        _ => (Tone::Warning, "not applied"),
    };
    out.push(
        TextLine::one(tone, format!("  {} ", d.disposition.as_str()))
            .push(Tone::Plain, format!("by {} · {state}", clean_line(&d.actor))),
    );
    out.push(TextLine::one(
        Tone::Dim,
        format!(
            "    comment {} · head {} · {}: {}",
            e.comment_id,
            clean_line(&sha),
            e.authorised.as_str(),
            clean_line(&e.authorised.reason())
        ),
    ));
    field(out, "    link", &ledger.url(e.comment_id));
}

fn decision(facts: DecisionFacts<'_>, out: &mut Vec<TextLine>) {
    heading(out, "Decision");
    let idle = SubmitState::Idle;
    let (tone, text) = match facts.state.unwrap_or(&idle) {
        SubmitState::Idle => (Tone::Dim, "none recorded in this session (d decides)".to_string()),
        SubmitState::Draft => {
            let (status, bytes) = facts.draft.unwrap_or((None, 0));
            let status = status.unwrap_or("no status yet");
            (
                Tone::Accent,
                format!("draft kept: {status}, {bytes} bytes of evidence (d continues)"),
            )
        }
        SubmitState::Pending { .. } => (Tone::Accent, "sending…".to_string()),
        SubmitState::Recorded(r) => (Tone::Plain, format!("recorded: {}", clean_line(&r.summary))),
        SubmitState::Rejected { reason } => (
            Tone::Error,
            format!(
                "rejected: {} (r sends it again once the cause is fixed)",
                clean_line(&reason.to_string())
            ),
        ),
        SubmitState::Failed { reason } => (
            Tone::Warning,
            format!("failed: {} (r retries)", clean_line(&reason.to_string())),
        ),
    };
    out.push(TextLine::one(tone, format!("  {text}")));
    if let Some(SubmitState::Recorded(r)) = facts.state {
        if let Some(link) = &r.link {
            field(out, "  link", link);
        }
        if let Some(shown) = r.shown_as.filter(|_| r.link.is_some()) {
            out.push(TextLine::one(
                Tone::Dim,
                format!("  ReviewGate records it as {shown}; the result file changes on ReviewGate's next run."),
            ));
        }
        if r.suppressed {
            out.push(TextLine::one(Tone::Dim, "  u revokes the suppression"));
        }
    }
    if let Some(why) = facts.blocked {
        out.push(TextLine::one(
            Tone::Warning,
            format!("  cannot submit: {}", clean_line(why)),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture;

    fn text(lines: &[TextLine]) -> String {
        lines.iter().map(TextLine::plain).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn reviewgate_detail_has_every_section() {
        let set = fixture::sample_set();
        let reopened = &set.findings[3];
        let t = text(&build(reopened, DecisionFacts::default()));
        for needle in [
            "Claim",
            "Causal path",
            "Reproduction",
            "Suggested fix",
            "Verification",
            "Thread",
            "reopened",
            "Reopening evidence",
            "Prior dispositions",
            "submitted fixed #7",
            "fingerprint: ",
        ] {
            assert!(t.contains(needle), "missing {needle:?} in\n{t}");
        }
    }

    #[test]
    fn river_detail_lists_river_fields() {
        let set = fixture::river_set();
        let t = text(&build(
            &set.findings[0],
            DecisionFacts {
                blocked: Some("demo"),
                ..DecisionFacts::default()
            },
        ));
        for needle in [
            "River Review",
            "rule: rr-midstream-security-001",
            "phase: midstream",
            "suggestion:",
            "Evidence (as stated)",
            "cannot submit: demo",
        ] {
            assert!(t.contains(needle), "missing {needle:?} in\n{t}");
        }
    }

    #[test]
    fn live_thread_facts_are_shown() {
        use crate::model::finding::ThreadReply;
        let mut f = fixture::sample_set().findings.remove(2);
        if let Origin::ReviewGate(rg) = &mut f.origin {
            rg.thread.facts = Some(ThreadFacts {
                resolved_by: Some("octo\u{1b}cat".into()),
                resolved_at: Some("2026-11-28T10:00:00Z".into()),
                last_reply: Some(ThreadReply {
                    author: "dev".into(),
                    excerpt: "done in abc".into(),
                    created_at: None,
                }),
                url: Some("https://github.com/acme/webhooks/pull/42#discussion_r1".into()),
            });
        }
        let t = text(&build(&f, DecisionFacts::default()));
        assert!(t.contains("resolved by: octo␛cat at 2026-11-28T10:00:00Z"), "{t}");
        assert!(t.contains("last reply: dev") && t.contains("done in abc") && t.contains("thread link: https://"));
    }

    #[test]
    fn a_huge_field_is_shown_in_part_with_a_note() {
        let mut f = fixture::sample_set().findings.remove(0);
        // 10 MB in one field: one long line and many short ones, with a
        // multi-byte character across the cut.
        let mut claim = "é".repeat(SHOWN_BYTES / 2 - 1);
        claim.push('x');
        claim.push_str(&"é".repeat(1_000_000));
        claim.push_str(&"word \n".repeat(1_000_000));
        let total = claim.len();
        f.claim = Some(claim);
        f.title = Some("t".repeat(10 << 20));
        let lines = build(&f, DecisionFacts::default());
        let t = text(&lines);
        let shown_claim = SHOWN_BYTES - 1; // the cut falls inside an "é"
        assert!(
            t.contains(&format!(
                "… {} more bytes of this field are not shown here",
                total - shown_claim
            )),
            "{}",
            &t[..200]
        );
        assert!(t.contains(&format!("… {} more bytes of this field", (10 << 20) - SHOWN_BYTES)));
        let wrapped = crate::tui::text::wrap(&lines, 80);
        assert!(wrapped.len() < 4 * SHOWN_BYTES / 80, "{} lines", wrapped.len());
        assert!(t.len() < 4 * SHOWN_BYTES, "{} bytes of text", t.len());
    }

    #[test]
    fn multi_line_text_is_split_and_clean() {
        let mut f = fixture::sample_set().findings.remove(0);
        f.claim = Some("one\r\ntwo\u{1b}[31m\u{7}".to_string());
        let lines = build(&f, DecisionFacts::default());
        assert!(lines.iter().all(|l| !l.plain().chars().any(|c| c.is_control())));
        assert!(text(&lines).contains("  one\n  two"));
    }
}
