//! The decisions of the disposition protocol, as plain functions of what
//! GitHub answered: no I/O here, so every branch is unit-tested.

use crate::github::error::GhError;
use crate::github::route::RepoName;
use crate::github::wire::{CreatedStatus, PermissionLevel, PullRequest};
use std::fmt;

/// What a submission targets: one pull request at one exact head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub repository: RepoName,
    pub pull_request: u64,
    pub reviewed_sha: String,
}

/// The protocol's steps (INTEROP §4), named in outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// 2: `GET /user`.
    Actor,
    /// 3: the token user's permission on the repository (`GET /repos/{repo}`).
    Permission,
    /// 4: the pull request and its head.
    PullRequest,
    /// Before 2 on a retry: finish the clean-up deletes an earlier attempt sent.
    CleanUp,
    /// Before 5: read the pull request's decision ledger (what is already recorded).
    FindExisting,
    /// 5: post the comment.
    Comment,
    /// 6: re-read the head.
    HeadRecheck,
    /// 7: the commit-status attestation.
    Attestation,
    /// After 7: read the comment and its status back.
    ReadBack,
}

impl Step {
    /// A short name for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Actor => "reading the authenticated user",
            Step::Permission => "checking write permission",
            Step::PullRequest => "reading the pull request",
            Step::CleanUp => "finishing an earlier clean-up delete",
            Step::FindExisting => "reading the decisions the pull request holds",
            Step::Comment => "posting the comment",
            Step::HeadRecheck => "re-reading the pull request head",
            Step::Attestation => "posting the attestation status",
            Step::ReadBack => "reading the comment and its status back",
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why the protocol refused a decision. GitHub text inside is untrusted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// A ready payload names another actor than the token's user.
    #[error("the payload's actor {payload_actor:?} is not the authenticated user {login:?}")]
    ActorMismatch { payload_actor: String, login: String },
    /// The user cannot write to the repository.
    #[error("{login:?} has {permission:?} permission on the repository; write, maintain or admin is needed")]
    NoWritePermission { login: String, permission: String },
    /// The pull request's number is not the one asked for.
    #[error("GitHub returned pull request #{got} for #{asked}")]
    PullNumberMismatch { asked: u64, got: u64 },
    /// The pull request is closed or merged.
    #[error("the pull request is {state:?}, not open")]
    PullNotOpen { state: String },
    /// The pull request's base is another repository.
    #[error("the pull request's base repository is {got:?}, not {expected}")]
    OtherBaseRepository { expected: String, got: Option<String> },
    /// The head is not the reviewed commit: load the current result.
    #[error("stale head: the pull request head is {head}, the result reviewed {reviewed}; load the current result")]
    StaleHead { reviewed: String, head: String },
    /// The head moved while the comment was being posted.
    #[error("stale head: the pull request head moved to {head} after the comment was posted (reviewed {reviewed})")]
    HeadMoved { reviewed: String, head: String },
    /// The head could not be re-read after posting, so the comment cannot be trusted.
    #[error("the pull request head could not be re-read after posting ({error}); treated as stale")]
    HeadUnreadable { error: GhError },
    /// The attestation's creator is not the actor.
    #[error("the attestation was created by {}, not {actor:?}", creator.as_deref().map_or("nobody".to_owned(), |c| format!("{c:?}")))]
    CreatorMismatch { actor: String, creator: Option<String> },
    /// A different decision for this finding is recorded on this head;
    /// posting would override it (supersede to do so on purpose).
    #[error("{} is already recorded for this finding on this head by {} (comment {comment_id}: {url}); supersede it to record yours", disposition.as_str(), actor.as_deref().map_or("an unknown author".to_owned(), |a| format!("{a:?}")))]
    AlreadyDecided {
        comment_id: u64,
        url: String,
        disposition: crate::model::finding::SubmittedDisposition,
        actor: Option<String>,
    },
    /// Whether this decision is already recorded cannot be decided (replay fails closed).
    #[error("what the pull request already holds cannot be decided: {reason}")]
    LedgerUndecided { reason: String },
    /// GitHub refused one step with a 4xx (permission, not found, validation).
    #[error("GitHub refused {step}: {error}")]
    Refused { step: Step, error: GhError },
}

