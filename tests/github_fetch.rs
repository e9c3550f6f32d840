//! The exact-head fetch and the live thread read against a fake GitHub on
//! loopback (wiremock): pagination, the redirect to a blob host without the
//! token, every refusal, and every row of the thread transition table.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "support/fake_github.rs"]
mod fake_github;

use serde_json::{Value, json};
use std::io::Write;
use triage::github::fetch::{FetchError, FetchRequest, fetch_exact_head};
use triage::github::threads::observe_threads;
use triage::github::{Client, RepoName};
use triage::model::finding::{ThreadStatus, ThreadTransition};
use triage::model::load::load_bytes;
use triage::model::review::{Format, ReviewSet};
use triage::model::threads::{ThreadObservation, apply_threads};
use wiremock::matchers::{body_partial_json, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

const REPO: &str = "octo/app";
const PR: u64 = 5;
const WORKFLOW: &str = "reviewgate.yml";
const TOKEN: &str = "test-token-123";

fn head() -> String {
    "1234567890abcdef1234567890abcdef12345678".to_owned()
}

fn old_head() -> String {
    "0000000000abcdef1234567890abcdef12345678".to_owned()
}

fn client(api: &MockServer) -> Client {
    fake_github::client(&api.uri(), TOKEN)
}

fn request() -> FetchRequest {
    FetchRequest {
        repo: RepoName::parse(REPO).expect("repo"),
        pr: PR,
        workflow: WORKFLOW.into(),
    }
}

fn record(disposition: &str) -> Value {
    json!({
        "disposition": disposition,
        "evidence_summary": "seen in review",
        "actor": "reviewgate",
        "reviewed_sha": "abc123",
        "code_fingerprint": "e30e7a06b9a7ac0eda9b5dcad27d8b27ff5c69e7db82fdfe61a46b49e26c2e29"
    })
}

/// A valid result finding: not published in the file (live threads decide).
fn finding(fp: &str, disposition: &str, priors: &[&str], reopening: Option<&str>) -> Value {
    fake_github::finding(fp, disposition, priors.iter().map(|d| record(d)).collect(), reopening)
}

fn result_json(repo: &str, pr: u64, sha: &str, findings: Vec<Value>) -> Vec<u8> {
    fake_github::result_json(repo, pr, sha, findings)
}

fn simple_result(repo: &str, pr: u64, sha: &str) -> Vec<u8> {
    result_json(
        repo,
        pr,
        sha,
        vec![finding("defect:src.lib.rs:one", "still_open", &[], None)],
    )
}

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, content) in entries {
        w.start_file(*name, opts).expect("entry");
        w.write_all(content).expect("write");
    }
    w.finish().expect("zip").into_inner()
}

fn run_json(id: u64, number: u64, attempt: u32, sha: &str, conclusion: &str) -> Value {
    run_of_pull(id, number, attempt, sha, conclusion, PR)
}

/// A run of pull request `pr` created `number` minutes after midnight.
fn run_of_pull(id: u64, number: u64, attempt: u32, sha: &str, conclusion: &str, pr: u64) -> Value {
    json!({ "id": id, "run_number": number, "run_attempt": attempt, "head_sha": sha,
            "event": "pull_request", "status": "completed", "conclusion": conclusion,
            "created_at": format!("2026-01-01T{:02}:{:02}:00Z", number / 60, number % 60),
            "pull_requests": [{ "number": pr }], "repository": { "full_name": REPO } })
}

fn artifact_json(id: u64, name: &str, run: u64, sha: &str, expired: bool) -> Value {
    json!({ "id": id, "name": name, "size_in_bytes": 900, "expired": expired,
            "archive_download_url": format!("https://example.invalid/{id}/zip"),
            "workflow_run": { "id": run, "head_sha": sha } })
}

async fn mount_pull(api: &MockServer, sha: &str, times: Option<u64>) {
    let body =
        json!({ "number": PR, "state": "open", "head": { "sha": sha }, "base": { "repo": { "full_name": REPO } } });
    let mock = Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/pulls/{PR}")))
        .respond_with(ResponseTemplate::new(200).set_body_json(body));
    match times {
        Some(n) => mock.up_to_n_times(n).mount(api).await,
        None => mock.mount(api).await,
    }
}

async fn mount_runs_page(api: &MockServer, page: u32, total: usize, runs: Vec<Value>) {
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/actions/workflows/{WORKFLOW}/runs")))
        .and(query_param("event", "pull_request"))
        .and(query_param("status", "completed"))
        .and(query_param("head_sha", head()))
        .and(query_param("per_page", "100"))
        .and(query_param("page", page.to_string()))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "total_count": total, "workflow_runs": runs })))
        .mount(api)
        .await;
}

async fn mount_artifacts_page(api: &MockServer, name: &str, page: u32, total: usize, artifacts: Vec<Value>) {
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/actions/artifacts")))
        .and(query_param("name", name))
        .and(query_param("per_page", "100"))
        .and(query_param("page", page.to_string()))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "total_count": total, "artifacts": artifacts })))
        .mount(api)
        .await;
}

