//! The review-thread query, its answer, and how ReviewGate's threads are told
//! apart from everyone else's (INTEROP.md section 3).
//!
//! Pure: [`super::threads`] sends the query page by page; this module builds
//! the variables and turns one page into observed threads.

use crate::model::finding::ThreadReply;
use crate::model::fingerprint::{marker_decode, marker_encode};
use crate::model::threads::ObservedThread;
use serde::Deserialize;

/// One page of a pull request's review threads, with each thread's first
/// comment (the finding's own) and its newest comment (the last reply).
pub const REVIEW_THREADS_QUERY: &str = "\
query($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
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
      }
    }
  }
}";

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

/// One page of threads.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreadConnection {
    pub page_info: PageInfo,
    #[serde(default)]
    pub nodes: Vec<Option<ThreadNode>>,
}

/// Where the next page starts.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageInfo {
    pub has_next_page: bool,
    pub end_cursor: Option<String>,
}

/// One review thread.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreadNode {
    pub id: String,
    pub is_resolved: bool,
    pub is_outdated: bool,
    pub resolved_by: Option<Actor>,
    pub opening: CommentConnection,
    pub latest: Option<CommentConnection>,
}

/// A page of comments (here: one).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommentConnection {
    #[serde(default)]
    pub total_count: Option<u64>,
    #[serde(default)]
    pub nodes: Vec<Option<CommentNode>>,
}

/// One comment.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommentNode {
    /// Null for deleted accounts ("ghost").
    pub author: Option<Actor>,
    #[serde(default)]
    pub body: String,
    pub created_at: Option<String>,
    pub url: Option<String>,
}

/// A user or bot.
#[derive(Debug, Deserialize)]
pub struct Actor {
    pub login: String,
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
    /// The decoded per-run finding id.
    pub finding_id: String,
    /// When the finding's comment was posted (orders duplicates).
    pub posted_at: Option<String>,
    pub thread: ObservedThread,
}

/// The ReviewGate threads of one page; other authors' threads are skipped.
/// `web_base` (`https://github.com`) bounds which links are kept.
pub fn marked_threads(nodes: &[Option<ThreadNode>], web_base: &str) -> Vec<MarkedThread> {
    nodes
        .iter()
        .flatten()
        .filter_map(|node| marked_thread(node, web_base))
        .collect()
}

fn marked_thread(node: &ThreadNode, web_base: &str) -> Option<MarkedThread> {
    let first = node.opening.nodes.first()?.as_ref()?;
    let author = first.author.as_ref().map(|a| a.login.as_str());
    if !author.is_some_and(|a| REVIEWGATE_AUTHORS.contains(&a)) {
        return None;
    }
    let (finding_id, fingerprint) = parse_markers(&first.body)?;
    let replies = node.opening.total_count.unwrap_or(1);
    let last_reply = match node
        .latest
        .as_ref()
        .and_then(|c| c.nodes.first())
        .and_then(Option::as_ref)
    {
        Some(last) if replies > 1 => Some(ThreadReply {
            author: last
                .author
                .as_ref()
                .map_or_else(|| "ghost".to_owned(), |a| a.login.clone()),
            excerpt: excerpt(&last.body, REPLY_EXCERPT_BYTES),
            created_at: last.created_at.clone(),
        }),
        _ => None,
    };
    let url = first
        .url
        .as_deref()
        .filter(|u| is_link_on(u, web_base))
        .map(str::to_owned);
    let thread = ObservedThread {
        id: node.id.clone(),
        resolved: node.is_resolved,
        outdated: node.is_outdated,
        resolved_by: node
            .resolved_by
            .as_ref()
            .filter(|_| node.is_resolved)
            .map(|a| a.login.clone()),
        // GitHub's review-thread object does not say when it was resolved.
        resolved_at: None,
        last_reply,
        url,
    };
    Some(MarkedThread {
        fingerprint,
        finding_id,
        posted_at: first.created_at.clone(),
        thread,
    })
}

/// A link is kept only when it points at the configured web host.
fn is_link_on(url: &str, web_base: &str) -> bool {
    let base = web_base.trim_end_matches('/');
    url.strip_prefix(base).is_some_and(|rest| rest.starts_with('/')) && !url.chars().any(char::is_control)
}

const LINE1_OPEN: &str = "<!-- reviewgate-finding:";
const LINE3_OPEN: &str = "<!-- reviewgate-finding-semantic:";
const CLOSE: &str = " -->";

/// The (finding id, semantic fingerprint) of a body that starts with exactly
/// ReviewGate's three marker lines; `None` for any other body.
pub fn parse_markers(body: &str) -> Option<(String, String)> {
    let mut lines = body.splitn(4, '\n');
    let line1 = lines.next()?;
    let line2 = lines.next()?;
    let line3 = lines.next()?;
    if !line2.is_empty() {
        return None;
    }
    let id = marker_value(line1, LINE1_OPEN)?;
    let fingerprint = marker_value(line3, LINE3_OPEN)?;
    Some((id, fingerprint))
}

