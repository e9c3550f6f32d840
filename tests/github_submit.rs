//! The disposition protocol against a fake GitHub on 127.0.0.1: method, path,
//! body and order of every request, the outbox around it, and the command
//! line (exit codes, no token anywhere).

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;
use triage::github::batch::{self, Kept};
use triage::github::decide::{Rejection, Step};
use triage::github::draft::{CheckedDraft, Draft};
use triage::github::protocol::{Outcome, SubmitOptions, submit};
use triage::github::{ApiBase, Client, ClientConfig, GhError, RetryPolicy, Token};
use triage::model::finding::SubmittedDisposition;
use triage::outbox::Outbox;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const TOKEN: &str = "ghp_TESTtokenNEVERprinted0123456789";
const REPO: &str = "LVTD-LLC/reviewgate";
const SHA: &str = "abc123";
const ACTOR: &str = "repair-agent";
const FP: &str = "reliability_risk:app.webhooks.retry.py:webhook.retry.exhaustion.missing.regression";
const EVIDENCE: &str = "Accepted verified on the reviewed head.";

const USER: &str = "/user";
const PERMISSION: &str = "/repos/LVTD-LLC/reviewgate/collaborators/repair-agent/permission";
const PULL: &str = "/repos/LVTD-LLC/reviewgate/pulls/48";
const COMMENTS: &str = "/repos/LVTD-LLC/reviewgate/issues/48/comments";
const COMMENTS_PAGE_1: &str = "/repos/LVTD-LLC/reviewgate/issues/48/comments?per_page=100&page=1";
const STATUS: &str = "/repos/LVTD-LLC/reviewgate/statuses/abc123";
const DELETE_1: &str = "/repos/LVTD-LLC/reviewgate/issues/comments/1";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance")
}

