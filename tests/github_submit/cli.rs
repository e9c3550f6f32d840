//! The binary: exit codes, the outbox on disk, and no token anywhere.

use super::support::*;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use triage::outbox::Outbox;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary with a private HOME/state dir and the fake API.
pub async fn triage(args: Vec<String>, api: &str, home: &Path) -> Run {
    run_binary(args, api, home, "off").await
}

/// [`triage`] with `TRIAGE_LOG=trace`: the log file lands in the state dir.
pub async fn triage_logged(args: Vec<String>, api: &str, home: &Path) -> Run {
    run_binary(args, api, home, "trace").await
}

async fn run_binary(args: Vec<String>, api: &str, home: &Path, log: &'static str) -> Run {
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
            .env("TRIAGE_LOG", log)
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

pub fn result_args(evidence: &str) -> Vec<String> {
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
    mount_no_decisions(&server).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    mount_read_back(&server).await;
    let mut args = result_args(EVIDENCE);
    args.extend(["--format".into(), "json".into()]);
    let run = triage_logged(args, &server.uri(), home.path()).await;
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
    assert_eq!(seen.len(), 10);
    assert_eq!(body_json(&seen[5].1), json!({"body": accepted_body()}));
    assert!(
        files_under(&home.path().join("state/outbox"))
            .iter()
            .all(|(p, _)| !p.to_string_lossy().ends_with(".json"))
    );
    let log = std::fs::read_to_string(home.path().join("state/triage.log")).unwrap_or_default();
    assert!(log.contains("log started"), "TRIAGE_LOG writes the log file: {log}");
    assert!(log.contains(PULL), "the client's requests are in it: {log}");
    assert!(
        !run.stderr.contains("log started"),
        "nothing of the log on the terminal"
    );
    assert_no_token(&[&run], home.path());
}

#[tokio::test(flavor = "multi_thread")]
async fn cli_keeps_a_failed_decision_retries_it_and_never_prints_the_token() {
    let home = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    mount_all_but_comment(&server).await;
    mount_no_decisions(&server).await;
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
    // JSON lines: one entry object per line.
    let entries: Vec<Value> = listed
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(entries.len(), 1);
    assert!(entries[0].is_object());
    assert_eq!(entries[0]["evidence"], EVIDENCE);
    assert_eq!(entries[0]["attempts"], 1);
    let id = entries[0]["id"].as_str().unwrap().to_owned();

    server.reset().await;
    mount_all_but_comment(&server).await;
    on(&server, "GET", COMMENTS, ok(json!([]))).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    mount_read_back(&server).await;
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
            line("GET", ACCESS),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("GET", HEAD_STATUS_PAGE_1),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("POST", STATUS),
            line("GET", COMMENT_1),
            line("GET", HEAD_STATUS_PAGE_1),
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
    let entries: Vec<Value> = listed
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(entries.len(), 1, "{}", listed.stdout);
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
    let template = "Fixed on the reviewed head: <what changed> (src/a.rs@abc#L3). Verified by cargo test.";
    let run = triage(result_args(template), &server.uri(), home.path()).await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("placeholder <what changed>"), "{}", run.stderr);
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
