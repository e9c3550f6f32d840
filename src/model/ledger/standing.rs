//! What a finding's recorded decisions mean on the reviewed head, judged in
//! one place for every reader: the pull request's screen marks its rows by
//! it (◆ awaiting, ◇ not applied) and counts its progress by it, and the
//! inbox counts a row's UNDECIDED, AWAITING and HUMAN by it, so that the
//! inbox never says of a pull request what its own screen does not.
//!
//! Only the entry that speaks for a finding ([`super::Ledger::latest`])
//! is judged: the newest authorised one, the one ReviewGate's replay
//! applies last, else the newest of any kind. Replay ignores comments that
//! are not authorised for the head (no receipt and no write permission, for
//! another head, malformed), so such a comment decides nothing and
//! escalates nothing; the screen still shows it (◇) so that a human sees it.

use super::Recorded;
use crate::model::finding::{Disposition, Finding, SubmittedDisposition};

/// How a finding's recorded decisions stand on the reviewed head (none
/// recorded: no standing at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// An authorised decision on this head that the result does not show yet.
    Awaiting,
    /// Decisions exist, but none ReviewGate would apply on this head.
    Unauthorised,
}

/// The standing of `finding` given the ledger entry that speaks for it.
///
/// An authorised decision "awaits" the next review when its canonical state
/// differs from the disposition the result shows; when the result already
/// shows it (a writer's `accepted` on a still-open finding), nothing is
/// awaited and the finding has no standing.
pub fn standing(finding: &Finding, speaking: Option<&Recorded>) -> Option<Standing> {
    let speaking = speaking?;
    if !speaking.authorised.is_authorised() {
        return Some(Standing::Unauthorised);
    }
    let canonical = speaking.decision.as_ref().map(|d| d.disposition.canonical());
    let shown = finding.reviewgate().map(|r| r.disposition);
    (canonical != shown).then_some(Standing::Awaiting)
}

/// True when the ledger alone counts the finding as decided: only a
/// decision awaiting the next review does. A decision the result already
/// shows, or one replay ignores (◇), leaves the finding to decide.
pub fn is_decided(standing: Option<Standing>) -> bool {
    standing == Some(Standing::Awaiting)
}

/// True when the finding escalates to a human: the authorised decision
/// that speaks for it is `needs_human`, or, without one, the result's
/// newest history record of a disputed finding was submitted `needs_human`.
/// A newer authorised decision at the head ends an escalation the result's
/// history shows; a comment replay ignores neither starts nor ends one.
pub fn needs_human(finding: &Finding, speaking: Option<&Recorded>) -> bool {
    let authorised = speaking
        .filter(|e| e.authorised.is_authorised())
        .and_then(|e| e.decision.as_ref());
    match authorised {
        Some(decision) => decision.disposition == SubmittedDisposition::NeedsHuman,
        None => last_submitted(finding) == Some(SubmittedDisposition::NeedsHuman),
    }
}

/// The disposition a disputed finding's newest history record was submitted as.
fn last_submitted(finding: &Finding) -> Option<SubmittedDisposition> {
    let fields = finding.reviewgate()?;
    if fields.disposition != Disposition::Disputed {
        return None;
    }
    fields.history.last()?.submitted
}
