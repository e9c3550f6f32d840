//! Every open pull request of a repository in one GraphQL query, paged: the
//! facts the inbox lists (number, title, author, head, base, labels, times)
//! and the first page of each one's review threads, read together so that no
//! per-pull-request thread query is needed unless a pull request has more
//! threads than one page holds.
//!
//! GraphQL answers carry no `ETag`: these pages are the part of an inbox
//! run that is never conditional (each page costs one point of GraphQL's
//! own rate limit, which REST's `304`s do not touch).

use super::client::Client;
use super::error::GhError;
use super::graphql::{MarkedThread, marked_threads};
use super::route::RepoName;
use serde::Deserialize;
use serde_json::Value;

/// Pull requests per page.
pub const PAGE_SIZE: usize = 50;
/// Labels read per pull request (GitHub's most per connection page; the
/// query's `labels(first: 100)`).
pub const LABELS_PER_PR: usize = 100;
/// Review threads read per pull request with the page (more: read on their own).
pub const THREADS_PER_PR: usize = 50;
/// Pull requests listed at most (the oldest first; the rest are reported as left out).
pub const MAX_PRS: usize = 500;

/// The query: open pull requests, oldest first, with their first threads.
pub const OPEN_PRS_QUERY: &str = concat!(
    "\
query($owner: String!, $name: String!, $first: Int!, $after: String, $threads: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequests(states: OPEN, first: $first, after: $after, orderBy: {field: CREATED_AT, direction: ASC}) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        number
        title
        isDraft
        createdAt
        updatedAt
        headRefName
        headRefOid
        baseRefName
        author { login }
        labels(first: 100) { totalCount nodes { name } }
        reviewThreads(first: $threads) {
          pageInfo { hasNextPage endCursor }
          nodes { ...ThreadFields }
        }
      }
    }
  }
}",
    crate::github::graphql::thread_fields_fragment!()
);

/// One open pull request. Every text is GitHub-provided: sanitise before display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenPr {
    pub number: u64,
    pub title: String,
    pub draft: bool,
    /// `None` for a deleted account.
    pub author: Option<String>,
    pub head_sha: String,
    pub head_ref: String,
    pub base_ref: String,
    /// RFC 3339, as GitHub writes it.
    pub created_at: String,
    pub updated_at: String,
    pub labels: Vec<String>,
    /// False when the pull request carries more labels than were read
    /// ([`LABELS_PER_PR`]): a label filter cannot tell it does not carry one.
    pub labels_complete: bool,
    /// ReviewGate's threads of the first page, in GitHub's order.
    pub threads: Vec<MarkedThread>,
    /// False when more threads follow than the page held.
    pub threads_complete: bool,
}

/// The open pull requests as listed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpenPrs {
    pub prs: Vec<OpenPr>,
    /// GitHub's count of open pull requests (may exceed `prs` past [`MAX_PRS`]).
    pub total: u64,
    /// Nodes GitHub returned without a number or a head (skipped).
    pub skipped: usize,
    /// GitHub said more pages follow but gave no new cursor, so the listing
    /// stopped before its bound.
    pub stopped: bool,
    /// GraphQL pages read.
    pub pages: usize,
}

