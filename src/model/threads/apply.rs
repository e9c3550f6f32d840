//! Applying a live thread observation to a review set: each ReviewGate finding's
//! thread status, outdated flag and transition, and the summary for the status line.

use super::{ObservedThread, OrphanThread, ThreadObservation};
use crate::model::finding::{Origin, ReviewGateFields, Thread, ThreadStatus, ThreadTransition};
use crate::model::review::ReviewSet;

/// What applying an observation did, for the status line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ThreadSync {
    /// Why every finding is `unknown`, when the threads could not be read.
    pub unavailable: Option<String>,
    /// ReviewGate findings that matched a live thread.
    pub matched: usize,
    /// Findings whose transition is `resolved_externally` (GitHub resolved, canonical still open).
    pub resolved_externally: usize,
    /// ReviewGate threads that match no finding in the set, by fingerprint.
    pub orphan_threads: Vec<OrphanThread>,
}

/// Recomputes the thread fields of every ReviewGate finding from a live observation.
///
/// Available: a finding with a thread takes its open/resolved state, outdated
/// flag, id and facts; one without takes `not_published`. Unavailable: every
/// finding becomes `unknown` (never "not published"). River findings have no
/// threads and are left alone.
pub fn apply_threads(set: &mut ReviewSet, obs: &ThreadObservation) -> ThreadSync {
    let mut sync = ThreadSync {
        unavailable: obs.unavailable_reason().map(str::to_owned),
        ..ThreadSync::default()
    };
    let mut used = std::collections::HashSet::new();
    for finding in &mut set.findings {
        let Origin::ReviewGate(fields) = &mut finding.origin else {
            continue;
        };
        let fingerprint = finding.key.as_str();
        let observed = match obs {
            ThreadObservation::Available(threads) => {
                let hit = threads.get(fingerprint);
                if hit.is_some() {
                    used.insert(fingerprint.to_owned());
                    sync.matched += 1;
                }
                Some(hit)
            }
            ThreadObservation::Unavailable { .. } => None,
        };
        fields.thread = thread_for(fields, observed);
        if fields.thread.transition == ThreadTransition::ResolvedExternally {
            sync.resolved_externally += 1;
        }
    }
    if let ThreadObservation::Available(threads) = obs {
        sync.orphan_threads = threads
            .iter()
            .filter(|(k, _)| !used.contains(*k))
            .map(|(fingerprint, thread)| OrphanThread {
                fingerprint: fingerprint.clone(),
                thread: thread.clone(),
            })
            .collect();
        sync.orphan_threads.sort_by(|a, b| a.fingerprint.cmp(&b.fingerprint));
    }
    sync
}

/// The thread of one finding. `observed`: `None` = threads unknown,
/// `Some(None)` = read, no thread, `Some(Some(t))` = read, thread `t`.
fn thread_for(fields: &ReviewGateFields, observed: Option<Option<&ObservedThread>>) -> Thread {
    let (status, outdated, id, facts) = match observed {
        None => (ThreadStatus::Unknown, false, None, None),
        Some(None) => (ThreadStatus::NotPublished, false, None, None),
        Some(Some(t)) => {
            let status = if t.resolved {
                ThreadStatus::Resolved
            } else {
                ThreadStatus::Open
            };
            (status, t.outdated, Some(t.id.clone()), Some(t.facts()))
        }
    };
    let transition = ThreadTransition::derive(
        status,
        fields.disposition,
        previously_settled(fields),
        fields.reopening_evidence.is_some(),
    );
    Thread {
        status,
        transition,
        outdated,
        id,
        facts,
    }
}

/// Some history record other than the last one is settled (R19).
pub fn previously_settled(fields: &ReviewGateFields) -> bool {
    match fields.history.split_last() {
        Some((_, earlier)) => earlier.iter().any(|r| r.disposition.is_settled()),
        None => false,
    }
}

#[cfg(test)]
#[path = "apply_tests.rs"]
mod tests;
