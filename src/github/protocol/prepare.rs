//! Everything a submission reads before it posts, read at once: the actor
//! (`GET /user`), the token user's permission (`GET /repos/{repo}`), the
//! pull request and its head, and the ledger (comments and the head's
//! statuses). None of these reads needs another's answer, so together they
//! cost one round trip. Clean-up deletes an earlier attempt left unfinished
//! are sent before them (one round trip more, on such a retry only). The
//! answers are judged in the protocol's order (actor, permission, pull
//! request, ledger), so the refusal a user sees is the one reading them one
//! after another would give.
//!
//! [`Known`] keeps what a run of several submissions (a batch) has read:
//! the actor and the permission once, and per pull request and head the
//! newest head read and the ledger, so the second decision of a batch posts
//! without reading anything first.

use super::super::cleanup::{Journal, delete_comment};
use super::super::client::Client;
use super::super::error::GhError;
use super::super::ledger::{self, LedgerError};
use super::super::route::Route;
use super::super::wire::{Account, PermissionLevel, PullRequest, RepositoryAccess};
use super::{Rendered, SubmitOptions, failed, not_posted, render, step};
use crate::decision::decide::{self, Rejection, Step, Target};
use crate::decision::draft::CheckedDraft;
use crate::decision::outcome::Outcome;
use crate::model::ledger::{Ledger, Prior, prior_for};

/// What a run of submissions has read and may use again (see the module
/// documentation). Only answers that passed their checks are kept; a failed
/// read is read again by the next submission.
#[derive(Debug, Clone, Default)]
pub struct Known {
    login: Option<String>,
    /// Lower-cased `OWNER/NAME` and the permission read for it.
    access: Vec<(String, PermissionLevel)>,
    pulls: Vec<PullKnown>,
}

/// One pull request at one head, as last read in this run.
#[derive(Debug, Clone)]
struct PullKnown {
    key: (String, u64, String),
    /// The newest read of the pull request: the first, then each re-check
    /// after a post ([`Known::saw_head`]).
    pull: PullRequest,
    ledger: Ledger,
    /// Fingerprints this run has posted for since the ledger was read: a
    /// decision for one of them reads the ledger again.
    touched: Vec<String>,
}

fn key_of(target: &Target) -> (String, u64, String) {
    (
        target.repository.as_str().to_ascii_lowercase(),
        target.pull_request,
        target.reviewed_sha.clone(),
    )
}

impl Known {
    fn access_for(&self, repo_key: &str) -> Option<&PermissionLevel> {
        self.access.iter().find(|(k, _)| k == repo_key).map(|(_, level)| level)
    }

    fn pull_for(&self, target: &Target, fingerprint: &str) -> Option<&PullKnown> {
        let key = key_of(target);
        self.pulls
            .iter()
            .find(|p| p.key == key && !p.touched.iter().any(|f| f == fingerprint))
    }

    fn keep_pull(&mut self, target: &Target, pull: PullRequest, ledger: Ledger) {
        let key = key_of(target);
        self.pulls.retain(|p| p.key != key);
        self.pulls.push(PullKnown {
            key,
            pull,
            ledger,
            touched: Vec::new(),
        });
    }

    /// A post for `fingerprint` was sent: its ledger entry is no longer known.
    pub(super) fn posted(&mut self, target: &Target, fingerprint: &str) {
        let key = key_of(target);
        if let Some(p) = self.pulls.iter_mut().find(|p| p.key == key) {
            p.touched.push(fingerprint.to_owned());
        }
    }

    /// The head was read again (step 6): the next decision's step 4 judges
    /// this answer; a failed read makes the next decision read it afresh.
    pub(super) fn saw_head(&mut self, target: &Target, reread: Result<&PullRequest, &GhError>) {
        let key = key_of(target);
        match reread {
            Ok(pull) => {
                if let Some(p) = self.pulls.iter_mut().find(|p| p.key == key) {
                    p.pull = pull.clone();
                }
            }
            Err(_) => self.pulls.retain(|p| p.key != key),
        }
    }
}

/// What the ledger says this submission must do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Attested already: nothing to send.
    Done(u64),
    /// The identical comment exists without its receipt: attest it.
    Attest(u64),
    /// Post a new comment.
    Post,
}

