//! The review-thread query, its answer, and how ReviewGate's threads are told
//! apart from everyone else's (INTEROP.md section 3, as refined by the
//! upstream facts of section 6).
//!
//! Pure: [`super::threads`] sends the query page by page; this module builds
//! the variables and turns one page into observed threads.

use crate::model::finding::ThreadReply;
use crate::model::fingerprint::{marker_decode, marker_encode};
use crate::model::threads::ObservedThread;
use serde::Deserialize;

/// The fields of a review thread every thread query reads, as a GraphQL
/// fragment (`...ThreadFields`): the single-pull-request query below and the
/// inbox's open pull requests query (`open_prs`) append it, so both read a
/// thread the same way and one parser serves them.
macro_rules! thread_fields_fragment {
    () => {
        "
fragment ThreadFields on PullRequestReviewThread {
  id
  isResolved
  isOutdated
  path
  line
  resolvedBy { login }
  opening: comments(first: 1) {
    totalCount
    nodes { author { login } body createdAt url }
  }
  latest: comments(last: 1) {
    nodes { author { login } body createdAt url }
  }
}
"
    };
}
pub(crate) use thread_fields_fragment;

/// One page of a pull request's review threads, with each thread's first
/// comment (the finding's own) and its newest comment (the last reply).
pub const REVIEW_THREADS_QUERY: &str = concat!(
    "\
query($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { ...ThreadFields }
      }
    }
  }
}",
    thread_fields_fragment!()
);

/// Logins ReviewGate's comments carry: REST reports the app's bot user as
/// `github-actions[bot]`, GraphQL as `github-actions`.
pub const REVIEWGATE_AUTHORS: [&str; 2] = ["github-actions[bot]", "github-actions"];

/// The longest reply excerpt kept (bytes, cut at a character boundary).
pub const REPLY_EXCERPT_BYTES: usize = 500;

/// `data` of the query.
#[derive(Debug, Deserialize)]
pub struct ThreadsData {
    pub repository: Option<RepositoryNode>,
}

/// `repository` (null when it does not exist or the token cannot see it).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RepositoryNode {
    pub pull_request: Option<PullRequestNode>,
}

/// `pullRequest` (null when there is no such number).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PullRequestNode {
    pub review_threads: ThreadConnection,
}

/// One page of threads. Nodes stay raw JSON: a node that lacks a field the
/// thread identity needs is skipped on its own (as ReviewGate skips it),
/// never failing the whole page.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreadConnection {
    pub page_info: PageInfo,
    #[serde(default)]
    pub nodes: Vec<serde_json::Value>,
}

/// Where the next page starts.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageInfo {
    pub has_next_page: bool,
    pub end_cursor: Option<String>,
}

/// One review thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadNode {
    pub id: String,
    pub is_resolved: bool,
    pub is_outdated: bool,
    /// Login of whoever resolved it.
    pub resolved_by: Option<String>,
    /// The thread's first comment (the finding's own), when the list has one.
    pub root: Option<CommentNode>,
    /// Number of comments in the thread (GitHub's `totalCount`).
    pub comment_count: u64,
    /// The newest comment.
    pub latest: Option<CommentNode>,
}

/// One comment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommentNode {
    /// Null for deleted accounts ("ghost").
    pub author: Option<String>,
    /// The body; a missing or non-text body reads as empty (as ReviewGate reads it).
    pub body: String,
    pub created_at: Option<String>,
    pub url: Option<String>,
}

impl ThreadNode {
    /// Reads one node the way ReviewGate's CLI does: a node without a text
    /// `id`, a boolean `isResolved` and `isOutdated`, or a comment list is
    /// skipped (`None`); anything else is read leniently.
    pub fn from_value(node: &serde_json::Value) -> Option<ThreadNode> {
        let opening = node.pointer("/opening/nodes")?.as_array()?;
        Some(ThreadNode {
            id: node.get("id")?.as_str()?.to_owned(),
            is_resolved: node.get("isResolved")?.as_bool()?,
            is_outdated: node.get("isOutdated")?.as_bool()?,
            resolved_by: text_at(node, "/resolvedBy/login"),
            root: opening.first().map(CommentNode::from_value),
            comment_count: node
                .pointer("/opening/totalCount")
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(opening.len() as u64),
            latest: node
                .pointer("/latest/nodes")
                .and_then(serde_json::Value::as_array)
                .and_then(|n| n.first())
                .map(CommentNode::from_value),
        })
    }
}

impl CommentNode {
    /// Reads one comment leniently (a null comment has no author and an empty body).
    pub fn from_value(comment: &serde_json::Value) -> CommentNode {
        CommentNode {
            author: text_at(comment, "/author/login"),
            body: text_at(comment, "/body").unwrap_or_default(),
            created_at: text_at(comment, "/createdAt"),
            url: text_at(comment, "/url"),
        }
    }
}

fn text_at(value: &serde_json::Value, pointer: &str) -> Option<String> {
    value.pointer(pointer)?.as_str().map(str::to_owned)
}

