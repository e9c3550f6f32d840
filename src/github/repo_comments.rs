//! Every issue comment of a repository since a time, in one paged listing
//! (`GET /repos/{repo}/issues/comments?sort=created&direction=desc&since=…`),
//! grouped by pull request: the inbox reads the ledgers of all open pull
//! requests from it instead of one comment listing per pull request.
//!
//! The listing runs newest-created first and is bounded; when the bound
//! cuts it, it is complete only for comments created after the last one
//! read ([`RepoComments::complete_after`]). A comment is never created
//! before its pull request was opened, so a pull request opened after that
//! time has all its comments here; older ones are read on their own.
//! (`since` filters by update time, which is never before creation, so it
//! keeps every comment of a pull request opened at or after it.)
//!
//! Why creation order and not update order: the pages are read one after
//! another while people keep commenting. In update order an edit moves a
//! comment to the first page; one edited while later pages are read was
//! on a later page before and is on a page already read after, so it was
//! never listed (a decision lost, an escalation not shown). Creation order
//! is not changed by edits. A comment created while the listing is paged
//! shifts the others one place down, so one is listed twice across two
//! pages: every comment is kept once by its id, the last read copy (the
//! newest body) standing. A comment deleted while later pages are read
//! shifts the others one place up, and one may go unlisted until the next
//! read; no offset-paged listing of GitHub avoids that.

use super::client::Client;
use super::error::GhError;
use super::route::{RepoName, Route};
use super::wire::Account;
use crate::model::ledger::CommentRecord;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

/// Comments per page.
pub const PAGE_SIZE: u64 = 100;
/// Pages read at most (the 1,000 most recently created comments).
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
    /// RFC 3339, as GitHub writes it.
    #[serde(default)]
    created_at: String,
}

/// The comments read, by pull-request (issue) number, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RepoComments {
    pub by_number: HashMap<u64, Vec<CommentRecord>>,
    /// `None`: every comment since the time asked for was read;
    /// `Some(t)`: only those created after `t` (RFC 3339) are sure to be.
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

/// Lists the comments of `repo` since `since` (RFC 3339), newest created first.
pub async fn list_comments_since(client: &Client, repo: &RepoName, since: &str) -> Result<RepoComments, GhError> {
    let mut by_id: BTreeMap<u64, (u64, CommentRecord)> = BTreeMap::new();
    let mut out = RepoComments::default();
    let mut last_created = String::new();
    let mut cut = true;
    for page in 1..=MAX_PAGES {
        let route = Route::repo(repo, ["issues", "comments"])
            .query("sort", "created")
            .query("direction", "desc")
            .query("since", since)
            .query("per_page", PAGE_SIZE)
            .query("page", page);
        let listed: Vec<Listed> = client.get_json(&route).await?;
        out.pages = page;
        let count = listed.len() as u64;
        for c in listed {
            last_created = c.created_at.clone();
            let Some(number) = number_of(&c.issue_url) else {
                continue;
            };
            let record = CommentRecord {
                id: c.id,
                author: c.user.map(|u| u.login),
                body: c.body.unwrap_or_default(),
            };
            by_id.insert(c.id, (number, record));
        }
        if count < PAGE_SIZE {
            cut = false;
            break;
        }
    }
    // Ascending ids: each pull request's comments oldest first, as replay reads them.
    for (number, record) in by_id.into_values() {
        out.by_number.entry(number).or_default().push(record);
    }
    if cut {
        out.complete_after = Some(last_created);
    }
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
