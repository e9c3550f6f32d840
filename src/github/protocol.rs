//! The disposition protocol ReviewGate replays (INTEROP §4, steps 2–8), as
//! one sequence of requests. Every decision along the way is a function in
//! [`super::decide`]; this file only performs the requests in order.
//!
//! Nothing is left half-done on GitHub: a comment is deleted again when the
//! head moved, could not be re-read, or the attestation failed or was made
//! by someone else.

use super::client::Client;
use super::decide::{self, Rejection, Step, StepError, Target};
use super::draft::CheckedDraft;
use super::error::GhError;
use super::route::Route;
use super::wire::{Account, CreatedStatus, IssueComment, NewComment, NewStatus, PermissionLevel, PullRequest};
use crate::model::finding::SubmittedDisposition;

/// Comments per page when searching for an earlier attempt's comment.
const PAGE_SIZE: usize = 100;
/// Pages searched at most (10,000 comments).
const MAX_PAGES: usize = 100;

/// What a submission achieved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The comment and its attestation are on GitHub.
    Recorded(Receipt),
    /// The protocol refused the decision. `comment_removed` is true when a
    /// comment had been posted and was deleted again; false when none was
    /// posted, or when deleting it failed (the reason then says so).
    Rejected { reason: Rejection, comment_removed: bool },
    /// GitHub could not be reached or failed; nothing is known to be
    /// recorded. `comment_left` names a posted comment that could not be
    /// deleted again (a retry finds and reuses it).
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
    /// True when an earlier attempt's comment was found and reused.
    pub reused: bool,
}

impl Outcome {
    /// True when the decision is recorded.
    pub fn is_recorded(&self) -> bool {
        matches!(self, Outcome::Recorded(_))
    }

    /// One line for people (GitHub text inside is untrusted: sanitise it).
    pub fn summary(&self) -> String {
        match self {
            Outcome::Recorded(r) => format!("recorded {} as {}: {}", r.fingerprint, r.disposition.as_str(), r.url),
            Outcome::Rejected {
                reason,
                comment_removed,
            } => {
                let tail = if *comment_removed {
                    " (the posted comment was removed)"
                } else {
                    ""
                };
                format!("rejected: {reason}{tail}")
            }
            Outcome::Failed {
                step,
                error,
                comment_left,
            } => {
                let tail = comment_left
                    .map(|id| format!(" (comment {id} could not be removed; a retry reuses it)"))
                    .unwrap_or_default();
                format!("failed while {step}: {error}{tail}")
            }
        }
    }
}

/// How one submission runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SubmitOptions {
    /// Before posting, search the pull request's comments for one by the
    /// same actor with the byte-identical body, and reuse it. Set it for any
    /// second attempt at the same decision (an earlier POST may have taken
    /// effect although its answer was lost).
    pub look_for_existing: bool,
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

/// Runs steps 2–8 for a checked draft.
pub async fn submit(client: &Client, draft: &CheckedDraft, options: SubmitOptions) -> Outcome {
    match run(client, draft, options).await {
        Ok(receipt) => Outcome::Recorded(receipt),
        Err(outcome) => outcome,
    }
}

