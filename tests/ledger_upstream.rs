//! The ledger read from GitHub as ReviewGate's replay reads the same state
//! (LVTD-LLC/reviewgate fb7d53a, `reviewgate-cli` `apply_agent_disposition_comments`
//! and `load_previous_summary_state`): a repository typed in another case,
//! decisions after a push, and a dropped entry whose comment is on GitHub.

#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "support/fake_github.rs"]
mod fake_github;

use serde_json::{Value, json};
use std::io::Write;
use triage::github::RepoName;
use triage::github::fetch::FetchRequest;
use triage::model::disposition::{DispositionPayload, comment_body, receipt_digest, status_context};
use triage::model::finding::SubmittedDisposition;
use triage::model::ledger::LedgerState;
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// How the user typed `--repo` (or how the git remote spells it).
const TYPED: &str = "octo/app";
/// GitHub's canonical name: what ReviewGate writes into the result's scope
/// (`GITHUB_REPOSITORY`) and compares payloads against at replay.
const CANONICAL: &str = "Octo/App";
const PR: u64 = 5;
const WORKFLOW: &str = "reviewgate.yml";
const FP: &str = "defect:src.lib.rs:one";

fn head() -> String {
    "1234567890abcdef1234567890abcdef12345678".to_owned()
}

fn zip_of(name: &str, content: &[u8]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    w.start_file(name, opts).unwrap();
    w.write_all(content).unwrap();
    w.finish().unwrap().into_inner()
}

async fn get(api: &MockServer, p: String, body: Value) {
    Mock::given(method("GET"))
        .and(path(p))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(api)
        .await;
}

/// Upstream ignores a payload only when its scope is not the review state's
/// (GitHub's own spelling of the repository); `--repo` typed in another case
/// names the same repository, and its decisions are the pull request's.
#[tokio::test]
async fn a_repository_typed_in_another_case_still_owns_its_decisions() {
    let (api, blob) = (MockServer::start().await, MockServer::start().await);
    let sha = head();
    get(
        &api,
        format!("/repos/{TYPED}/pulls/{PR}"),
        json!({ "number": PR, "state": "open", "head": { "sha": sha }, "base": { "repo": { "full_name": CANONICAL } } }),
    )
    .await;
    Mock::given(method("GET"))
        .and(path(format!("/repos/{TYPED}/actions/workflows/{WORKFLOW}/runs")))
        .and(query_param("head_sha", sha.clone()))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({ "total_count": 1, "workflow_runs": [
            { "id": 77, "run_number": 3, "run_attempt": 1, "head_sha": sha, "event": "pull_request",
              "status": "completed", "conclusion": "failure", "created_at": "2026-01-01T00:00:00Z",
              "pull_requests": [{ "number": PR }], "repository": { "full_name": CANONICAL } }] })),
        )
        .mount(&api)
        .await;
    let name = format!("reviewgate-agent-result-{sha}-attempt-1");
    get(
        &api,
        format!("/repos/{TYPED}/actions/artifacts"),
        json!({ "total_count": 1, "artifacts": [{ "id": 5001, "name": name, "size_in_bytes": 900, "expired": false,
            "workflow_run": { "id": 77, "head_sha": sha } }] }),
    )
    .await;
    let result = fake_github::result_json(
        CANONICAL,
        PR,
        &sha,
        vec![fake_github::finding(FP, "still_open", vec![], None)],
    );
    Mock::given(method("GET"))
        .and(path(format!("/repos/{TYPED}/actions/artifacts/5001/zip")))
        .respond_with(ResponseTemplate::new(302).insert_header("Location", format!("{}/blob/5001.zip", blob.uri())))
        .mount(&api)
        .await;
    Mock::given(method("GET"))
        .and(path("/blob/5001.zip"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(zip_of("result.json", &result)))
        .mount(&blob)
        .await;
    Mock::given(method("POST"))
        .and(path("/graphql"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({ "data": { "repository": { "pullRequest": {
            "reviewThreads": { "pageInfo": { "hasNextPage": false, "endCursor": null }, "nodes": [] } } } } })),
        )
        .mount(&api)
        .await;
    // One decision, exactly as triage's own submit (or ReviewGate's) writes it
    // for this result: the payload carries the result's (canonical) repository.
    let payload = DispositionPayload::new(
        CANONICAL,
        PR,
        &sha,
        FP,
        SubmittedDisposition::Fixed,
        "fixed in abc",
        "w",
    );
    let body = comment_body(&payload);
    get(
        &api,
        format!("/repos/{TYPED}/issues/{PR}/comments"),
        json!([{ "id": 901, "user": { "login": "w" }, "body": body }]),
    )
    .await;
    get(
        &api,
        format!("/repos/{TYPED}/commits/{sha}/status"),
        json!({ "state": "success", "statuses": [{ "context": status_context(901), "description": receipt_digest(&body),
            "state": "success", "creator": { "login": "w" } }] }),
    )
    .await;
    get(
        &api,
        format!("/repos/{TYPED}/collaborators/w/permission"),
        json!({ "permission": "write" }),
    )
    .await;

    let client = fake_github::client(&api.uri(), "test-token-123");
    let request = FetchRequest {
        repo: RepoName::parse(TYPED).unwrap(),
        pr: PR,
        workflow: WORKFLOW.into(),
    };
    let reads = triage::session::fetch::LiveReads { ledger: true };
    let fetched = triage::session::fetch::fetch_live_reporting(&client, &request, reads, &|_| {})
        .await
        .expect("the result is fetched (the repository matches but for case)");
    let Some(LedgerState::Known(ledger)) = &fetched.ledger else {
        panic!("{:?}", fetched.ledger)
    };
    let e = &ledger.entries[0];
    assert_eq!(
        e.authorised.as_str(),
        "receipt",
        "ReviewGate applies comment 901 (attested, same scope as the canonical state); triage says: {}",
        e.authorised.reason()
    );
}

