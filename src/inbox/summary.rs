//! The counts of one row, from the head's validated result (with the live
//! threads applied) and the pull request's ledger. Pure.

use super::row::{DriftCounts, ReviewState, Row};
use crate::model::finding::{Disposition, Finding, SubmittedDisposition, ThreadTransition};
use crate::model::ledger::Ledger;
use crate::model::review::{ReviewSet, ReviewStatus};
use std::collections::BTreeSet;

/// Fills the result's counts into `row` and sets its state from the
/// result's status. `ledger`: `None` when it could not be read (the
/// decision counts then stay unknown).
pub fn summarize(row: &mut Row, set: &ReviewSet, ledger: Option<&Ledger>) {
    let state = match set.status {
        ReviewStatus::Passed => ReviewState::Passed,
        ReviewStatus::NeedsChanges => ReviewState::NeedsChanges,
        _ => ReviewState::ReviewError,
    };
    if row.state != ReviewState::Unknown {
        row.state = state;
    }
    row.score = set.score;
    row.findings = Some(set.findings.len());
    row.repair_set = Some(set.findings.iter().filter(|f| f.in_repair_set()).count());
    row.drift = drift_counts(&set.findings);
    let mut human: BTreeSet<&str> = set
        .findings
        .iter()
        .filter(|f| last_submitted(f) == Some(SubmittedDisposition::NeedsHuman))
        .map(|f| f.key.as_str())
        .collect();
    let Some(ledger) = ledger else {
        row.needs_human = human.len();
        return;
    };
    let (mut undecided, mut awaiting) = (0, 0);
    for finding in &set.findings {
        let fp = finding.key.as_str();
        let open = finding
            .reviewgate()
            .is_some_and(|r| r.disposition == Disposition::StillOpen);
        match ledger.latest(fp) {
            None if open => undecided += 1,
            None => {}
            Some(entry) => {
                if let Some(decision) = &entry.decision {
                    if decision.disposition == SubmittedDisposition::NeedsHuman {
                        human.insert(fp);
                    }
                    if open && entry.authorised.is_authorised() && decision.reviewed_sha == row.head_sha {
                        awaiting += 1;
                    }
                }
            }
        }
    }
    row.needs_human = human.len();
    row.undecided = Some(undecided);
    row.awaiting = Some(awaiting);
}

/// The disposition the finding's newest history record was submitted as.
fn last_submitted(finding: &Finding) -> Option<SubmittedDisposition> {
    let fields = finding.reviewgate()?;
    if fields.disposition != Disposition::Disputed {
        return None;
    }
    fields.history.last()?.submitted
}

/// The drift counts of the findings' thread transitions.
pub fn drift_counts(findings: &[Finding]) -> DriftCounts {
    let mut out = DriftCounts::default();
    for f in findings.iter().filter_map(Finding::reviewgate) {
        match f.thread.transition {
            ThreadTransition::ResolvedExternally => out.resolved_externally += 1,
            ThreadTransition::Reopened => out.reopened += 1,
            ThreadTransition::ResolutionPending => out.resolution_pending += 1,
            ThreadTransition::Unknown => out.unknown += 1,
            _ => {}
        }
    }
    out
}
