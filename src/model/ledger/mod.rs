//! The decision ledger of a pull request: the ReviewGate disposition comments
//! it holds, each classified the way ReviewGate's replay treats it.
//!
//! Pure types and functions only; the reads from GitHub live in
//! `crate::github::ledger`. Recorded decisions are kept apart from the
//! findings a reader builds and joined by fingerprint when shown
//! ([`Ledger::for_fingerprint`], [`Ledger::latest`]).
//!
//! Which comments count (upstream `crates/reviewgate-cli/src/main.rs`,
//! `agent_disposition_comments` and `apply_agent_disposition_comments`):
//! every issue comment whose body *contains* the marker prefix is a
//! disposition comment, replayed in ascending comment id (so the newest is
//! last and the last authorised one wins). Upstream picks by containment,
//! not by the first line, and judges an edited body (one that is no longer
//! byte for byte what the protocol writes) like any other: it only loses
//! its receipt, whose digest is of the body as it was posted.

mod classify;
mod prior;
mod standing;
mod summary;

pub use classify::{Authorisation, MAX_PERMISSION_LOOKUPS, classify, pending_authors, pick, receipted};
pub use prior::{Prior, prior_for};
pub use standing::{Standing, is_decided, needs_human, standing};
pub use summary::last_reviewed_head;

use super::finding::SubmittedDisposition;
use std::collections::HashMap;

/// One issue comment as GitHub listed it (every text is untrusted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentRecord {
    pub id: u64,
    /// The author's login; `None` when GitHub gave none (a deleted account).
    pub author: Option<String>,
    pub body: String,
}

/// One entry of a commit's combined status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusRecord {
    pub context: String,
    pub description: String,
    /// Empty when GitHub redacted the creator.
    pub creator: String,
    pub state: String,
}

/// Which pull request and head the ledger is read against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerScope {
    pub repository: String,
    pub pull_request: u64,
    /// The head decisions are judged against (the loaded result's reviewed SHA).
    pub head: String,
}

/// How ReviewGate's replay would treat one disposition comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Authorised {
    /// A `success` status on the head attests this comment's current body,
    /// created by its author (or by a redacted creator).
    Receipt,
    /// The author has write permission on the repository now.
    Permission,
    /// Replay ignores it on this head: why.
    None { reason: String },
    /// A decision for another head (`reviewed_sha`): authorises nothing here.
    Stale,
    /// Not a disposition comment ReviewGate wrote: why.
    Malformed { reason: String },
    /// Authorisation could not be decided (the ledger was not fully readable): why.
    Unknown { reason: String },
}

impl Authorised {
    /// The machine name (`receipt`, `permission`, `none`, `stale`, `malformed`, `unknown`).
    pub fn as_str(&self) -> &'static str {
        match self {
            Authorised::Receipt => "receipt",
            Authorised::Permission => "permission",
            Authorised::None { .. } => "none",
            Authorised::Stale => "stale",
            Authorised::Malformed { .. } => "malformed",
            Authorised::Unknown { .. } => "unknown",
        }
    }

    /// True when ReviewGate's next review applies it.
    pub fn is_authorised(&self) -> bool {
        matches!(self, Authorised::Receipt | Authorised::Permission)
    }

    /// Why it is classified so, for people (untrusted text inside: sanitise).
    pub fn reason(&self) -> String {
        match self {
            Authorised::Receipt => "attested by a commit status of its author on this head".into(),
            Authorised::Permission => "its author has write permission on the repository".into(),
            Authorised::Stale => "recorded for another head; it authorises nothing on this one".into(),
            Authorised::None { reason } | Authorised::Malformed { reason } | Authorised::Unknown { reason } => {
                reason.clone()
            }
        }
    }
}

/// The decision a disposition comment carries, once its payload decodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedDecision {
    pub fingerprint: String,
    pub disposition: SubmittedDisposition,
    pub evidence: String,
    /// The payload's actor (must be the comment's author).
    pub actor: String,
    pub reviewed_sha: String,
}

