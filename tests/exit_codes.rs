//! One exit-code table for every subcommand and the screen, walked class by
//! class against a fake GitHub on loopback: usage 2, invalid input 1,
//! refused by GitHub's state (stale head, closed pull request) 3, network
//! and token failures 4. README's "Exit codes" table says the same.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use serde_json::json;
use std::path::{Path, PathBuf};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const TOKEN: &str = "ghp_EXITtokenNEVERprinted0123456789";
/// A port nothing listens on: "the network is down".
const DOWN: &str = "http://127.0.0.1:9";

#[derive(Clone, Copy)]
enum Token {
    Given,
    Missing,
}

struct Run {
    code: i32,
    /// stdout and stderr together.
    stderr: String,
}

fn triage(args: &[&str], api: &str, token: Token, home: &Path) -> Run {
    let mut cmd = assert_cmd::Command::cargo_bin("triage").expect("binary");
    cmd.args(args)
        .env_clear()
        // No `gh` on this PATH: a missing token stays missing.
        .env("PATH", "/nonexistent")
        .env("HOME", home)
        .env("TRIAGE_STATE_DIR", home.join("state"))
        .env("GITHUB_API_URL", api)
        .env("TRIAGE_HTTP_TIMEOUT", "5")
        .env("NO_COLOR", "1")
        .current_dir(home);
    if let Token::Given = token {
        cmd.env("GH_TOKEN", TOKEN);
    }
    let output = cmd.output().expect("run");
    Run {
        code: output.status.code().unwrap_or(-1),
        stderr: format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    }
}

fn conformance(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/conformance")
        .join(file)
}

/// The pull request 5 of octo/app, open, whose newest head has no completed
/// review run (the only results are for older heads); thread 'PRRT_a' is
/// closed to actions because the pull request is closed on /pulls/6.
async fn github() -> MockServer {
    let api = MockServer::start().await;
    let head = "1234567890abcdef1234567890abcdef12345678";
    let pull = |n: u64, state: &str, sha: &str| json!({ "number": n, "state": state, "head": { "sha": sha }, "base": { "repo": { "full_name": "octo/app" } } });
    for (route, body) in [
        ("/repos/octo/app/pulls/5", pull(5, "open", head)),
        ("/repos/octo/app/pulls/6", pull(6, "closed", head)),
        (
            "/repos/octo/app/actions/workflows/reviewgate.yml/runs",
            json!({ "total_count": 0, "workflow_runs": [] }),
        ),
        // The disposition protocol's reads: the decision's head abc123 is stale.
        ("/user", json!({ "login": "repair-agent", "id": 5 })),
        (
            "/repos/LVTD-LLC/reviewgate",
            json!({ "full_name": "LVTD-LLC/reviewgate", "permissions": { "push": true, "pull": true } }),
        ),
        (
            "/repos/LVTD-LLC/reviewgate/pulls/48",
            json!({ "number": 48, "state": "open", "head": { "sha": head },
                    "base": { "repo": { "full_name": "LVTD-LLC/reviewgate" } } }),
        ),
    ] {
        Mock::given(method("GET"))
            .and(path(route))
            .respond_with(ResponseTemplate::new(200).set_body_json(body))
            .mount(&api)
            .await;
    }
    api
}

