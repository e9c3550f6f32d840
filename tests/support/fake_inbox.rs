//! A fake GitHub (wiremock on loopback) holding open pull requests in every
//! review state the inbox tells apart, answering REST reads with an `ETag`
//! and `304 Not Modified` when asked with the same `If-None-Match`.
//! A crate that includes it includes `fake_github.rs` beside it.

#![allow(dead_code)]

use crate::fake_github::enc;
use serde_json::{Value, json};
use std::io::Write;
use wiremock::matchers::{body_partial_json, method, path, query_param};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

pub const REPO: &str = "octo/app";
pub const WORKFLOW: &str = "reviewgate.yml";

/// A JSON answer with an `ETag` derived from its body; `304` when the
/// request already names that `ETag`.
pub struct Conditional {
    etag: String,
    body: Vec<u8>,
    delay: std::time::Duration,
}

impl Conditional {
    pub fn json(body: &Value) -> Conditional {
        let bytes = serde_json::to_vec(body).expect("json");
        let etag = format!(
            "\"{:x}\"",
            bytes
                .iter()
                .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(*b)))
        );
        Conditional {
            etag,
            body: bytes,
            delay: std::time::Duration::ZERO,
        }
    }

    pub fn delayed(mut self, delay: std::time::Duration) -> Conditional {
        self.delay = delay;
        self
    }
}

impl Respond for Conditional {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let asked = request.headers.get("if-none-match").and_then(|v| v.to_str().ok());
        let template = if asked == Some(self.etag.as_str()) {
            ResponseTemplate::new(304)
                .insert_header("etag", self.etag.as_str())
                .insert_header("x-ratelimit-remaining", "4000")
        } else {
            ResponseTemplate::new(200)
                .insert_header("etag", self.etag.as_str())
                .insert_header("content-type", "application/json")
                .insert_header("x-ratelimit-remaining", "4000")
                .set_body_bytes(self.body.clone())
        };
        template.set_delay(self.delay)
    }
}

/// A GraphQL answer as GitHub sends it: its own rate-limit budget, far
/// from spent (REST's is counted apart).
fn graphql_answer(body: serde_json::Value) -> ResponseTemplate {
    ResponseTemplate::new(200)
        .insert_header("x-ratelimit-resource", "graphql")
        .insert_header("x-ratelimit-remaining", "4900")
        .set_body_json(body)
}

/// What the fake holds for one pull request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Passed,
    /// Needs changes with this many findings in the repair set (and one outside it).
    Repair(usize),
    ReviewError,
    Running,
    Missing,
    Stale,
    /// One open finding whose thread GitHub shows resolved.
    ResolvedExternally,
    /// A finding whose last decision was submitted `needs_human`.
    NeedsHuman,
    /// The result download fails with a 500.
    DownloadFails,
    /// A settled finding that came back with reopening evidence, thread open.
    Reopened,
    /// A fixed finding whose thread is still open.
    ResolutionPending,
    /// More review threads than the listing's page: read on their own (one resolved externally).
    ManyThreads,
    /// Passed, but the artifact is not in the repository listing (the run is asked).
    UnlistedArtifact,
    /// Needs changes with two in the repair set, and a River artifact for the head.
    WithRiver,
}

pub fn head(n: u64) -> String {
    format!("{n:a>40}")
}

pub fn old_head(n: u64) -> String {
    format!("{n:b>40}")
}

fn run_id(n: u64) -> u64 {
    1000 + n
}

fn artifact_id(n: u64) -> u64 {
    5000 + n
}

fn plain(fp: &str, disposition: &str, priors: Vec<Value>, reopening: Option<&str>) -> Value {
    json!({
        "id": format!("rg_{fp}"), "semantic_fingerprint": fp, "disposition": disposition,
        "severity": "P2", "confidence": 0.8, "classification": "defect", "blocking_reason": null,
        "path": "src/lib.rs", "line": 10, "claim": "A claim.", "causal_evidence": null, "evidence": [],
        "reproduction": null, "suggested_fix": "Fix it.", "thread_id": null,
        "thread_status": "not_published", "thread_transition": "not_published", "thread_outdated": false,
        "reopening_evidence": reopening, "prior_dispositions": priors
    })
}

