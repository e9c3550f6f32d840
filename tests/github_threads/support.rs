//! Shared helpers: a fast client, ReviewGate thread nodes and pages, a result
//! document, and the GraphQL request log.

#![allow(dead_code)]

use crate::fake_github;
use serde_json::{Value, json};
use triage::github::Client;

pub const TOKEN: &str = "ghp_THREADtokenNEVERprinted0123456789";
pub const REPO: &str = "octo/app";
pub const PR: u64 = 5;
pub const HEAD: &str = "1234567890abcdef1234567890abcdef12345678";

pub fn client(api: &str) -> Client {
    fake_github::client(api, TOKEN)
}

pub use crate::fake_github::enc;

/// The body ReviewGate writes for a finding's inline comment.
pub fn marker_body(id: &str, fp: &str) -> String {
    format!(
        "<!-- reviewgate-finding:{} -->\n\n<!-- reviewgate-finding-semantic:{} -->\n\n**P2** A claim.",
        enc(id),
        enc(fp)
    )
}

/// One review-thread node as the query asks for it.
pub fn node(id: &str, body: &str, resolved: bool, posted: &str) -> Value {
    json!({
        "id": id,
        "isResolved": resolved,
        "isOutdated": false,
        "path": "src/lib.rs",
        "line": 10,
        "resolvedBy": if resolved { json!({ "login": "maintainer" }) } else { Value::Null },
        "opening": { "totalCount": 1, "nodes": [{
            "author": { "login": "github-actions" }, "body": body, "createdAt": posted,
            "url": "http://127.0.0.1/octo/app/pull/5#discussion_r1" }] },
        "latest": { "nodes": [] }
    })
}

pub fn page(nodes: Vec<Value>, next: Option<&str>) -> Value {
    json!({ "data": { "repository": { "pullRequest": { "reviewThreads": {
        "pageInfo": { "hasNextPage": next.is_some(), "endCursor": next },
        "nodes": nodes } } } } })
}

/// A valid agent-result finding with no thread in the file (live threads decide).
pub fn finding(fp: &str, disposition: &str) -> Value {
    fake_github::finding(fp, disposition, Vec::new(), None)
}

/// A pull-request agent result for [`REPO`]#[`PR`] at [`HEAD`].
pub fn result_json(findings: Vec<Value>) -> Vec<u8> {
    fake_github::result_json(REPO, PR, HEAD, findings)
}

/// The GraphQL documents and variables the server saw, in order.
pub async fn graphql_log(server: &wiremock::MockServer) -> Vec<(String, Value)> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.url.path() == "/graphql")
        .map(|r| {
            let body: Value = serde_json::from_slice(&r.body).unwrap_or(Value::Null);
            let query = body["query"].as_str().unwrap_or("").to_owned();
            (query, body["variables"].clone())
        })
        .collect()
}

/// The operation of a GraphQL document, by the field it names.
pub fn operation(query: &str) -> &'static str {
    for op in [
        "addPullRequestReviewThreadReply",
        "unresolveReviewThread",
        "resolveReviewThread",
        "reviewThreads",
        "viewer",
    ] {
        if query.contains(op) {
            return op;
        }
    }
    "other"
}

/// Every request in order: `GET /path` for REST, `graphql <operation>` for GraphQL.
pub async fn sequence(server: &wiremock::MockServer) -> Vec<String> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| {
            if r.url.path() == "/graphql" {
                let body: Value = serde_json::from_slice(&r.body).unwrap_or(Value::Null);
                format!("graphql {}", operation(body["query"].as_str().unwrap_or("")))
            } else {
                format!("{} {}", r.method, r.url.path())
            }
        })
        .collect()
}

/// A mock for the GraphQL documents that name `op`.
pub fn graphql_op(op: &str) -> wiremock::MockBuilder {
    use wiremock::matchers::{body_string_contains, method, path};
    wiremock::Mock::given(method("POST"))
        .and(path("/graphql"))
        .and(body_string_contains(op))
}

/// The pull request answer (`state`, head [`HEAD`]).
pub fn pull(state: &str) -> Value {
    json!({ "number": PR, "state": state, "head": { "sha": HEAD }, "base": { "repo": { "full_name": REPO } } })
}

/// The comments of a thread as the comment query answers.
pub fn comments_page(viewer: &str, comments: &[(&str, &str)]) -> Value {
    let nodes: Vec<Value> = comments
        .iter()
        .enumerate()
        .map(|(i, (login, body))| {
            json!({ "body": body, "url": format!("http://127.0.0.1/octo/app/pull/5#discussion_r{}", i + 1),
                    "author": { "login": login } })
        })
        .collect();
    json!({ "data": { "viewer": { "login": viewer }, "node": { "id": "PRRT_a", "isResolved": false,
        "comments": { "pageInfo": { "hasNextPage": false, "endCursor": null }, "nodes": nodes } } } })
}
