//! Where the context around an evidence excerpt comes from, most faithful
//! first: the reviewed commit's blob in the local repository, else GitHub's
//! copy of the file at the reviewed commit, else the working tree (which
//! may differ from what was reviewed, and is labelled so).
//!
//! Side `old` has one place only: the reviewed commit's first parent in the
//! local repository. GitHub would need that parent's id, which the review
//! does not state, so an old-side excerpt without the commits is "not
//! checked" rather than read from a guessed revision.

use super::{Checkout, CheckoutError, FileText, OldUnavailable, Revision, file_text, valid_sha};
use crate::model::finding::Side;

/// Fetches a checked path at a validated commit id from GitHub; `E` is
/// the caller's reason when it cannot.
pub type RemoteFile<'a, E> = &'a dyn Fn(&str, &str) -> Result<Vec<u8>, E>;

/// Why no context could be read for an excerpt. Plain data: whoever shows
/// it chooses the words (the screen's are in `tui::present::failure`).
#[derive(Debug)]
pub enum ContextError<E> {
    /// A place answered definitely (refused path, no such file at the
    /// revision, binary, too large, git failed).
    Read(CheckoutError),
    /// Every place tried could not answer here; what each said, in order.
    Skipped(Vec<Skip<E>>),
    /// Side `old` and the review names no valid reviewed commit.
    OldNoReviewedSha,
    /// Side `old` and no local repository may hold the parent of `sha`.
    OldNoRepository { sha: String },
    /// No local checkout, and GitHub cannot be asked.
    NoPlace,
}

/// One place that could not answer.
#[derive(Debug)]
pub enum Skip<E> {
    /// The local repository (no such commit, no repository ...).
    Local(CheckoutError),
    /// GitHub, with the fetcher's reason.
    GitHub(E),
}

/// One place context may be read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextSource {
    /// The local repository at the reviewed commit (`new`) or its parent (`old`).
    Committed,
    /// GitHub's contents API at the reviewed commit.
    GitHub,
    /// The local working tree.
    WorkingTree,
}

/// What is at hand when context is wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Means {
    /// A local checkout was found.
    pub checkout: bool,
    /// The review names a valid reviewed commit.
    pub reviewed_sha: bool,
    /// GitHub can be asked (a pull request result, not the demo).
    pub github: bool,
}

/// The places to try, in order, for an excerpt on `side`.
pub fn plan(side: Side, means: Means) -> Vec<ContextSource> {
    let mut order = Vec::with_capacity(3);
    if means.checkout && means.reviewed_sha {
        order.push(ContextSource::Committed);
    }
    if side == Side::New {
        if means.github && means.reviewed_sha {
            order.push(ContextSource::GitHub);
        }
        if means.checkout {
            order.push(ContextSource::WorkingTree);
        }
    }
    order
}

/// True when an error only says the local repository cannot answer (no
/// commit id, the commit is not here, no repository): the next place is tried.
pub fn not_local(e: &CheckoutError) -> bool {
    matches!(
        e,
        CheckoutError::InvalidSha(_)
            | CheckoutError::OldSideUnavailable(
                OldUnavailable::NoReviewedSha | OldUnavailable::CommitNotLocal { .. } | OldUnavailable::NotARepository
            )
    )
}

/// Reads the file of an excerpt from the first place of [`plan`] that has
/// it. `github` fetches a checked path at a validated commit id. A definite
/// answer from a place (the file does not exist at the reviewed commit, it
/// is binary or too large) ends the search; only "cannot answer here" moves on.
pub fn read_context<E>(
    checkout: Option<&Checkout>,
    github: Option<RemoteFile<'_, E>>,
    path: &str,
    side: Side,
    reviewed_sha: Option<&str>,
) -> Result<FileText, ContextError<E>> {
    let sha = reviewed_sha.and_then(valid_sha);
    let means = Means {
        checkout: checkout.is_some(),
        reviewed_sha: sha.is_some(),
        github: github.is_some(),
    };
    let mut skipped: Vec<Skip<E>> = Vec::new();
    for place in plan(side, means) {
        let answer = match (place, checkout, github, sha.as_deref()) {
            (ContextSource::Committed, Some(c), _, _) => c.read_committed(path, side, reviewed_sha),
            (ContextSource::WorkingTree, Some(c), _, _) => c.read_working_file(path),
            (ContextSource::GitHub, _, Some(fetch), Some(sha)) => {
                let clean = super::checked(path).map_err(ContextError::Read)?;
                match fetch(&clean, sha) {
                    Ok(bytes) => file_text(clean, side, Revision::GitHub(sha.to_string()), bytes),
                    Err(why) => {
                        skipped.push(Skip::GitHub(why));
                        continue;
                    }
                }
            }
            _ => continue,
        };
        match answer {
            Err(e) if not_local(&e) => skipped.push(Skip::Local(e)),
            other => return other.map_err(ContextError::Read),
        }
    }
    Err(nothing_read(side, means, sha.as_deref(), skipped))
}

/// Why no place had the file.
fn nothing_read<E>(side: Side, means: Means, sha: Option<&str>, skipped: Vec<Skip<E>>) -> ContextError<E> {
    if !skipped.is_empty() {
        return ContextError::Skipped(skipped);
    }
    match (side, means.checkout, sha) {
        (Side::Old, _, None) => ContextError::OldNoReviewedSha,
        (Side::Old, false, Some(sha)) => ContextError::OldNoRepository { sha: sha.to_string() },
        _ => ContextError::NoPlace,
    }
}
