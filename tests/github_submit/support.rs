//! Shared fakes and helpers: the conformance body, a fast client, mounted
//! GitHub answers and the request log.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;
use triage::github::draft::{CheckedDraft, Draft};
use triage::github::protocol::Outcome;
use triage::github::{ApiBase, Client, ClientConfig, RetryPolicy, Token};
use triage::model::finding::SubmittedDisposition;
use triage::outbox::Outbox;
use triage::session::batch;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

pub const TOKEN: &str = "ghp_TESTtokenNEVERprinted0123456789";
pub const REPO: &str = "LVTD-LLC/reviewgate";
pub const SHA: &str = "abc123";
pub const ACTOR: &str = "repair-agent";
pub const FP: &str = "reliability_risk:app.webhooks.retry.py:webhook.retry.exhaustion.missing.regression";
pub const EVIDENCE: &str = "Accepted verified on the reviewed head.";

pub const USER: &str = "/user";
/// The collaborator permission of the actor (the ledger's authorisation lookups).
pub const PERMISSION: &str = "/repos/LVTD-LLC/reviewgate/collaborators/repair-agent/permission";
/// The repository, whose `permissions` are the token user's (step 3).
pub const ACCESS: &str = "/repos/LVTD-LLC/reviewgate";
pub const PULL: &str = "/repos/LVTD-LLC/reviewgate/pulls/48";
pub const COMMENTS: &str = "/repos/LVTD-LLC/reviewgate/issues/48/comments";
pub const COMMENTS_PAGE_1: &str = "/repos/LVTD-LLC/reviewgate/issues/48/comments?per_page=100&page=1";
pub const STATUS: &str = "/repos/LVTD-LLC/reviewgate/statuses/abc123";
pub const DELETE_1: &str = "/repos/LVTD-LLC/reviewgate/issues/comments/1";

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance")
}