fn blocking(fp: &str) -> Value {
    let mut f = plain(fp, "still_open", Vec::new(), None);
    let evidence = json!([{"path": "src/lib.rs", "side": "new", "line": 10, "excerpt": "x()", "reason": "r"}]);
    f["blocking_reason"] = json!("validated_defect");
    f["causal_evidence"] = json!("cause");
    f["evidence"] = evidence.clone();
    f["verification"] = json!({"state": "verified", "reason": "checked", "model": "m", "evidence": evidence});
    f
}

fn prior(disposition: &str, submitted: Option<&str>, sha: &str) -> Value {
    let mut p = json!({"disposition": disposition, "evidence_summary": "seen", "actor": "dev",
                       "reviewed_sha": sha, "code_fingerprint": "c1"});
    if let Some(s) = submitted {
        p["submitted_disposition"] = json!(s);
        p["submission_id"] = json!(3);
    }
    p
}

/// The result document for pull request `n` of `kind` (`None`: no result).
pub fn result_doc(n: u64, kind: &Kind) -> Option<Value> {
    let sha = head(n);
    let fp = |i: usize| format!("defect:src.lib.rs:pr{n}.f{i}");
    let (status, score, findings): (&str, Value, Vec<Value>) = match kind {
        Kind::Passed | Kind::UnlistedArtifact => ("passed", json!(5), Vec::new()),
        Kind::Repair(k) => {
            let mut f: Vec<Value> = (0..*k).map(|i| blocking(&fp(i))).collect();
            f.push(plain(&fp(99), "still_open", Vec::new(), None));
            ("needs_changes", json!(2), f)
        }
        Kind::WithRiver => ("needs_changes", json!(3), vec![blocking(&fp(0)), blocking(&fp(1))]),
        Kind::ReviewError => ("review_error", Value::Null, Vec::new()),
        Kind::ResolvedExternally | Kind::ManyThreads | Kind::DownloadFails => (
            "needs_changes",
            json!(4),
            vec![plain(&fp(0), "still_open", Vec::new(), None)],
        ),
        Kind::NeedsHuman => {
            let priors = vec![
                prior("still_open", None, &sha),
                prior("disputed", Some("needs_human"), &sha),
            ];
            ("needs_changes", json!(4), vec![plain(&fp(0), "disputed", priors, None)])
        }
        Kind::Reopened => {
            let priors = vec![
                prior("still_open", None, &sha),
                prior("fixed", Some("fixed"), &sha),
                prior("still_open", None, &sha),
            ];
            (
                "needs_changes",
                json!(4),
                vec![plain(&fp(0), "still_open", priors, Some("It came back."))],
            )
        }
        Kind::ResolutionPending => {
            let priors = vec![prior("still_open", None, &sha), prior("fixed", Some("fixed"), &sha)];
            ("needs_changes", json!(4), vec![plain(&fp(0), "fixed", priors, None)])
        }
        Kind::Running | Kind::Missing | Kind::Stale => return None,
    };
    let mut doc = json!({
        "schema_version": "reviewgate-agent-result/v1",
        "scope": { "kind": "pull_request", "repository": REPO, "pull_request_number": n },
        "status": status, "score": score, "reviewed_sha": sha, "angle_errors": [],
        "costs": { "estimated_total_usd": 0.01, "summary": null },
        "findings": findings
    });
    if *kind == Kind::ReviewError {
        doc["angle_errors"] = json!([{"angle_id": "general", "angle_name": "General", "kind": "timeout",
                                      "retryable": true, "message": "timed out", "model": "m"}]);
    }
    Some(doc)
}

/// ReviewGate's thread for finding `fp` (its first comment carries the markers).
fn thread(n: u64, fp: &str, resolved: bool) -> Value {
    let body = format!(
        "<!-- reviewgate-finding:rg_1 -->\n\n<!-- reviewgate-finding-semantic:{} -->\nA claim.",
        enc(fp)
    );
    let comment = json!({"author": {"login": "github-actions"}, "body": body, "createdAt": "2026-01-01T00:00:00Z",
                         "url": format!("https://github.com/{REPO}/pull/{n}#discussion_r1")});
    json!({"id": format!("PRRT_{n}"), "isResolved": resolved, "isOutdated": false, "path": "src/lib.rs", "line": 10,
           "resolvedBy": if resolved { json!({"login": "someone"}) } else { Value::Null },
           "opening": {"totalCount": 1, "nodes": [comment.clone()]}, "latest": {"nodes": [comment]}})
}