/// The conformance line of a file in expected.jsonl.
fn expected(file: &str) -> Value {
    let text = std::fs::read_to_string(fixtures().join("expected.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["file"] == file)
        .unwrap_or_else(|| panic!("{file} not in expected.jsonl"))
}

/// The exact body ReviewGate writes for real-test-transport-accepted.json.
fn accepted_body() -> String {
    expected("disposition/real-test-transport-accepted.json")["body"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn accepted_digest() -> String {
    expected("disposition/real-test-transport-accepted.json")["digest"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn draft() -> Draft {
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

fn checked() -> CheckedDraft {
    draft().check().unwrap()
}

fn client(base: &str) -> Client {
    let mut config = ClientConfig::new(ApiBase::parse(base).unwrap(), Token::new(TOKEN).unwrap());
    config.timeout = Duration::from_secs(2);
    config.retry = RetryPolicy {
        max_attempts: 3,
        first_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(10),
    };
    Client::new(config).unwrap()
}

fn pull(state: &str, base: &str, sha: &str) -> Value {
    json!({"number": 48, "state": state, "head": {"sha": sha, "ref": "feature"}, "base": {"repo": {"full_name": base}}})
}

async fn on(server: &MockServer, verb: &str, route: &str, response: ResponseTemplate) {
    Mock::given(method(verb))
        .and(path(route))
        .respond_with(response)
        .mount(server)
        .await;
}

async fn once(server: &MockServer, verb: &str, route: &str, response: ResponseTemplate) {
    Mock::given(method(verb))
        .and(path(route))
        .respond_with(response)
        .up_to_n_times(1)
        .mount(server)
        .await;
}

fn ok(body: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(body)
}

fn created(body: Value) -> ResponseTemplate {
    ResponseTemplate::new(201).set_body_json(body)
}

/// Mounts steps 2–4 answering for an open PR at the reviewed head.
async fn mount_reads(server: &MockServer, permission: &str) {
    on(server, "GET", USER, ok(json!({"login": ACTOR, "id": 5}))).await;
    on(
        server,
        "GET",
        PERMISSION,
        ok(json!({"permission": permission, "role_name": permission})),
    )
    .await;
}

fn comment_created() -> ResponseTemplate {
    created(json!({"id": 1, "body": accepted_body(), "user": {"login": ACTOR}}))
}

fn status_created(creator: &str) -> ResponseTemplate {
    created(json!({"id": 77, "state": "success", "creator": {"login": creator}}))
}

/// `METHOD path?query` of every request the server saw, in order.
async fn sequence(server: &MockServer) -> Vec<String> {
    requests(server).await.iter().map(|(line, _)| line.clone()).collect()
}

async fn requests(server: &MockServer) -> Vec<(String, Vec<u8>)> {
    let received = server.received_requests().await.unwrap();
    received
        .iter()
        .map(|r| {
            let query = r.url.query().map(|q| format!("?{q}")).unwrap_or_default();
            (format!("{} {}{}", r.method, r.url.path(), query), r.body.clone())
        })
        .collect()
}

fn body_json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

fn line(verb: &str, route: &str) -> String {
    format!("{verb} {route}")
}

#[tokio::test]
async fn happy_path_posts_the_conformance_body_and_attests_it() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "POST", STATUS, status_created(ACTOR)).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Recorded(receipt) = &outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(receipt.comment_id, 1);
    assert_eq!(receipt.url, format!("{}/{REPO}/pull/48#issuecomment-1", server.uri()));
    assert_eq!(receipt.fingerprint, FP);
    assert_eq!(receipt.disposition, SubmittedDisposition::Accepted);
    assert!(!receipt.reused);

    let seen = requests(&server).await;
    let lines: Vec<&str> = seen.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        lines,
        [
            line("GET", USER),
            line("GET", PERMISSION),
            line("GET", PULL),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("POST", STATUS),
        ]
    );
    assert_eq!(body_json(&seen[3].1), json!({"body": accepted_body()}));
    assert_eq!(
        body_json(&seen[5].1),
        json!({
            "state": "success",
            "target_url": format!("{}/{REPO}/pull/48#issuecomment-1", server.uri()),
            "description": accepted_digest(),
            "context": "reviewgate/disposition/1",
        })
    );
    for r in server.received_requests().await.unwrap() {
        let auth = r.headers.get("authorization").and_then(|v| v.to_str().ok());
        assert_eq!(auth, Some(format!("Bearer {TOKEN}").as_str()), "{} {}", r.method, r.url);
    }
}

#[tokio::test]
async fn enterprise_base_prefixes_routes_and_links_to_the_web_host() {
    let server = MockServer::start().await;
    on(&server, "GET", "/api/v3/user", ok(json!({"login": ACTOR}))).await;
    on(
        &server,
        "GET",
        &format!("/api/v3{PERMISSION}"),
        ok(json!({"permission": "admin"})),
    )
    .await;
    on(&server, "GET", &format!("/api/v3{PULL}"), ok(pull("open", REPO, SHA))).await;
    on(&server, "POST", &format!("/api/v3{COMMENTS}"), comment_created()).await;
    on(&server, "POST", &format!("/api/v3{STATUS}"), status_created(ACTOR)).await;

    let outcome = submit(
        &client(&format!("{}/api/v3", server.uri())),
        &checked(),
        SubmitOptions::default(),
    )
    .await;
    let Outcome::Recorded(receipt) = outcome else {
        panic!("{outcome:?}")
    };
    let web = format!("{}/{REPO}/pull/48#issuecomment-1", server.uri());
    assert_eq!(receipt.url, web);
    let seen = requests(&server).await;
    assert_eq!(seen.len(), 6);
    assert!(seen.iter().all(|(l, _)| l.contains(" /api/v3/")), "{seen:?}");
    assert_eq!(body_json(&seen[5].1)["target_url"], json!(web));
}

#[tokio::test]
async fn stale_head_before_posting_posts_nothing() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, "fff999"))).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    assert_eq!(
        outcome,
        Outcome::Rejected {
            reason: Rejection::StaleHead {
                reviewed: SHA.into(),
                head: "fff999".into()
            },
            comment_removed: false
        }
    );
    assert_eq!(
        sequence(&server).await,
        [line("GET", USER), line("GET", PERMISSION), line("GET", PULL)]
    );
}

#[tokio::test]
async fn head_moved_after_posting_deletes_the_comment_and_sets_no_status() {
    let server = MockServer::start().await;
    mount_reads(&server, "maintain").await;
    once(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(&server, "GET", PULL, ok(pull("open", REPO, "fff999"))).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "DELETE", DELETE_1, ResponseTemplate::new(204)).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    assert_eq!(
        outcome,
        Outcome::Rejected {
            reason: Rejection::HeadMoved {
                reviewed: SHA.into(),
                head: "fff999".into()
            },
            comment_removed: true
        }
    );
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", PERMISSION),
            line("GET", PULL),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("DELETE", DELETE_1),
        ]
    );
}

#[tokio::test]
async fn unreadable_head_after_posting_counts_as_moved() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    once(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(&server, "GET", PULL, ResponseTemplate::new(502)).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "DELETE", DELETE_1, ResponseTemplate::new(204)).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Rejected {
        reason: Rejection::HeadUnreadable { .. },
        comment_removed: true,
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    // The idempotent re-read is retried (3 attempts) before giving up.
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", PERMISSION),
            line("GET", PULL),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("GET", PULL),
            line("GET", PULL),
            line("DELETE", DELETE_1),
        ]
    );
}

