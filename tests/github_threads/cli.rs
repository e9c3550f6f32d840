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
    assert_eq!(
        on_disk[0]["api"],
        Value::from(api.uri().trim_end_matches('/')),
        "bound to the API of its first attempt"
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

/// `thread list` shows what is kept, `thread drop ID` removes one (an
/// unknown id is a usage error), `thread retry ID` sends only that one, and
/// an entry another process holds is not sent (exit 4, as `submit`), so the
/// two never post the same action twice.
#[tokio::test(flavor = "multi_thread")]
async fn kept_actions_are_listed_dropped_and_retried_one_at_a_time_and_a_held_one_waits() {
    use triage::github::thread_action::{ThreadRequest, ThreadVerb};
    use triage::outbox::thread_actions::ThreadStore;
    let api = github(false).await;
    let home = tempfile::tempdir().expect("tempdir");
    let store = ThreadStore::open(home.path().join("state/outbox/threads")).expect("store");
    let request = |verb: ThreadVerb| ThreadRequest {
        repository: REPO.into(),
        pull_request: 5,
        fingerprint: FP.into(),
        expected_head: None,
        verb,
    };
    let resolve = store.keep(request(ThreadVerb::Resolve)).expect("keep");
    let reply = store
        .keep(request(ThreadVerb::Reply {
            body: "Fixed on the head.".into(),
        }))
        .expect("keep");
    let uri = api.uri();
    let run = |args: Vec<String>| {
        let (uri, home) = (uri.clone(), home.path().to_owned());
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            triage(&args, &uri, &home)
        })
    };
    let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();

    let listed = run(args(&["thread", "list"])).await.expect("run");
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert_eq!(listed.stdout.lines().count(), 2, "{}", listed.stdout);
    assert!(listed.stdout.contains(&resolve.id) && listed.stdout.contains("resolve"));
    let json = run(args(&["thread", "list", "--format", "json"])).await.expect("run");
    let ids: Vec<Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or(Value::Null)["id"].clone())
        .collect();
    assert_eq!(ids.len(), 2, "{}", json.stdout);
    assert!(ids.contains(&Value::from(reply.id.as_str())), "{ids:?}");
    let decisions = run(args(&["outbox", "list"])).await.expect("run");
    assert_eq!(decisions.code, 0, "{}", decisions.stderr);
    assert!(
        decisions.stderr.contains("also kept: 2 thread action(s)"),
        "{}",
        decisions.stderr
    );

    let dropped = run(args(&["thread", "drop", &reply.id])).await.expect("run");
    assert_eq!(
        (dropped.code, dropped.stdout.trim()),
        (0, format!("dropped {}", reply.id).as_str())
    );
    let again = run(args(&["thread", "drop", &reply.id])).await.expect("run");
    assert_eq!(again.code, 2, "{}", again.stderr);
    assert!(again.stderr.contains("triage thread list"), "{}", again.stderr);
    assert_eq!(run(args(&["thread", "drop", "../x"])).await.expect("run").code, 2);

    // Held by another process: nothing is sent, the entry stays as it was.
    let claim = store.claim(&resolve.id).expect("claim");
    let busy = run(args(&["thread", "retry", &resolve.id, "--format", "json"]))
        .await
        .expect("run");
    assert_eq!(busy.code, 4, "{}", busy.stderr);
    let printed: Value = serde_json::from_str(busy.stdout.trim()).unwrap_or(Value::Null);
    assert_eq!(
        (&printed["outcome"], &printed["kept"]),
        (&Value::from("busy"), &Value::from(true))
    );
    assert!(sequence(&api).await.is_empty(), "nothing reached GitHub");
    assert_eq!(store.get(&resolve.id).expect("get"), Some(resolve.clone()));
    drop(claim);

    graphql_op("resolveReviewThread")
        .respond_with(ResponseTemplate::new(200).set_body_json(
            serde_json::json!({ "data": { "resolveReviewThread": { "thread": { "id": "PRRT_a", "isResolved": true } } } }),
        ))
        .mount(&api)
        .await;
    let sent = run(args(&["thread", "retry", &resolve.id])).await.expect("run");
    assert_eq!(sent.code, 0, "{}", sent.stderr);
    assert!(store.list().expect("list").0.is_empty());
    assert_eq!(
        sequence(&api).await,
        [
            "GET /repos/octo/app/pulls/5",
            "graphql reviewThreads",
            "graphql resolveReviewThread"
        ]
    );
}

