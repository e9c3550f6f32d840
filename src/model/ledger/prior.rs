//! What the ledger already holds for a decision about to be posted: the
//! rule that no decision is ever recorded twice.

use super::{Ledger, Recorded};

/// The ledger's answer for one decision (one rendered body by one actor).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prior<'a> {
    /// Nothing speaks for this finding on this head yet: post.
    Nothing,
    /// The actor's identical comment is attested and is what replay applies
    /// last: post nothing.
    AlreadyRecorded(&'a Recorded),
    /// The actor's identical comment exists without its receipt (an earlier
    /// attempt's answer was lost): attest that comment instead of posting.
    Unattested(&'a Recorded),
    /// A different authorised decision is what replay applies last: post only
    /// when the user chose to supersede it.
    Different(&'a Recorded),
}

/// Looks up `fingerprint` for `actor`'s body (by its receipt digest).
/// Comments in `excluded` (ones a clean-up delete was sent for) are never
/// reused: they may vanish at any moment.
pub fn prior_for<'a>(ledger: &'a Ledger, fingerprint: &str, actor: &str, digest: &str, excluded: &[u64]) -> Prior<'a> {
    let mut mine = None;
    let mut mine_attested = None;
    let mut newest_authorised = None;
    for e in ledger.for_fingerprint(fingerprint) {
        if excluded.contains(&e.comment_id) {
            continue;
        }
        if e.author.as_deref() == Some(actor) && e.body_digest == digest {
            mine = Some(e);
            if e.authorised == super::Authorised::Receipt {
                mine_attested = Some(e);
            }
        }
        if e.authorised.is_authorised() {
            newest_authorised = Some(e);
        }
    }
    let applied_is_mine = newest_authorised.is_some_and(|n| n.body_digest == digest);
    match (mine_attested.or(mine), newest_authorised) {
        (Some(m), _) if applied_is_mine && m.authorised == super::Authorised::Receipt => Prior::AlreadyRecorded(m),
        (_, Some(n)) if !applied_is_mine => Prior::Different(n),
        (Some(m), _) => Prior::Unattested(m),
        (None, _) => Prior::Nothing,
    }
}
