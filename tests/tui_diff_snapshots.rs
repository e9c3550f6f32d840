//! The diff view (`D`): the pull request's hunk around each evidence line,
//! from a local repository built here (two commits on a branch off `main`)
//! and from a wiremock GitHub serving the pull request's files; and the
//! evidence pane's label when context came from GitHub.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::crossterm::event::KeyCode;
use serde_json::json;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;
use triage::checkout::{Checkout, ExcerptMatch, LocalEvidence, Revision};
use triage::github::pr_files::{ContentsError, file_at};
use triage::github::{ApiBase, Client, ClientConfig, RepoName, RetryPolicy, Token};
use triage::model::finding::{Evidence, Side};
use triage::tui::app::{App, Mode};
use triage::tui::diff::{DiffView, PullRef};
use triage::tui::effect::Effect;
use triage::tui::jobs;
use triage::tui::update::{Msg, update};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/screen.rs"]
mod screen;
use screen::{key, screen};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_DATE", "2026-01-02T03:04:05Z")
        .env("GIT_COMMITTER_DATE", "2026-01-02T03:04:05Z")
        .output()
        .unwrap_or_else(|e| panic!("git: {e}"));
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

const BEFORE: &str = "def retry(call):\n    attempts = 0\n    while True:\n        try:\n            return call()\n        except Timeout:\n            attempts += 1\n            sleep(1)\n\n\ndef other():\n    pass\n";
const AFTER: &str = "def retry(call, max_attempts=3):\n    attempts = 0\n    while True:\n        try:\n            return call()\n        except Timeout:\n            attempts += 1\n            if attempts > max_attempts:\n                raise\n\n\ndef other():\n    pass\n";

/// `main` holds the file before the change; `feature` changes it in one
/// commit and adds a note in a second (the reviewed head). Returns the head.
fn local_repo(dir: &Path) -> String {
    git(dir, &["init", "-q", "-b", "main"]);
    for (k, v) in [
        ("user.name", "Test"),
        ("user.email", "t@example.com"),
        ("commit.gpgsign", "false"),
    ] {
        git(dir, &["config", k, v]);
    }
    std::fs::create_dir_all(dir.join("app")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("app/retry.py"), BEFORE).unwrap_or_else(|e| panic!("{e}"));
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "base"]);
    git(dir, &["checkout", "-q", "-b", "feature"]);
    std::fs::write(dir.join("app/retry.py"), AFTER).unwrap_or_else(|e| panic!("{e}"));
    git(dir, &["commit", "-q", "-am", "bound the retries"]);
    std::fs::write(dir.join("NOTES"), "n\n").unwrap_or_else(|e| panic!("{e}"));
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "notes"]);
    git(dir, &["rev-parse", "HEAD"])
}

fn evidence() -> Vec<Evidence> {
    vec![
        Evidence {
            path: "app/retry.py".into(),
            side: Side::New,
            line: 8,
            excerpt: "if attempts > max_attempts:\n    raise".into(),
            reason: "the bound".into(),
        },
        Evidence {
            path: "app/retry.py".into(),
            side: Side::Old,
            line: 8,
            excerpt: "sleep(1)".into(),
            reason: "the old unbounded loop".into(),
        },
        Evidence {
            path: "app/retry.py".into(),
            side: Side::New,
            line: 12,
            excerpt: "def other():".into(),
            reason: "unchanged".into(),
        },
    ]
}

fn app_for(head: &str, size: (u16, u16)) -> App {
    let mut set = fixture::sample_set();
    set.reviewed_sha = Some(head.to_string());
    set.findings.truncate(1);
    set.findings[0].evidence = evidence();
    fixture::app(set, size)
}

/// Replaces the commit ids of the fixture (short forms) with placeholders.
fn redact(text: &str, ids: &[(&str, &str)]) -> String {
    ids.iter()
        .fold(text.to_string(), |t, (sha, name)| t.replace(&sha[..7], name))
}

