//! The state of a finding's review thread on GitHub, and the facts a live
//! read of that thread adds.

use serde::{Deserialize, Serialize};

use super::Disposition;

/// What GitHub shows for the finding's review thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThreadStatus {
    Unknown,
    NotPublished,
    Open,
    Resolved,
}

impl ThreadStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ThreadStatus::Unknown => "unknown",
            ThreadStatus::NotPublished => "not_published",
            ThreadStatus::Open => "open",
            ThreadStatus::Resolved => "resolved",
        }
    }
}

/// The derived relation between thread status and canonical disposition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThreadTransition {
    NotPublished,
    Unknown,
    Retained,
    Reopened,
    ResolutionPending,
    ResolvedFixed,
    ResolvedRejectedWithEvidence,
    ResolvedIntentionalContract,
    ResolvedSuperseded,
    ResolvedExternally,
}

impl ThreadTransition {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ThreadTransition::NotPublished => "not_published",
            ThreadTransition::Unknown => "unknown",
            ThreadTransition::Retained => "retained",
            ThreadTransition::Reopened => "reopened",
            ThreadTransition::ResolutionPending => "resolution_pending",
            ThreadTransition::ResolvedFixed => "resolved_fixed",
            ThreadTransition::ResolvedRejectedWithEvidence => "resolved_rejected_with_evidence",
            ThreadTransition::ResolvedIntentionalContract => "resolved_intentional_contract",
            ThreadTransition::ResolvedSuperseded => "resolved_superseded",
            ThreadTransition::ResolvedExternally => "resolved_externally",
        }
    }

    /// The transition ReviewGate derives (INTEROP.md section 3, rule R19).
    ///
    /// `previously_settled`: some history record other than the last is settled.
    pub fn derive(
        status: ThreadStatus,
        disposition: Disposition,
        previously_settled: bool,
        has_reopening_evidence: bool,
    ) -> ThreadTransition {
        use Disposition as D;
        match status {
            ThreadStatus::Unknown => ThreadTransition::Unknown,
            ThreadStatus::NotPublished => ThreadTransition::NotPublished,
            ThreadStatus::Open => match disposition {
                D::StillOpen if previously_settled && has_reopening_evidence => ThreadTransition::Reopened,
                D::StillOpen | D::Disputed => ThreadTransition::Retained,
                _ => ThreadTransition::ResolutionPending,
            },
            ThreadStatus::Resolved => match disposition {
                D::Fixed => ThreadTransition::ResolvedFixed,
                D::RejectedWithEvidence => ThreadTransition::ResolvedRejectedWithEvidence,
                D::IntentionalContract => ThreadTransition::ResolvedIntentionalContract,
                D::Superseded => ThreadTransition::ResolvedSuperseded,
                D::StillOpen | D::Disputed => ThreadTransition::ResolvedExternally,
            },
        }
    }
}

/// Thread facts for one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thread {
    pub status: ThreadStatus,
    pub transition: ThreadTransition,
    pub outdated: bool,
    /// GitHub's node id of the thread (untrusted text until validated).
    pub id: Option<String>,
    /// What a live read of GitHub added (who resolved, last reply, link);
    /// `None` when the thread state came from the file alone.
    pub facts: Option<ThreadFacts>,
}

impl Default for Thread {
    fn default() -> Self {
        Thread {
            status: ThreadStatus::Unknown,
            transition: ThreadTransition::Unknown,
            outdated: false,
            id: None,
            facts: None,
        }
    }
}

/// Facts from a live GitHub read of one thread, for the drift lane. Every
/// string is GitHub-provided text (logins, comment bodies): sanitise before display.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ThreadFacts {
    /// Login of whoever resolved the thread.
    pub resolved_by: Option<String>,
    /// When it was resolved (RFC 3339), when GitHub reports it.
    pub resolved_at: Option<String>,
    /// The newest reply after the finding's own comment.
    pub last_reply: Option<ThreadReply>,
    /// Web link to the thread's first comment (GitHub's own URL, shown, never fetched).
    pub url: Option<String>,
}

/// One reply in a review thread.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ThreadReply {
    /// The reply's author login.
    pub author: String,
    /// The start of the reply's body (bounded excerpt).
    pub excerpt: String,
    /// When it was written (RFC 3339), if known.
    pub created_at: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transition_table_matches_interop() {
        use Disposition as D;
        use ThreadStatus as S;
        use ThreadTransition as T;
        assert_eq!(ThreadTransition::derive(S::Unknown, D::Fixed, true, true), T::Unknown);
        assert_eq!(
            ThreadTransition::derive(S::NotPublished, D::StillOpen, false, false),
            T::NotPublished
        );
        assert_eq!(ThreadTransition::derive(S::Open, D::StillOpen, true, true), T::Reopened);
        assert_eq!(
            ThreadTransition::derive(S::Open, D::StillOpen, true, false),
            T::Retained
        );
        assert_eq!(
            ThreadTransition::derive(S::Open, D::StillOpen, false, true),
            T::Retained
        );
        assert_eq!(ThreadTransition::derive(S::Open, D::Disputed, true, true), T::Retained);
        assert_eq!(
            ThreadTransition::derive(S::Open, D::Superseded, false, false),
            T::ResolutionPending
        );
        assert_eq!(
            ThreadTransition::derive(S::Resolved, D::StillOpen, false, false),
            T::ResolvedExternally
        );
        assert_eq!(
            ThreadTransition::derive(S::Resolved, D::Disputed, false, false),
            T::ResolvedExternally
        );
        assert_eq!(
            ThreadTransition::derive(S::Resolved, D::IntentionalContract, false, false),
            T::ResolvedIntentionalContract
        );
    }
}