fn run_triage(args: &[&str], api: &str, home: &std::path::Path) -> (i32, String, String) {
    let output = assert_cmd::Command::cargo_bin("triage")
        .unwrap()
        .args(args)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", home)
        .env("TRIAGE_STATE_DIR", home.join("state"))
        .env("GITHUB_API_URL", api)
        .env("GH_TOKEN", "test-token-123")
        .env("TRIAGE_HTTP_TIMEOUT", "10")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Upstream replays disposition comments against the previous summary
/// state's `last_reviewed_sha`: after a push (head H2, not reviewed yet),
/// the decisions recorded for H1, the head reviewed last, are the ones the
/// next review applies. Only ReviewGate's own summary comment says so.
#[tokio::test(flavor = "multi_thread")]
async fn after_a_push_decisions_are_judged_against_the_head_reviewgate_reviewed_last() {
    let api = MockServer::start().await;
    let h1 = head();
    let h2 = "abcdefabcdefabcdefabcdefabcdefabcdefabcd".to_owned();
    get(
        &api,
        format!("/repos/{CANONICAL}/pulls/{PR}"),
        json!({ "number": PR, "state": "open", "head": { "sha": h2 }, "base": { "repo": { "full_name": CANONICAL } } }),
    )
    .await;
    let payload = DispositionPayload::new(CANONICAL, PR, &h1, FP, SubmittedDisposition::Fixed, "fixed in abc", "w");
    let body = comment_body(&payload);
    let receipt = json!({ "state": "success", "statuses": [{ "context": status_context(901),
        "description": receipt_digest(&body), "state": "success", "creator": { "login": "w" } }] });
    get(&api, format!("/repos/{CANONICAL}/commits/{h1}/status"), receipt).await;
    get(
        &api,
        format!("/repos/{CANONICAL}/commits/{h2}/status"),
        json!({ "state": "pending", "statuses": [] }),
    )
    .await;
    get(
        &api,
        format!("/repos/{CANONICAL}/collaborators/w/permission"),
        json!({ "permission": "write" }),
    )
    .await;
    // ReviewGate's summary comment: its state says it reviewed H1 last (the
    // review of H2 has not run yet); a forged one by someone else says H2.
    let state = |sha: &str, runs: u32| {
        let json = json!({ "version": 1, "last_reviewed_sha": sha, "reviewed_shas": [sha], "run_count": runs });
        let encoded = base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, json.to_string());
        format!("<!-- reviewgate-summary -->\n# ReviewGate: 3/5\n<!-- reviewgate-state {encoded} -->")
    };
    get(
        &api,
        format!("/repos/{CANONICAL}/issues/{PR}/comments"),
        json!([
            { "id": 800, "user": { "login": "github-actions[bot]" }, "body": state(&h1, 2) },
            { "id": 801, "user": { "login": "mallory" }, "body": state(&h2, 9) },
            { "id": 901, "user": { "login": "w" }, "body": body }
        ]),
    )
    .await;

    let home = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = tokio::task::spawn_blocking({
        let (uri, home) = (api.uri(), home.path().to_owned());
        move || {
            run_triage(
                &["decisions", "--pr", "5", "--repo", CANONICAL, "--format", "json"],
                &uri,
                &home,
            )
        }
    })
    .await
    .unwrap();
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stderr.contains("the head ReviewGate reviewed last"), "{stderr}");
    let line: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(
        line["authorised"], "receipt",
        "ReviewGate's next review (of {h2}) applies comment 901 (last reviewed head {h1}); triage says: {}",
        line["reason"]
    );
}

/// An attempt posted and attested comment 9001, then failed only while
/// reading it back: GitHub holds the decision and ReviewGate applies it, so
/// dropping the entry says the comment may be there.
#[test]
fn dropping_an_entry_whose_comment_is_on_github_says_so() {
    use triage::decision::decide::Step;
    use triage::decision::draft::Draft;
    use triage::decision::outcome::Outcome;
    use triage::github::error::GhError;
    let home = tempfile::tempdir().unwrap();
    let outbox = triage::outbox::Outbox::open(home.path().join("state").join("outbox")).unwrap();
    let entry = triage::outbox::Entry::new(
        Draft {
            repository: CANONICAL.into(),
            pull_request: PR,
            reviewed_sha: head(),
            fingerprint: FP.into(),
            status: SubmittedDisposition::Fixed,
            evidence: "fixed in abc".into(),
            actor: None,
        },
        None,
    );
    outbox.put(&entry).unwrap();
    let failed = Outcome::Failed {
        step: Step::ReadBack,
        error: GhError::Timeout {
            after: Default::default(),
        },
        comment_left: Some(9001),
    };
    let marked = outbox.mark_attempt(&entry.id, &failed).unwrap();
    assert_eq!(marked.last_outcome.as_ref().unwrap().comment_id, Some(9001));
    let (code, stdout, stderr) = run_triage(&["outbox", "drop", &entry.id], "http://127.0.0.1:9", home.path());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("9001"),
        "the decision may be recorded on GitHub (comment 9001) but drop said only: {stdout:?} / {stderr:?}"
    );
}
