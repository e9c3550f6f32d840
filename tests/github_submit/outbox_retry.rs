//! Failures of the comment POST: the draft stays in the outbox, and a retry
//! posts exactly one comment (or reuses the one that was created).

use super::support::*;
use serde_json::{Value, json};
use std::time::Duration;
use triage::github::GhError;
use triage::github::batch::{self, Kept};
use triage::github::decide::Step;
use triage::github::draft::Draft;
use triage::github::protocol::Outcome;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

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