/// The download answers with a redirect to the blob server, which serves `zip`.
async fn mount_download(api: &MockServer, blob: &MockServer, artifact: u64, zip: Vec<u8>) {
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/actions/artifacts/{artifact}/zip")))
        .respond_with(
            ResponseTemplate::new(302).insert_header("Location", format!("{}/blob/{artifact}.zip", blob.uri())),
        )
        .mount(api)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/blob/{artifact}.zip")))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(zip))
        .mount(blob)
        .await;
}

/// A simple chain: one run (id 77, attempt 1), one artifact (id 5001) holding `zip`.
async fn simple_chain(zip: Vec<u8>) -> (MockServer, MockServer) {
    let (api, blob) = (MockServer::start().await, MockServer::start().await);
    mount_pull(&api, &head(), None).await;
    mount_runs_page(&api, 1, 1, vec![run_json(77, 3, 1, &head(), "failure")]).await;
    let name = format!("reviewgate-agent-result-{}-attempt-1", head());
    mount_artifacts_page(&api, &name, 1, 1, vec![artifact_json(5001, &name, 77, &head(), false)]).await;
    mount_download(&api, &blob, 5001, zip).await;
    (api, blob)
}

async fn fetch_err(zip: Vec<u8>) -> FetchError {
    let (api, _blob) = simple_chain(zip).await;
    match fetch_exact_head(&client(&api), &request()).await {
        Ok(f) => panic!("expected a refusal, fetched {}", f.display_name()),
        Err(e) => e,
    }
}

#[tokio::test]
async fn whole_chain_with_pagination_and_a_token_free_redirect() {
    let (api, blob) = (MockServer::start().await, MockServer::start().await);
    mount_pull(&api, &head(), None).await;
    // Page 1: 100 runs, none better than the newest eligible run on page 2.
    let mut page1: Vec<Value> = (0..100)
        .map(|i| run_json(100 + i, 1 + i, 1, &head(), "success"))
        .collect();
    page1[0] = run_of_pull(999, 500, 1, &head(), "success", PR + 1); // newer, but another pull request's
    mount_runs_page(&api, 1, 101, page1).await;
    mount_runs_page(&api, 2, 101, vec![run_json(900, 200, 2, &head(), "failure")]).await;
    let name = format!("reviewgate-agent-result-{}-attempt-2", head());
    let mut arts: Vec<Value> = (0..99)
        .map(|i| artifact_json(10 + i, &name, 1, &head(), false))
        .collect();
    arts.push(artifact_json(9000, &name, 900, &head(), true)); // the run's, but expired
    mount_artifacts_page(&api, &name, 1, 101, arts).await;
    mount_artifacts_page(
        &api,
        &name,
        2,
        101,
        vec![artifact_json(4242, &name, 900, &head(), false)],
    )
    .await;
    let bytes = simple_result(REPO, PR, &head());
    mount_download(&api, &blob, 4242, zip_of(&[("result.json", &bytes)])).await;

    let fetched = fetch_exact_head(&client(&api), &request()).await.expect("fetched");
    assert_eq!(fetched.bytes, bytes);
    assert_eq!((fetched.run_id, fetched.attempt), (900, 2));
    assert_eq!(fetched.artifact_name, name);
    assert_eq!(fetched.head_sha, head());
    assert!(fetched.loaded.is_valid());

    let blob_requests = blob.received_requests().await.expect("recorded");
    assert_eq!(blob_requests.len(), 1);
    assert!(
        blob_requests[0].headers.get("authorization").is_none(),
        "the token reached the blob host"
    );
    let api_requests = api.received_requests().await.expect("recorded");
    assert!(api_requests.iter().all(|r| r.headers.get("authorization").is_some()));
    let pulls = api_requests
        .iter()
        .filter(|r| r.url.path().ends_with(&format!("/pulls/{PR}")))
        .count();
    assert_eq!(pulls, 2, "the head is read before and after");
}

#[tokio::test]
async fn a_result_for_an_older_head_is_refused_with_the_sentence() {
    let e = fetch_err(zip_of(&[("result.json", &simple_result(REPO, PR, &old_head()))])).await;
    assert_eq!(
        e.to_string(),
        format!(
            "the newest result is for an older commit ({}); wait for the review of {}",
            old_head(),
            head()
        )
    );
    assert_eq!(e.exit_code(), 3);
}