/// (what, arguments, API, token, expected code)
type Case = (&'static str, Vec<String>, String, Token, i32);

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

fn cases(api: &str, invalid: &str, valid_pr: &str) -> Vec<Case> {
    let api = api.to_owned();
    let down = DOWN.to_owned();
    let pr = ["--pr", "5", "--repo", "octo/app"];
    let with_pr = |cmd: &[&str]| args(&[cmd, &pr[..]].concat());
    let submit = |evidence: &str| {
        args(&[
            "submit",
            "--result",
            valid_pr,
            "--finding",
            "reliability_risk:app.webhooks.retry.py:webhook.retry.exhaustion.missing.regression",
            "--status",
            "accepted",
            "--evidence",
            evidence,
        ])
    };
    let thread =
        |verb: &str, n: &str| args(&["thread", verb, "--pr", n, "--repo", "octo/app", "--finding", "defect:a"]);
    let mut reply = thread("reply", "5");
    reply.extend(args(&["--body", "Checked on the head."]));
    let mut blank_reply = thread("reply", "5");
    blank_reply.extend(args(&["--body", "  "]));
    let screen = args(&pr);
    use Token::{Given, Missing};
    vec![
        // validate
        ("validate: usage", args(&["validate", "--bogus"]), api.clone(), Given, 2),
        ("validate: invalid", args(&["validate", invalid]), api.clone(), Given, 1),
        ("validate: stale", with_pr(&["validate"]), api.clone(), Given, 3),
        ("validate: network", with_pr(&["validate"]), down.clone(), Given, 4),
        ("validate: token", with_pr(&["validate"]), api.clone(), Missing, 4),
        // list
        (
            "list: usage",
            args(&["list", invalid, "--severity", "P9"]),
            api.clone(),
            Given,
            2,
        ),
        ("list: invalid", args(&["list", invalid]), api.clone(), Given, 1),
        ("list: stale", with_pr(&["list"]), api.clone(), Given, 3),
        ("list: network", with_pr(&["list"]), down.clone(), Given, 4),
        ("list: token", with_pr(&["list"]), api.clone(), Missing, 4),
        (
            "list: zero pr",
            args(&["list", "--pr", "0", "--repo", "octo/app"]),
            api.clone(),
            Given,
            2,
        ),
        // fetch
        (
            "fetch: usage",
            args(&["fetch", "--pr", "5", "--repo", "not a repo"]),
            api.clone(),
            Given,
            2,
        ),
        ("fetch: stale", with_pr(&["fetch"]), api.clone(), Given, 3),
        ("fetch: network", with_pr(&["fetch"]), down.clone(), Given, 4),
        ("fetch: token", with_pr(&["fetch"]), api.clone(), Missing, 4),
        // the screen (fails before the terminal is touched)
        (
            "screen: usage",
            args(&["--pr", "0", "--repo", "octo/app"]),
            api.clone(),
            Given,
            2,
        ),
        ("screen: stale", screen.clone(), api.clone(), Given, 3),
        ("screen: network", screen.clone(), down.clone(), Given, 4),
        ("screen: token", screen, api.clone(), Missing, 4),
        // project, fingerprints (local only)
        (
            "project: usage",
            args(&["project", invalid, "--scope", "nonsense"]),
            api.clone(),
            Given,
            2,
        ),
        ("project: invalid", args(&["project", invalid]), api.clone(), Given, 1),
        ("fingerprints: usage", args(&["fingerprints"]), api.clone(), Given, 2),
        (
            "fingerprints: invalid",
            args(&["fingerprints", invalid]),
            api.clone(),
            Given,
            1,
        ),
        // submit (kept in the outbox on 3 and 4)
        (
            "submit: usage",
            args(&["submit", "--finding", "x"]),
            api.clone(),
            Given,
            2,
        ),
        ("submit: invalid", submit("   "), api.clone(), Given, 1),
        (
            "submit: stale",
            submit("Verified on the reviewed head."),
            api.clone(),
            Given,
            3,
        ),
        (
            "submit: network",
            submit("Verified on the reviewed head."),
            down.clone(),
            Given,
            4,
        ),
        (
            "submit: token",
            submit("Verified on the reviewed head."),
            api.clone(),
            Missing,
            4,
        ),
        // outbox (holds the decision kept above)
        ("outbox: usage", args(&["outbox", "drop"]), api.clone(), Given, 2),
        (
            "outbox: unknown id",
            args(&["outbox", "retry", "0123456789abcdef"]),
            api.clone(),
            Given,
            2,
        ),
        (
            "outbox: stale",
            args(&["outbox", "retry", "--all"]),
            api.clone(),
            Given,
            3,
        ),
        (
            "outbox: network",
            args(&["outbox", "retry", "--all"]),
            down.clone(),
            Given,
            4,
        ),
        (
            "outbox: token",
            args(&["outbox", "retry", "--all"]),
            api.clone(),
            Missing,
            4,
        ),
        // thread
        (
            "thread: usage",
            args(&["thread", "resolve", "--pr", "5"]),
            api.clone(),
            Given,
            2,
        ),
        ("thread: invalid", blank_reply, api.clone(), Given, 1),
        ("thread: closed", thread("resolve", "6"), api.clone(), Given, 3),
        ("thread: network", reply.clone(), down.clone(), Given, 4),
        ("thread: token", reply, api.clone(), Missing, 4),
        ("thread list: ok", args(&["thread", "list"]), api.clone(), Given, 0),
        (
            "thread drop: unknown id",
            args(&["thread", "drop", "0123456789abcdef"]),
            api.clone(),
            Given,
            2,
        ),
        (
            "thread retry: unknown id",
            args(&["thread", "retry", "0123456789abcdef"]),
            api.clone(),
            Given,
            2,
        ),
        // decisions
        (
            "decisions: usage",
            args(&["decisions", "--bogus"]),
            api.clone(),
            Given,
            2,
        ),
        (
            "decisions: invalid",
            args(&["decisions", invalid]),
            api.clone(),
            Given,
            1,
        ),
        ("decisions: network", with_pr(&["decisions"]), down.clone(), Given, 4),
        ("decisions: token", with_pr(&["decisions"]), api.clone(), Missing, 4),
        (
            "inbox: usage",
            args(&["inbox", "--repo", "not a repo", "--format", "json"]),
            api.clone(),
            Given,
            2,
        ),
        (
            "inbox: network",
            args(&["inbox", "--repo", "octo/app", "--format", "json"]),
            down.clone(),
            Given,
            4,
        ),
        (
            "inbox: token",
            args(&["inbox", "--repo", "octo/app", "--format", "json"]),
            api.clone(),
            Missing,
            4,
        ),
        (
            "completions: usage",
            args(&["completions", "nosuchshell"]),
            api,
            Given,
            2,
        ),
    ]
}

#[tokio::test(flavor = "multi_thread")]
async fn every_subcommand_exits_with_the_code_of_its_class() {
    let api = github().await;
    let home = tempfile::tempdir().expect("tempdir");
    let invalid = home.path().join("invalid.json");
    std::fs::write(&invalid, b"{\"schema_version\": \"reviewgate-agent-result/v1\"}").expect("write");
    let valid_pr = conformance("agent-result/valid-scope-pull-request.json");
    let table = cases(
        &api.uri(),
        invalid.to_str().expect("path"),
        valid_pr.to_str().expect("path"),
    );
    let home_path = home.path().to_owned();
    let results = tokio::task::spawn_blocking(move || {
        table
            .into_iter()
            .map(|(what, argv, base, token, want)| {
                let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
                (what, want, triage(&argv, &base, token, &home_path))
            })
            .collect::<Vec<_>>()
    })
    .await
    .expect("runs");
    let mut wrong = Vec::new();
    for (what, want, run) in &results {
        assert!(!run.stderr.contains(TOKEN), "{what}: the token was printed");
        eprintln!("{what}: exit {}: {}", run.code, run.stderr.lines().next().unwrap_or(""));
        // A refusal names what refused: the head, or the closed pull request.
        let named = ["head", "closed"].iter().any(|w| run.stderr.contains(w));
        if *want == 3 && !named {
            wrong.push(format!("{what}: refused for another reason: {}", run.stderr.trim()));
        }
        if run.code != *want {
            wrong.push(format!(
                "{what}: exit {} (want {want}): {}",
                run.code,
                run.stderr.trim()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