#[tokio::test]
async fn read_only_permission_is_rejected_before_reading_the_pull_request() {
    let server = MockServer::start().await;
    mount_reads(&server, "read").await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Rejected {
        reason: Rejection::NoWritePermission { permission, .. },
        comment_removed: false,
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    assert_eq!(permission, "read");
    assert_eq!(sequence(&server).await, [line("GET", USER), line("GET", PERMISSION)]);
}

#[tokio::test]
async fn forbidden_permission_lookup_is_a_rejection() {
    let server = MockServer::start().await;
    on(&server, "GET", USER, ok(json!({"login": ACTOR}))).await;
    let denied = ResponseTemplate::new(403)
        .insert_header("x-ratelimit-remaining", "4999")
        .set_body_json(json!({"message": "Must have push access to view repository collaborators."}));
    on(&server, "GET", PERMISSION, denied).await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Rejected {
        reason:
            Rejection::Refused {
                step: Step::Permission,
                error: GhError::Forbidden { .. },
            },
        ..
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    assert_eq!(sequence(&server).await, [line("GET", USER), line("GET", PERMISSION)]);
}

#[tokio::test]
async fn closed_pull_request_is_rejected_without_a_comment() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("closed", REPO, SHA))).await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    assert_eq!(
        outcome,
        Outcome::Rejected {
            reason: Rejection::PullNotOpen { state: "closed".into() },
            comment_removed: false
        }
    );
    assert_eq!(
        sequence(&server).await,
        [line("GET", USER), line("GET", PERMISSION), line("GET", PULL)]
    );
}

#[tokio::test]
async fn pull_request_from_another_base_repository_is_rejected() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", "someone/fork", SHA))).await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    assert_eq!(
        outcome,
        Outcome::Rejected {
            reason: Rejection::OtherBaseRepository {
                expected: REPO.into(),
                got: Some("someone/fork".into())
            },
            comment_removed: false
        }
    );
    assert_eq!(
        sequence(&server).await,
        [line("GET", USER), line("GET", PERMISSION), line("GET", PULL)]
    );
}

#[tokio::test]
async fn attestation_by_someone_else_deletes_the_comment() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "POST", STATUS, status_created("some-app[bot]")).await;
    on(&server, "DELETE", DELETE_1, ResponseTemplate::new(204)).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    assert_eq!(
        outcome,
        Outcome::Rejected {
            reason: Rejection::CreatorMismatch {
                actor: ACTOR.into(),
                creator: Some("some-app[bot]".into())
            },
            comment_removed: true
        }
    );
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", PERMISSION),
            line("GET", PULL),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("POST", STATUS),
            line("DELETE", DELETE_1),
        ]
    );
}

#[tokio::test]
async fn failed_attestation_deletes_the_comment_and_is_not_retried() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "POST", STATUS, ResponseTemplate::new(500)).await;
    on(&server, "DELETE", DELETE_1, ResponseTemplate::new(204)).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Failed {
        step: Step::Attestation,
        error: GhError::Http { status: 500, .. },
        comment_left: None,
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    let seen = sequence(&server).await;
    assert_eq!(seen.iter().filter(|l| l.starts_with("POST")).count(), 2, "{seen:?}");
    assert_eq!(seen.last(), Some(&line("DELETE", DELETE_1)));
}

#[tokio::test]
async fn payload_actor_must_be_the_authenticated_user() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    let mut d = draft();
    d.actor = Some("someone-else".into());
    let outcome = submit(&client(&server.uri()), &d.check().unwrap(), SubmitOptions::default()).await;
    let Outcome::Rejected {
        reason: Rejection::ActorMismatch { .. },
        comment_removed: false,
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    assert_eq!(sequence(&server).await, [line("GET", USER)]);
}

#[tokio::test]
async fn primary_rate_limit_is_reported_with_its_reset_time_and_not_retried() {
    let server = MockServer::start().await;
    let limited = ResponseTemplate::new(403)
        .insert_header("x-ratelimit-remaining", "0")
        .insert_header("x-ratelimit-reset", "1700000000")
        .set_body_json(json!({"message": "API rate limit exceeded"}));
    on(&server, "GET", USER, limited).await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Failed {
        step: Step::Actor,
        error: error @ GhError::RateLimited { reset: Some(_) },
        ..
    } = &outcome
    else {
        panic!("{outcome:?}")
    };
    assert!(error.to_string().contains("2023-11-14T22:13:20Z"), "{error}");
    assert!(outcome.summary().contains("2023-11-14T22:13:20Z"));
    assert_eq!(sequence(&server).await, [line("GET", USER)]);
}

#[tokio::test]
async fn too_many_requests_on_the_comment_is_a_failure_with_reset() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(
        &server,
        "POST",
        COMMENTS,
        ResponseTemplate::new(429).insert_header("retry-after", "120"),
    )
    .await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Failed {
        step: Step::Comment,
        error: GhError::RateLimited { reset: Some(_) },
        comment_left: None,
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    assert!(outcome.summary().contains("resets at"), "{}", outcome.summary());
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", PERMISSION),
            line("GET", PULL),
            line("POST", COMMENTS)
        ]
    );
}