#[tokio::test]
async fn results_for_another_pull_request_or_repository_are_refused() {
    let e = fetch_err(zip_of(&[("result.json", &simple_result(REPO, 6, &head()))])).await;
    assert!(
        matches!(
            e,
            FetchError::WrongScope {
                what: "pull request",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("pull request #6, not #5"), "{e}");
    let e = fetch_err(zip_of(&[("result.json", &simple_result("evil/app", PR, &head()))])).await;
    assert!(matches!(e, FetchError::WrongScope { what: "repository", .. }), "{e}");
    assert!(e.to_string().contains("evil/app, not octo/app"), "{e}");
}

#[tokio::test]
async fn malicious_or_oversize_zips_are_refused() {
    let good = simple_result(REPO, PR, &head());
    let oversize = [good.clone(), vec![b' '; 1024 * 1024]].concat();
    let bomb = vec![0u8; 32 * 1024 * 1024];
    for (label, zip) in [
        ("oversize", zip_of(&[("result.json", &oversize)])),
        ("bomb", zip_of(&[("result.json", &bomb)])),
        ("unsafe name", zip_of(&[("../result.json", &good)])),
        ("nested", zip_of(&[("result.json", &good), ("more.zip", b"PK")])),
        ("missing", zip_of(&[("other.json", &good)])),
    ] {
        let e = fetch_err(zip).await;
        assert!(matches!(e, FetchError::Zip(_)), "{label}: {e}");
        assert_eq!(e.exit_code(), 1, "{label}");
    }
    let e = fetch_err(zip_of(&[(
        "result.json",
        b"{\"schema_version\":\"reviewgate-agent-result/v1\"}",
    )]))
    .await;
    assert!(matches!(e, FetchError::Invalid { .. }), "{e}");
}

#[tokio::test]
async fn expired_only_no_run_and_a_moving_head_are_refused() {
    // Only an expired artifact for the newest run.
    let (api, _blob) = (MockServer::start().await, MockServer::start().await);
    mount_pull(&api, &head(), None).await;
    mount_runs_page(&api, 1, 1, vec![run_json(77, 3, 1, &head(), "success")]).await;
    let name = format!("reviewgate-agent-result-{}-attempt-1", head());
    mount_artifacts_page(&api, &name, 1, 1, vec![artifact_json(1, &name, 77, &head(), true)]).await;
    let e = fetch_exact_head(&client(&api), &request()).await.expect_err("refused");
    assert!(e.to_string().starts_with("the newest review run for"), "{e}");
    assert!(e.to_string().contains("has only an expired artifact"), "{e}");

    // No completed run for the head, or only another pull request's.
    let api = MockServer::start().await;
    mount_pull(&api, &head(), None).await;
    mount_runs_page(&api, 1, 0, vec![]).await;
    let e = fetch_exact_head(&client(&api), &request()).await.expect_err("refused");
    assert_eq!(
        e.to_string(),
        format!(
            "no completed pull_request run of {WORKFLOW} exists for the current head {h}; wait for the review of {h} (or start it)",
            h = head()
        )
    );
    let api = MockServer::start().await;
    mount_pull(&api, &head(), None).await;
    mount_runs_page(&api, 1, 1, vec![run_of_pull(77, 3, 1, &head(), "success", PR + 1)]).await;
    mount_artifacts_page(&api, &name, 1, 0, vec![]).await;
    let e = fetch_exact_head(&client(&api), &request()).await.expect_err("refused");
    assert!(matches!(e, FetchError::NoRunOfPull { count: 1, pr: PR, .. }), "{e}");

    // The head moves between the first and the second read.
    let (api, blob) = (MockServer::start().await, MockServer::start().await);
    mount_pull(&api, &head(), Some(1)).await;
    mount_pull(&api, &old_head(), None).await;
    mount_runs_page(&api, 1, 1, vec![run_json(77, 3, 1, &head(), "success")]).await;
    mount_artifacts_page(&api, &name, 1, 1, vec![artifact_json(5, &name, 77, &head(), false)]).await;
    mount_download(
        &api,
        &blob,
        5,
        zip_of(&[("result.json", &simple_result(REPO, PR, &head()))]),
    )
    .await;
    let e = fetch_exact_head(&client(&api), &request()).await.expect_err("refused");
    assert!(matches!(e, FetchError::HeadMoved { .. }), "{e}");
}

/// ReviewGate reads the newest completed run of the pull request whatever
/// its conclusion: a newer cancelled run without a result hides an older
/// run's result (reviewgate-github `select_rereview_workflow_run`), and the
/// refusal names how the run ended.
#[tokio::test]
async fn a_newer_cancelled_run_hides_an_older_result_as_reviewgate_reads_it() {
    let api = MockServer::start().await;
    mount_pull(&api, &head(), None).await;
    let runs = vec![
        run_json(50, 3, 1, &head(), "success"),
        run_json(60, 4, 1, &head(), "cancelled"),
    ];
    mount_runs_page(&api, 1, 2, runs).await;
    let name = format!("reviewgate-agent-result-{}-attempt-1", head());
    mount_artifacts_page(&api, &name, 1, 1, vec![artifact_json(5, &name, 50, &head(), false)]).await;
    let e = fetch_exact_head(&client(&api), &request()).await.expect_err("refused");
    assert_eq!(
        e.to_string(),
        format!(
            "the newest review run for {h} (run 60, attempt 1, ended cancelled) has no artifact {name}; rerun the review for {h}",
            h = head()
        )
    );
}

use fake_github::enc;

fn thread_node(fp: &str, author: &str, resolved: bool, outdated: bool, replies: u64) -> Value {
    let body = format!(
        "<!-- reviewgate-finding:{} -->\n\n<!-- reviewgate-finding-semantic:{} -->\n**P2** A claim.",
        enc(&format!("rg_{fp}")),
        enc(fp)
    );
    json!({
        "id": format!("PRRT_{fp}"),
        "isResolved": resolved,
        "isOutdated": outdated,
        "path": "src/lib.rs",
        "line": 10,
        "resolvedBy": if resolved { json!({ "login": "maintainer" }) } else { Value::Null },
        "opening": { "totalCount": replies, "nodes": [{
            "author": { "login": author }, "body": body, "createdAt": "2024-05-01T10:00:00Z",
            "url": "http://127.0.0.1/octo/app/pull/5#discussion_r1" }] },
        "latest": { "nodes": [{ "author": { "login": "dev" }, "body": "done, please look", "createdAt": "2024-05-02T10:00:00Z",
            "url": "http://127.0.0.1/octo/app/pull/5#discussion_r2" }] }
    })
}

fn threads_page(nodes: Vec<Value>, next: Option<&str>) -> Value {
    json!({ "data": { "repository": { "pullRequest": { "reviewThreads": {
        "pageInfo": { "hasNextPage": next.is_some(), "endCursor": next },
        "nodes": nodes } } } } })
}

/// Every disposition/thread combination of the section 3 table, with history.
fn table_set() -> ReviewSet {
    let findings = vec![
        finding(
            "t:reopened",
            "still_open",
            &["fixed", "still_open"],
            Some("The fix was reverted."),
        ),
        finding("t:retained", "still_open", &[], None),
        finding("t:disputed-open", "disputed", &["still_open", "disputed"], None),
        finding("t:pending", "fixed", &["still_open", "fixed"], None),
        finding("t:res-fixed", "fixed", &["fixed"], None),
        finding(
            "t:res-rejected",
            "rejected_with_evidence",
            &["rejected_with_evidence"],
            None,
        ),
        finding(
            "t:res-contract",
            "intentional_contract",
            &["intentional_contract"],
            None,
        ),
        finding("t:res-superseded", "superseded", &["superseded"], None),
        finding("t:externally", "still_open", &[], None),
        finding("t:disputed-resolved", "disputed", &["disputed"], None),
        finding("t:other-author", "still_open", &[], None),
        finding("t:none", "still_open", &[], None),
    ];
    let loaded = load_bytes(&result_json(REPO, PR, &head(), findings), Some(Format::AgentResult));
    assert!(loaded.is_valid(), "{:?}", loaded.problems);
    loaded.set.expect("model")
}

fn transitions(set: &ReviewSet) -> Vec<(String, ThreadStatus, ThreadTransition, bool)> {
    set.findings
        .iter()
        .map(|f| {
            let t = &f.reviewgate().expect("ReviewGate finding").thread;
            (f.key.as_str().to_owned(), t.status, t.transition, t.outdated)
        })
        .collect()
}

#[tokio::test]
async fn live_threads_drive_every_transition_across_pages() {
    let api = MockServer::start().await;
    let page1 = vec![
        thread_node("t:reopened", "github-actions", false, false, 1),
        thread_node("t:retained", "github-actions[bot]", false, false, 1),
        thread_node("t:disputed-open", "github-actions", false, false, 1),
        thread_node("t:pending", "github-actions", false, true, 1),
        thread_node("t:res-fixed", "github-actions", true, false, 1),
        thread_node("t:other-author", "mallory", true, false, 1),
    ];
    let page2 = vec![
        thread_node("t:res-rejected", "github-actions", true, false, 1),
        thread_node("t:res-contract", "github-actions", true, false, 1),
        thread_node("t:res-superseded", "github-actions", true, true, 1),
        thread_node("t:externally", "github-actions", true, false, 2),
        thread_node("t:disputed-resolved", "github-actions[bot]", true, false, 1),
        json!({ "id": "PRRT_human", "isResolved": false, "isOutdated": false, "resolvedBy": null,
                "opening": { "totalCount": 1, "nodes": [{ "author": { "login": "dev" }, "body": "just a question" }] },
                "latest": { "nodes": [] } }),
    ];
    Mock::given(method("POST"))
        .and(path("/graphql"))
        .and(body_partial_json(
            json!({ "variables": { "owner": "octo", "name": "app", "number": PR, "after": null } }),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(threads_page(page1, Some("CURSOR1"))))
        .mount(&api)
        .await;
    Mock::given(method("POST"))
        .and(path("/graphql"))
        .and(body_partial_json(json!({ "variables": { "after": "CURSOR1" } })))
        .respond_with(ResponseTemplate::new(200).set_body_json(threads_page(page2, None)))
        .mount(&api)
        .await;

    let repo = RepoName::parse(REPO).expect("repo");
    let obs = observe_threads(&client(&api), &repo, PR).await;
    let ThreadObservation::Available(threads) = &obs else {
        panic!("threads unavailable: {obs:?}")
    };
    assert_eq!(threads.len(), 10, "only ReviewGate's threads are kept");
    let mut set = table_set();
    let sync = apply_threads(&mut set, &obs);
    use ThreadStatus::{NotPublished, Open, Resolved};
    use ThreadTransition as T;
    let want = [
        ("t:reopened", Open, T::Reopened, false),
        ("t:retained", Open, T::Retained, false),
        ("t:disputed-open", Open, T::Retained, false),
        ("t:pending", Open, T::ResolutionPending, true),
        ("t:res-fixed", Resolved, T::ResolvedFixed, false),
        ("t:res-rejected", Resolved, T::ResolvedRejectedWithEvidence, false),
        ("t:res-contract", Resolved, T::ResolvedIntentionalContract, false),
        ("t:res-superseded", Resolved, T::ResolvedSuperseded, true),
        ("t:externally", Resolved, T::ResolvedExternally, false),
        ("t:disputed-resolved", Resolved, T::ResolvedExternally, false),
        ("t:other-author", NotPublished, T::NotPublished, false),
        ("t:none", NotPublished, T::NotPublished, false),
    ];
    let want: Vec<_> = want.iter().map(|(f, s, t, o)| (f.to_string(), *s, *t, *o)).collect();
    assert_eq!(transitions(&set), want);
    assert_eq!(sync.resolved_externally, 2);

    let external = set
        .findings
        .iter()
        .find(|f| f.key.as_str() == "t:externally")
        .expect("finding");
    let thread = &external.reviewgate().expect("rg").thread;
    assert_eq!(thread.id.as_deref(), Some("PRRT_t:externally"));
    let facts = thread.facts.as_ref().expect("facts");
    assert_eq!(facts.resolved_by.as_deref(), Some("maintainer"));
    let reply = facts.last_reply.as_ref().expect("reply");
    assert_eq!(
        (reply.author.as_str(), reply.excerpt.as_str()),
        ("dev", "done, please look")
    );
}

#[tokio::test]
async fn a_failed_thread_read_makes_every_finding_unknown_with_the_reason() {
    let repo = RepoName::parse(REPO).expect("repo");
    for answer in [
        ResponseTemplate::new(502).set_body_json(json!({ "message": "Bad Gateway" })),
        ResponseTemplate::new(200).set_body_json(
            json!({ "data": null, "errors": [{ "message": "Resource not accessible by integration" }] }),
        ),
        ResponseTemplate::new(200).set_body_json(json!({ "data": { "repository": { "pullRequest": null } } })),
    ] {
        let api = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/graphql"))
            .respond_with(answer)
            .mount(&api)
            .await;
        let obs = observe_threads(&client(&api), &repo, PR).await;
        let reason = obs.unavailable_reason().expect("unavailable").to_owned();
        assert!(!reason.is_empty() && !reason.contains('\n'), "{reason}");
        let mut set = table_set();
        let sync = apply_threads(&mut set, &obs);
        assert_eq!(sync.unavailable.as_deref(), Some(reason.as_str()));
        for (fp, status, transition, outdated) in transitions(&set) {
            assert_eq!(
                (status, transition, outdated),
                (ThreadStatus::Unknown, ThreadTransition::Unknown, false),
                "{fp}"
            );
        }
    }
}

#[path = "support/overlap.rs"]
mod overlap;

/// The simple chain, the thread query and an empty ledger, every answer held
/// for [`overlap::DELAY`] and noted in `log`.
async fn held_chain(log: &overlap::Log) -> (MockServer, MockServer) {
    let (api, blob) = (MockServer::start().await, MockServer::start().await);
    let held = |body: Value| log.answer(ResponseTemplate::new(200).set_body_json(body));
    let pull =
        json!({ "number": PR, "state": "open", "head": { "sha": head() }, "base": { "repo": { "full_name": REPO } } });
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/pulls/{PR}")))
        .respond_with(held(pull))
        .mount(&api)
        .await;
    let runs = json!({ "total_count": 1, "workflow_runs": [run_json(77, 3, 1, &head(), "failure")] });
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/actions/workflows/{WORKFLOW}/runs")))
        .respond_with(held(runs))
        .mount(&api)
        .await;
    let name = format!("reviewgate-agent-result-{}-attempt-1", head());
    let arts = json!({ "total_count": 1, "artifacts": [artifact_json(5001, &name, 77, &head(), false)] });
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/actions/artifacts")))
        .respond_with(held(arts))
        .mount(&api)
        .await;
    mount_download(
        &api,
        &blob,
        5001,
        zip_of(&[("result.json", &simple_result(REPO, PR, &head()))]),
    )
    .await;
    let node = thread_node("defect:src.lib.rs:one", "reviewgate[bot]", false, false, 0);
    Mock::given(method("POST"))
        .and(path("/graphql"))
        .respond_with(held(threads_page(vec![node], None)))
        .mount(&api)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/issues/{PR}/comments")))
        .respond_with(held(json!([])))
        .mount(&api)
        .await;
    (api, blob)
}

#[tokio::test]
async fn the_thread_query_and_the_ledger_run_beside_the_artifact_chain() {
    use std::sync::Mutex;
    use triage::github::fetch::{FetchEvent, FetchStep};
    use triage::session::fetch::{LiveReads, fetch_live_reporting};
    let log = overlap::Log::default();
    let (api, _blob) = held_chain(&log).await;
    let events = Mutex::new(Vec::new());
    let progress = |e: FetchEvent| events.lock().expect("events").push(e);
    let reads = LiveReads { ledger: true };
    let fetched = fetch_live_reporting(&client(&api), &request(), reads, &progress)
        .await
        .expect("fetched");
    assert!(
        fetched
            .threads
            .as_ref()
            .is_some_and(|t| t.unavailable_reason().is_none())
    );
    assert!(
        matches!(fetched.ledger, Some(triage::model::ledger::LedgerState::Known(_))),
        "{:?}",
        fetched.ledger
    );

    let order = log.order();
    let at = |what: &str| {
        order
            .iter()
            .position(|r| r.contains(what))
            .unwrap_or_else(|| panic!("{what}: {order:?}"))
    };
    let pulls: Vec<usize> = (0..order.len())
        .filter(|&i| order[i].ends_with(&format!("/pulls/{PR}")))
        .collect();
    assert_eq!(pulls.len(), 2, "{order:?}");
    // The thread query does not wait for the chain; the ledger waits only for the head.
    assert!(at("/graphql") < at("/runs"), "{order:?}");
    assert!(pulls[0] < at("/comments") && at("/comments") < pulls[1], "{order:?}");
    // The runs and the first attempt's artifacts are listed together, after
    // the head and before the head is read again.
    assert!(
        pulls[0] < at("/runs") && pulls[0] < at("/artifacts") && at("/artifacts") < pulls[1],
        "the chain keeps its order: {order:?}"
    );

    let events = events.into_inner().expect("events");
    let position = |e: FetchEvent| {
        events
            .iter()
            .position(|x| *x == e)
            .unwrap_or_else(|| panic!("{events:?}"))
    };
    assert!(position(FetchEvent::Started(FetchStep::Head)) < position(FetchEvent::Head(head())));
    assert!(position(FetchEvent::Head(head())) < position(FetchEvent::Started(FetchStep::Ledger)));
    for step in [
        FetchStep::Runs,
        FetchStep::Artifact,
        FetchStep::Download,
        FetchStep::Validate,
        FetchStep::HeadAgain,
    ] {
        assert!(
            position(FetchEvent::Started(step)) < position(FetchEvent::Finished(step)),
            "{step:?}"
        );
    }
    assert!(position(FetchEvent::Started(FetchStep::Threads)) < position(FetchEvent::Finished(FetchStep::Head)));
}

#[tokio::test]
async fn a_chain_that_fails_before_the_head_ends_without_reading_the_ledger() {
    use triage::session::fetch::{LiveReads, fetch_live_reporting};
    let api = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/graphql"))
        .respond_with(ResponseTemplate::new(200).set_body_json(threads_page(vec![], None)))
        .mount(&api)
        .await;
    let reads = LiveReads { ledger: true };
    let err = fetch_live_reporting(&client(&api), &request(), reads, &|_| {})
        .await
        .expect_err("no pull request");
    assert!(err.to_string().contains("read pull request"), "{err}");
    let requests = api.received_requests().await.expect("recorded");
    assert!(
        requests.iter().all(|r| !r.url.path().contains("/comments")),
        "the ledger was read without a head"
    );
}

/// A GET answered 200 with `etag` (and a low rate limit left), and 304 when
/// asked with that `If-None-Match`.
async fn mount_conditional(api: &MockServer, route: &str, body: Value, etag: &str) {
    Mock::given(method("GET"))
        .and(path(route))
        .and(wiremock::matchers::header("if-none-match", etag))
        .respond_with(ResponseTemplate::new(304).insert_header("x-ratelimit-remaining", "41"))
        .with_priority(1)
        .mount(api)
        .await;
    Mock::given(method("GET"))
        .and(path(route))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("etag", etag)
                .insert_header("x-ratelimit-remaining", "42")
                .set_body_json(body),
        )
        .mount(api)
        .await;
}

#[tokio::test]
async fn a_second_fetch_of_an_unchanged_pull_request_sends_only_conditional_requests() {
    let (api, blob) = (MockServer::start().await, MockServer::start().await);
    let pull =
        json!({ "number": PR, "state": "open", "head": { "sha": head() }, "base": { "repo": { "full_name": REPO } } });
    mount_conditional(&api, &format!("/repos/{REPO}/pulls/{PR}"), pull, "\"p1\"").await;
    let runs = json!({ "total_count": 1, "workflow_runs": [run_json(77, 3, 1, &head(), "failure")] });
    mount_conditional(
        &api,
        &format!("/repos/{REPO}/actions/workflows/{WORKFLOW}/runs"),
        runs,
        "\"r1\"",
    )
    .await;
    let name = format!("reviewgate-agent-result-{}-attempt-1", head());
    let arts = json!({ "total_count": 1, "artifacts": [artifact_json(5001, &name, 77, &head(), false)] });
    mount_conditional(&api, &format!("/repos/{REPO}/actions/artifacts"), arts, "\"a1\"").await;
    let bytes = simple_result(REPO, PR, &head());
    mount_download(&api, &blob, 5001, zip_of(&[("result.json", &bytes)])).await;

    let client = client(&api);
    let first = fetch_exact_head(&client, &request()).await.expect("first");
    // The head read again at the end is already a conditional read (a 304).
    assert_eq!(first.rate_remaining, Some(41));
    let before = api.received_requests().await.expect("recorded").len();
    assert_eq!(before, 5, "pull, runs, artifacts, zip, pull");
    let again = fetch_exact_head(&client, &request()).await.expect("again");
    assert_eq!(again.bytes, first.bytes);
    assert_eq!(again.rate_remaining, Some(41));
    let requests = api.received_requests().await.expect("recorded");
    let second = &requests[before..];
    assert_eq!(second.len(), 4, "the zip of a known artifact is not downloaded again");
    for r in second {
        assert!(r.headers.get("if-none-match").is_some(), "unconditional: {}", r.url);
    }
    assert_eq!(blob.received_requests().await.expect("recorded").len(), 1);
}

/// What `R` sends for an unchanged pull request on the session's client:
/// every REST read conditional (answered 304), the zip from memory, and the
/// review-thread query, which GraphQL cannot ask conditionally.
#[tokio::test]
async fn a_refresh_of_an_unchanged_pull_request_sends_conditional_reads_and_the_thread_query() {
    use triage::session::fetch::fetch_live;
    let (api, blob) = (MockServer::start().await, MockServer::start().await);
    let pull =
        json!({ "number": PR, "state": "open", "head": { "sha": head() }, "base": { "repo": { "full_name": REPO } } });
    mount_conditional(&api, &format!("/repos/{REPO}/pulls/{PR}"), pull, "\"p1\"").await;
    let runs = json!({ "total_count": 1, "workflow_runs": [run_json(77, 3, 1, &head(), "failure")] });
    let runs_route = format!("/repos/{REPO}/actions/workflows/{WORKFLOW}/runs");
    mount_conditional(&api, &runs_route, runs, "\"r1\"").await;
    let name = format!("reviewgate-agent-result-{}-attempt-1", head());
    let arts = json!({ "total_count": 1, "artifacts": [artifact_json(5001, &name, 77, &head(), false)] });
    mount_conditional(&api, &format!("/repos/{REPO}/actions/artifacts"), arts, "\"a1\"").await;
    let bytes = simple_result(REPO, PR, &head());
    mount_download(&api, &blob, 5001, zip_of(&[("result.json", &bytes)])).await;
    Mock::given(method("POST"))
        .and(path("/graphql"))
        .respond_with(ResponseTemplate::new(200).set_body_json(threads_page(Vec::new(), None)))
        .mount(&api)
        .await;

    let client = client(&api);
    let first = fetch_live(&client, &request()).await.expect("first");
    assert!(first.threads.as_ref().is_some_and(|t| t.unavailable_reason().is_none()));
    let before = api.received_requests().await.expect("recorded").len();
    let again = fetch_live(&client, &request()).await.expect("again");
    assert_eq!(again.bytes, first.bytes);
    let requests = api.received_requests().await.expect("recorded");
    let second: Vec<String> = requests[before..]
        .iter()
        .map(|r| {
            let conditional = r.headers.get("if-none-match").is_some();
            format!("{} {} {conditional}", r.method, r.url.path())
        })
        .collect();
    let mut sorted = second.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            format!("GET /repos/{REPO}/actions/artifacts true"),
            format!("GET {runs_route} true"),
            format!("GET /repos/{REPO}/pulls/{PR} true"),
            format!("GET /repos/{REPO}/pulls/{PR} true"),
            "POST /graphql false".to_owned(),
        ],
        "{second:?}"
    );
    assert_eq!(blob.received_requests().await.expect("recorded").len(), 1);
}