/// `--head SHA` binds the action to the head that was reviewed: with the
/// pull request's head elsewhere it is refused (exit 3) before any
/// mutation and not kept; a malformed SHA is refused before any request;
/// the head GitHub shows lets it through.
#[tokio::test(flavor = "multi_thread")]
async fn an_action_bound_to_a_head_is_refused_once_the_head_moved() {
    let api = github(false).await;
    graphql_op("resolveReviewThread")
        .respond_with(ResponseTemplate::new(200).set_body_json(
            serde_json::json!({ "data": { "resolveReviewThread": { "thread": { "id": "PRRT_a", "isResolved": true } } } }),
        ))
        .mount(&api)
        .await;
    let home = tempfile::tempdir().expect("tempdir");
    let uri = api.uri();
    let run = |head: String| {
        let (uri, home) = (uri.clone(), home.path().to_owned());
        tokio::task::spawn_blocking(move || {
            let args = [
                "thread",
                "resolve",
                "--pr",
                "5",
                "--repo",
                REPO,
                "--finding",
                FP,
                "--head",
                &head,
            ];
            triage(&args, &uri, &home)
        })
    };
    let malformed = run("HEAD".into()).await.expect("run");
    assert_eq!(malformed.code, 1, "{}", malformed.stderr);
    assert!(malformed.stderr.contains("full commit SHA"), "{}", malformed.stderr);
    assert!(sequence(&api).await.is_empty(), "nothing reached GitHub");

    let moved = run("e".repeat(40)).await.expect("run");
    assert_eq!(moved.code, 3, "{}", moved.stderr);
    assert!(
        moved.stderr.contains("eeeeeeeeeeee"),
        "the refusal names the bound head: {}",
        moved.stderr
    );
    assert!(kept(home.path()).is_empty(), "a refusal is not kept");
    assert_eq!(sequence(&api).await, ["GET /repos/octo/app/pulls/5"]);

    let current = run(HEAD.into()).await.expect("run");
    assert_eq!(current.code, 0, "{}", current.stderr);
    assert_eq!(
        sequence(&api).await,
        [
            "GET /repos/octo/app/pulls/5",
            "GET /repos/octo/app/pulls/5",
            "graphql reviewThreads",
            "graphql resolveReviewThread"
        ]
    );
}

/// A kept thread action first sent to one GitHub API is not sent to
/// another: `thread retry` against another API leaves it kept as it was
/// (exit 4) and names the API it is for.
#[tokio::test(flavor = "multi_thread")]
async fn a_thread_action_kept_for_another_github_api_is_not_sent_here() {
    use triage::github::thread_action::{ThreadRequest, ThreadVerb};
    use triage::outbox::thread_actions::ThreadStore;
    let api = github(false).await;
    let home = tempfile::tempdir().expect("tempdir");
    let store = ThreadStore::open(home.path().join("state/outbox/threads")).expect("store");
    let mut entry = store
        .keep(ThreadRequest {
            repository: REPO.into(),
            pull_request: 5,
            fingerprint: FP.into(),
            expected_head: None,
            verb: ThreadVerb::Resolve,
        })
        .expect("keep");
    entry.api = Some("https://ghe.example/api/v3".into());
    store.put(&entry).expect("put");
    let (uri, home_path) = (api.uri(), home.path().to_owned());
    let run = tokio::task::spawn_blocking(move || triage(&["thread", "retry", "--format", "json"], &uri, &home_path))
        .await
        .expect("run");
    assert_eq!(run.code, 4, "{}", run.stderr);
    let printed: Value = serde_json::from_str(run.stdout.trim()).unwrap_or(Value::Null);
    assert_eq!(printed["outcome"], Value::from("other_api"), "{}", run.stdout);
    assert!(
        printed["message"]
            .as_str()
            .is_some_and(|m| m.contains("--api-url https://ghe.example/api/v3")),
        "{printed}"
    );
    assert!(sequence(&api).await.is_empty(), "nothing reached this API");
    assert_eq!(store.get(&entry.id).expect("get"), Some(entry));
}
