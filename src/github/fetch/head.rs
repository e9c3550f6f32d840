//! The pull request's current head commit, read from GitHub and checked
//! against the request.

use super::FetchRequest;
use super::error::{FetchError, shown};
use crate::github::client::Client;
use crate::github::route::Route;
use serde::Deserialize;

/// `GET /repos/{repo}/pulls/{n}`, only what is checked.
#[derive(Debug, Deserialize)]
struct PullInfo {
    number: u64,
    head: CommitRef,
    base: BaseRef,
}

#[derive(Debug, Deserialize)]
struct CommitRef {
    sha: String,
}

#[derive(Debug, Deserialize)]
struct BaseRef {
    repo: Option<RepoInfo>,
}

#[derive(Debug, Deserialize)]
struct RepoInfo {
    full_name: String,
}

/// The pull request's current head SHA, after checking the answer is about it
/// (the screen compares it with a loaded result to tell when that went stale).
pub async fn current_head(client: &Client, req: &FetchRequest) -> Result<String, FetchError> {
    let route = Route::repo(&req.repo, ["pulls", &req.pr.to_string()]);
    let pull: PullInfo = client.get_json(&route).await.map_err(|cause| FetchError::GitHub {
        step: format!("read pull request {}#{}", req.repo, req.pr),
        cause,
    })?;
    if pull.number != req.pr {
        return Err(FetchError::Mismatch {
            what: "the pull request",
            detail: format!("number {}", pull.number),
        });
    }
    match pull.base.repo {
        Some(r) if r.full_name.eq_ignore_ascii_case(req.repo.as_str()) => {}
        other => {
            let found = other.map_or_else(|| "no repository".to_owned(), |r| shown(&r.full_name));
            return Err(FetchError::Mismatch {
                what: "the pull request's base repository",
                detail: found,
            });
        }
    }
    if !is_commit_sha(&pull.head.sha) {
        return Err(FetchError::Mismatch {
            what: "the head commit",
            detail: shown(&pull.head.sha),
        });
    }
    Ok(pull.head.sha)
}

pub use crate::model::text::is_commit_sha;