/// A submission that passed every check before posting.
#[derive(Debug, Clone)]
pub struct Ready {
    pub login: String,
    pub rendered: Rendered,
    pub plan: Plan,
}

/// Finishes the unfinished deletes and reads what is not `known`, all at
/// once, then judges the answers in the protocol's order.
pub async fn prepare(
    client: &Client,
    draft: &CheckedDraft,
    options: &SubmitOptions,
    journal: &mut dyn Journal,
    known: &mut Known,
) -> Result<Ready, Outcome> {
    let target = draft.target();
    let repo = &target.repository;
    let repo_key = repo.as_str().to_ascii_lowercase();
    let fingerprint = draft.draft().fingerprint.as_str();
    let number = target.pull_request.to_string();
    let need_login = known.login.is_none();
    let need_access = known.access_for(&repo_key).is_none();
    let need_pull = known.pull_for(target, fingerprint).is_none();
    // The deletes first: until they are done nothing else is asked.
    finish_deletes(client, target, &options.pending_deletes, journal).await?;
    let (user, access, pull, raw) = tokio::join!(
        async {
            match need_login {
                true => Some(client.get_json::<Account>(&Route::new(["user"])).await),
                false => None,
            }
        },
        async {
            match need_access {
                true => Some(
                    client
                        .get_json::<RepositoryAccess>(&Route::repo(repo, [] as [&str; 0]))
                        .await,
                ),
                false => None,
            }
        },
        async {
            match need_pull {
                true => Some(
                    client
                        .get_json::<PullRequest>(&Route::repo(repo, ["pulls", number.as_str()]))
                        .await,
                ),
                false => None,
            }
        },
        async {
            match need_pull {
                true => Some(ledger::read_raw(client, target).await),
                false => None,
            }
        },
    );

    if let Some(user) = user {
        known.login = Some(step(Step::Actor, user)?.login);
    }
    let login = known.login.clone().unwrap_or_default();
    decide::check_actor(&login, draft.draft().actor.as_deref()).map_err(not_posted)?;

    if let Some(access) = access {
        let level = step(Step::Permission, access)?.level();
        decide::check_permission(&login, &level).map_err(not_posted)?;
        known.access.push((repo_key, level));
    }

    if let (Some(pull), Some(raw)) = (pull, raw) {
        let pull = step(Step::PullRequest, pull)?;
        decide::check_pull(&pull, target).map_err(not_posted)?;
        let ledger = match ledger::judge(client, target, raw, &[login.as_str()]).await {
            Ok(l) => l,
            Err(LedgerError::Comments(error)) => return Err(failed(Step::FindExisting, error, None)),
            Err(LedgerError::Undecided(reason)) => return Err(not_posted(Rejection::LedgerUndecided { reason })),
        };
        known.keep_pull(target, pull, ledger);
    }
    let Some(cached) = known.pull_for(target, fingerprint) else {
        // Unreachable: the pull request was just kept or was known.
        return Err(not_posted(Rejection::LedgerUndecided {
            reason: "the pull request was not read".to_owned(),
        }));
    };
    if !need_pull {
        // The newest head this run read (the previous decision's re-check).
        decide::check_pull(&cached.pull, target).map_err(not_posted)?;
    }

    let rendered = render(draft, &login);
    let plan = plan_for(&cached.ledger, draft, &login, &rendered, options)?;
    Ok(Ready { login, rendered, plan })
}

/// Applies the never-twice rule to the ledger.
fn plan_for(
    ledger: &Ledger,
    draft: &CheckedDraft,
    login: &str,
    rendered: &Rendered,
    options: &SubmitOptions,
) -> Result<Plan, Outcome> {
    let fingerprint = &draft.draft().fingerprint;
    match prior_for(ledger, fingerprint, login, &rendered.digest, &options.pending_deletes) {
        Prior::AlreadyRecorded(r) => Ok(Plan::Done(r.comment_id)),
        Prior::Different(r) if !options.supersede => Err(not_posted(Rejection::AlreadyDecided {
            comment_id: r.comment_id,
            url: ledger.url(r.comment_id),
            disposition: r.decision.as_ref().map_or(draft.draft().status, |d| d.disposition),
            actor: r.author.clone(),
        })),
        Prior::Unattested(r) => Ok(Plan::Attest(r.comment_id)),
        Prior::Different(_) | Prior::Nothing => Ok(Plan::Post),
    }
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