/// The query variables for one page.
pub fn variables(owner: &str, name: &str, number: u64, after: Option<&str>) -> serde_json::Value {
    serde_json::json!({ "owner": owner, "name": name, "number": number, "after": after })
}

/// A ReviewGate thread found on a page: the finding's fingerprint and what GitHub shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkedThread {
    /// The decoded semantic fingerprint.
    pub fingerprint: String,
    pub thread: ObservedThread,
}

/// The ReviewGate threads of one page, in GitHub's order; other authors'
/// threads and nodes ReviewGate would skip are left out. `web_base`
/// (`https://github.com`) bounds which links are kept.
pub fn marked_threads(nodes: &[serde_json::Value], web_base: &str) -> Vec<MarkedThread> {
    nodes
        .iter()
        .filter_map(ThreadNode::from_value)
        .filter_map(|node| marked_thread(&node, web_base))
        .collect()
}

/// True for the logins ReviewGate's comments carry (exactly, case included).
pub fn is_reviewgate_author(login: Option<&str>) -> bool {
    login.is_some_and(|a| REVIEWGATE_AUTHORS.contains(&a))
}

fn marked_thread(node: &ThreadNode, web_base: &str) -> Option<MarkedThread> {
    let root = node.root.as_ref()?;
    if !is_reviewgate_author(root.author.as_deref()) {
        return None;
    }
    let (finding_id, fingerprint) = parse_markers(&root.body)?;
    let last_reply = match &node.latest {
        Some(last) if node.comment_count > 1 => Some(ThreadReply {
            author: last.author.clone().unwrap_or_else(|| "ghost".to_owned()),
            excerpt: excerpt(&last.body, REPLY_EXCERPT_BYTES),
            created_at: last.created_at.clone(),
        }),
        _ => None,
    };
    let url = root
        .url
        .as_deref()
        .filter(|u| is_link_on(u, web_base))
        .map(str::to_owned);
    let thread = ObservedThread {
        id: node.id.clone(),
        finding_id,
        resolved: node.is_resolved,
        outdated: node.is_outdated,
        resolved_by: node.resolved_by.clone().filter(|_| node.is_resolved),
        // GitHub's review-thread object does not say when it was resolved.
        resolved_at: None,
        last_reply,
        url,
    };
    Some(MarkedThread { fingerprint, thread })
}

/// A link is kept only when it points at the configured web host.
fn is_link_on(url: &str, web_base: &str) -> bool {
    let base = web_base.trim_end_matches('/');
    url.strip_prefix(base).is_some_and(|rest| rest.starts_with('/')) && !url.chars().any(char::is_control)
}

const LINE1_OPEN: &str = "<!-- reviewgate-finding:";
const LINE3_OPEN: &str = "<!-- reviewgate-finding-semantic:";
const CLOSE: &str = " -->";

/// The (finding id, semantic fingerprint) of a body whose first three lines
/// are ReviewGate's markers; `None` for any other body.
///
/// Read as ReviewGate reads it (`inline_comment_identity`, which INTEROP.md
/// section 3 describes more strictly than the code behaves): the body is
/// split with `str::lines`, so a line may end in `\n` or `\r\n`; line 1 is
/// `<!-- reviewgate-finding:ID -->`, line 2 is empty, line 3 is
/// `<!-- reviewgate-finding-semantic:FINGERPRINT -->`, each line exactly
/// that, with the value in ReviewGate's own percent-encoding. An empty ID
/// (or fingerprint) is accepted, as ReviewGate accepts it.
pub fn parse_markers(body: &str) -> Option<(String, String)> {
    let mut lines = body.lines();
    let line1 = lines.next()?;
    if !lines.next()?.is_empty() {
        return None;
    }
    let line3 = lines.next()?;
    let id = marker_value(line1, LINE1_OPEN)?;
    let fingerprint = marker_value(line3, LINE3_OPEN)?;
    Some((id, fingerprint))
}

fn marker_value(line: &str, open: &str) -> Option<String> {
    percent_decode(line.strip_prefix(open)?.strip_suffix(CLOSE)?)
}

/// Decodes a marker value, accepting only the exact encoding ReviewGate
/// writes (unreserved bytes raw, every other byte `%XX` in uppercase): the
/// decoded text must encode back to the same characters. Lowercase hex, an
/// encoded unreserved byte, a raw reserved byte or invalid UTF-8 is not a
/// ReviewGate marker. The empty value decodes to the empty string.
pub fn percent_decode(encoded: &str) -> Option<String> {
    let decoded = marker_decode(encoded).ok()?;
    (marker_encode(&decoded) == encoded).then_some(decoded)
}

/// The start of a comment body, at most `max` bytes, cut at a character boundary.
fn excerpt(body: &str, max: usize) -> String {
    if body.len() <= max {
        return body.to_owned();
    }
    let mut end = max;
    while end > 0 && !body.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &body[..end])
}

#[cfg(test)]
#[path = "graphql_tests.rs"]
mod tests;