fn threads_of(n: u64, kind: &Kind) -> Vec<Value> {
    let fp = format!("defect:src.lib.rs:pr{n}.f0");
    match kind {
        Kind::ResolvedExternally => vec![thread(n, &fp, true)],
        Kind::Reopened | Kind::ResolutionPending => vec![thread(n, &fp, false)],
        _ => Vec::new(),
    }
}

/// The title of pull request `n`: untrusted text with an escape sequence.
pub fn title(n: u64) -> String {
    format!("Change {n}\u{1b}[31m red")
}

pub fn pr_node(n: u64, kind: &Kind) -> Value {
    let more = *kind == Kind::ManyThreads;
    json!({
        "number": n, "title": title(n), "isDraft": false,
        "createdAt": format!("2025-{:02}-{:02}T00:00:00Z", 1 + (n - 1) / 28 % 12, 1 + (n - 1) % 28),
        "updatedAt": "2026-01-01T00:00:00Z",
        "headRefName": format!("topic-{n}"), "headRefOid": head(n), "baseRefName": if n.is_multiple_of(2) { "main" } else { "release" },
        "author": {"login": if n.is_multiple_of(3) { "alice" } else { "bob" }},
        "labels": {"nodes": if n.is_multiple_of(5) { json!([{"name": "urgent"}]) } else { json!([]) }},
        "reviewThreads": {"pageInfo": {"hasNextPage": more, "endCursor": if more { json!("T1") } else { Value::Null }},
                          "nodes": threads_of(n, kind)}
    })
}

fn run_of(n: u64, kind: &Kind) -> Option<Value> {
    let (sha, status, conclusion) = match kind {
        Kind::Missing => return None,
        Kind::Running => (head(n), "in_progress", Value::Null),
        Kind::Stale => (old_head(n), "completed", json!("failure")),
        Kind::ReviewError => (head(n), "completed", json!("failure")),
        _ => (head(n), "completed", json!("success")),
    };
    Some(
        json!({"id": run_id(n), "run_number": n, "run_attempt": 1, "head_sha": sha,
                "head_branch": format!("topic-{n}"), "event": "pull_request", "status": status,
                "conclusion": conclusion, "pull_requests": [{"number": n}],
                "created_at": format!("2026-01-01T00:{:02}:00Z", n % 60), "repository": {"full_name": REPO}}),
    )
}

fn artifact_of(n: u64) -> Value {
    json!({"id": artifact_id(n), "name": format!("reviewgate-agent-result-{}-attempt-1", head(n)),
           "size_in_bytes": 1000, "expired": false, "workflow_run": {"id": run_id(n), "head_sha": head(n)}})
}

pub fn zip_of(content: &[u8]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    w.start_file("result.json", opts).expect("entry");
    w.write_all(content).expect("write");
    w.finish().expect("zip").into_inner()
}

/// The 30 pull requests of the tests: every state, in a fixed mix.
pub fn thirty() -> Vec<(u64, Kind)> {
    let mut out = Vec::new();
    for n in 1..=30u64 {
        let kind = match n {
            1..=3 => Kind::Passed,
            4..=9 => Kind::Repair((n - 3) as usize),
            10 | 11 => Kind::ReviewError,
            12..=14 => Kind::Running,
            15..=17 => Kind::Missing,
            18..=20 => Kind::Stale,
            21 | 22 => Kind::ResolvedExternally,
            23 | 24 => Kind::NeedsHuman,
            25 => Kind::DownloadFails,
            26 => Kind::Reopened,
            27 => Kind::ResolutionPending,
            28 => Kind::ManyThreads,
            29 => Kind::UnlistedArtifact,
            _ => Kind::WithRiver,
        };
        out.push((n, kind));
    }
    out
}