#[path = "support/gate.rs"]
mod gate;

/// A gate server for the fetch chain (the download is refused: the chain's
/// reads up to it are what is looked at).
fn gated_chain(together: &[&str], attempt: u32) -> gate::Gate {
    let answer = move |verb: &str, path: &str, _: &[u8]| -> (u16, String) {
        let pull = format!("/repos/{REPO}/pulls/{PR}");
        let runs = format!("/repos/{REPO}/actions/workflows/{WORKFLOW}/runs");
        let arts = format!("/repos/{REPO}/actions/artifacts");
        let name = format!("reviewgate-agent-result-{}-attempt-{attempt}", head());
        let json = match (verb, path) {
            ("GET", p) if p == pull => {
                json!({ "number": PR, "state": "open", "head": { "sha": head() }, "base": { "repo": { "full_name": REPO } } })
            }
            ("GET", p) if p == runs => {
                json!({ "total_count": 1, "workflow_runs": [run_json(77, 3, attempt, &head(), "failure")] })
            }
            ("GET", p) if p == arts => {
                json!({ "total_count": 1, "artifacts": [artifact_json(5001, &name, 77, &head(), false)] })
            }
            ("POST", "/graphql") => threads_page(Vec::new(), None),
            ("GET", p) if p == format!("/repos/{REPO}/issues/{PR}/comments") => json!([]),
            ("GET", p) if p == format!("/repos/{REPO}/commits/{}/status", head()) => json!({ "statuses": [] }),
            _ => return (404, json!({ "message": "Not Found" }).to_string()),
        };
        (200, json.to_string())
    };
    gate::Gate::start(together, std::sync::Arc::new(answer))
}