#[derive(Debug, Deserialize)]
struct Data {
    repository: Option<Repository>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Repository {
    pull_requests: Connection,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Connection {
    #[serde(default)]
    total_count: u64,
    page_info: super::graphql::PageInfo,
    #[serde(default)]
    nodes: Vec<Value>,
}

/// Lists the open pull requests of `repo`, at most `max` (and [`MAX_PRS`]).
pub async fn list_open_prs(client: &Client, repo: &RepoName, max: usize) -> Result<OpenPrs, GhError> {
    let max = max.min(MAX_PRS);
    let web = client.web_base();
    let mut out = OpenPrs::default();
    let mut after: Option<String> = None;
    while out.prs.len() < max {
        let first = PAGE_SIZE.min(max - out.prs.len());
        let vars = serde_json::json!({
            "owner": repo.owner(), "name": repo.name(), "first": first, "after": after, "threads": THREADS_PER_PR,
        });
        let data: Data = client.graphql(OPEN_PRS_QUERY, vars).await?;
        out.pages += 1;
        let page = data
            .repository
            .ok_or_else(|| GhError::NotFound {
                message: format!("GitHub shows no repository {repo} (or the token cannot see it)"),
            })?
            .pull_requests;
        out.total = page.total_count;
        for node in &page.nodes {
            match read_node(node, &web) {
                Some(pr) => out.prs.push(pr),
                None => out.skipped += 1,
            }
        }
        match page.page_info.end_cursor {
            Some(cursor) if page.page_info.has_next_page && after.as_deref() != Some(cursor.as_str()) => {
                after = Some(cursor);
            }
            _ => {
                out.stopped = page.page_info.has_next_page;
                break;
            }
        }
    }
    out.prs.truncate(max);
    Ok(out)
}

fn text(node: &Value, pointer: &str) -> Option<String> {
    node.pointer(pointer)?.as_str().map(str::to_owned)
}

/// One node, leniently: a node without a number or a head is skipped.
fn read_node(node: &Value, web: &str) -> Option<OpenPr> {
    let threads = node.get("reviewThreads");
    let thread_nodes = threads
        .and_then(|t| t.get("nodes"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let more = threads
        .and_then(|t| t.pointer("/pageInfo/hasNextPage"))
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let labels: Vec<String> = node
        .pointer("/labels/nodes")
        .and_then(Value::as_array)
        .map(|l| l.iter().filter_map(|n| text(n, "/name")).collect())
        .unwrap_or_default();
    let label_nodes = node
        .pointer("/labels/nodes")
        .and_then(Value::as_array)
        .map_or(0, Vec::len) as u64;
    let labels_total = node.pointer("/labels/totalCount").and_then(Value::as_u64);
    let labels_complete = labels_total.is_none_or(|total| total <= label_nodes);
    Some(OpenPr {
        number: node.get("number")?.as_u64()?,
        title: text(node, "/title").unwrap_or_default(),
        draft: node.get("isDraft").and_then(Value::as_bool).unwrap_or(false),
        author: text(node, "/author/login"),
        head_sha: text(node, "/headRefOid")?,
        head_ref: text(node, "/headRefName").unwrap_or_default(),
        base_ref: text(node, "/baseRefName").unwrap_or_default(),
        created_at: text(node, "/createdAt").unwrap_or_default(),
        updated_at: text(node, "/updatedAt").unwrap_or_default(),
        labels,
        labels_complete,
        threads: marked_threads(&thread_nodes, web),
        threads_complete: threads.is_some() && !more,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_reads_leniently_and_needs_a_number_and_head() {
        let node = serde_json::json!({
            "number": 7, "title": "Fix", "isDraft": true, "createdAt": "2026-01-01T00:00:00Z",
            "updatedAt": "2026-01-02T00:00:00Z", "headRefName": "topic", "headRefOid": "a".repeat(40),
            "baseRefName": "main", "author": null, "labels": { "nodes": [{ "name": "bug" }, {}] },
            "reviewThreads": { "pageInfo": { "hasNextPage": false, "endCursor": null }, "nodes": [] }
        });
        let pr = read_node(&node, "https://github.com").expect("pr");
        assert_eq!((pr.number, pr.draft, pr.author.as_deref()), (7, true, None));
        assert_eq!(pr.labels, vec!["bug".to_owned()]);
        assert!(pr.threads_complete);
        let mut headless = node.clone();
        headless["headRefOid"] = Value::Null;
        assert_eq!(read_node(&headless, "https://github.com"), None);
        let mut more = node;
        more["reviewThreads"]["pageInfo"]["hasNextPage"] = Value::Bool(true);
        assert!(!read_node(&more, "https://github.com").expect("pr").threads_complete);
    }

    #[test]
    fn a_pull_request_with_more_labels_than_read_says_its_labels_are_incomplete() {
        assert!(OPEN_PRS_QUERY.contains(&format!("labels(first: {LABELS_PER_PR}) {{ totalCount")));
        let node = |total: u64| {
            serde_json::json!({
                "number": 7, "headRefOid": "a".repeat(40),
                "labels": { "totalCount": total, "nodes": [{ "name": "bug" }] },
            })
        };
        let web = "https://github.com";
        assert!(read_node(&node(1), web).expect("pr").labels_complete);
        assert!(!read_node(&node(101), web).expect("pr").labels_complete);
    }
}
