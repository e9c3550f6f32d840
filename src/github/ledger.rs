//! Reading a pull request's decision ledger: its issue comments (all pages),
//! the combined status of the head (all pages), and the write permission of
//! each unattested author, looked up once. The classification itself is
//! [`crate::model::ledger`].

use super::client::Client;
use super::error::GhError;
use super::route::Route;
use super::wire::{CombinedStatus, IssueComment, PermissionLevel};
use crate::decision::decide::Target;
use crate::model::disposition::STATUS_CONTEXT_PREFIX;
use crate::model::ledger::{
    Authorisation, CommentRecord, Ledger, LedgerScope, LedgerState, StatusRecord, classify, pending_authors, pick,
    receipted,
};
use std::collections::BTreeMap;

/// Items per page of every listing read here.
pub const PAGE_SIZE: usize = 100;
/// Pages read at most (10,000 items); a longer listing is refused, not cut.
pub const MAX_PAGES: usize = 100;

/// Every issue comment of the pull request, in GitHub's order.
pub async fn read_comments(client: &Client, target: &Target) -> Result<Vec<CommentRecord>, GhError> {
    let number = target.pull_request.to_string();
    let mut all = Vec::new();
    for page in 1..=MAX_PAGES {
        let route = Route::repo(&target.repository, ["issues", number.as_str(), "comments"])
            .query("per_page", PAGE_SIZE)
            .query("page", page);
        let comments = client.get_json::<Vec<IssueComment>>(&route).await?;
        let full = comments.len() >= PAGE_SIZE;
        all.extend(comments.into_iter().map(|c| CommentRecord {
            id: c.id,
            author: c.user.map(|u| u.login),
            body: c.body.unwrap_or_default(),
        }));
        if !full {
            return Ok(all);
        }
    }
    Err(too_long("issue comments"))
}

/// The disposition statuses of `sha` from the combined status endpoint.
pub async fn read_statuses(client: &Client, target: &Target, sha: &str) -> Result<Vec<StatusRecord>, GhError> {
    let mut all = Vec::new();
    for page in 1..=MAX_PAGES {
        let route = Route::repo(&target.repository, ["commits", sha, "status"])
            .query("per_page", PAGE_SIZE)
            .query("page", page);
        let combined = client.get_json::<CombinedStatus>(&route).await?;
        let full = combined.statuses.len() >= PAGE_SIZE;
        for s in combined.statuses {
            let Some(context) = s.context.filter(|c| c.starts_with(STATUS_CONTEXT_PREFIX)) else {
                continue;
            };
            all.push(StatusRecord {
                context,
                description: s.description.unwrap_or_default(),
                creator: s.creator.map(|c| c.login).unwrap_or_default(),
                state: s.state.unwrap_or_default(),
            });
        }
        if !full {
            return Ok(all);
        }
    }
    Err(too_long("commit statuses"))
}

/// True when `login` may write to the repository now.
pub async fn has_write(client: &Client, target: &Target, login: &str) -> Result<bool, GhError> {
    let route = Route::repo(&target.repository, ["collaborators", login, "permission"]);
    let level = client.get_json::<PermissionLevel>(&route).await?;
    Ok(matches!(level.permission.as_str(), "write" | "maintain" | "admin"))
}

fn too_long(what: &str) -> GhError {
    GhError::Decode {
        message: format!("the pull request has more than {} {what}", PAGE_SIZE * MAX_PAGES),
    }
}

/// What is already known about some authors (the submitting actor's
/// permission was just checked): they are not looked up again.
pub type KnownWriters<'a> = &'a [&'a str];

/// Why a ledger is unknown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerError {
    /// The comments could not be listed.
    #[error("the pull request's comments could not be read: {0}")]
    Comments(GhError),
    /// Authorisation could not be decided (replay fails closed here).
    #[error("{0}")]
    Undecided(String),
}