#[test]
fn d_shows_the_local_change_with_the_evidence_lines_marked() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let head = local_repo(dir.path());
    let base = git(dir.path(), &["rev-parse", "main"]);
    let mut app = app_for(&head, (100, 40));
    let effects = key(&mut app, KeyCode::Char('D'));
    let Some(Effect::LoadDiff { generation, request }) =
        effects.into_iter().find(|e| matches!(e, Effect::LoadDiff { .. }))
    else {
        panic!("D asks for the change");
    };
    assert_eq!(app.ui.mode, Mode::Diff { scroll: 0 });
    assert!(matches!(app.diff, DiffView::Loading { .. }));
    assert_eq!(
        request.pull,
        Some(PullRef {
            repository: "acme/webhooks".into(),
            number: 42
        })
    );
    let loading = screen(&app);
    assert!(loading.contains("reading the change"), "{loading}");
    let checkout = Checkout::discover(Some(dir.path())).unwrap_or_else(|| panic!("checkout"));
    let (tx, rx) = std::sync::mpsc::channel();
    // The local repository answers; GitHub is never asked.
    let runtime = tokio::runtime::Runtime::new().unwrap_or_else(|e| panic!("{e}"));
    let no_github: jobs::worker::ConfigSource = Box::new(|| Err(triage::github::TokenError::Missing.into()));
    let means = jobs::diff::Means {
        checkout: Some(Arc::new(checkout)),
        highlighter: None,
        net: Arc::new(jobs::worker::Net::new(runtime.handle().clone(), no_github)),
    };
    jobs::diff::start(means, generation, request, tx);
    let msg = rx
        .recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|e| panic!("no answer: {e}"));
    assert!(matches!(msg, Msg::DiffLoaded { .. }), "{msg:?}");
    update(&mut app, msg);
    let screen = screen(&app);
    assert!(screen.contains("merge base"), "{screen}");
    assert!(screen.contains("▶"), "evidence lines are marked:\n{screen}");
    insta::assert_snapshot!(redact(&screen, &[(&head, "HEAD000"), (&base, "BASE000")]));
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(app.ui.mode, Mode::Diff { scroll: 1 });
    key(&mut app, KeyCode::PageDown);
    key(&mut app, KeyCode::Char('k'));
    assert!(matches!(app.ui.mode, Mode::Diff { scroll } if scroll > 1));
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.ui.mode, Mode::Normal);
    assert_eq!(app.diff, DiffView::Closed);
}

