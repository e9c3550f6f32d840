//! The counts of one row, from the head's validated result (with the live
//! threads applied) and the pull request's ledger. Pure.
//!
//! UNDECIDED, AWAITING and HUMAN are judged per finding by the rule the pull
//! request's screen marks and counts its findings by
//! ([`crate::model::ledger::standing`]), so the row says of a pull request
//! what `triage --pr N` shows when it opens: AWAITING its ◆ findings,
//! UNDECIDED the findings its progress counts still to decide.

use super::row::{DriftCounts, ReviewState, Row};
use crate::model::finding::{Finding, ThreadTransition};
use crate::model::ledger::{Ledger, Standing, is_decided, needs_human, standing};
use crate::model::review::{ReviewSet, ReviewStatus};
use std::collections::BTreeSet;

/// Fills the result's counts into `row` and sets its state from the
/// result's status. `ledger`: `None` when it could not be read (the
/// decision counts then stay unknown; HUMAN counts the result's own
/// escalations).
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
    let latest = ledger.map(Ledger::latest_each).unwrap_or_default();
    let mut human: BTreeSet<&str> = BTreeSet::new();
    let (mut undecided, mut awaiting) = (0, 0);
    for finding in &set.findings {
        let speaking = latest.get(finding.key.as_str()).copied();
        if needs_human(finding, speaking) {
            human.insert(finding.key.as_str());
        }
        let standing = standing(finding, speaking);
        if standing == Some(Standing::Awaiting) {
            awaiting += 1;
        }
        if !is_decided(standing) {
            undecided += 1;
        }
    }
    row.needs_human = human.len();
    if ledger.is_some() {
        row.undecided = Some(undecided);
        row.awaiting = Some(awaiting);
    }
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
