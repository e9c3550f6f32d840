//! The disposition protocol ReviewGate replays (INTEROP §4, steps 2–8), as
//! one sequence of requests. Every decision along the way is a function in
//! [`crate::decision::decide`] or [`crate::model::ledger`]; this file only performs
//! the requests in order.
//!
//! Around the published steps:
//! - first, clean-up deletes an earlier attempt sent are finished (a 404 is
//!   done); until they are, nothing is posted;
//! - before posting, the pull request's ledger is read: a decision is never
//!   recorded twice, an attested identical one is reported as already
//!   recorded, an unattested identical one (an answer lost) is attested
//!   instead of posted again, and a different recorded decision is only
//!   overridden on request ([`SubmitOptions::supersede`]);
//! - after the attestation, the comment and its status are read back:
//!   "recorded" is said only of what GitHub is seen to hold.
//!
//! Requests that need no answer of another are sent together: the reads
//! before posting ([`prepare`]), and the comment and status read-back. The
//! steps that guard the protocol stay in order and cost one round trip each:
//! the comment, the head re-read after it (before the status is posted), the
//! status, and the read-back after it. One decision: five round trips.
//!
//! Nothing is left half-done on GitHub: a comment is deleted again when the
//! head moved, could not be re-read, or the attestation failed or was made
//! by someone else; each delete is written down first ([`Journal`]).

use super::cleanup::{Journal, NoJournal, remove_comment};
use super::client::Client;
use super::error::GhError;
use super::ledger;
use super::route::Route;
use super::wire::{CreatedStatus, IssueComment, NewComment, NewStatus, PullRequest};
use crate::decision::decide::{self, Rejection, Step, StepError, Target};
use crate::decision::draft::CheckedDraft;
use crate::model::ledger::receipted;

mod prepare;

pub use prepare::{Known, Plan, Ready, prepare};

/// What a submission achieved, named where the protocol produces it.
pub use crate::decision::outcome::{Outcome, Receipt};

/// How one submission runs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SubmitOptions {
    /// Record the decision even when a different one is recorded for the
    /// finding on this head (replay applies the newest).
    pub supersede: bool,
    /// Comments an earlier attempt sent a clean-up DELETE for: deleted
    /// first, never reused.
    pub pending_deletes: Vec<u64>,
}

/// The comment body and its receipt digest for one actor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub body: String,
    pub digest: String,
}

/// Renders the comment for `actor` (INTEROP §4 step 5, D8/D9).
pub fn render(draft: &CheckedDraft, actor: &str) -> Rendered {
    let payload = draft.draft().payload(actor);
    let body = crate::model::disposition::comment_body(&payload);
    let digest = crate::model::disposition::receipt_digest(&body);
    Rendered { body, digest }
}

/// Runs the sequence for a checked draft without writing deletes down.
pub async fn submit(client: &Client, draft: &CheckedDraft, options: SubmitOptions) -> Outcome {
    submit_with(client, draft, &options, &mut NoJournal).await
}

/// Runs the sequence, writing every clean-up delete to `journal` first.
pub async fn submit_with(
    client: &Client,
    draft: &CheckedDraft,
    options: &SubmitOptions,
    journal: &mut dyn Journal,
) -> Outcome {
    submit_knowing(client, draft, options, journal, &mut Known::default()).await
}

/// [`submit_with`], using and adding to what `known` holds from earlier
/// submissions of the same run ([`Known`]).
pub async fn submit_knowing(
    client: &Client,
    draft: &CheckedDraft,
    options: &SubmitOptions,
    journal: &mut dyn Journal,
    known: &mut Known,
) -> Outcome {
    match start(client, draft, options, journal, known).await {
        Ok(Started::Done(receipt)) => Outcome::Recorded(receipt),
        Ok(Started::Attested(attested)) => confirm(client, &attested).await,
        Err(outcome) => outcome,
    }
}

/// A submission that went as far as it can before its read-back.
#[derive(Debug, Clone)]
pub enum Started {
    /// The identical decision was attested already; nothing was sent.
    Done(Receipt),
    /// The comment is posted (or an earlier one reused) and attested; what
    /// GitHub holds is still to be read back ([`confirm`]).
    Attested(Attested),
}