#[tokio::test]
async fn transient_get_failures_are_retried_but_4xx_are_not() {
    let server = MockServer::start().await;
    once(&server, "GET", USER, ResponseTemplate::new(503)).await;
    on(&server, "GET", USER, ok(json!({"login": ACTOR}))).await;
    on(
        &server,
        "GET",
        PERMISSION,
        ResponseTemplate::new(404).set_body_json(json!({"message": "Not Found"})),
    )
    .await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Rejected {
        reason:
            Rejection::Refused {
                step: Step::Permission,
                error: GhError::NotFound { .. },
            },
        ..
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    assert_eq!(
        sequence(&server).await,
        [line("GET", USER), line("GET", USER), line("GET", PERMISSION)]
    );
}

// ---- the outbox around failures of the comment POST ----

fn outbox_in(dir: &Path) -> Outbox {
    Outbox::open(dir.join("outbox")).unwrap()
}

/// Keeps the draft, sends it, and returns the outcome (as the CLI does).
async fn keep_and_send(client: &Client, outbox: &Outbox) -> Outcome {
    let kept = batch::keep(outbox, draft(), None).unwrap();
    batch::send_entry(client, outbox, &kept.entry, kept.options())
        .await
        .unwrap()
        .outcome
}

async fn mount_all_but_comment(server: &MockServer) {
    mount_reads(server, "write").await;
    on(server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(server, "POST", STATUS, status_created(ACTOR)).await;
}

#[tokio::test]
async fn server_error_on_the_comment_keeps_the_draft_then_a_retry_posts_once() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let server = MockServer::start().await;
    mount_all_but_comment(&server).await;
    once(&server, "POST", COMMENTS, ResponseTemplate::new(500)).await;
    on(&server, "GET", COMMENTS, ok(json!([]))).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    let client = client(&server.uri());

    let first = keep_and_send(&client, &outbox).await;
    let Outcome::Failed {
        step: Step::Comment,
        error: GhError::Http { status: 500, .. },
        ..
    } = first
    else {
        panic!("{first:?}")
    };
    let kept = outbox.list().unwrap().entries;
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].attempts, 1);
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", PERMISSION),
            line("GET", PULL),
            line("POST", COMMENTS)
        ],
        "a failed POST is never re-sent automatically"
    );

    server.reset().await;
    mount_all_but_comment(&server).await;
    on(
        &server,
        "GET",
        COMMENTS,
        ok(json!([{"id": 3, "body": "unrelated", "user": {"login": ACTOR}}])),
    )
    .await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    let second = keep_and_send(&client, &outbox).await;
    assert!(second.is_recorded(), "{second:?}");
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", PERMISSION),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("POST", STATUS),
        ]
    );
    assert!(
        outbox.list().unwrap().entries.is_empty(),
        "recorded entries leave the outbox"
    );
}

#[tokio::test]
async fn timeout_on_the_comment_whose_post_took_effect_is_not_posted_again() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let server = MockServer::start().await;
    mount_all_but_comment(&server).await;
    // The comment is created, but the answer comes too late.
    on(
        &server,
        "POST",
        COMMENTS,
        comment_created().set_delay(Duration::from_secs(8)),
    )
    .await;
    let client = client(&server.uri());

    let first = keep_and_send(&client, &outbox).await;
    let Outcome::Failed {
        step: Step::Comment,
        error: GhError::Timeout { .. },
        ..
    } = first
    else {
        panic!("{first:?}")
    };
    assert_eq!(outbox.list().unwrap().entries.len(), 1);

    server.reset().await;
    mount_all_but_comment(&server).await;
    let page: Vec<Value> = (0..100)
        .map(|i| json!({"id": 1000 + i, "body": "other", "user": {"login": "someone"}}))
        .collect();
    let existing = json!([
        {"id": 2, "body": accepted_body(), "user": {"login": "impostor"}},
        {"id": 1, "body": accepted_body(), "user": {"login": ACTOR}}
    ]);
    Mock::given(method("GET"))
        .and(path(COMMENTS))
        .and(wiremock::matchers::query_param("page", "1"))
        .respond_with(ok(Value::Array(page)))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(COMMENTS))
        .and(wiremock::matchers::query_param("page", "2"))
        .respond_with(ok(existing))
        .mount(&server)
        .await;

    let second = keep_and_send(&client, &outbox).await;
    let Outcome::Recorded(receipt) = second else {
        panic!("{second:?}")
    };
    assert!(receipt.reused);
    assert_eq!(receipt.comment_id, 1);
    let seen = requests(&server).await;
    let lines: Vec<&str> = seen.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        lines,
        [
            line("GET", USER),
            line("GET", PERMISSION),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            format!("GET {COMMENTS}?per_page=100&page=2"),
            line("GET", PULL),
            line("POST", STATUS),
        ]
    );
    assert_eq!(body_json(&seen[6].1)["context"], json!("reviewgate/disposition/1"));
    assert!(outbox.list().unwrap().entries.is_empty());
}