/// Mounts the whole fake for `prs` on `server`, every answer held `delay`.
pub async fn mount(server: &MockServer, prs: &[(u64, Kind)], delay: std::time::Duration) {
    let base = format!("/repos/{REPO}");
    // The open pull requests, 50 to a page.
    let pages: Vec<&[(u64, Kind)]> = prs.chunks(50).collect();
    for (i, page) in pages.iter().enumerate() {
        let after = if i == 0 { Value::Null } else { json!(format!("P{i}")) };
        let more = i + 1 < pages.len();
        let body = json!({"data": {"repository": {"pullRequests": {
            "totalCount": prs.len(),
            "pageInfo": {"hasNextPage": more, "endCursor": if more { json!(format!("P{}", i + 1)) } else { Value::Null }},
            "nodes": page.iter().map(|(n, k)| pr_node(*n, k)).collect::<Vec<_>>()}}}});
        Mock::given(method("POST"))
            .and(path("/graphql"))
            .and(body_partial_json(
                json!({"variables": {"owner": "octo", "name": "app", "threads": 50, "after": after}}),
            ))
            .respond_with(graphql_answer(body).set_delay(delay))
            .mount(server)
            .await;
    }
    let mut runs = Vec::new();
    let mut artifacts = Vec::new();
    for (n, kind) in prs {
        let n = *n;
        if let Some(run) = run_of(n, kind) {
            runs.push(run);
        }
        if let Some(doc) = result_doc(n, kind) {
            if *kind != Kind::UnlistedArtifact {
                artifacts.push(artifact_of(n));
            }
            let zip = Mock::given(method("GET")).and(path(format!("{base}/actions/artifacts/{}/zip", artifact_id(n))));
            let answer = if *kind == Kind::DownloadFails {
                ResponseTemplate::new(500).set_body_string("boom")
            } else {
                ResponseTemplate::new(200).set_body_bytes(zip_of(&serde_json::to_vec(&doc).expect("json")))
            };
            zip.respond_with(answer.set_delay(delay)).mount(server).await;
        }
        if *kind == Kind::UnlistedArtifact {
            Mock::given(method("GET"))
                .and(path(format!("{base}/actions/runs/{}/artifacts", run_id(n))))
                .respond_with(
                    Conditional::json(&json!({"total_count": 1, "artifacts": [artifact_of(n)]})).delayed(delay),
                )
                .mount(server)
                .await;
        }
        if *kind == Kind::WithRiver {
            artifacts.push(
                json!({"id": 9000 + n, "name": "river-review-artifact", "size_in_bytes": 10, "expired": false,
                                  "workflow_run": {"id": 7000 + n, "head_sha": head(n)}}),
            );
        }
        if *kind == Kind::ManyThreads {
            let fp = format!("defect:src.lib.rs:pr{n}.f0");
            let page = json!({"data": {"repository": {"pullRequest": {"reviewThreads": {
                "pageInfo": {"hasNextPage": false, "endCursor": null}, "nodes": [thread(n, &fp, true)]}}}}});
            Mock::given(method("POST"))
                .and(path("/graphql"))
                .and(body_partial_json(json!({"variables": {"number": n}})))
                .respond_with(graphql_answer(page).set_delay(delay))
                .mount(server)
                .await;
        }
        // The pull request itself, for its triage screen (`triage --pr N`).
        Mock::given(method("GET"))
            .and(path(format!("{base}/pulls/{n}")))
            .respond_with(
                Conditional::json(
                    &json!({"number": n, "head": {"sha": head(n)}, "base": {"repo": {"full_name": REPO}}}),
                )
                .delayed(delay),
            )
            .mount(server)
            .await;
        Mock::given(method("GET"))
            .and(path(format!("{base}/issues/{n}/comments")))
            .and(query_param("per_page", "100"))
            .and(query_param("page", "1"))
            .respond_with(Conditional::json(&json!([])).delayed(delay))
            .mount(server)
            .await;
    }
    // Every comment of the repository since the oldest pull request: none.
    Mock::given(method("GET"))
        .and(path(format!("{base}/issues/comments")))
        .and(query_param("sort", "created"))
        .and(query_param("direction", "desc"))
        .and(query_param("since", "2025-01-01T00:00:00Z"))
        .and(query_param("per_page", "100"))
        .and(query_param("page", "1"))
        .respond_with(Conditional::json(&json!([])).delayed(delay))
        .mount(server)
        .await;
    runs.sort_by_key(|r| std::cmp::Reverse(r["id"].as_u64()));
    let run_pages: Vec<&[Value]> = if runs.is_empty() {
        vec![&[]]
    } else {
        runs.chunks(100).collect()
    };
    for (i, chunk) in run_pages.iter().enumerate() {
        Mock::given(method("GET"))
            .and(path(format!("{base}/actions/workflows/{WORKFLOW}/runs")))
            .and(query_param("event", "pull_request"))
            .and(query_param("per_page", "100"))
            .and(query_param("page", (i + 1).to_string()))
            .respond_with(Conditional::json(&json!({"total_count": runs.len(), "workflow_runs": chunk})).delayed(delay))
            .mount(server)
            .await;
    }
    artifacts.sort_by_key(|a| std::cmp::Reverse(a["id"].as_u64()));
    let chunks: Vec<&[Value]> = if artifacts.is_empty() {
        vec![&[]]
    } else {
        artifacts.chunks(100).collect()
    };
    for (i, chunk) in chunks.iter().enumerate() {
        Mock::given(method("GET"))
            .and(path(format!("{base}/actions/artifacts")))
            .and(query_param("per_page", "100"))
            .and(query_param("page", (i + 1).to_string()))
            .respond_with(
                Conditional::json(&json!({"total_count": artifacts.len(), "artifacts": chunk})).delayed(delay),
            )
            .mount(server)
            .await;
    }
}

