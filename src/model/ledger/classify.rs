//! Classifying disposition comments as ReviewGate's replay does (upstream
//! `crates/reviewgate-cli/src/main.rs`: `attested_disposition_comment_ids`,
//! `resolve_authorized_disposition_comment_ids`,
//! `apply_agent_disposition_comments`).
//!
//! The reads happen in between, so this is three steps: [`pick`] the
//! disposition comments, ask for [`pending_authors`]' permissions (each
//! author once), then [`classify`] with the statuses and the answers.
//!
//! Replay fails closed, as upstream: more than [`MAX_PERMISSION_LOOKUPS`]
//! distinct authors without a receipt, a failed permission lookup, or a
//! non-writer while the statuses are unreadable make the whole ledger
//! unknown, never "not authorised".
//!
//! Where this reports a different label than upstream counts (upstream
//! counts an unattested comment "unauthorized" before decoding it, and a
//! payload for another pull request "stale"), the comment is ignored by
//! replay either way; the label here says the more useful reason.

use super::{Authorised, CommentRecord, LedgerScope, Recorded, RecordedDecision, StatusRecord};
use crate::model::disposition::{BODY_PREFIX, extract_payload, receipt_digest, status_context};
use std::collections::{BTreeMap, BTreeSet};

/// Distinct unattested authors whose permission replay looks up at most.
pub const MAX_PERMISSION_LOOKUPS: usize = 32;

/// The disposition comments among `comments`, in ascending id (replay order).
pub fn pick(comments: &[CommentRecord]) -> Vec<CommentRecord> {
    let mut picked: Vec<CommentRecord> = comments
        .iter()
        .filter(|c| c.body.contains(BODY_PREFIX))
        .cloned()
        .collect();
    picked.sort_by_key(|c| c.id);
    picked
}

/// Ids of comments attested by a `success` status whose context names the
/// comment, whose description is the digest of its current body, and whose
/// creator is its author (an empty, redacted creator is accepted).
pub fn receipted(picked: &[CommentRecord], statuses: &[StatusRecord]) -> BTreeSet<u64> {
    picked
        .iter()
        .filter(|c| {
            let context = status_context(c.id);
            let digest = receipt_digest(&c.body);
            let author = c.author.as_deref().unwrap_or("");
            statuses.iter().any(|s| {
                s.context == context
                    && s.description == digest
                    && (s.creator.is_empty() || s.creator == author)
                    && s.state == "success"
            })
        })
        .map(|c| c.id)
        .collect()
}

/// The authors (non-empty logins) of comments without a receipt, whose
/// permission must be looked up; `Err` beyond [`MAX_PERMISSION_LOOKUPS`].
pub fn pending_authors(picked: &[CommentRecord], receipted: &BTreeSet<u64>) -> Result<BTreeSet<String>, String> {
    let authors: BTreeSet<String> = picked
        .iter()
        .filter(|c| !receipted.contains(&c.id))
        .filter_map(|c| c.author.clone())
        .filter(|a| !a.is_empty())
        .collect();
    if authors.len() > MAX_PERMISSION_LOOKUPS {
        return Err(format!(
            "deciding authorisation needs {} permission lookups, above ReviewGate's limit of {MAX_PERMISSION_LOOKUPS}",
            authors.len()
        ));
    }
    Ok(authors)
}

/// What the reads found out about authorisation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authorisation {
    /// The head's statuses, or why they could not be read.
    pub statuses: Result<Vec<StatusRecord>, String>,
    /// Each pending author's write permission, or why it could not be read.
    pub permissions: BTreeMap<String, Result<bool, String>>,
}