/// A server that answers the first `answers.len()` connections (one request
/// each, `Connection: close`) and then stops listening, so the next request
/// is refused. Returns its base URL and the request lines it saw.
fn closing_server(answers: Vec<String>) -> (String, std::sync::mpsc::Receiver<String>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for body in answers {
            let Ok((stream, _)) = listener.accept() else { return };
            let mut reader = BufReader::new(stream);
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let mut length = 0usize;
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).unwrap();
                if header == "\r\n" || header.is_empty() {
                    break;
                }
                if let Some(v) = header.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
            }
            let mut discard = vec![0; length];
            reader.read_exact(&mut discard).unwrap();
            let mut parts = request_line.split_whitespace();
            tx.send(format!("{} {}", parts.next().unwrap(), parts.next().unwrap()))
                .unwrap();
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}",
                body.len(),
                body
            );
            reader.get_mut().write_all(response.as_bytes()).unwrap();
        }
        drop(listener);
    });
    (base, rx)
}

#[tokio::test]
async fn connection_refused_on_the_comment_keeps_the_draft_then_a_retry_posts_once() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let answers = vec![
        json!({"login": ACTOR}).to_string(),
        json!({"permission": "write"}).to_string(),
        pull("open", REPO, SHA).to_string(),
    ];
    let (base, seen) = closing_server(answers);
    let first = keep_and_send(&client(&base), &outbox).await;
    let Outcome::Failed {
        step: Step::Comment,
        error: GhError::Transport { .. },
        ..
    } = first
    else {
        panic!("{first:?}")
    };
    let lines: Vec<String> = seen.try_iter().collect();
    assert_eq!(lines, [line("GET", USER), line("GET", PERMISSION), line("GET", PULL)]);
    assert_eq!(outbox.list().unwrap().entries.len(), 1);

    let server = MockServer::start().await;
    mount_all_but_comment(&server).await;
    on(&server, "GET", COMMENTS, ok(json!([]))).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    let second = keep_and_send(&client(&server.uri()), &outbox).await;
    assert!(second.is_recorded(), "{second:?}");
    let posts: Vec<String> = sequence(&server)
        .await
        .into_iter()
        .filter(|l| l == &line("POST", COMMENTS))
        .collect();
    assert_eq!(posts.len(), 1);
    assert!(outbox.list().unwrap().entries.is_empty());
}

#[tokio::test]
async fn a_batch_records_each_and_one_failure_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let server = MockServer::start().await;
    mount_all_but_comment(&server).await;
    once(&server, "POST", COMMENTS, comment_created()).await;
    once(&server, "POST", COMMENTS, ResponseTemplate::new(502)).await;
    on(
        &server,
        "POST",
        COMMENTS,
        created(json!({"id": 3, "user": {"login": ACTOR}})),
    )
    .await;

    let drafts = ["first", "second", "third"].map(|evidence| Draft {
        evidence: evidence.into(),
        ..draft()
    });
    let kept: Vec<Kept> = drafts
        .into_iter()
        .map(|d| batch::keep(&outbox, d, None).unwrap())
        .collect();
    let mut seen = Vec::new();
    let summary = batch::submit_many(&client(&server.uri()), &outbox, &kept, |entry, result| {
        seen.push((
            entry.draft.evidence.clone(),
            result.as_ref().map(|s| s.outcome.is_recorded()).unwrap_or(false),
        ));
    })
    .await;
    assert_eq!(summary.recorded, 2);
    assert_eq!(summary.failed, 1);
    assert_eq!(
        seen,
        [("first".into(), true), ("second".into(), false), ("third".into(), true)]
    );
    let left = outbox.list().unwrap().entries;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].draft.evidence, "second");
    let bodies: Vec<String> = requests(&server)
        .await
        .iter()
        .filter(|(l, _)| l == &line("POST", COMMENTS))
        .map(|(_, b)| body_json(b)["body"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(bodies.len(), 3);
    assert!(bodies[0].starts_with("<!-- reviewgate-agent-dispositions "));
}

// ---- the command line ----

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary with a private HOME/state dir and the fake API.
async fn triage(args: Vec<String>, api: &str, home: &Path) -> Run {
    let api = api.to_owned();
    let home = home.to_owned();
    tokio::task::spawn_blocking(move || {
        let output = assert_cmd::Command::cargo_bin("triage")
            .unwrap()
            .args(&args)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &home)
            .env("TRIAGE_STATE_DIR", home.join("state"))
            .env("GITHUB_API_URL", &api)
            .env("GH_TOKEN", TOKEN)
            .env("TRIAGE_HTTP_TIMEOUT", "10")
            .env("RUST_LOG", "trace")
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    })
    .await
    .unwrap()
}

fn result_args(evidence: &str) -> Vec<String> {
    let result = fixtures().join("agent-result/valid-scope-pull-request.json");
    [
        "submit",
        "--result",
        result.to_str().unwrap(),
        "--finding",
        FP,
        "--status",
        "accepted",
        "--evidence",
        evidence,
    ]
    .map(String::from)
    .to_vec()
}