/// What [`confirm`] reads back and, when it is there, reports.
#[derive(Debug, Clone)]
pub struct Attested {
    target: Target,
    body: String,
    receipt: Receipt,
}

/// Steps up to the attestation. The round trips of one decision: the reads
/// ([`prepare`]: one), the comment (one), the head again (one), the status
/// (one); [`confirm`] adds one more. In a batch the reads are made once and
/// the read-back of one decision runs beside the next decision's steps, so
/// each further decision costs three.
pub async fn start(
    client: &Client,
    draft: &CheckedDraft,
    options: &SubmitOptions,
    journal: &mut dyn Journal,
    known: &mut Known,
) -> Result<Started, Outcome> {
    let target = draft.target();
    let ready = prepare(client, draft, options, journal, known).await?;
    let receipt = |comment_id: u64, reused: bool, already_recorded: bool| Receipt {
        comment_id,
        url: comment_url(client, target, comment_id),
        fingerprint: draft.draft().fingerprint.clone(),
        disposition: draft.draft().status,
        actor: ready.login.clone(),
        digest: ready.rendered.digest.clone(),
        reused,
        already_recorded,
    };
    if let Plan::Done(id) = ready.plan {
        return Ok(Started::Done(receipt(id, true, true)));
    }
    // From here the ledger this run read no longer tells about this finding.
    known.posted(target, &draft.draft().fingerprint);
    let (comment_id, reused) = match ready.plan {
        Plan::Attest(id) => (id, true),
        Plan::Done(_) | Plan::Post => {
            let number = target.pull_request.to_string();
            let route = Route::repo(&target.repository, ["issues", number.as_str(), "comments"]);
            let posted = client
                .post_json::<_, IssueComment>(
                    &route,
                    &NewComment {
                        body: &ready.rendered.body,
                    },
                )
                .await;
            (step(Step::Comment, posted)?.id, false)
        }
    };
    attest(
        client,
        target,
        comment_id,
        &ready.login,
        &ready.rendered,
        journal,
        known,
    )
    .await?;
    Ok(Started::Attested(Attested {
        target: target.clone(),
        body: ready.rendered.body.clone(),
        receipt: receipt(comment_id, reused, false),
    }))
}

/// After the attestation: the comment (exact body, by the actor) and the
/// head's statuses attesting it are read back together; "recorded" only
/// when both are seen.
pub async fn confirm(client: &Client, attested: &Attested) -> Outcome {
    match read_back(client, attested).await {
        Ok(()) => Outcome::Recorded(attested.receipt.clone()),
        Err(outcome) => outcome,
    }
}

/// Steps 6 and 7: the head again, then the status; on any refusal the
/// comment is deleted again. The re-read head is kept in `known`: in a
/// batch it is the head the next decision's post is judged by.
async fn attest(
    client: &Client,
    target: &Target,
    comment_id: u64,
    login: &str,
    rendered: &Rendered,
    journal: &mut dyn Journal,
    known: &mut Known,
) -> Result<(), Outcome> {
    let number = target.pull_request.to_string();
    let pull_route = Route::repo(&target.repository, ["pulls", number.as_str()]);
    let reread = client.get_json::<PullRequest>(&pull_route).await;
    known.saw_head(target, reread.as_ref());
    if let Err(reason) = decide::recheck_head(reread.as_ref(), target) {
        return Err(rejected_after_posting(client, target, comment_id, reason, journal).await);
    }
    let url = comment_url(client, target, comment_id);
    let context = crate::model::disposition::status_context(comment_id);
    let status = NewStatus {
        state: "success",
        target_url: &url,
        description: &rendered.digest,
        context: &context,
    };
    let status_route = Route::repo(&target.repository, ["statuses", target.reviewed_sha.as_str()]);
    let created = match client.post_json::<_, CreatedStatus>(&status_route, &status).await {
        Ok(created) => created,
        Err(error) => return Err(attestation_failed(client, target, comment_id, error, journal).await),
    };
    if let Err(reason) = decide::check_creator(&created, login) {
        return Err(rejected_after_posting(client, target, comment_id, reason, journal).await);
    }
    Ok(())
}