/// What to do with an error at a step: a refusal ends the protocol as
/// rejected; anything else (network, 5xx, rate limit, 401) as failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// The decision was refused.
    Refused(Rejection),
    /// GitHub could not be asked; the same request may succeed later.
    Failed(GhError),
}

/// Classifies an error at a step. `GET /user` never rejects (it says nothing
/// about the decision); the listing of comments never does either (without
/// it a retry cannot know whether it already posted).
pub fn classify(step: Step, error: GhError) -> StepError {
    match step {
        Step::Actor | Step::FindExisting | Step::CleanUp | Step::ReadBack => StepError::Failed(error),
        _ if error.is_refusal() => StepError::Refused(Rejection::Refused { step, error }),
        _ => StepError::Failed(error),
    }
}

/// Step 2 for a ready payload: its actor must be the authenticated login.
pub fn check_actor(login: &str, payload_actor: Option<&str>) -> Result<(), Rejection> {
    match payload_actor {
        Some(actor) if actor != login => Err(Rejection::ActorMismatch {
            payload_actor: actor.to_owned(),
            login: login.to_owned(),
        }),
        _ => Ok(()),
    }
}

/// Step 3: write, maintain or admin.
pub fn check_permission(login: &str, level: &PermissionLevel) -> Result<(), Rejection> {
    if matches!(level.permission.as_str(), "admin" | "maintain" | "write") {
        Ok(())
    } else {
        Err(Rejection::NoWritePermission {
            login: login.to_owned(),
            permission: level.permission.clone(),
        })
    }
}

/// Step 4: the number, open state, base repository and exact head.
pub fn check_pull(pull: &PullRequest, target: &Target) -> Result<(), Rejection> {
    if pull.number != target.pull_request {
        return Err(Rejection::PullNumberMismatch {
            asked: target.pull_request,
            got: pull.number,
        });
    }
    if pull.state != "open" {
        return Err(Rejection::PullNotOpen {
            state: pull.state.clone(),
        });
    }
    let base = pull.base.repo.as_ref().map(|r| r.full_name.clone());
    if base.as_deref() != Some(target.repository.as_str()) {
        return Err(Rejection::OtherBaseRepository {
            expected: target.repository.to_string(),
            got: base,
        });
    }
    if pull.head.sha != target.reviewed_sha {
        return Err(Rejection::StaleHead {
            reviewed: target.reviewed_sha.clone(),
            head: pull.head.sha.clone(),
        });
    }
    Ok(())
}

/// Step 6: the head after posting. A failed read counts as moved.
pub fn recheck_head(reread: Result<&PullRequest, &GhError>, target: &Target) -> Result<(), Rejection> {
    match reread {
        Ok(pull) if pull.head.sha == target.reviewed_sha => Ok(()),
        Ok(pull) => Err(Rejection::HeadMoved {
            reviewed: target.reviewed_sha.clone(),
            head: pull.head.sha.clone(),
        }),
        Err(error) => Err(Rejection::HeadUnreadable { error: error.clone() }),
    }
}

