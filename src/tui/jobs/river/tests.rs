//! Writing River decisions from the screen into a repository root given
//! as `--repo-root`, and revoking the suppression again.

use super::*;
use crate::river_store::{DecisionStatus, FindingFacts};
use crate::tui::effect::RiverDecision;
use crate::tui::fixture;
use std::sync::mpsc;

fn item(finding: usize, status: DecisionStatus) -> RiverItem {
    let set = fixture::river_set();
    let fp = set.findings[finding].key.as_str().to_string();
    let facts = FindingFacts::from_set(&set, &fp).unwrap_or_else(|e| panic!("{e}"));
    RiverItem {
        finding,
        decision: RiverDecision {
            facts,
            status,
            evidence: "The key is a test fixture.".into(),
            options: Default::default(),
        },
    }
}

fn outcomes(rx: &mpsc::Receiver<Msg>, n: usize) -> Vec<(usize, SubmitOutcome)> {
    (0..n)
        .filter_map(|_| match rx.recv() {
            Ok(Msg::SubmitFinished { finding, outcome, .. }) => Some((finding, outcome)),
            _ => None,
        })
        .collect()
}

/// A repository root, a context writing into it, and a worker whose
/// messages arrive on the receiver.
fn at_root() -> (
    tempfile::TempDir,
    Context,
    mpsc::Receiver<Msg>,
    crate::tui::jobs::worker::Worker,
) {
    let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let ctx = Context {
        repo_root: Some(root.path().to_path_buf()),
        ..Context::default()
    };
    let (tx, rx) = mpsc::channel();
    let worker = crate::tui::jobs::worker::Worker::new(tx, Box::new(|| Err(crate::github::TokenError::Missing.into())))
        .unwrap_or_else(|e| panic!("{e}"));
    (root, ctx, rx, worker)
}

#[test]
fn minor_findings_are_suppressed_and_major_ones_only_get_feedback() {
    let (root, ctx, rx, worker) = at_root();
    let items = vec![
        item(1, DecisionStatus::FalsePositive),
        item(0, DecisionStatus::FalsePositive),
    ];
    record_all(&ctx, 3, items, Vec::new(), &worker);
    let seen = outcomes(&rx, 2);
    let SubmitOutcome::Recorded(minor) = &seen[0].1 else {
        panic!("{seen:?}")
    };
    assert!(minor.suppressed && minor.shown_as == Some("suppr"), "{minor:?}");
    assert!(minor.summary.contains("suppression") && minor.summary.contains("index.json"));
    let SubmitOutcome::Recorded(major) = &seen[1].1 else {
        panic!("{seen:?}")
    };
    assert!(!major.suppressed && major.shown_as.is_none());
    assert!(
        major.summary.contains("no suppression") && major.summary.contains("accepted_risk"),
        "{}",
        major.summary
    );
    assert!(root.path().join(".river/memory/index.json").is_file());
    let logs: Vec<String> = std::fs::read_dir(root.path().join(".river/feedback"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let jsonl: Vec<&String> = logs.iter().filter(|n| n.ends_with(".jsonl")).collect();
    assert_eq!(jsonl.len(), 1, "one monthly feedback log: {logs:?}");
    assert_eq!(logs.len(), 1, "no lock file next to the log: {logs:?}");
    let memory: Vec<String> = std::fs::read_dir(root.path().join(".river/memory"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(memory, ["index.json"], "no lock file next to the index");
    let lines = std::fs::read_to_string(root.path().join(".river/feedback").join(jsonl[0])).unwrap_or_default();
    assert_eq!(lines.lines().count(), 2, "both decisions give feedback");

    let fp = fixture::river_set().findings[1].key.as_str().to_string();
    undo(&ctx, 1, (fp.clone(), Vec::new(), None), &worker);
    match rx.recv() {
        Ok(Msg::Undone {
            finding: 1,
            result: Ok(revoked),
        }) => {
            assert_eq!(revoked.ids.len(), 1, "{revoked:?}");
            assert!(revoked.index_file.ends_with("index.json"), "{revoked:?}");
            assert!(revoked.to_string().starts_with("Revoked suppression"), "{revoked}");
        }
        other => panic!("{other:?}"),
    }
    undo(&ctx, 1, (fp, Vec::new(), None), &worker);
    match rx.recv() {
        Ok(Msg::Undone { result: Err(why), .. }) => assert!(why.to_string().contains("no active suppression"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// A decision that writes no suppression on a finding an earlier one still
/// hides keeps the row `suppr` (what River holds) and names that entry.
#[test]
fn an_accepted_finding_an_earlier_suppression_still_hides_stays_suppressed_on_the_screen() {
    let (_root, ctx, rx, worker) = at_root();
    record_all(
        &ctx,
        1,
        vec![item(1, DecisionStatus::FalsePositive)],
        Vec::new(),
        &worker,
    );
    let first = outcomes(&rx, 1);
    let SubmitOutcome::Recorded(suppressed) = &first[0].1 else {
        panic!("{first:?}")
    };
    assert!(suppressed.suppressed);
    record_all(&ctx, 2, vec![item(1, DecisionStatus::Accepted)], Vec::new(), &worker);
    let later = outcomes(&rx, 1);
    let SubmitOutcome::Recorded(accepted) = &later[0].1 else {
        panic!("{later:?}")
    };
    assert!(
        accepted.suppressed && accepted.shown_as == Some("suppr"),
        "River still hides it: {accepted:?}"
    );
    assert!(
        accepted.summary.contains("still hides this finding") && accepted.summary.contains("suppression-"),
        "{}",
        accepted.summary
    );
}