#[tokio::test]
async fn the_thread_query_is_in_flight_beside_the_head_read() {
    use triage::session::fetch::fetch_live;
    let pull = format!("GET /repos/{REPO}/pulls/{PR}");
    let gate = gated_chain(&[&pull, "POST /graphql"], 1);
    let api = gate.base.clone();
    let client = Client::new(triage::github::ClientConfig::new(
        triage::github::ApiBase::parse(&api).expect("base"),
        triage::github::Token::new(TOKEN).expect("token"),
    ))
    .expect("client");
    let fetched = fetch_live(&client, &request()).await;
    assert!(
        matches!(&fetched, Err(FetchError::GitHub { step, .. }) if step.contains("download")),
        "{fetched:?}"
    );
    assert!(gate.held_together(), "not in flight at once: {:?}", gate.log());
}

#[tokio::test]
async fn a_first_attempt_artifact_is_listed_beside_the_runs_a_rerun_lists_its_own_after() {
    let runs = format!("GET /repos/{REPO}/actions/workflows/{WORKFLOW}/runs");
    let arts = format!("GET /repos/{REPO}/actions/artifacts");
    for attempt in [1, 2] {
        let gate = gated_chain(&[&runs, &arts], attempt);
        let client = Client::new(triage::github::ClientConfig::new(
            triage::github::ApiBase::parse(&gate.base).expect("base"),
            triage::github::Token::new(TOKEN).expect("token"),
        ))
        .expect("client");
        let fetched = fetch_exact_head(&client, &request()).await;
        assert!(
            matches!(&fetched, Err(FetchError::GitHub { step, .. }) if step.contains("download")),
            "attempt {attempt}: {fetched:?}"
        );
        assert!(gate.held_together(), "not in flight at once: {:?}", gate.log());
        let first = format!("name=reviewgate-agent-result-{}-attempt-1", head());
        let own = format!("name=reviewgate-agent-result-{}-attempt-{attempt}", head());
        let listings: Vec<String> = gate
            .log()
            .into_iter()
            .filter(|l| l.starts_with(&format!("{arts}?")))
            .collect();
        assert!(listings[0].contains(&first), "{listings:?}");
        match attempt {
            1 => assert_eq!(listings.len(), 1, "{listings:?}"),
            _ => {
                assert_eq!(listings.len(), 2, "{listings:?}");
                assert!(listings[1].contains(&own), "{listings:?}");
            }
        }
    }
}

#[tokio::test]
async fn the_ledger_is_read_beside_the_rest_of_the_chain_once_the_head_is_known() {
    use triage::session::fetch::{LiveReads, fetch_live_reporting};
    let comments = format!("GET /repos/{REPO}/issues/{PR}/comments");
    let statuses = format!("GET /repos/{REPO}/commits/{}/status", head());
    let runs = format!("GET /repos/{REPO}/actions/workflows/{WORKFLOW}/runs");
    let gate = gated_chain(&[&comments, &statuses, &runs], 1);
    let client = Client::new(triage::github::ClientConfig::new(
        triage::github::ApiBase::parse(&gate.base).expect("base"),
        triage::github::Token::new(TOKEN).expect("token"),
    ))
    .expect("client");
    let reads = LiveReads { ledger: true };
    let fetched = fetch_live_reporting(&client, &request(), reads, &|_| {}).await;
    assert!(
        matches!(&fetched, Err(FetchError::GitHub { step, .. }) if step.contains("download")),
        "{fetched:?}"
    );
    assert!(gate.held_together(), "not in flight at once: {:?}", gate.log());
}
