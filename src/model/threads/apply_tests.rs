//! Tests of applying live threads: every row of the transition table, unreadable
//! threads, River findings, orphan threads and the "previously settled" rule.

use super::*;
use crate::model::finding::{Classification, Disposition, Finding, FindingKey, HistoryRecord, RiverFields, Severity};
use crate::model::review::{Format, Projection, ReviewStatus, Scope};
use std::collections::HashMap;

fn record(disposition: Disposition) -> HistoryRecord {
    HistoryRecord {
        disposition,
        submitted: None,
        submission_id: None,
        evidence_summary: "e".into(),
        actor: "a".into(),
        reviewed_sha: "0".repeat(40),
        code_fingerprint: "c".into(),
    }
}

/// A ReviewGate finding with the given canonical state, history and reopening evidence.
fn finding(fp: &str, disposition: Disposition, history: &[Disposition], reopening: bool) -> Finding {
    let fields = ReviewGateFields {
        severity: Severity::P1,
        confidence: 0.9,
        classification: Classification::Defect,
        disposition,
        blocking_reason: None,
        causal_evidence: None,
        reproduction: None,
        verification: None,
        thread: Thread::default(),
        reopening_evidence: reopening.then(|| "new evidence".to_owned()),
        history: history.iter().copied().map(record).collect(),
        code_fingerprint: None,
    };
    Finding {
        index: 0,
        id: fp.into(),
        key: FindingKey::Semantic(fp.into()),
        rank: Severity::P1,
        title: None,
        claim: Some("claim".into()),
        suggested_fix: None,
        path: None,
        line: None,
        evidence: vec![],
        origin: Origin::ReviewGate(fields),
    }
}

fn set(findings: Vec<Finding>) -> ReviewSet {
    ReviewSet {
        format: Format::AgentResult,
        scope: Scope::Local,
        reviewed_sha: None,
        status: ReviewStatus::NeedsChanges,
        score: Some(3),
        angle_errors: vec![],
        findings,
        river: None,
        projection: Projection::NotApplicable,
        notices: vec![],
        estimated_cost_usd: None,
    }
}

fn observed(id: &str, resolved: bool, outdated: bool) -> ObservedThread {
    ObservedThread {
        id: id.into(),
        resolved,
        outdated,
        resolved_by: resolved.then(|| "alice".to_owned()),
        url: Some(format!("https://github.com/o/r/pull/1#discussion_{id}")),
        ..ObservedThread::default()
    }
}

fn thread_of(set: &ReviewSet, i: usize) -> &Thread {
    match &set.findings[i].origin {
        Origin::ReviewGate(r) => &r.thread,
        Origin::River(_) => panic!("finding {i} is not a ReviewGate finding"),
    }
}

use Disposition as D;
use ThreadTransition as T;