/// The comment must still be there with the exact body by the actor, and
/// the head's statuses must attest it (both read at once).
async fn read_back(client: &Client, attested: &Attested) -> Result<(), Outcome> {
    let (target, comment_id, login) = (&attested.target, attested.receipt.comment_id, &attested.receipt.actor);
    let id = comment_id.to_string();
    let route = Route::repo(&target.repository, ["issues", "comments", id.as_str()]);
    let (comment, statuses) = tokio::join!(
        client.get_json::<IssueComment>(&route),
        ledger::read_statuses(client, target, &target.reviewed_sha)
    );
    let comment = match comment {
        Ok(c) => c,
        // Gone (a late clean-up delete landed?): nothing is recorded and
        // nothing is left; the next attempt posts afresh.
        Err(error @ GhError::NotFound { .. }) => return Err(failed(Step::ReadBack, error, None)),
        Err(error) => return Err(failed(Step::ReadBack, error, Some(comment_id))),
    };
    let same = comment.body.as_deref() == Some(attested.body.as_str())
        && comment.user.as_ref().is_some_and(|u| &u.login == login);
    if !same {
        let error = GhError::Decode {
            message: format!("comment {comment_id} no longer has the posted body and author"),
        };
        return Err(failed(Step::ReadBack, error, Some(comment_id)));
    }
    let statuses = statuses.map_err(|error| failed(Step::ReadBack, error, Some(comment_id)))?;
    let record = crate::model::ledger::CommentRecord {
        id: comment_id,
        author: Some(login.clone()),
        body: attested.body.clone(),
    };
    if receipted(std::slice::from_ref(&record), &statuses).is_empty() {
        let error = GhError::Decode {
            message: format!("the head's statuses do not attest comment {comment_id}"),
        };
        return Err(failed(Step::ReadBack, error, Some(comment_id)));
    }
    Ok(())
}

/// `https://WEB/{repo}/pull/{n}#issuecomment-{id}`.
pub fn comment_url(client: &Client, target: &Target, comment_id: u64) -> String {
    format!(
        "{}/{}/pull/{}#issuecomment-{}",
        client.web_base(),
        target.repository,
        target.pull_request,
        comment_id
    )
}

/// Maps a step's error before anything was posted.
pub(crate) fn step<T>(step: Step, result: Result<T, GhError>) -> Result<T, Outcome> {
    result.map_err(|error| match decide::classify(step, error) {
        StepError::Refused(reason) => not_posted(reason),
        StepError::Failed(error) => failed(step, error, None),
    })
}

pub(crate) fn failed(step: Step, error: GhError, comment_left: Option<u64>) -> Outcome {
    Outcome::Failed {
        step,
        error,
        comment_left,
    }
}

pub(crate) fn not_posted(reason: Rejection) -> Outcome {
    Outcome::Rejected {
        reason,
        comment_removed: false,
        comment_left: None,
    }
}

async fn rejected_after_posting(
    client: &Client,
    target: &Target,
    comment_id: u64,
    reason: Rejection,
    journal: &mut dyn Journal,
) -> Outcome {
    let removed = remove_comment(client, target, comment_id, journal).await;
    Outcome::Rejected {
        reason,
        comment_removed: removed,
        comment_left: (!removed).then_some(comment_id),
    }
}

/// Step 7 failed: delete the comment, then report a refusal as rejected and
/// anything else as failed.
async fn attestation_failed(
    client: &Client,
    target: &Target,
    comment_id: u64,
    error: GhError,
    journal: &mut dyn Journal,
) -> Outcome {
    let removed = remove_comment(client, target, comment_id, journal).await;
    let comment_left = (!removed).then_some(comment_id);
    match decide::classify(Step::Attestation, error) {
        StepError::Refused(reason) => Outcome::Rejected {
            reason,
            comment_removed: removed,
            comment_left,
        },
        StepError::Failed(error) => failed(Step::Attestation, error, comment_left),
    }
}