/// `who`'s disposition comment `id` on pull request `n`: `status` for
/// finding `fp` at `n`'s head, as the repository's comment listing gives it.
pub fn decision(
    server: &MockServer,
    id: u64,
    n: u64,
    fp: &str,
    status: triage::model::finding::SubmittedDisposition,
    who: &str,
) -> Value {
    use triage::model::disposition::{DispositionPayload, comment_body};
    let payload = DispositionPayload::new(REPO, n, head(n), fp, status, "Checked.", who);
    json!({"id": id, "body": comment_body(&payload), "user": {"login": who},
           "issue_url": format!("{}/repos/{REPO}/issues/{n}", server.uri()),
           "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"})
}

/// The repository's comment listing holds `comments` (one page), ahead of
/// the empty one [`mount`] answers with.
pub async fn listed_comments(server: &MockServer, comments: &[Value]) {
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/issues/comments")))
        .and(query_param("page", "1"))
        .respond_with(Conditional::json(&json!(comments)))
        .with_priority(1)
        .mount(server)
        .await;
}

/// The head of `n` carries no commit status (no receipt attests anything).
pub async fn no_statuses(server: &MockServer, n: u64) {
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/commits/{}/status", head(n))))
        .respond_with(Conditional::json(&json!({"state": "pending", "statuses": []})))
        .mount(server)
        .await;
}

/// `who` has permission `level` (`read`, `write` ...) on the repository.
pub async fn permission(server: &MockServer, who: &str, level: &str) {
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/collaborators/{who}/permission")))
        .respond_with(Conditional::json(&json!({"permission": level})))
        .mount(server)
        .await;
}

/// The repository's comment listing as GitHub pages it, from GitHub's
/// state at the time of each page: the first page is answered from
/// `before`, every later one from `after` (a comment edited or created in
/// between). Each page is sorted as asked (`sort=updated` or `created`,
/// newest first).
pub struct ShiftingComments {
    pub before: Vec<Value>,
    pub after: Vec<Value>,
    pub served: std::sync::atomic::AtomicUsize,
}

impl ShiftingComments {
    pub fn new(before: Vec<Value>, after: Vec<Value>) -> ShiftingComments {
        ShiftingComments {
            before,
            after,
            served: std::sync::atomic::AtomicUsize::new(0),
        }
    }
}

impl Respond for ShiftingComments {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let query = |key: &str| {
            request
                .url
                .query_pairs()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.into_owned())
        };
        let page: usize = query("page").and_then(|v| v.parse().ok()).unwrap_or(1);
        let served = self.served.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut state = if served == 0 {
            self.before.clone()
        } else {
            self.after.clone()
        };
        let member = if query("sort").as_deref() == Some("updated") {
            "updated_at"
        } else {
            "created_at"
        };
        state.sort_by(|a, b| {
            let key = |c: &Value| (c[member].as_str().unwrap_or("").to_owned(), c["id"].as_u64());
            key(b).cmp(&key(a))
        });
        let chunk: Vec<Value> = state.into_iter().skip((page - 1) * 100).take(100).collect();
        ResponseTemplate::new(200).set_body_json(chunk)
    }
}

/// A plain comment `id` on pull request `n`, created and last updated at `at`.
pub fn remark(server: &MockServer, id: u64, n: u64, at: &str) -> Value {
    json!({"id": id, "body": "LGTM", "user": {"login": "bob"},
           "issue_url": format!("{}/repos/{REPO}/issues/{n}", server.uri()),
           "created_at": at, "updated_at": at})
}