fn marker_value(line: &str, open: &str) -> Option<String> {
    let encoded = line.strip_prefix(open)?.strip_suffix(CLOSE)?;
    let decoded = percent_decode(encoded)?;
    (!decoded.is_empty()).then_some(decoded)
}

/// Decodes a marker value, accepting only the exact encoding ReviewGate
/// writes (unreserved bytes raw, every other byte `%XX` in uppercase): the
/// decoded text must encode back to the same characters. Lowercase hex, an
/// encoded unreserved byte, a raw reserved byte or invalid UTF-8 is not a
/// ReviewGate marker.
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
mod tests {
    use super::*;

    const WEB: &str = "https://github.com";

    fn body(id: &str, fp: &str) -> String {
        format!("<!-- reviewgate-finding:{id} -->\n\n<!-- reviewgate-finding-semantic:{fp} -->\n**P1** text")
    }

    fn node(author: Option<&str>, body: &str, replies: u64) -> ThreadNode {
        let comment = |login: Option<&str>, text: &str| CommentNode {
            author: login.map(|l| Actor { login: l.to_owned() }),
            body: text.to_owned(),
            created_at: Some("2024-05-01T10:00:00Z".into()),
            url: Some("https://github.com/o/r/pull/1#discussion_r9".into()),
        };
        ThreadNode {
            id: "PRRT_1".into(),
            is_resolved: true,
            is_outdated: false,
            resolved_by: Some(Actor { login: "alice".into() }),
            opening: CommentConnection {
                total_count: Some(replies),
                nodes: vec![Some(comment(author, body))],
            },
            latest: Some(CommentConnection {
                total_count: None,
                nodes: vec![Some(comment(Some("bob"), "fixed it"))],
            }),
        }
    }

    #[test]
    fn markers_decode_exactly() {
        let (id, fp) = parse_markers(&body("F-1", "defect%3Asrc%2Fa.rs%3Anull%20check")).unwrap_or_default();
        assert_eq!((id.as_str(), fp.as_str()), ("F-1", "defect:src/a.rs:null check"));
        assert_eq!(
            parse_markers(&body("F%C3%A9", "x.y_z~")),
            Some(("Fé".into(), "x.y_z~".into()))
        );
        // Exactly the three lines: the body may end right after line 3.
        let short = "<!-- reviewgate-finding:A -->\n\n<!-- reviewgate-finding-semantic:B -->";
        assert_eq!(parse_markers(short), Some(("A".into(), "B".into())));
    }

    #[test]
    fn near_misses_are_not_markers() {
        for bad in [
            body("F1", "defect%3asrc"),                // lowercase hex
            body("F1", "defect:src"),                  // raw reserved byte
            body("F%41", "x"),                         // encoded unreserved byte
            body("F1", "x%2"),                         // truncated escape
            body("F1", "%FF"),                         // not UTF-8
            body("", "x"),                             // empty id
            body("F1", ""),                            // empty fingerprint
            format!(" {}", body("F1", "x")),           // leading space
            body("F1", "x").replacen("\n\n", "\n", 1), // no empty line 2
            body("F1", "x").replacen("\n\n", "\n \n", 1),
            body("F1", "x").replace("\n", "\r\n"),
            "<!-- reviewgate-finding:F1 -->\n\n<!-- reviewgate-finding-semantic:x --> trailing".into(),
            "<!-- reviewgate-finding-semantic:x -->\n\n<!-- reviewgate-finding:F1 -->".into(),
        ] {
            assert_eq!(parse_markers(&bad), None, "{bad:?}");
        }
    }

    #[test]
    fn only_reviewgate_authors_count() {
        let b = body("F1", "fp");
        for login in REVIEWGATE_AUTHORS {
            let got = marked_threads(&[Some(node(Some(login), &b, 1))], WEB);
            assert_eq!(got.len(), 1, "{login}");
            assert_eq!(got[0].fingerprint, "fp");
        }
        for login in [
            Some("mallory"),
            Some("github-actions-bot"),
            Some("GitHub-Actions"),
            None,
        ] {
            assert!(marked_threads(&[Some(node(login, &b, 1))], WEB).is_empty(), "{login:?}");
        }
    }

    #[test]
    fn facts_are_carried_and_bounded() {
        let got = marked_threads(&[Some(node(Some("github-actions"), &body("F1", "fp"), 3)), None], WEB);
        let t = &got[0].thread;
        assert!(t.resolved && !t.outdated);
        assert_eq!(t.resolved_by.as_deref(), Some("alice"));
        let reply = t.last_reply.as_ref().map(|r| (r.author.as_str(), r.excerpt.as_str()));
        assert_eq!(reply, Some(("bob", "fixed it")));
        assert_eq!(t.url.as_deref(), Some("https://github.com/o/r/pull/1#discussion_r9"));
        // A single comment has no reply; a link to another host is dropped.
        let alone = marked_threads(
            &[Some(node(Some("github-actions"), &body("F1", "fp"), 1))],
            "https://ghe.example",
        );
        assert!(alone[0].thread.last_reply.is_none());
        assert!(alone[0].thread.url.is_none());
        assert_eq!(excerpt(&"é".repeat(400), 501).len(), 500 + "…".len());
    }
}