/// Every byte under `dir`, file by file.
fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let Ok(items) = std::fs::read_dir(dir) else { return out };
    for item in items {
        let p = item.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push((p.clone(), std::fs::read(&p).unwrap()));
        }
    }
    out
}

fn assert_no_token(runs: &[&Run], home: &Path) {
    for run in runs {
        assert!(
            !run.stdout.contains(TOKEN) && !run.stderr.contains(TOKEN),
            "token printed"
        );
    }
    for (path, bytes) in files_under(home) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(TOKEN), "token written to {}", path.display());
    }
}

/// Answers `GET /user` and records the outbox entries on disk at that moment.
#[derive(Clone)]
struct KeptWhenAsked {
    dir: PathBuf,
    seen: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl KeptWhenAsked {
    fn new(dir: PathBuf) -> Self {
        KeptWhenAsked {
            dir,
            seen: Default::default(),
        }
    }
}

impl wiremock::Respond for KeptWhenAsked {
    fn respond(&self, _: &wiremock::Request) -> ResponseTemplate {
        let entries = files_under(&self.dir)
            .into_iter()
            .filter(|(p, _)| p.extension().is_some_and(|e| e == "json"))
            .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned());
        self.seen.lock().unwrap().extend(entries);
        ok(json!({"login": ACTOR}))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cli_records_the_conformance_body_and_exits_0() {
    let home = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    let kept_at_first_request = KeptWhenAsked::new(home.path().join("state/outbox"));
    Mock::given(method("GET"))
        .and(path(USER))
        .respond_with(kept_at_first_request.clone())
        .mount(&server)
        .await;
    mount_all_but_comment(&server).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    let mut args = result_args(EVIDENCE);
    args.extend(["--format".into(), "json".into()]);
    let run = triage(args, &server.uri(), home.path()).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let kept = kept_at_first_request.seen.lock().unwrap().clone();
    assert_eq!(
        kept.len(),
        1,
        "the decision was on disk when the first request arrived: {kept:?}"
    );
    assert!(kept[0].contains(EVIDENCE), "{kept:?}");
    let printed: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(printed["outcome"], "recorded");
    assert_eq!(printed["comment_id"], 1);
    assert_eq!(printed["receipt"], json!(accepted_digest()));
    let seen = requests(&server).await;
    assert_eq!(seen.len(), 6);
    assert_eq!(body_json(&seen[3].1), json!({"body": accepted_body()}));
    assert!(
        files_under(&home.path().join("state/outbox"))
            .iter()
            .all(|(p, _)| !p.to_string_lossy().ends_with(".json"))
    );
    assert_no_token(&[&run], home.path());
}

#[tokio::test(flavor = "multi_thread")]
async fn cli_keeps_a_failed_decision_retries_it_and_never_prints_the_token() {
    let home = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_all_but_comment(&server).await;
    on(&server, "POST", COMMENTS, ResponseTemplate::new(500)).await;

    let failed = triage(result_args(EVIDENCE), &server.uri(), home.path()).await;
    assert_eq!(failed.code, 4, "{}\n{}", failed.stdout, failed.stderr);
    assert!(failed.stdout.contains("stays in the outbox"), "{}", failed.stdout);

    let listed = triage(
        vec!["outbox".into(), "list".into(), "--format".into(), "json".into()],
        &server.uri(),
        home.path(),
    )
    .await;
    assert_eq!(listed.code, 0);
    let entries: Value = serde_json::from_str(listed.stdout.trim()).unwrap();
    assert_eq!(entries.as_array().unwrap().len(), 1);
    assert_eq!(entries[0]["evidence"], EVIDENCE);
    assert_eq!(entries[0]["attempts"], 1);
    let id = entries[0]["id"].as_str().unwrap().to_owned();

    server.reset().await;
    mount_all_but_comment(&server).await;
    on(&server, "GET", COMMENTS, ok(json!([]))).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    let retried = triage(
        vec!["outbox".into(), "retry".into(), id.clone()],
        &server.uri(),
        home.path(),
    )
    .await;
    assert_eq!(retried.code, 0, "{}\n{}", retried.stdout, retried.stderr);
    assert!(retried.stdout.contains("recorded"), "{}", retried.stdout);
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", PERMISSION),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("POST", STATUS),
        ]
    );
    let empty = triage(vec!["outbox".into(), "list".into()], &server.uri(), home.path()).await;
    assert!(empty.stdout.contains("empty"), "{}", empty.stdout);
    assert_no_token(&[&failed, &listed, &retried, &empty], home.path());
}