/// Every row of the section 3 table, through a live observation.
#[test]
fn every_row_of_the_transition_table() {
    // (fingerprint, disposition, history, reopening, thread: None = no thread, Some(resolved))
    type Row = (&'static str, D, Vec<D>, bool, Option<bool>, T);
    let rows: Vec<Row> = vec![
        ("np", D::StillOpen, vec![], false, None, T::NotPublished),
        (
            "reopened",
            D::StillOpen,
            vec![D::Fixed, D::StillOpen],
            true,
            Some(false),
            T::Reopened,
        ),
        (
            "open-no-evidence",
            D::StillOpen,
            vec![D::Fixed, D::StillOpen],
            false,
            Some(false),
            T::Retained,
        ),
        // Only the last record is settled: that is not "previously settled".
        (
            "open-last-settled",
            D::StillOpen,
            vec![D::StillOpen, D::Fixed],
            true,
            Some(false),
            T::Retained,
        ),
        (
            "open-disputed",
            D::Disputed,
            vec![D::Fixed, D::Disputed],
            true,
            Some(false),
            T::Retained,
        ),
        ("open-fixed", D::Fixed, vec![], false, Some(false), T::ResolutionPending),
        (
            "open-rejected",
            D::RejectedWithEvidence,
            vec![],
            false,
            Some(false),
            T::ResolutionPending,
        ),
        (
            "open-contract",
            D::IntentionalContract,
            vec![],
            false,
            Some(false),
            T::ResolutionPending,
        ),
        (
            "open-superseded",
            D::Superseded,
            vec![],
            false,
            Some(false),
            T::ResolutionPending,
        ),
        ("res-fixed", D::Fixed, vec![], false, Some(true), T::ResolvedFixed),
        (
            "res-rejected",
            D::RejectedWithEvidence,
            vec![],
            false,
            Some(true),
            T::ResolvedRejectedWithEvidence,
        ),
        (
            "res-contract",
            D::IntentionalContract,
            vec![],
            false,
            Some(true),
            T::ResolvedIntentionalContract,
        ),
        (
            "res-superseded",
            D::Superseded,
            vec![],
            false,
            Some(true),
            T::ResolvedSuperseded,
        ),
        (
            "res-open",
            D::StillOpen,
            vec![],
            false,
            Some(true),
            T::ResolvedExternally,
        ),
        (
            "res-disputed",
            D::Disputed,
            vec![],
            false,
            Some(true),
            T::ResolvedExternally,
        ),
    ];
    let mut threads = HashMap::new();
    let mut findings = vec![];
    for (fp, d, hist, reopening, thread, _) in &rows {
        findings.push(finding(fp, *d, hist, *reopening));
        if let Some(resolved) = thread {
            threads.insert(
                fp.to_string(),
                observed(&format!("T_{fp}"), *resolved, *fp == "open-fixed"),
            );
        }
    }
    let mut s = set(findings);
    let sync = apply_threads(&mut s, &ThreadObservation::Available(threads));
    for (i, (fp, _, _, _, thread, want)) in rows.iter().enumerate() {
        let t = thread_of(&s, i);
        assert_eq!(t.transition, *want, "row {fp}");
        match thread {
            None => {
                assert_eq!(t.status, ThreadStatus::NotPublished, "row {fp}");
                assert_eq!(t.id, None);
                assert!(t.facts.is_none());
            }
            Some(resolved) => {
                let want_status = if *resolved {
                    ThreadStatus::Resolved
                } else {
                    ThreadStatus::Open
                };
                assert_eq!(t.status, want_status, "row {fp}");
                assert_eq!(t.id.as_deref(), Some(format!("T_{fp}").as_str()));
                assert_eq!(t.outdated, *fp == "open-fixed");
                let facts = t.facts.as_ref().unwrap_or_else(|| panic!("facts for {fp}"));
                assert_eq!(facts.resolved_by.is_some(), *resolved);
            }
        }
    }
    assert_eq!(sync.matched, rows.len() - 1);
    assert_eq!(sync.resolved_externally, 2);
    assert!(sync.unavailable.is_none());
    assert!(sync.orphan_threads.is_empty());
}

#[test]
fn unavailable_makes_every_finding_unknown_and_keeps_the_reason() {
    let mut s = set(vec![
        finding("a", D::StillOpen, &[], false),
        finding("b", D::Fixed, &[D::Fixed], false),
    ]);
    // A file-stated thread must not survive an unknown live state.
    if let Origin::ReviewGate(r) = &mut s.findings[1].origin {
        r.thread = Thread {
            status: ThreadStatus::Resolved,
            transition: T::ResolvedFixed,
            outdated: true,
            id: Some("T1".into()),
            facts: None,
        };
    }
    let obs = ThreadObservation::Unavailable {
        reason: "GitHub refused the thread query".into(),
    };
    let sync = apply_threads(&mut s, &obs);
    for i in 0..2 {
        let t = thread_of(&s, i);
        assert_eq!(t.status, ThreadStatus::Unknown);
        assert_eq!(t.transition, T::Unknown);
        assert!(!t.outdated);
        assert_eq!(t.id, None);
    }
    assert_eq!(sync.unavailable.as_deref(), Some("GitHub refused the thread query"));
    assert_eq!(obs.unavailable_reason(), Some("GitHub refused the thread query"));
}

#[test]
fn river_findings_are_untouched_and_orphans_reported() {
    let mut river = finding("r", D::StillOpen, &[], false);
    river.origin = Origin::River(RiverFields::default());
    let mut s = set(vec![river.clone(), finding("a", D::StillOpen, &[], false)]);
    let mut threads = HashMap::new();
    threads.insert("a".to_owned(), observed("TA", false, false));
    threads.insert("zz-gone".to_owned(), observed("TZ", true, false));
    threads.insert("r".to_owned(), observed("TR", true, false));
    let sync = apply_threads(&mut s, &ThreadObservation::Available(threads));
    assert_eq!(s.findings[0], river);
    assert_eq!(thread_of(&s, 1).transition, T::Retained);
    let orphans: Vec<(&str, &str, bool)> = sync
        .orphan_threads
        .iter()
        .map(|o| (o.fingerprint.as_str(), o.thread.id.as_str(), o.thread.resolved))
        .collect();
    assert_eq!(orphans, vec![("r", "TR", true), ("zz-gone", "TZ", true)]);
}

#[test]
fn previously_settled_ignores_the_last_record() {
    let f = finding("a", D::StillOpen, &[D::Superseded, D::StillOpen], false);
    assert!(f.reviewgate().is_some_and(previously_settled));
    let f = finding("a", D::Fixed, &[D::StillOpen, D::Fixed], false);
    assert!(!f.reviewgate().is_some_and(previously_settled));
    let f = finding("a", D::Fixed, &[], false);
    assert!(!f.reviewgate().is_some_and(previously_settled));
}
