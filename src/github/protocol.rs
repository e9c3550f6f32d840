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
//! Nothing is left half-done on GitHub: a comment is deleted again when the
//! head moved, could not be re-read, or the attestation failed or was made
//! by someone else; each delete is written down first ([`Journal`]).

use super::cleanup::{Journal, NoJournal, delete_comment, remove_comment};
use super::client::Client;
use super::error::GhError;
use super::ledger::{self, LedgerError};
use super::route::Route;
use super::wire::{Account, CreatedStatus, IssueComment, NewComment, NewStatus, PermissionLevel, PullRequest};
use crate::decision::decide::{self, Rejection, Step, StepError, Target};
use crate::decision::draft::CheckedDraft;
use crate::model::ledger::{Prior, prior_for, receipted};

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

/// What one run of several submissions (a batch) learned once and uses for
/// the rest: the token's login (step 2) and the repositories that login was
/// seen to have write permission on (step 3). The pull request and its head
/// (step 4) are read before every post all the same, and the head again
/// after it (step 6): those can change between two decisions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Known {
    login: Option<String>,
    writable: Vec<String>,
}

/// [`submit_with`], taking the actor and permission from `known` when an
/// earlier submission of the batch read them, and noting them there.
pub async fn submit_knowing(
    client: &Client,
    draft: &CheckedDraft,
    options: &SubmitOptions,
    journal: &mut dyn Journal,
    known: &mut Known,
) -> Outcome {
    match run(client, draft, options, journal, known).await {
        Ok(receipt) => Outcome::Recorded(receipt),
        Err(outcome) => outcome,
    }
}

/// The sequence; `Err` carries every outcome other than recorded.
async fn run(
    client: &Client,
    draft: &CheckedDraft,
    options: &SubmitOptions,
    journal: &mut dyn Journal,
    known: &mut Known,
) -> Result<Receipt, Outcome> {
    let target = draft.target();
    finish_deletes(client, target, &options.pending_deletes, journal).await?;
    let repo = &target.repository;
    let number = target.pull_request.to_string();

    // Steps 2 and 4 are independent reads: the pull request is read beside
    // the actor, and its answer judged after the actor's and the permission's
    // (the order of the checks, and so of the refusals, is the protocol's).
    let pull_route = Route::repo(repo, ["pulls", number.as_str()]);
    let (actor, pull) = match known.login.clone() {
        Some(login) => (Ok(login), client.get_json::<PullRequest>(&pull_route).await),
        None => {
            let user_route = Route::new(["user"]);
            let (actor, pull) = tokio::join!(
                client.get_json::<Account>(&user_route),
                client.get_json::<PullRequest>(&pull_route)
            );
            (actor.map(|a| a.login), pull)
        }
    };
    let login = step(Step::Actor, actor)?;
    known.login = Some(login.clone());
    decide::check_actor(&login, draft.draft().actor.as_deref()).map_err(not_posted)?;

    let repo_key = repo.as_str().to_ascii_lowercase();
    if !known.writable.contains(&repo_key) {
        let permission_route = Route::repo(repo, ["collaborators", login.as_str(), "permission"]);
        let level = step(
            Step::Permission,
            client.get_json::<PermissionLevel>(&permission_route).await,
        )?;
        decide::check_permission(&login, &level).map_err(not_posted)?;
        known.writable.push(repo_key);
    }

    let pull = step(Step::PullRequest, pull)?;
    decide::check_pull(&pull, target).map_err(not_posted)?;

    let rendered = render(draft, &login);
    let receipt = |comment_id: u64, reused: bool, already_recorded: bool| Receipt {
        comment_id,
        url: comment_url(client, target, comment_id),
        fingerprint: draft.draft().fingerprint.clone(),
        disposition: draft.draft().status,
        actor: login.clone(),
        digest: rendered.digest.clone(),
        reused,
        already_recorded,
    };
    let existing = match look_up(client, draft, &login, &rendered, options).await? {
        Found::Done(id) => return Ok(receipt(id, true, true)),
        Found::Unattested(id) => Some(id),
        Found::Nothing => None,
    };
    let comment_id = match existing {
        Some(id) => id,
        None => {
            let route = Route::repo(repo, ["issues", number.as_str(), "comments"]);
            let posted = client
                .post_json::<_, IssueComment>(&route, &NewComment { body: &rendered.body })
                .await;
            step(Step::Comment, posted)?.id
        }
    };
    attest(client, target, comment_id, &login, &rendered, journal).await?;
    read_back(client, target, comment_id, &login, &rendered).await?;
    Ok(receipt(comment_id, existing.is_some(), false))
}

/// What the ledger says about this exact decision.
enum Found {
    /// Attested already: nothing to send.
    Done(u64),
    /// The identical comment exists without its receipt: attest it.
    Unattested(u64),
    /// Post a new comment.
    Nothing,
}

