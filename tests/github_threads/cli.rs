//! `triage thread ...` as a process: the action is kept on disk until done,
//! a failed reply is retried by `triage thread retry` without a second post,
//! and the token is never printed.

use super::actions::{FP, github};
use super::support::*;
use serde_json::Value;
use std::path::Path;
use wiremock::ResponseTemplate;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn triage(args: &[&str], api: &str, home: &Path) -> Run {
    let output = assert_cmd::Command::cargo_bin("triage")
        .expect("binary")
        .args(args)
        .env_clear()
        .env("PATH", "/nonexistent")
        .env("HOME", home)
        .env("TRIAGE_STATE_DIR", home.join("state"))
        .env("GITHUB_API_URL", api)
        .env("GH_TOKEN", TOKEN)
        .env("TRIAGE_HTTP_TIMEOUT", "5")
        .output()
        .expect("run");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn kept(home: &Path) -> Vec<Value> {
    let dir = home.join("state/outbox/threads");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.path().extension().is_some_and(|e| e == "json") {
            let bytes = std::fs::read(entry.path()).unwrap_or_default();
            out.push(serde_json::from_slice(&bytes).unwrap_or(Value::Null));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_reply_is_kept_and_retried_without_a_second_post() {
    let api = github(false).await;
    let home = tempfile::tempdir().expect("tempdir");
    let body = "Checked on the head: still there.";
    graphql_op("viewer")
        .respond_with(ResponseTemplate::new(200).set_body_json(comments_page("alice", &[("github-actions", "m")])))
        .up_to_n_times(1)
        .mount(&api)
        .await;
    graphql_op("addPullRequestReviewThreadReply")
        .respond_with(ResponseTemplate::new(502))
        .mount(&api)
        .await;
    let uri = api.uri();
    let (home_path, first_args) = (home.path().to_owned(), uri.clone());
    let first = tokio::task::spawn_blocking(move || {
        let args = [
            "thread",
            "reply",
            "--pr",
            "5",
            "--repo",
            REPO,
            "--finding",
            FP,
            "--body",
            body,
        ];
        triage(&args, &first_args, &home_path)
    })
    .await
    .expect("run");
    assert_eq!(first.code, 4, "{}", first.stderr);
    let on_disk = kept(home.path());
    assert_eq!(on_disk.len(), 1, "{on_disk:?}");
    assert_eq!(
        (&on_disk[0]["action"], &on_disk[0]["body"], &on_disk[0]["attempts"]),
        (&Value::from("reply"), &Value::from(body), &Value::from(1))
    );

    graphql_op("viewer")
        .respond_with(ResponseTemplate::new(200).set_body_json(comments_page("alice", &[("alice", body)])))
        .mount(&api)
        .await;
    let home_path = home.path().to_owned();
    let second =
        tokio::task::spawn_blocking(move || triage(&["thread", "retry", "--format", "json"], &uri, &home_path))
            .await
            .expect("run");
    assert_eq!(second.code, 0, "{}", second.stderr);
    let printed: Value = serde_json::from_str(second.stdout.trim()).unwrap_or(Value::Null);
    assert_eq!(
        (&printed["outcome"], &printed["already"]),
        (&Value::from("done"), &Value::from(true))
    );
    assert!(kept(home.path()).is_empty());
    let seq = sequence(&api).await;
    let posts = seq
        .iter()
        .filter(|l| *l == "graphql addPullRequestReviewThreadReply")
        .count();
    assert_eq!(posts, 1, "{seq:?}");
    assert_eq!(
        seq,
        [
            "GET /repos/octo/app/pulls/5",
            "graphql reviewThreads",
            "graphql viewer",
            "graphql addPullRequestReviewThreadReply",
            "GET /repos/octo/app/pulls/5",
            "graphql reviewThreads",
            "graphql viewer"
        ]
    );
    for run in [&first, &second] {
        assert!(!run.stdout.contains(TOKEN) && !run.stderr.contains(TOKEN));
    }
}
