//! Packet tests: every part present, hostile text kept inside its fence, and
//! huge fields bounded.

use super::*;
use crate::model::finding::{
    Classification, Disposition, Evidence, FindingKey, HistoryRecord, Origin, ReviewGateFields, Severity, Side, Thread,
    ThreadFacts, ThreadReply, ThreadStatus, ThreadTransition,
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