#[test]
fn a_late_answer_after_esc_is_dropped() {
    let mut app = app_for("0123456789abcdef0123456789abcdef01234567", (100, 30));
    let effects = key(&mut app, KeyCode::Char('D'));
    let generation = effects
        .iter()
        .find_map(|e| match e {
            Effect::LoadDiff { generation, .. } => Some(*generation),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no LoadDiff"));
    key(&mut app, KeyCode::Esc);
    update(
        &mut app,
        Msg::DiffLoaded {
            generation,
            report: Err(triage::tui::message::failure::DiffError::NoPull { local: None }),
        },
    );
    assert_eq!(app.diff, DiffView::Closed);
    assert_eq!(app.ui.mode, Mode::Normal);
}

fn client(base: &str) -> Client {
    let api = ApiBase::parse(base).unwrap_or_else(|e| panic!("{e}"));
    let mut config = ClientConfig::new(
        api,
        Token::new("ghp_TESTtokenNEVERprinted0123456789").unwrap_or_else(|e| panic!("{e}")),
    );
    config.timeout = Duration::from_secs(5);
    config.retry = RetryPolicy {
        max_attempts: 1,
        first_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(10),
    };
    Client::new(config).unwrap_or_else(|e| panic!("{e}"))
}

/// The same change as GitHub lists it: page 1 is full of other files, page
/// 2 holds the renamed file with a patch that carries hostile bytes.
async fn github() -> MockServer {
    let server = MockServer::start().await;
    let others: Vec<_> = (0..100)
        .map(|i| json!({"filename": format!("docs/page{i}.md"), "status": "modified", "patch": "@@ -1 +1 @@\n-a\n+b"}))
        .collect();
    let patch = "@@ -5,5 +5,6 @@ def retry(call):\n             return call()\n         except Timeout:\n             attempts += 1\n-            sleep(1)\n+            if attempts > max_attempts:\n+                raise \u{1b}[2J\u{202e}\n \n";
    Mock::given(method("GET"))
        .and(path("/repos/acme/webhooks/pulls/42/files"))
        .and(query_param("page", "1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!(others)))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/repos/acme/webhooks/pulls/42/files"))
        .and(query_param("page", "2"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([
            {"filename": "app/retry.py", "previous_filename": "app/retries.py", "status": "renamed", "patch": patch},
            {"filename": "logo.png", "status": "modified"}
        ])))
        .expect(1)
        .mount(&server)
        .await;
    server
}

#[tokio::test(flavor = "current_thread")]
async fn d_shows_github_patches_when_the_commits_are_not_local() {
    let server = github().await;
    let client = client(&server.uri());
    let report = jobs::diff::from_github(&client, "acme/webhooks", 42, &evidence()).await;
    let requests = server.received_requests().await.unwrap_or_default();
    let pages: Vec<String> = requests
        .iter()
        .map(|r| format!("{} {}", r.url.path(), r.url.query().unwrap_or("")))
        .collect();
    assert_eq!(
        pages,
        vec![
            "/repos/acme/webhooks/pulls/42/files per_page=100&page=1",
            "/repos/acme/webhooks/pulls/42/files per_page=100&page=2",
        ],
        "pages in order, and none once the evidence file was seen"
    );
    let mut app = app_for("0123456789abcdef0123456789abcdef01234567", (100, 30));
    let effects = key(&mut app, KeyCode::Char('D'));
    let generation = effects
        .iter()
        .find_map(|e| match e {
            Effect::LoadDiff { generation, .. } => Some(*generation),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no LoadDiff"));
    update(&mut app, Msg::DiffLoaded { generation, report });
    let screen = screen(&app);
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{202e}'), "{screen}");
    assert!(screen.contains("renamed from app/retries.py"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[tokio::test(flavor = "current_thread")]
async fn file_contents_at_the_reviewed_commit_are_read_bounded() {
    use base64::Engine;
    let server = MockServer::start().await;
    let text = "def retry(call, max_attempts=3):\n";
    let body = base64::engine::general_purpose::STANDARD.encode(text);
    let wrapped = format!("{}\n{}\n", &body[..20], &body[20..]);
    Mock::given(method("GET"))
        .and(path("/repos/acme/webhooks/contents/app/my%20retry.py"))
        .and(query_param("ref", "abc1234"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"type": "file", "encoding": "base64", "size": text.len(), "content": wrapped})),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/repos/acme/webhooks/contents/big.bin"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"type": "file", "encoding": "none", "size": 5_000_000, "content": ""})),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/repos/acme/webhooks/contents/app"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"type": "dir", "size": 0})))
        .mount(&server)
        .await;
    let client = client(&server.uri());
    let repo = RepoName::parse("acme/webhooks").unwrap_or_else(|e| panic!("{e}"));
    let bytes = file_at(&client, &repo, "app/my retry.py", "abc1234").await;
    assert_eq!(bytes.as_deref().ok(), Some(text.as_bytes()));
    let big = file_at(&client, &repo, "big.bin", "abc1234").await;
    assert!(
        matches!(big, Err(ContentsError::TooLarge { size: 5_000_000, .. })),
        "{big:?}"
    );
    let dir = file_at(&client, &repo, "app", "abc1234").await;
    assert!(matches!(dir, Err(ContentsError::NotAFile { .. })), "{dir:?}");
    let missing = file_at(&client, &repo, "nope.py", "abc1234").await;
    assert!(matches!(missing, Err(ContentsError::GitHub(_))), "{missing:?}");
}

#[test]
fn the_evidence_pane_says_where_the_context_came_from() {
    let sha = "0123456789abcdef0123456789abcdef01234567";
    let mut app = app_for(sha, (120, 36));
    app.evidence.checkout = true;
    app.evidence.dirty = true;
    update(&mut app, Msg::Resize(120, 36));
    let finding = app.selected().unwrap_or_else(|| panic!("a selection"));
    let local = |revision: Revision| LocalEvidence {
        revision,
        found: ExcerptMatch::AtLine(8),
        first_line: 7,
        lines: vec![
            "attempts += 1".into(),
            "if attempts > max_attempts:".into(),
            "    raise".into(),
        ],
        marked: 8..=9,
    };
    update(
        &mut app,
        Msg::EvidenceLoaded {
            finding,
            items: vec![
                Ok(local(Revision::GitHub(sha.to_string()))),
                Ok(local(Revision::Commit(sha.to_string()))),
                Ok(local(Revision::Reviewed(sha.to_string()))),
            ],
        },
    );
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char('z'));
    let screen = screen(&app);
    for label in [
        "from GitHub at 0123456",
        "from commit 0123456 (parent of the reviewed commit)",
        "from the reviewed commit 0123456",
    ] {
        assert!(screen.contains(label), "{label:?} missing in\n{screen}");
    }
    insta::assert_snapshot!(screen);
}