/// One disposition comment of the pull request, classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub comment_id: u64,
    /// The comment's author on GitHub.
    pub author: Option<String>,
    /// `None` when the payload does not decode.
    pub decision: Option<RecordedDecision>,
    /// `receipt-sha256:…` of the comment's current body (identifies the body).
    pub body_digest: String,
    pub authorised: Authorised,
}

impl Recorded {
    /// The fingerprint it is about, when it decodes.
    pub fn fingerprint(&self) -> Option<&str> {
        self.decision.as_ref().map(|d| d.fingerprint.as_str())
    }
}

/// A pull request's disposition comments, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ledger {
    pub scope: LedgerScope,
    /// `https://WEB/{repo}/pull/{n}`: comment links are this plus `#issuecomment-{id}`.
    pub pull_url: String,
    pub entries: Vec<Recorded>,
}

impl Ledger {
    /// The web link of a comment.
    pub fn url(&self, comment_id: u64) -> String {
        format!("{}#issuecomment-{comment_id}", self.pull_url)
    }

    /// Every entry about `fingerprint`, oldest first.
    pub fn for_fingerprint<'a, 'f>(&'a self, fingerprint: &'f str) -> impl Iterator<Item = &'a Recorded> + use<'a, 'f> {
        self.entries
            .iter()
            .filter(move |e| e.fingerprint() == Some(fingerprint))
    }

    /// The entry that speaks for `fingerprint` now: the newest authorised one
    /// (the one ReviewGate's replay applies last), else the newest of any kind.
    pub fn latest(&self, fingerprint: &str) -> Option<&Recorded> {
        let mut speaking = Speaking::default();
        self.for_fingerprint(fingerprint).for_each(|e| speaking.add(e));
        speaking.entry()
    }

    /// [`Ledger::latest`] of every fingerprint the ledger holds, from one
    /// pass over its entries (a screen joins it with every finding).
    pub fn latest_each(&self) -> HashMap<&str, &Recorded> {
        let mut each: HashMap<&str, Speaking<'_>> = HashMap::new();
        for e in &self.entries {
            if let Some(fingerprint) = e.fingerprint() {
                each.entry(fingerprint).or_default().add(e);
            }
        }
        each.into_iter()
            .filter_map(|(fingerprint, speaking)| Some((fingerprint, speaking.entry()?)))
            .collect()
    }

    /// Entries the drift lane lists: on this head but not authorised, or for another head.
    pub fn drifting(&self) -> impl Iterator<Item = &Recorded> {
        self.entries
            .iter()
            .filter(|e| matches!(e.authorised, Authorised::None { .. } | Authorised::Stale))
    }

    /// Counts by machine name of the classification, in a fixed order.
    pub fn counts(&self) -> [(&'static str, usize); 6] {
        let mut out = [
            ("receipt", 0),
            ("permission", 0),
            ("none", 0),
            ("stale", 0),
            ("malformed", 0),
            ("unknown", 0),
        ];
        for e in &self.entries {
            if let Some(slot) = out.iter_mut().find(|(k, _)| *k == e.authorised.as_str()) {
                slot.1 += 1;
            }
        }
        out
    }
}

/// The entries of one fingerprint seen so far, oldest first: the entry that
/// speaks for it is the newest authorised one, else the newest of any kind.
#[derive(Default)]
struct Speaking<'a> {
    newest: Option<&'a Recorded>,
    newest_authorised: Option<&'a Recorded>,
}

impl<'a> Speaking<'a> {
    fn add(&mut self, e: &'a Recorded) {
        self.newest = Some(e);
        if e.authorised.is_authorised() {
            self.newest_authorised = Some(e);
        }
    }

    fn entry(&self) -> Option<&'a Recorded> {
        self.newest_authorised.or(self.newest)
    }
}

/// What is known about a pull request's ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerState {
    /// Read and classified.
    Known(Ledger),
    /// Could not be read or decided (never shown as "nothing recorded"): why.
    Unknown { reason: String },
}

impl LedgerState {
    /// The ledger, when known.
    pub fn known(&self) -> Option<&Ledger> {
        match self {
            LedgerState::Known(l) => Some(l),
            LedgerState::Unknown { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests;