/// Step 7: the status's creator must be the actor.
pub fn check_creator(status: &CreatedStatus, actor: &str) -> Result<(), Rejection> {
    let creator = status.creator.as_ref().map(|c| c.login.clone());
    if creator.as_deref() == Some(actor) {
        Ok(())
    } else {
        Err(Rejection::CreatorMismatch {
            actor: actor.to_owned(),
            creator,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::wire::{Account, BaseRepository, PullBase, PullHead};

    fn target() -> Target {
        Target {
            repository: RepoName::parse("o/r").unwrap(),
            pull_request: 7,
            reviewed_sha: "abc".into(),
        }
    }

    fn pull(number: u64, state: &str, base: Option<&str>, sha: &str) -> PullRequest {
        PullRequest {
            number,
            state: state.into(),
            head: PullHead { sha: sha.into() },
            base: PullBase {
                repo: base.map(|b| BaseRepository { full_name: b.into() }),
            },
        }
    }

    #[test]
    fn pull_checks_in_order() {
        let t = target();
        assert_eq!(check_pull(&pull(7, "open", Some("o/r"), "abc"), &t), Ok(()));
        assert!(matches!(
            check_pull(&pull(8, "open", Some("o/r"), "abc"), &t),
            Err(Rejection::PullNumberMismatch { .. })
        ));
        assert!(matches!(
            check_pull(&pull(7, "closed", Some("o/r"), "abc"), &t),
            Err(Rejection::PullNotOpen { .. })
        ));
        assert!(matches!(
            check_pull(&pull(7, "open", Some("x/r"), "abc"), &t),
            Err(Rejection::OtherBaseRepository { .. })
        ));
        assert!(matches!(
            check_pull(&pull(7, "open", Some("O/R"), "abc"), &t),
            Err(Rejection::OtherBaseRepository { .. })
        ));
        assert!(matches!(
            check_pull(&pull(7, "open", None, "abc"), &t),
            Err(Rejection::OtherBaseRepository { .. })
        ));
        assert_eq!(
            check_pull(&pull(7, "open", Some("o/r"), "def"), &t),
            Err(Rejection::StaleHead {
                reviewed: "abc".into(),
                head: "def".into()
            })
        );
    }

    #[test]
    fn permission_needs_write_maintain_or_admin() {
        let level = |p: &str| PermissionLevel {
            permission: p.into(),
            role_name: None,
        };
        for ok in ["admin", "maintain", "write"] {
            assert_eq!(check_permission("me", &level(ok)), Ok(()));
        }
        for no in ["read", "triage", "none", "", "Write"] {
            assert!(check_permission("me", &level(no)).is_err(), "{no}");
        }
    }

    #[test]
    fn head_recheck_treats_a_failed_read_as_moved() {
        let t = target();
        assert_eq!(recheck_head(Ok(&pull(7, "open", Some("o/r"), "abc")), &t), Ok(()));
        assert!(matches!(
            recheck_head(Ok(&pull(7, "open", Some("o/r"), "new")), &t),
            Err(Rejection::HeadMoved { .. })
        ));
        let err = GhError::Http {
            status: 502,
            message: "x".into(),
        };
        assert!(matches!(
            recheck_head(Err(&err), &t),
            Err(Rejection::HeadUnreadable { .. })
        ));
    }

    #[test]
    fn creator_must_be_the_actor() {
        let status = |c: Option<&str>| CreatedStatus {
            id: Some(1),
            creator: c.map(|l| Account { login: l.into() }),
        };
        assert_eq!(check_creator(&status(Some("me")), "me"), Ok(()));
        assert!(check_creator(&status(Some("bot")), "me").is_err());
        let none = check_creator(&status(None), "me").unwrap_err();
        assert!(none.to_string().contains("nobody"), "{none}");
    }

    #[test]
    fn actor_of_a_ready_payload() {
        assert_eq!(check_actor("me", None), Ok(()));
        assert_eq!(check_actor("me", Some("me")), Ok(()));
        assert!(check_actor("me", Some("you")).is_err());
    }

    #[test]
    fn classification_by_step() {
        let forbidden = GhError::Forbidden { message: "no".into() };
        let down = GhError::Http {
            status: 503,
            message: "x".into(),
        };
        assert!(matches!(
            classify(Step::Comment, forbidden.clone()),
            StepError::Refused(_)
        ));
        assert!(matches!(classify(Step::Comment, down.clone()), StepError::Failed(_)));
        assert!(matches!(classify(Step::Actor, forbidden.clone()), StepError::Failed(_)));
        assert!(matches!(classify(Step::FindExisting, forbidden), StepError::Failed(_)));
        let limited = GhError::RateLimited { reset: None };
        assert!(matches!(classify(Step::Permission, limited), StepError::Failed(_)));
        assert!(matches!(
            classify(Step::Permission, GhError::Unauthorized),
            StepError::Failed(_)
        ));
    }
}