/// The sequence; `Err` carries every outcome other than recorded.
async fn run(client: &Client, draft: &CheckedDraft, options: SubmitOptions) -> Result<Receipt, Outcome> {
    let target = draft.target();
    let repo = &target.repository;
    let number = target.pull_request.to_string();

    let login = step(Step::Actor, client.get_json::<Account>(&Route::new(["user"])).await)?.login;
    decide::check_actor(&login, draft.draft().actor.as_deref()).map_err(not_posted)?;

    let permission_route = Route::repo(repo, ["collaborators", login.as_str(), "permission"]);
    let level = step(
        Step::Permission,
        client.get_json::<PermissionLevel>(&permission_route).await,
    )?;
    decide::check_permission(&login, &level).map_err(not_posted)?;

    let pull_route = Route::repo(repo, ["pulls", number.as_str()]);
    let pull = step(Step::PullRequest, client.get_json::<PullRequest>(&pull_route).await)?;
    decide::check_pull(&pull, target).map_err(not_posted)?;

    let rendered = render(draft, &login);
    let existing = match options.look_for_existing {
        true => find_existing(client, target, &login, &rendered.body).await?,
        false => None,
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

    let reread = client.get_json::<PullRequest>(&pull_route).await;
    if let Err(reason) = decide::recheck_head(reread.as_ref(), target) {
        return Err(rejected_after_posting(client, target, comment_id, reason).await);
    }

    let url = comment_url(client, target, comment_id);
    let context = crate::model::disposition::status_context(comment_id);
    let status = NewStatus {
        state: "success",
        target_url: &url,
        description: &rendered.digest,
        context: &context,
    };
    let status_route = Route::repo(repo, ["statuses", target.reviewed_sha.as_str()]);
    let created = match client.post_json::<_, CreatedStatus>(&status_route, &status).await {
        Ok(created) => created,
        Err(error) => return Err(attestation_failed(client, target, comment_id, error).await),
    };
    if let Err(reason) = decide::check_creator(&created, &login) {
        return Err(rejected_after_posting(client, target, comment_id, reason).await);
    }

    Ok(Receipt {
        comment_id,
        url,
        fingerprint: draft.draft().fingerprint.clone(),
        disposition: draft.draft().status,
        actor: login,
        digest: rendered.digest,
        reused: existing.is_some(),
    })
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
        StepError::Refused(reason) => Outcome::Rejected {
            reason,
            comment_removed: false,
        },
        StepError::Failed(error) => Outcome::Failed {
            step,
            error,
            comment_left: None,
        },
    })
}

fn not_posted(reason: Rejection) -> Outcome {
    Outcome::Rejected {
        reason,
        comment_removed: false,
    }
}

/// Pages through the pull request's comments for an earlier identical one.
async fn find_existing(client: &Client, target: &Target, actor: &str, body: &str) -> Result<Option<u64>, Outcome> {
    let number = target.pull_request.to_string();
    for page in 1..=MAX_PAGES {
        let route = Route::repo(&target.repository, ["issues", number.as_str(), "comments"])
            .query("per_page", PAGE_SIZE)
            .query("page", page);
        let comments = step(Step::FindExisting, client.get_json::<Vec<IssueComment>>(&route).await)?;
        if let Some(id) = decide::find_existing(&comments, actor, body) {
            return Ok(Some(id));
        }
        if comments.len() < PAGE_SIZE {
            break;
        }
    }
    Ok(None)
}

/// Deletes the comment; true when it is gone (a 404 means already gone).
async fn remove_comment(client: &Client, target: &Target, comment_id: u64) -> bool {
    let id = comment_id.to_string();
    let route = Route::repo(&target.repository, ["issues", "comments", id.as_str()]);
    match client.delete(&route).await {
        Ok(()) | Err(GhError::NotFound { .. }) => true,
        Err(error) => {
            tracing::warn!(comment_id, %error, "could not delete a disposition comment");
            false
        }
    }
}

async fn rejected_after_posting(client: &Client, target: &Target, comment_id: u64, reason: Rejection) -> Outcome {
    let comment_removed = remove_comment(client, target, comment_id).await;
    Outcome::Rejected {
        reason,
        comment_removed,
    }
}

/// Step 7 failed: delete the comment, then report a refusal as rejected and
/// anything else as failed.
async fn attestation_failed(client: &Client, target: &Target, comment_id: u64, error: GhError) -> Outcome {
    let removed = remove_comment(client, target, comment_id).await;
    match decide::classify(Step::Attestation, error) {
        StepError::Refused(reason) => Outcome::Rejected {
            reason,
            comment_removed: removed,
        },
        StepError::Failed(error) => Outcome::Failed {
            step: Step::Attestation,
            error,
            comment_left: (!removed).then_some(comment_id),
        },
    }
}
