//! The drift lane: findings whose GitHub thread disagrees with the canonical
//! state, or cannot be read, so a human has to look.

use crate::model::finding::{Finding, ThreadStatus, ThreadTransition};

/// Why a finding is in the drift lane. `Ord` is the lane order: the most
/// dangerous mismatch first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Drift {
    /// GitHub shows the thread resolved while the finding is still open or disputed.
    ResolvedExternally,
    /// A settled finding came back with reopening evidence.
    Reopened,
    /// A decision settled the finding but its thread is still open.
    ResolutionPending,
    /// The thread state could not be read from GitHub.
    Unknown,
    /// The thread is open on code that has changed since it was posted.
    OutdatedOpen,
}

impl Drift {
    /// The drift of a finding, if any (River findings have no threads).
    pub fn of(finding: &Finding) -> Option<Drift> {
        let thread = &finding.reviewgate()?.thread;
        match thread.transition {
            ThreadTransition::ResolvedExternally => Some(Drift::ResolvedExternally),
            ThreadTransition::Reopened => Some(Drift::Reopened),
            ThreadTransition::ResolutionPending => Some(Drift::ResolutionPending),
            ThreadTransition::Unknown => Some(Drift::Unknown),
            _ if thread.status == ThreadStatus::Open && thread.outdated => Some(Drift::OutdatedOpen),
            _ => None,
        }
    }

    /// A short name for the lane label.
    pub fn label(self) -> &'static str {
        match self {
            Drift::ResolvedExternally => "resolved externally",
            Drift::Reopened => "reopened",
            Drift::ResolutionPending => "resolution pending",
            Drift::Unknown => "thread unknown",
            Drift::OutdatedOpen => "open but outdated",
        }
    }

    /// The list's one line: the state and what to do (fits a half-width pane).
    pub fn advice(self) -> &'static str {
        match self {
            Drift::ResolvedExternally => "resolved externally: verify, then decide or reopen",
            Drift::Reopened => "reopened: earlier decision void, re-check the code",
            Drift::ResolutionPending => "resolution pending: resolve the thread on GitHub",
            Drift::Unknown => "thread unknown: check the PR before acting",
            Drift::OutdatedOpen => "outdated: code moved under the open thread, re-check",
        }
    }

    /// The detail pane's explanation: what the mismatch means and what to do.
    pub fn explain(self) -> &'static str {
        match self {
            Drift::ResolvedExternally => {
                "GitHub shows the thread resolved, but the finding is still open or disputed here. A resolved thread is not a fix: verify the code on the reviewed head, then record a decision or reopen the thread."
            }
            Drift::Reopened => {
                "The finding was settled before and came back with reopening evidence, so the earlier decision no longer holds. Re-check the code and the evidence."
            }
            Drift::ResolutionPending => {
                "A decision settled the finding, but its thread is still open on GitHub. Resolve the thread once you agree with the decision."
            }
            Drift::Unknown => {
                "The thread state could not be read from GitHub. This does not mean the finding was never published: check the pull request conversation before acting."
            }
            Drift::OutdatedOpen => {
                "The thread is open on code that has changed since it was posted. Check whether the new code still has the problem."
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture;
    use ThreadTransition as T;

    #[test]
    fn each_transition_lands_in_its_lane() {
        let cases = [
            (T::ResolvedExternally, false, Some(Drift::ResolvedExternally)),
            (T::Reopened, false, Some(Drift::Reopened)),
            (T::ResolutionPending, false, Some(Drift::ResolutionPending)),
            (T::Unknown, false, Some(Drift::Unknown)),
            (T::Retained, true, Some(Drift::OutdatedOpen)),
            (T::Retained, false, None),
            (T::NotPublished, false, None),
            (T::ResolvedFixed, true, None),
        ];
        for (transition, outdated, want) in cases {
            let f = fixture::with_thread(transition, outdated);
            assert_eq!(Drift::of(&f), want, "{transition:?} outdated={outdated}");
        }
    }

    #[test]
    fn lane_order_puts_resolved_externally_first() {
        let mut all = [
            Drift::OutdatedOpen,
            Drift::Unknown,
            Drift::ResolvedExternally,
            Drift::ResolutionPending,
            Drift::Reopened,
        ];
        all.sort();
        assert_eq!(
            all,
            [
                Drift::ResolvedExternally,
                Drift::Reopened,
                Drift::ResolutionPending,
                Drift::Unknown,
                Drift::OutdatedOpen
            ]
        );
    }
}
