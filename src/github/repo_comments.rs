//! Every issue comment of a repository updated since a time, in one paged
//! listing (`GET /repos/{repo}/issues/comments?sort=updated&direction=desc&since=…`),
//! grouped by pull request: the inbox reads the ledgers of all open pull
//! requests from it instead of one comment listing per pull request.
//!
//! The listing runs newest-updated first and is bounded; when the bound
//! cuts it, it is complete only for comments updated after the last one
//! read ([`RepoComments::complete_after`]). A comment is never updated
//! before its pull request was opened, so a pull request opened after that
//! time has all its comments here; older ones are read on their own.

use super::client::Client;
use super::error::GhError;
use super::route::{RepoName, Route};
use super::wire::Account;
use crate::model::ledger::CommentRecord;
use serde::Deserialize;
use std::collections::HashMap;

/// Comments per page.
pub const PAGE_SIZE: u64 = 100;
/// Pages read at most (the 1,000 most recently updated comments).
pub const MAX_PAGES: u64 = 10;

/// One listed comment.
#[derive(Debug, Deserialize)]
struct Listed {
    id: u64,
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    user: Option<Account>,
    /// `https://API/repos/{repo}/issues/{n}`: which issue or pull request.
    #[serde(default)]
    issue_url: String,
    #[serde(default)]
    updated_at: String,
}

/// The comments read, by pull-request (issue) number, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RepoComments {
    pub by_number: HashMap<u64, Vec<CommentRecord>>,
    /// `None`: every comment updated since the time asked for was read;
    /// `Some(t)`: only those updated after `t` (RFC 3339) are sure to be.
    pub complete_after: Option<String>,
    /// Pages read.
    pub pages: u64,
}

impl RepoComments {
    /// The comments of a pull request opened at `created_at` (RFC 3339,
    /// UTC as GitHub writes it), when the listing holds all of them.
    pub fn of(&self, number: u64, created_at: &str) -> Option<Vec<CommentRecord>> {
        let covered = match &self.complete_after {
            None => true,
            Some(cut) => crate::time::parse_rfc3339(created_at)
                .zip(crate::time::parse_rfc3339(cut))
                .is_some_and(|(created, cut)| created > cut),
        };
        covered.then(|| self.by_number.get(&number).cloned().unwrap_or_default())
    }
}

/// The issue number at the end of an `issue_url`.
fn number_of(issue_url: &str) -> Option<u64> {
    let (rest, number) = issue_url.rsplit_once('/')?;
    rest.ends_with("/issues").then_some(())?;
    number.parse().ok()
}

/// Lists the comments of `repo` updated since `since` (RFC 3339).
pub async fn list_comments_since(client: &Client, repo: &RepoName, since: &str) -> Result<RepoComments, GhError> {
    let mut out = RepoComments::default();
    let mut last_updated = String::new();
    for page in 1..=MAX_PAGES {
        let route = Route::repo(repo, ["issues", "comments"])
            .query("sort", "updated")
            .query("direction", "desc")
            .query("since", since)
            .query("per_page", PAGE_SIZE)
            .query("page", page);
        let listed: Vec<Listed> = client.get_json(&route).await?;
        out.pages = page;
        let count = listed.len() as u64;
        for c in listed {
            last_updated = c.updated_at.clone();
            let Some(number) = number_of(&c.issue_url) else {
                continue;
            };
            out.by_number.entry(number).or_default().push(CommentRecord {
                id: c.id,
                author: c.user.map(|u| u.login),
                body: c.body.unwrap_or_default(),
            });
        }
        if count < PAGE_SIZE {
            for comments in out.by_number.values_mut() {
                comments.sort_by_key(|c| c.id);
            }
            return Ok(out);
        }
    }
    // Cut by the bound: a comment listed twice across shifting pages is kept once.
    for comments in out.by_number.values_mut() {
        comments.sort_by_key(|c| c.id);
        comments.dedup_by_key(|c| c.id);
    }
    out.complete_after = Some(last_updated);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_come_from_the_issue_url() {
        assert_eq!(number_of("https://api.github.com/repos/o/r/issues/12"), Some(12));
        assert_eq!(number_of("https://api.github.com/repos/o/r/pulls/12"), None);
        assert_eq!(number_of(""), None);
    }

    #[test]
    fn a_cut_listing_covers_only_pull_requests_opened_after_the_cut() {
        let mut c = RepoComments::default();
        c.by_number.insert(
            5,
            vec![CommentRecord {
                id: 1,
                author: None,
                body: String::new(),
            }],
        );
        assert_eq!(c.of(5, "2020-01-01T00:00:00Z").map(|v| v.len()), Some(1));
        assert_eq!(c.of(6, "2020-01-01T00:00:00Z"), Some(Vec::new()));
        c.complete_after = Some("2024-06-01T00:00:00Z".into());
        assert_eq!(c.of(5, "2024-01-01T00:00:00Z"), None);
        assert_eq!(c.of(5, "2024-07-01T00:00:00Z").map(|v| v.len()), Some(1));
        assert_eq!(c.of(5, "not a time"), None);
    }
}
