//! The parts of the packet: header, finding, evidence, state, history and the
//! question for the decider, each written within the field budgets.

use super::untrusted::{cut, fenced, section};
use super::{Budget, EscalationInput, EscalationReason};
use crate::model::finding::{Finding, HistoryRecord, ThreadTransition};
use crate::model::review::Scope;
use std::fmt::Write as _;

pub(super) fn render(input: &EscalationInput<'_>, b: Budget) -> String {
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
pub(super) fn minimal(input: &EscalationInput<'_>) -> String {
    let mut out = header(input);
    out.push_str("(details omitted: packet size limit)\n\n");
    let _ = write!(out, "### Question\n\n{}\n", question(input));
    out
}
