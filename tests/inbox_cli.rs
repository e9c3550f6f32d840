//! `triage inbox --format json|table` as a user runs it, against a fake
//! GitHub on loopback: one sanitised JSON line per pull request with the
//! documented fields, ranked; a second run revalidates from the state
//! directory's cache; the table fits the width; exit codes of the common table.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "support/fake_github.rs"]
mod fake_github;
#[path = "support/fake_inbox.rs"]
mod fake_inbox;

use serde_json::Value;
use std::path::Path;
use std::time::Duration;
use unicode_width::UnicodeWidthStr;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

async fn triage(args: &[&str], api: &str, home: &Path, token: bool) -> Run {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let (api, home) = (api.to_owned(), home.to_owned());
    tokio::task::spawn_blocking(move || {
        let mut command = assert_cmd::Command::cargo_bin("triage").unwrap();
        command
            .args(&args)
            .env_clear()
            .env("PATH", "/nonexistent")
            .env("HOME", &home)
            .env("TRIAGE_STATE_DIR", home.join("state"))
            .env("GITHUB_API_URL", &api)
            .env("COLUMNS", "110")
            .env("NO_COLOR", "1");
        if token {
            command.env("GH_TOKEN", "test-token-123");
        }
        let out = command.output().unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    })
    .await
    .unwrap()
}

/// The fields of every JSON line, in the README's order.
const FIELDS: [&str; 25] = [
    "rank",
    "number",
    "title",
    "author",
    "head_sha",
    "head_ref",
    "base_ref",
    "draft",
    "labels",
    "created_at",
    "updated_at",
    "age_seconds",
    "state",
    "reason",
    "score",
    "repair_set",
    "findings",
    "undecided",
    "drift",
    "needs_human",
    "awaiting",
    "run_id",
    "newer_run_id",
    "artifact_id",
    "river_artifacts",
];

#[tokio::test]
async fn json_lines_are_ranked_sanitised_and_revalidated_on_the_second_run() {
    let server = MockServer::start().await;
    fake_inbox::mount(&server, &fake_inbox::thirty(), Duration::ZERO).await;
    let home = tempfile::tempdir().unwrap();
    let args = ["inbox", "--repo", "octo/app", "--format", "json"];
    let first = triage(&args, &server.uri(), home.path(), true).await;
    assert_eq!(first.code, 0, "{}", first.stderr);
    let lines: Vec<Value> = first.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 30);
    for (i, line) in lines.iter().enumerate() {
        let keys: Vec<&str> = line.as_object().unwrap().keys().map(String::as_str).collect();
        let mut want = FIELDS.to_vec();
        want.sort_unstable();
        let mut got = keys.clone();
        got.sort_unstable();
        assert_eq!(got, want);
        assert_eq!(line["rank"], i + 1);
        let title = line["title"].as_str().unwrap();
        assert!(!title.contains('\u{1b}'), "{title:?}");
        assert!(title.starts_with("Change "), "{title:?}");
    }
    assert_eq!(lines[0]["number"], 21);
    assert_eq!(lines[0]["drift"]["resolved_externally"], 1);
    let failed = lines.iter().find(|l| l["number"] == 25).unwrap();
    assert_eq!(failed["state"], "unknown");
    assert!(failed["reason"].as_str().unwrap().contains("downloaded"));
    assert!(first.stderr.contains("30 shown of 30 open"), "{}", first.stderr);
    assert!(first.stderr.contains(", 0 conditional,"), "{}", first.stderr);

    let second = triage(&args, &server.uri(), home.path(), true).await;
    assert_eq!(second.code, 0, "{}", second.stderr);
    let again: Vec<Value> = second
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let numbers = |v: &[Value]| v.iter().map(|l| l["number"].as_u64().unwrap()).collect::<Vec<_>>();
    assert_eq!(numbers(&again), numbers(&lines));
    let states = |v: &[Value]| v.iter().map(|l| l["state"].clone()).collect::<Vec<_>>();
    assert_eq!(states(&again), states(&lines));
    let summary = second.stderr.lines().find(|l| l.starts_with("inbox ")).unwrap();
    let counts: Vec<u64> = summary.split([' ', ',']).filter_map(|w| w.parse().ok()).collect();
    // shown, open, requests, conditional, not modified, in flight, rate left.
    let (sent, conditional, not_modified) = (counts[2], counts[3], counts[4]);
    assert_eq!(conditional, not_modified, "{summary}");
    // Unconditional: the GraphQL page and #28's thread page (GraphQL has no
    // ETags), and the failed download, tried three times (5xx is retried).
    assert_eq!(sent, conditional + 2 + 3, "{summary}");
    assert!(summary.ends_with("rate limit 4000 left"), "{summary}");
    // One cache directory, the loopback API's.
    let [api] = std::fs::read_dir(home.path().join("state/cache"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect::<Vec<_>>()
        .try_into()
        .expect("one API's cache");
    let kept = |dir: &str| std::fs::read_dir(api.join(dir)).unwrap().count();
    // The runs, artifacts and comments listings and #29's run artifacts.
    assert_eq!(kept("http"), 4, "answers kept on disk");
    assert_eq!(kept("results"), 20, "every validated result but the failed download");
}

#[tokio::test]
async fn the_table_fits_the_width_and_says_why_a_row_is_unknown() {
    let server = MockServer::start().await;
    fake_inbox::mount(&server, &fake_inbox::thirty(), Duration::ZERO).await;
    let home = tempfile::tempdir().unwrap();
    let run = triage(
        &["inbox", "--repo", "octo/app", "--format", "table"],
        &server.uri(),
        home.path(),
        true,
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("PR "), "{}", lines[0]);
    assert!(
        lines[0].contains("STATE") && lines[0].ends_with("TITLE"),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("#21 "), "{}", lines[1]);
    assert_eq!(lines.len(), 1 + 30 + 1, "{}", run.stdout);
    for line in &lines {
        assert!(line.width() <= 110, "{line:?}");
        assert!(!line.contains('\u{1b}'));
    }
    let at = lines.iter().position(|l| l.starts_with("#25 ")).unwrap();
    assert!(lines[at].contains("unknown"));
    assert!(
        lines[at + 1].starts_with("    the result artifact could not be downloaded"),
        "{}",
        lines[at + 1]
    );
}

#[tokio::test]
async fn exit_codes_follow_the_common_table() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/graphql"))
        .respond_with(ResponseTemplate::new(502))
        .mount(&server)
        .await;
    let home = tempfile::tempdir().unwrap();
    let bad_repo = triage(
        &["inbox", "--repo", "not a repo", "--format", "json"],
        &server.uri(),
        home.path(),
        true,
    )
    .await;
    assert_eq!(bad_repo.code, 2, "{}", bad_repo.stderr);
    let no_token = triage(
        &["inbox", "--repo", "octo/app", "--format", "json"],
        &server.uri(),
        home.path(),
        false,
    )
    .await;
    assert_eq!(no_token.code, 4, "{}", no_token.stderr);
    let down = triage(
        &["inbox", "--repo", "octo/app", "--format", "json"],
        &server.uri(),
        home.path(),
        true,
    )
    .await;
    assert_eq!(down.code, 4, "{}", down.stderr);
    assert!(down.stdout.is_empty());
    // The screen needs a terminal: without one it says so (usage, 2).
    let screen = triage(&["inbox", "--repo", "octo/app"], &server.uri(), home.path(), true).await;
    assert_eq!(screen.code, 2, "{}", screen.stderr);
    assert!(screen.stderr.contains("terminal"), "{}", screen.stderr);
    assert!(!down.stderr.contains("test-token-123"));
}