/// Reads and classifies the ledger of `target` (its head is
/// `target.reviewed_sha`). Any failure gives [`LedgerState::Unknown`].
pub async fn read_ledger(client: &Client, target: &Target, known_writers: KnownWriters<'_>) -> LedgerState {
    match read(client, target, known_writers).await {
        Ok(ledger) => LedgerState::Known(ledger),
        Err(e) => LedgerState::Unknown { reason: e.to_string() },
    }
}

/// What a ledger is made of, as read: the comments and the head's
/// disposition statuses. Both are read at once ([`read_raw`]); the statuses
/// are only judged when a disposition comment is among the comments.
#[derive(Debug, Clone)]
pub struct RawLedger {
    pub comments: Result<Vec<CommentRecord>, GhError>,
    pub statuses: Result<Vec<StatusRecord>, GhError>,
}

/// Reads the comments and the statuses of `target.reviewed_sha` side by
/// side (the statuses are read even when no comment needs them: one more
/// request, one round trip less).
pub async fn read_raw(client: &Client, target: &Target) -> RawLedger {
    let (comments, statuses) = tokio::join!(
        read_comments(client, target),
        read_statuses(client, target, &target.reviewed_sha)
    );
    RawLedger { comments, statuses }
}

/// [`read_ledger`] with the reason typed.
pub async fn read(client: &Client, target: &Target, known_writers: KnownWriters<'_>) -> Result<Ledger, LedgerError> {
    judge(client, target, read_raw(client, target).await, known_writers).await
}

/// [`read`] with the pull request's comments already listed (every one, in
/// GitHub's order: oldest first), as the inbox lists them for the whole
/// repository at once; the head's statuses are read only when a disposition
/// comment is among them.
pub async fn read_with_comments(
    client: &Client,
    target: &Target,
    known_writers: KnownWriters<'_>,
    comments: &[CommentRecord],
) -> Result<Ledger, LedgerError> {
    let statuses = if pick(comments).is_empty() {
        Ok(Vec::new())
    } else {
        read_statuses(client, target, &target.reviewed_sha).await
    };
    let raw = RawLedger {
        comments: Ok(comments.to_vec()),
        statuses,
    };
    judge(client, target, raw, known_writers).await
}

/// Classifies what [`read_raw`] read; the write permission of an
/// unattested author is looked up here (once each, unless `known_writers`
/// names them).
pub async fn judge(
    client: &Client,
    target: &Target,
    raw: RawLedger,
    known_writers: KnownWriters<'_>,
) -> Result<Ledger, LedgerError> {
    let comments = raw.comments.map_err(LedgerError::Comments)?;
    let picked = pick(&comments);
    let scope = LedgerScope {
        repository: target.repository.to_string(),
        pull_request: target.pull_request,
        head: target.reviewed_sha.clone(),
    };
    let pull_url = format!(
        "{}/{}/pull/{}",
        client.web_base(),
        target.repository,
        target.pull_request
    );
    if picked.is_empty() {
        return Ok(Ledger {
            scope,
            pull_url,
            entries: Vec::new(),
        });
    }
    let statuses = raw
        .statuses
        .map_err(|e| format!("the head's statuses could not be read: {e}"));
    let receipts = statuses.as_ref().map(|s| receipted(&picked, s)).unwrap_or_default();
    let mut permissions = BTreeMap::new();
    for author in pending_authors(&picked, &receipts).map_err(LedgerError::Undecided)? {
        let answer = if known_writers.contains(&author.as_str()) {
            Ok(true)
        } else {
            has_write(client, target, &author)
                .await
                .map_err(|e| format!("permission lookup failed: {e}"))
        };
        permissions.insert(author, answer);
    }
    let entries =
        classify(&scope, &picked, &Authorisation { statuses, permissions }).map_err(LedgerError::Undecided)?;
    Ok(Ledger {
        scope,
        pull_url,
        entries,
    })
}