#[tokio::test(flavor = "multi_thread")]
async fn cli_rejection_exits_3_and_drop_discards_it() {
    let home = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, "fff999"))).await;
    let rejected = triage(result_args(EVIDENCE), &server.uri(), home.path()).await;
    assert_eq!(rejected.code, 3, "{}\n{}", rejected.stdout, rejected.stderr);
    assert!(rejected.stdout.contains("stale head"), "{}", rejected.stdout);
    let listed = triage(
        vec!["outbox".into(), "list".into(), "--format".into(), "json".into()],
        &server.uri(),
        home.path(),
    )
    .await;
    let entries: Value = serde_json::from_str(listed.stdout.trim()).unwrap();
    let id = entries[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(entries[0]["last_outcome"]["stale_head"], true);
    let dropped = triage(
        vec!["outbox".into(), "drop".into(), id.clone()],
        &server.uri(),
        home.path(),
    )
    .await;
    assert_eq!(dropped.code, 0);
    let again = triage(vec!["outbox".into(), "drop".into(), id], &server.uri(), home.path()).await;
    assert_eq!(again.code, 2);
    assert_no_token(&[&rejected, &listed, &dropped, &again], home.path());
}

#[tokio::test(flavor = "multi_thread")]
async fn cli_refuses_blank_or_oversize_evidence_without_any_request() {
    let home = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    for evidence in [" \u{3000}\n".to_owned(), "e".repeat(4097), "é".repeat(2049)] {
        let run = triage(result_args(&evidence), &server.uri(), home.path()).await;
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(run.stderr.contains("evidence"), "{}", run.stderr);
    }
    assert!(server.received_requests().await.unwrap().is_empty());
    assert!(
        files_under(&home.path().join("state")).is_empty(),
        "nothing kept for an invalid decision"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn cli_dry_run_prints_the_conformance_body_and_sends_nothing() {
    let home = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    let payload = fixtures().join("disposition/real-test-transport-accepted.json");
    let args = [
        "submit",
        "--payload",
        payload.to_str().unwrap(),
        "--dry-run",
        "--format",
        "json",
    ]
    .map(String::from);
    let run = triage(args.to_vec(), &server.uri(), home.path()).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let printed: Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(printed["body"], json!(accepted_body()));
    assert_eq!(printed["receipt"], json!(accepted_digest()));
    assert_eq!(printed["payload"]["submission"]["actor"], ACTOR);

    let mut from_result = result_args(EVIDENCE);
    from_result.extend(["--dry-run".into(), "--format".into(), "json".into()]);
    let run = tokio::task::spawn_blocking({
        let home = home.path().to_owned();
        let api = server.uri();
        move || {
            assert_cmd::Command::cargo_bin("triage")
                .unwrap()
                .args(&from_result)
                .env_clear()
                .env("HOME", &home)
                .env("TRIAGE_STATE_DIR", home.join("state"))
                .env("GITHUB_API_URL", api)
                .env("TRIAGE_ACTOR", ACTOR)
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let printed: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(
        printed["body"],
        json!(accepted_body()),
        "the result path builds the same bytes"
    );
    assert!(server.received_requests().await.unwrap().is_empty());
    assert!(files_under(home.path()).is_empty(), "a dry run writes nothing");
}

#[tokio::test(flavor = "multi_thread")]
async fn cli_without_a_token_keeps_the_decision_and_says_what_to_do() {
    let home = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    let args = result_args(EVIDENCE);
    let output = tokio::task::spawn_blocking({
        let home = home.path().to_owned();
        let api = server.uri();
        move || {
            assert_cmd::Command::cargo_bin("triage")
                .unwrap()
                .args(&args)
                .env_clear()
                .env("PATH", home.join("no-gh-here"))
                .env("HOME", &home)
                .env("TRIAGE_STATE_DIR", home.join("state"))
                .env("GITHUB_API_URL", api)
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    assert_eq!(output.status.code(), Some(4));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("GH_TOKEN") && stderr.contains("gh auth login"),
        "{stderr}"
    );
    assert!(stderr.contains("kept in the outbox"), "{stderr}");
    assert!(server.received_requests().await.unwrap().is_empty());
    assert_eq!(
        Outbox::open(home.path().join("state/outbox"))
            .unwrap()
            .list()
            .unwrap()
            .entries
            .len(),
        1
    );
}

// ---- the client's other reads ----

#[tokio::test]
async fn artifact_redirect_to_another_host_does_not_carry_the_token() {
    use triage::github::{RepoName, Route};
    let api = MockServer::start().await;
    let blob = MockServer::start().await;
    let location = format!("{}/blob/5.zip?sig=abc", blob.uri());
    on(
        &api,
        "GET",
        "/repos/o/r/actions/artifacts/5/zip",
        ResponseTemplate::new(302).insert_header("location", location),
    )
    .await;
    let zip_bytes = vec![0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x00];
    on(
        &blob,
        "GET",
        "/blob/5.zip",
        ResponseTemplate::new(200).set_body_bytes(zip_bytes.clone()),
    )
    .await;
    let route = Route::repo(&RepoName::parse("o/r").unwrap(), ["actions", "artifacts", "5", "zip"]);
    let c = client(&api.uri());

    let bytes = c.get_bytes_following_redirect(&route, 1024).await.unwrap();
    assert_eq!(bytes, zip_bytes, "binary bodies arrive intact");
    let to_api = api.received_requests().await.unwrap();
    assert_eq!(to_api.len(), 1);
    assert!(to_api[0].headers.get("authorization").is_some());
    let to_blob = blob.received_requests().await.unwrap();
    assert_eq!(to_blob.len(), 1);
    assert_eq!(to_blob[0].url.query(), Some("sig=abc"));
    assert!(
        to_blob[0].headers.get("authorization").is_none(),
        "the token must not reach another host"
    );

    let too_big = c.get_bytes_following_redirect(&route, 3).await.unwrap_err();
    assert!(matches!(too_big, GhError::Decode { .. }), "{too_big:?}");
}

#[tokio::test]
async fn graphql_goes_to_the_enterprise_endpoint_and_is_retried_as_a_read() {
    let server = MockServer::start().await;
    once(&server, "POST", "/api/graphql", ResponseTemplate::new(502)).await;
    on(
        &server,
        "POST",
        "/api/graphql",
        ok(json!({"data": {"viewer": {"login": ACTOR}}})),
    )
    .await;
    let c = client(&format!("{}/api/v3", server.uri()));
    let data: Value = c.graphql("query { viewer { login } }", json!({"n": 1})).await.unwrap();
    assert_eq!(data, json!({"viewer": {"login": ACTOR}}));
    let seen = requests(&server).await;
    assert_eq!(
        seen.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(),
        ["POST /api/graphql", "POST /api/graphql"]
    );
    assert_eq!(
        body_json(&seen[1].1),
        json!({"query": "query { viewer { login } }", "variables": {"n": 1}})
    );

    server.reset().await;
    on(
        &server,
        "POST",
        "/api/graphql",
        ok(json!({"data": null, "errors": [{"message": "Field 'x' doesn't exist"}]})),
    )
    .await;
    let err = c.graphql::<Value>("query { x }", json!({})).await.unwrap_err();
    assert!(matches!(err, GhError::GraphQl { .. }), "{err:?}");
    assert_eq!(
        requests(&server).await.len(),
        1,
        "a GraphQL error answer is not retried"
    );
}

#[tokio::test]
async fn connection_refused_on_a_read_is_retried_then_reported() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let c = client(&format!("http://127.0.0.1:{port}"));
    let err = c
        .get_json::<Value>(&triage::github::Route::new(["user"]))
        .await
        .unwrap_err();
    assert!(matches!(err, GhError::Transport { .. }), "{err:?}");
    assert!(err.to_string().contains("could not reach GitHub"), "{err}");
}

#[tokio::test]
async fn client_outside_a_runtime_is_an_error_not_a_panic() {
    let config = ClientConfig::new(
        ApiBase::parse("http://127.0.0.1:9").unwrap(),
        Token::new(TOKEN).unwrap(),
    );
    let built = std::thread::spawn(move || Client::new(config).map(|_| ()))
        .join()
        .unwrap();
    assert!(matches!(built, Err(GhError::Config { .. })), "{built:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn cli_refuses_what_cannot_be_submitted_without_any_request() {
    let home = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    let unknown_finding = result_args(EVIDENCE)
        .into_iter()
        .map(|a| if a == FP { "defect:not.in:result".to_owned() } else { a })
        .collect();
    let unknown_status = result_args(EVIDENCE)
        .into_iter()
        .map(|a| if a == "accepted" { "still_open".to_owned() } else { a })
        .collect();
    let invalid = fixtures().join("agent-result/invalid-line-0.json");
    let invalid_result = [
        "submit",
        "--result",
        invalid.to_str().unwrap(),
        "--finding",
        FP,
        "--status",
        "fixed",
        "--evidence",
        "x",
    ]
    .map(String::from)
    .to_vec();
    let local = fixtures().join("agent-result/valid-line-u32-max.json");
    let local_result = [
        "submit",
        "--result",
        local.to_str().unwrap(),
        "--finding",
        FP,
        "--status",
        "fixed",
        "--evidence",
        "x",
    ]
    .map(String::from)
    .to_vec();
    let bad_payload = fixtures().join("disposition/invalid-evidence-nbsp.json");
    let payload = ["submit", "--payload", bad_payload.to_str().unwrap()]
        .map(String::from)
        .to_vec();
    for (args, says) in [
        (unknown_finding, "no finding with fingerprint"),
        (unknown_status, "is not one of accepted"),
        (invalid_result, "nothing is submitted from an invalid result"),
        (local_result, "scope is local"),
        (payload, "not a valid disposition payload"),
    ] {
        let run = triage(args, &server.uri(), home.path()).await;
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(run.stderr.contains(says), "{says}: {}", run.stderr);
    }
    assert!(server.received_requests().await.unwrap().is_empty());
    assert!(files_under(&home.path().join("state")).is_empty());
}