/// Classifies every picked comment; `Err` (the ledger is unknown) when
/// authorisation cannot be decided.
pub fn classify(scope: &LedgerScope, picked: &[CommentRecord], auth: &Authorisation) -> Result<Vec<Recorded>, String> {
    let (receipts, statuses_error) = match &auth.statuses {
        Ok(statuses) => (receipted(picked, statuses), None),
        Err(why) => (BTreeSet::new(), Some(why.as_str())),
    };
    let pending = pending_authors(picked, &receipts)?;
    let mut undecided = Vec::new();
    let mut writers = BTreeSet::new();
    for author in &pending {
        match auth.permissions.get(author) {
            Some(Ok(true)) => {
                writers.insert(author.as_str());
            }
            Some(Ok(false)) if statuses_error.is_none() => {}
            Some(Ok(false)) => undecided.push(format!("{author:?} (no write permission; statuses unreadable)")),
            Some(Err(why)) => undecided.push(format!("{author:?} ({why})")),
            None => undecided.push(format!("{author:?} (not looked up)")),
        }
    }
    let anonymous = picked
        .iter()
        .any(|c| !receipts.contains(&c.id) && c.author.as_deref().is_none_or(str::is_empty));
    if let (Some(why), true) = (statuses_error, anonymous) {
        undecided.push(format!("a comment without an author (statuses unreadable: {why})"));
    }
    if !undecided.is_empty() {
        return Err(format!(
            "authorisation could not be decided for {}",
            undecided.join(", ")
        ));
    }
    Ok(picked.iter().map(|c| one(scope, c, &receipts, &writers)).collect())
}

fn one(scope: &LedgerScope, comment: &CommentRecord, receipts: &BTreeSet<u64>, writers: &BTreeSet<&str>) -> Recorded {
    let body_digest = receipt_digest(&comment.body);
    let mut recorded = Recorded {
        comment_id: comment.id,
        author: comment.author.clone(),
        decision: None,
        body_digest,
        authorised: Authorised::Stale,
    };
    let payload = match extract_payload(&comment.body) {
        Ok(p) => p,
        Err(problem) => {
            recorded.authorised = Authorised::Malformed {
                reason: format!("the payload is not a valid disposition: {problem}"),
            };
            return recorded;
        }
    };
    recorded.decision = Some(RecordedDecision {
        fingerprint: payload.submission.semantic_fingerprint.clone(),
        disposition: payload.submission.disposition,
        evidence: payload.submission.evidence.clone(),
        actor: payload.submission.actor.clone(),
        reviewed_sha: payload.reviewed_sha.clone(),
    });
    recorded.authorised = judge(scope, comment, &payload, receipts, writers);
    recorded
}

fn judge(
    scope: &LedgerScope,
    comment: &CommentRecord,
    payload: &crate::model::disposition::DispositionPayload,
    receipts: &BTreeSet<u64>,
    writers: &BTreeSet<&str>,
) -> Authorised {
    // Upstream replay never compares the whole body with the re-rendered one:
    // an edited body (CRLF from the web editor, an added line) loses its
    // receipt (the digest is of the current body) but a writer's comment is
    // still applied. Judge it exactly as replay does.
    // The repository is told apart as GitHub tells names apart, ignoring
    // case: the scope may name it as typed (`--repo octo/app`), while a
    // payload carries GitHub's own spelling (`Octo/App`, as ReviewGate's
    // state and the result do). ReviewGate compares its canonical name
    // exactly, which the payloads ReviewGate and triage write always carry.
    let same_repository = payload.scope.repository.eq_ignore_ascii_case(&scope.repository);
    if !same_repository || payload.scope.pull_request_number != scope.pull_request {
        return Authorised::None {
            reason: format!(
                "recorded for {}#{}, not this pull request",
                payload.scope.repository, payload.scope.pull_request_number
            ),
        };
    }
    if payload.reviewed_sha != scope.head {
        return Authorised::Stale;
    }
    let author = comment.author.as_deref().unwrap_or("");
    if payload.submission.actor != author {
        return Authorised::None {
            reason: format!(
                "the payload's actor {:?} is not the comment's author {:?}",
                payload.submission.actor, author
            ),
        };
    }
    if receipts.contains(&comment.id) {
        Authorised::Receipt
    } else if writers.contains(author) {
        Authorised::Permission
    } else if author.is_empty() {
        Authorised::None {
            reason: "no receipt on this head, and GitHub names no author".into(),
        }
    } else {
        Authorised::None {
            reason: format!("no receipt on this head, and {author:?} has no write permission"),
        }
    }
}