/// The conformance line of a file in expected.jsonl.
pub fn expected(file: &str) -> Value {
    let text = std::fs::read_to_string(fixtures().join("expected.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["file"] == file)
        .unwrap_or_else(|| panic!("{file} not in expected.jsonl"))
}

/// The exact body ReviewGate writes for real-test-transport-accepted.json.
pub fn accepted_body() -> String {
    expected("disposition/real-test-transport-accepted.json")["body"]
        .as_str()
        .unwrap()
        .to_owned()
}

pub fn accepted_digest() -> String {
    expected("disposition/real-test-transport-accepted.json")["digest"]
        .as_str()
        .unwrap()
        .to_owned()
}

pub fn draft() -> Draft {
    Draft {
        repository: REPO.into(),
        pull_request: 48,
        reviewed_sha: SHA.into(),
        fingerprint: FP.into(),
        status: SubmittedDisposition::Accepted,
        evidence: EVIDENCE.into(),
        actor: None,
    }
}

pub fn checked() -> CheckedDraft {
    draft().check().unwrap()
}

pub fn client(base: &str) -> Client {
    let mut config = ClientConfig::new(ApiBase::parse(base).unwrap(), Token::new(TOKEN).unwrap());
    config.timeout = Duration::from_secs(2);
    config.retry = RetryPolicy {
        max_attempts: 3,
        first_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(10),
    };
    Client::new(config).unwrap()
}

pub fn pull(state: &str, base: &str, sha: &str) -> Value {
    json!({"number": 48, "state": state, "head": {"sha": sha, "ref": "feature"}, "base": {"repo": {"full_name": base}}})
}

pub async fn on(server: &MockServer, verb: &str, route: &str, response: ResponseTemplate) {
    Mock::given(method(verb))
        .and(path(route))
        .respond_with(response)
        .mount(server)
        .await;
}

pub async fn once(server: &MockServer, verb: &str, route: &str, response: ResponseTemplate) {
    Mock::given(method(verb))
        .and(path(route))
        .respond_with(response)
        .up_to_n_times(1)
        .mount(server)
        .await;
}

pub fn ok(body: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(body)
}

pub fn created(body: Value) -> ResponseTemplate {
    ResponseTemplate::new(201).set_body_json(body)
}

/// Mounts steps 2 and 3: the actor, with `permission` on the repository.
pub async fn mount_reads(server: &MockServer, permission: &str) {
    on(server, "GET", USER, ok(json!({"login": ACTOR, "id": 5}))).await;
    on(server, "GET", ACCESS, ok(repo_access(permission))).await;
}

/// `GET /repos/{repo}` for a token user with role `permission`.
pub fn repo_access(permission: &str) -> Value {
    let rank = ["read", "triage", "write", "maintain", "admin"]
        .iter()
        .position(|p| *p == permission)
        .map_or(-1, |i| i as i64);
    json!({"full_name": REPO, "permissions": {
        "pull": rank >= 0, "triage": rank >= 1, "push": rank >= 2, "maintain": rank >= 3, "admin": rank >= 4
    }})
}

pub fn comment_created() -> ResponseTemplate {
    created(json!({"id": 1, "body": accepted_body(), "user": {"login": ACTOR}}))
}

pub fn status_created(creator: &str) -> ResponseTemplate {
    created(json!({"id": 77, "state": "success", "creator": {"login": creator}}))
}

/// `METHOD path?query` of every request the server saw, in order.
pub async fn sequence(server: &MockServer) -> Vec<String> {
    requests(server).await.iter().map(|(line, _)| line.clone()).collect()
}

/// Every request in order of arrival, except that reads sent together
/// (they may arrive in any order) are listed in one fixed order: each run of
/// consecutive reads of [`read_rank`] in which no line repeats is sorted by
/// that rank (user, repository, pull request, comments, one comment,
/// statuses). A repeated line starts a new run: the head re-read after a
/// post is never sorted into the reads before it.
pub async fn requests(server: &MockServer) -> Vec<(String, Vec<u8>)> {
    let received = server.received_requests().await.unwrap();
    let seen: Vec<(String, Vec<u8>)> = received
        .iter()
        .map(|r| {
            let query = r.url.query().map(|q| format!("?{q}")).unwrap_or_default();
            (format!("{} {}{}", r.method, r.url.path(), query), r.body.clone())
        })
        .collect();
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut run: Vec<(String, Vec<u8>)> = Vec::new();
    for item in seen {
        let repeats = run.iter().any(|(l, _)| *l == item.0);
        if read_rank(&item.0).is_none() || repeats {
            run.sort_by_key(|(l, _)| read_rank(l));
            out.append(&mut run);
        }
        if read_rank(&item.0).is_some() {
            run.push(item);
        } else {
            out.push(item);
        }
    }
    run.sort_by_key(|(l, _)| read_rank(l));
    out.append(&mut run);
    out
}

/// Where a read sent beside others is listed (`None`: not such a read).
pub fn read_rank(line: &str) -> Option<u8> {
    let path = line.strip_prefix("GET ")?;
    let path = path.split('?').next().unwrap_or(path);
    let path = path.strip_prefix("/api/v3").unwrap_or(path);
    let rank = match path {
        USER => 0,
        ACCESS => 1,
        PULL => 2,
        COMMENTS => 3,
        HEAD_STATUS => 5,
        _ if path.starts_with("/repos/LVTD-LLC/reviewgate/issues/comments/") => 4,
        _ => return None,
    };
    Some(rank)
}

/// The reads sent together before anything is posted, in [`requests`]' order.
pub fn reads() -> Vec<String> {
    vec![
        line("GET", USER),
        line("GET", ACCESS),
        line("GET", PULL),
        line("GET", COMMENTS_PAGE_1),
        line("GET", HEAD_STATUS_PAGE_1),
    ]
}

pub fn body_json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

pub fn line(verb: &str, route: &str) -> String {
    format!("{verb} {route}")
}

pub fn outbox_in(dir: &Path) -> Outbox {
    Outbox::open(dir.join("outbox")).unwrap()
}

/// Keeps the draft, sends it, and returns the outcome (as the CLI does).
pub async fn keep_and_send(client: &Client, outbox: &Outbox) -> Outcome {
    let kept = batch::keep(outbox, draft(), None).unwrap();
    batch::send_entry(client, outbox, &kept.entry, kept.options())
        .await
        .unwrap()
        .outcome
}

pub async fn mount_all_but_comment(server: &MockServer) {
    mount_reads(server, "write").await;
    on(server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(server, "POST", STATUS, status_created(ACTOR)).await;
}

pub const COMMENT_1: &str = "/repos/LVTD-LLC/reviewgate/issues/comments/1";
pub const HEAD_STATUS: &str = "/repos/LVTD-LLC/reviewgate/commits/abc123/status";
pub const HEAD_STATUS_PAGE_1: &str = "/repos/LVTD-LLC/reviewgate/commits/abc123/status?per_page=100&page=1";

/// The pull request holds no comments yet (the ledger read before posting).
pub async fn mount_no_decisions(server: &MockServer) {
    on(server, "GET", COMMENTS, ok(json!([]))).await;
}

/// The combined status of the head attesting comment `id` with `body`.
pub fn receipt_status(id: u64, body: &str, creator: &str) -> Value {
    let digest = triage::model::disposition::receipt_digest(body);
    json!({"state": "success", "statuses": [{
        "context": format!("reviewgate/disposition/{id}"), "description": digest,
        "state": "success", "creator": {"login": creator}
    }]})
}

/// Reading comment 1 and its status back after attesting it.
pub async fn mount_read_back(server: &MockServer) {
    on(
        server,
        "GET",
        COMMENT_1,
        ok(json!({"id": 1, "body": accepted_body(), "user": {"login": ACTOR}})),
    )
    .await;
    on(
        server,
        "GET",
        HEAD_STATUS,
        ok(receipt_status(1, &accepted_body(), ACTOR)),
    )
    .await;
}

/// A stateful fake GitHub for pull request 48 of REPO at SHA, token user ACTOR.
pub async fn fake() -> (MockServer, super::fake::Fake) {
    super::fake::Fake::start_for(REPO, 48, SHA, ACTOR).await
}

/// A client that gives up on an answer after `millis` (for lost answers).
pub fn impatient_client(base: &str, millis: u64) -> Client {
    let mut config = ClientConfig::new(ApiBase::parse(base).unwrap(), Token::new(TOKEN).unwrap());
    config.timeout = Duration::from_millis(millis);
    config.retry = RetryPolicy {
        max_attempts: 2,
        first_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(10),
    };
    Client::new(config).unwrap()
}

/// True when GitHub holds the decision: the comment with the accepted body
/// by ACTOR, attested by a status on the head.
pub fn held_on_github(fake: &super::fake::Fake) -> Option<u64> {
    let body = accepted_body();
    let digest = triage::model::disposition::receipt_digest(&body);
    let state = fake.0.lock().unwrap();
    state
        .comments
        .iter()
        .filter(|(_, (author, text))| author == ACTOR && *text == body)
        .map(|(id, _)| *id)
        .find(|id| {
            state.statuses.iter().any(|s| {
                s["context"] == json!(format!("reviewgate/disposition/{id}")) && s["description"] == json!(digest)
            })
        })
}
