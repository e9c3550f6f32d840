//! What one submission achieved: recorded (with its receipt), rejected by
//! the protocol, or failed on the way. Kept by the outbox, shown by the
//! screen and the command line.

use super::decide::{Rejection, Step};
use crate::github::error::GhError;
use crate::model::finding::SubmittedDisposition;

/// What a submission achieved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The comment and its attestation are on GitHub (read back).
    Recorded(Receipt),
    /// The protocol refused the decision. `comment_removed` is true when a
    /// comment had been posted and was deleted again; `comment_left` names a
    /// posted comment that could not be deleted (a retry deletes it).
    Rejected {
        reason: Rejection,
        comment_removed: bool,
        comment_left: Option<u64>,
    },
    /// GitHub could not be reached or failed; nothing is known to be
    /// recorded. `comment_left` names a comment that may exist because of
    /// this attempt (a retry finds it in the ledger, or finishes its delete).
    Failed {
        step: Step,
        error: GhError,
        comment_left: Option<u64>,
    },
}

/// Proof of a recorded decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    /// The issue comment's id.
    pub comment_id: u64,
    /// Link to the comment on the web host matching the API.
    pub url: String,
    /// The finding's fingerprint.
    pub fingerprint: String,
    /// The submitted status.
    pub disposition: SubmittedDisposition,
    /// The authenticated user who recorded it.
    pub actor: String,
    /// `receipt-sha256:…` of the comment body (the status description).
    pub digest: String,
    /// True when an earlier attempt's comment was found and attested.
    pub reused: bool,
    /// True when the identical decision was already recorded and attested:
    /// nothing was sent.
    pub already_recorded: bool,
}

impl Outcome {
    /// True when the decision is recorded.
    pub fn is_recorded(&self) -> bool {
        matches!(self, Outcome::Recorded(_))
    }

    /// A comment this attempt may have left on GitHub.
    pub fn comment_left(&self) -> Option<u64> {
        match self {
            Outcome::Recorded(_) => None,
            Outcome::Rejected { comment_left, .. } | Outcome::Failed { comment_left, .. } => *comment_left,
        }
    }

    /// One line for people (GitHub text inside is untrusted: sanitise it).
    pub fn summary(&self) -> String {
        match self {
            Outcome::Recorded(r) if r.already_recorded => format!(
                "already recorded (comment {}): {} as {}: {}",
                r.comment_id,
                r.fingerprint,
                r.disposition.as_str(),
                r.url
            ),
            Outcome::Recorded(r) => format!("recorded {} as {}: {}", r.fingerprint, r.disposition.as_str(), r.url),
            Outcome::Rejected {
                reason,
                comment_removed,
                comment_left,
            } => {
                let tail = match (comment_left, comment_removed) {
                    (Some(id), _) => format!(
                        " (comment {id} could not be removed from the pull request; `triage outbox retry` removes it)"
                    ),
                    (None, true) => " (the posted comment was removed)".to_owned(),
                    (None, false) => String::new(),
                };
                format!("rejected: {reason}{tail}")
            }
            Outcome::Failed {
                step,
                error,
                comment_left,
            } => {
                let tail = comment_left
                    .map(|id| format!(" (comment {id} may be on the pull request; a retry settles it)"))
                    .unwrap_or_default();
                format!("failed while {step}: {error}{tail}")
            }
        }
    }
}