/// Reads the ledger and applies the never-twice rule.
async fn look_up(
    client: &Client,
    draft: &CheckedDraft,
    login: &str,
    rendered: &Rendered,
    options: &SubmitOptions,
) -> Result<Found, Outcome> {
    let ledger = match ledger::read(client, draft.target(), &[login]).await {
        Ok(l) => l,
        Err(LedgerError::Comments(error)) => return Err(failed(Step::FindExisting, error, None)),
        Err(LedgerError::Undecided(reason)) => return Err(not_posted(Rejection::LedgerUndecided { reason })),
    };
    let fingerprint = &draft.draft().fingerprint;
    match prior_for(&ledger, fingerprint, login, &rendered.digest, &options.pending_deletes) {
        Prior::AlreadyRecorded(r) => Ok(Found::Done(r.comment_id)),
        Prior::Different(r) if !options.supersede => Err(not_posted(Rejection::AlreadyDecided {
            comment_id: r.comment_id,
            url: ledger.url(r.comment_id),
            disposition: r.decision.as_ref().map_or(draft.draft().status, |d| d.disposition),
            actor: r.author.clone(),
        })),
        Prior::Unattested(r) => Ok(Found::Unattested(r.comment_id)),
        Prior::Different(_) | Prior::Nothing => Ok(Found::Nothing),
    }
}

/// Steps 6 and 7: the head again, then the status; on any refusal the
/// comment is deleted again.
async fn attest(
    client: &Client,
    target: &Target,
    comment_id: u64,
    login: &str,
    rendered: &Rendered,
    journal: &mut dyn Journal,
) -> Result<(), Outcome> {
    let number = target.pull_request.to_string();
    let pull_route = Route::repo(&target.repository, ["pulls", number.as_str()]);
    let reread = client.get_json::<PullRequest>(&pull_route).await;
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

/// After step 7: the comment must still be there with the exact body by the
/// actor, and the head's statuses must attest it.
async fn read_back(
    client: &Client,
    target: &Target,
    comment_id: u64,
    login: &str,
    rendered: &Rendered,
) -> Result<(), Outcome> {
    let id = comment_id.to_string();
    let route = Route::repo(&target.repository, ["issues", "comments", id.as_str()]);
    let comment = match client.get_json::<IssueComment>(&route).await {
        Ok(c) => c,
        // Gone (a late clean-up delete landed?): nothing is recorded and
        // nothing is left; the next attempt posts afresh.
        Err(error @ GhError::NotFound { .. }) => return Err(failed(Step::ReadBack, error, None)),
        Err(error) => return Err(failed(Step::ReadBack, error, Some(comment_id))),
    };
    let same = comment.body.as_deref() == Some(rendered.body.as_str())
        && comment.user.as_ref().is_some_and(|u| u.login == login);
    if !same {
        let error = GhError::Decode {
            message: format!("comment {comment_id} no longer has the posted body and author"),
        };
        return Err(failed(Step::ReadBack, error, Some(comment_id)));
    }
    let statuses = ledger::read_statuses(client, target, &target.reviewed_sha)
        .await
        .map_err(|error| failed(Step::ReadBack, error, Some(comment_id)))?;
    let record = crate::model::ledger::CommentRecord {
        id: comment_id,
        author: Some(login.to_owned()),
        body: rendered.body.clone(),
    };
    if receipted(std::slice::from_ref(&record), &statuses).is_empty() {
        let error = GhError::Decode {
            message: format!("the head's statuses do not attest comment {comment_id}"),
        };
        return Err(failed(Step::ReadBack, error, Some(comment_id)));
    }
    Ok(())
}

/// Finishes the deletes an earlier attempt sent; any that fails stops the
/// attempt before anything is posted.
async fn finish_deletes(
    client: &Client,
    target: &Target,
    pending: &[u64],
    journal: &mut dyn Journal,
) -> Result<(), Outcome> {
    for &comment_id in pending {
        match delete_comment(client, target, comment_id).await {
            Ok(()) => journal.deleted(comment_id),
            Err(error) => return Err(failed(Step::CleanUp, error, Some(comment_id))),
        }
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
fn step<T>(step: Step, result: Result<T, GhError>) -> Result<T, Outcome> {
    result.map_err(|error| match decide::classify(step, error) {
        StepError::Refused(reason) => not_posted(reason),
        StepError::Failed(error) => failed(step, error, None),
    })
}

fn failed(step: Step, error: GhError, comment_left: Option<u64>) -> Outcome {
    Outcome::Failed {
        step,
        error,
        comment_left,
    }
}

fn not_posted(reason: Rejection) -> Outcome {
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
