//! The screen's background work as a session sees it: one tokio runtime and
//! one GitHub client however many jobs run (the process-wide counters of
//! `tui::jobs::worker`), and a burst of 64 `j` presses that starts one
//! checkout read, not 64.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::process::Command;
use std::sync::mpsc::channel;
use triage::checkout::Checkout;
use triage::github::{ApiBase, ClientConfig, Token};
use triage::tui::effect::Effect;
use triage::tui::jobs::evidence::{EvidenceLane, Parts, Request};
use triage::tui::jobs::worker::{self, Built, Worker};
use triage::tui::update::{Msg, update};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[path = "support/fixture.rs"]
mod fixture;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_builds_one_runtime_and_one_client_for_all_its_jobs() {
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/user"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({"login": "octo-reviewer"})))
        .expect(4)
        .mount(&api)
        .await;
    let base = api.uri();
    let answers = tokio::task::spawn_blocking(move || {
        assert_eq!(
            worker::built(),
            Built {
                runtimes: 0,
                clients: 0
            },
            "nothing before the session"
        );
        let (tx, rx) = channel();
        let config = move || {
            let base = ApiBase::parse(&base).map_err(triage::github::SetupError::ApiBase)?;
            Ok(ClientConfig::new(base, Token::new("t0ken")?))
        };
        let worker = Worker::new(tx, Box::new(config)).expect("worker");
        assert_eq!(worker::built().clients, 0, "the client waits for the first GitHub job");
        for _ in 0..4 {
            triage::tui::jobs::github::lookup_actor(&worker);
        }
        let answers: Vec<Msg> = rx.iter().take(4).collect();
        drop(worker);
        answers
    })
    .await
    .expect("session");
    for answer in &answers {
        assert_eq!(answer, &Msg::Actor(Ok("octo-reviewer".into())));
    }
    assert_eq!(
        worker::built(),
        Built {
            runtimes: 1,
            clients: 1
        }
    );
}

fn git(dir: &std::path::Path, args: &[&str]) {
    let ok = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .status()
        .expect("git runs");
    assert!(ok.success(), "git {args:?}");
}

#[test]
fn sixty_four_rapid_j_presses_start_one_checkout_read() {
    let repo = tempfile::tempdir().expect("tempdir");
    git(repo.path(), &["init", "-q", "-b", "main"]);
    std::fs::write(repo.path().join("a.rs"), "fn a() {}\n").expect("write");
    let checkout = std::sync::Arc::new(Checkout::discover(Some(repo.path())).expect("checkout"));

    let mut app = fixture::app(fixture::scaled(200), (120, 40));
    app.evidence.checkout = true;
    let mut asked: Vec<Request> = Vec::new();
    let mut collect = |effects: Vec<Effect>| {
        for e in effects {
            if let Effect::LoadEvidence {
                finding,
                evidence,
                reviewed_sha,
                pull,
            } = e
            {
                asked.push(Request {
                    finding,
                    evidence,
                    reviewed_sha,
                    pull,
                });
            }
        }
    };
    collect(update(&mut app, Msg::Resize(120, 40)));
    for _ in 0..64 {
        collect(update(
            &mut app,
            Msg::Key(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE)),
        ));
    }
    let last = app.selected().expect("a selection");
    assert!(asked.len() > 32, "update asks for each new selection: {}", asked.len());
    assert_eq!(asked.last().map(|r| r.finding), Some(last));

    // The whole burst arrives before the lane's thread takes the first request.
    let (tx, rx) = channel();
    let lane = EvidenceLane::new();
    let bursts = asked.len();
    for request in asked {
        lane.submit(request, &tx);
    }
    // The checkout has every file: GitHub is never asked.
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let no_github: worker::ConfigSource = Box::new(|| Err(triage::github::TokenError::Missing.into()));
    lane.start(Parts {
        checkout: Some(checkout),
        net: std::sync::Arc::new(worker::Net::new(runtime.handle().clone(), no_github)),
        highlight: None,
        tx,
    })
    .expect("lane");
    let mut superseded = 0;
    let loaded = loop {
        match rx.recv().expect("an answer") {
            Msg::EvidenceSuperseded { finding } => {
                superseded += 1;
                update(&mut app, Msg::EvidenceSuperseded { finding });
            }
            Msg::EvidenceLoaded { finding, .. } => break finding,
            other => panic!("{other:?}"),
        }
    };
    lane.close();
    assert_eq!(loaded, last, "the latest selection is the one read");
    assert_eq!(lane.started(), 1, "one read started for {bursts} requests");
    assert_eq!(superseded, bursts - 1);
    assert_eq!(
        app.evidence.requested.iter().copied().collect::<Vec<_>>(),
        [last],
        "a dropped finding is asked for again when selected again"
    );
}
