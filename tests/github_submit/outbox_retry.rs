//! Failures of the comment POST: the draft stays in the outbox, and a retry
//! posts exactly one comment (or reuses the one that was created).

use super::fake::Fault;
use super::support::*;
use serde_json::json;
use std::time::Duration;
use triage::github::GhError;
use triage::github::decide::Step;
use triage::github::draft::Draft;
use triage::github::protocol::Outcome;
use triage::session::batch::{self, Kept};

#[tokio::test]
async fn server_error_on_the_comment_keeps_the_draft_then_a_retry_posts_once() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (server, fake) = fake().await;
    fake.fault("POST", "/issues/48/comments", Fault::Status(500));
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
            line("GET", ACCESS),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("GET", HEAD_STATUS_PAGE_1),
            line("POST", COMMENTS)
        ],
        "a failed POST is never re-sent automatically"
    );

    let before = sequence(&server).await.len();
    fake.add_comment(ACTOR, "unrelated");
    let second = keep_and_send(&client, &outbox).await;
    assert!(second.is_recorded(), "{second:?}");
    assert_eq!(
        sequence(&server).await.split_off(before),
        [
            line("GET", USER),
            line("GET", ACCESS),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("GET", HEAD_STATUS_PAGE_1),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("POST", STATUS),
            format!("GET /repos/{REPO}/issues/comments/9002"),
            line("GET", HEAD_STATUS_PAGE_1),
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
    let (server, fake) = fake().await;
    // A full first page of other comments, and an impostor's copy of the body.
    for _ in 0..99 {
        fake.add_comment("someone", "other");
    }
    fake.add_comment("impostor", &accepted_body());
    // The comment is created, but the answer comes too late.
    fake.fault(
        "POST",
        "/issues/48/comments",
        Fault::LateAnswer(Duration::from_millis(900)),
    );
    let client = impatient_client(&server.uri(), 300);

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
    assert_eq!(fake.comments().len(), 101);

    let before = sequence(&server).await.len();
    let second = keep_and_send(&client, &outbox).await;
    let Outcome::Recorded(receipt) = second else {
        panic!("{second:?}")
    };
    assert!(receipt.reused && !receipt.already_recorded);
    assert_eq!(receipt.comment_id, 9101);
    let seen = requests(&server).await.split_off(before);
    let lines: Vec<&str> = seen.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        lines,
        [
            line("GET", USER),
            line("GET", ACCESS),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            format!("GET {COMMENTS}?per_page=100&page=2"),
            line("GET", HEAD_STATUS_PAGE_1),
            format!("GET /repos/{REPO}/collaborators/impostor/permission"),
            line("GET", PULL),
            line("POST", STATUS),
            format!("GET /repos/{REPO}/issues/comments/9101"),
            line("GET", HEAD_STATUS_PAGE_1),
        ]
    );
    assert_eq!(body_json(&seen[8].1)["context"], json!("reviewgate/disposition/9101"));
    assert_eq!(fake.comments().len(), 101, "nothing was posted again");
    assert!(outbox.list().unwrap().entries.is_empty());
}

/// A server that answers each request (one per connection, `Connection:
/// close`) whose path has an answer in `answers` (once), closes the first
/// connection whose path has none without answering, and once every answer
/// is given stops listening, so the next request is refused. Returns its
/// base URL and the request lines it saw, in order of arrival.
fn closing_server(answers: Vec<(&'static str, String)>) -> (String, std::sync::mpsc::Receiver<String>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut answers = answers;
        let mut seen: Vec<String> = Vec::new();
        let mut dropped_one = false;
        while !answers.is_empty() || !dropped_one {
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
            let (verb, target) = (parts.next().unwrap(), parts.next().unwrap());
            seen.push(format!("{verb} {target}"));
            let path = target.split('?').next().unwrap_or(target);
            let Some(at) = answers.iter().position(|(route, _)| *route == path) else {
                dropped_one = true;
                continue;
            };
            let body = answers.remove(at).1;
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}",
                body.len(),
                body
            );
            reader.get_mut().write_all(response.as_bytes()).unwrap();
        }
        for request in seen {
            tx.send(request).unwrap();
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
        (USER, json!({"login": ACTOR}).to_string()),
        (ACCESS, repo_access("write").to_string()),
        (PULL, pull("open", REPO, SHA).to_string()),
        (HEAD_STATUS, json!({"statuses": []}).to_string()),
    ];
    let (base, seen) = closing_server(answers);
    let first = keep_and_send(&client(&base), &outbox).await;
    // The ledger cannot be read: nothing is posted.
    let Outcome::Failed {
        step: Step::FindExisting,
        error: GhError::Transport { .. },
        ..
    } = first
    else {
        panic!("{first:?}")
    };
    // Sent together: in any order.
    let mut lines: Vec<String> = seen.try_iter().collect();
    lines.sort();
    let mut expected = reads();
    expected.sort();
    assert_eq!(lines, expected);
    assert_eq!(outbox.list().unwrap().entries.len(), 1);

    // The working server stands for the same GitHub on another port: the
    // entry, bound to the closing one's address, is bound to it instead.
    let (server, _fake) = fake().await;
    let [mut entry] = outbox.list().unwrap().entries.try_into().expect("kept");
    entry.api = Some(client(&server.uri()).api_base().url());
    outbox.put(&entry).unwrap();
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
    let (server, fake) = fake().await;
    // The second comment POST fails (502 is never retried for a POST).
    fake.fault_after("POST", "/issues/48/comments", 1, Fault::Status(502));

    // Three findings (one decision each: a second decision for one finding
    // would need superseding).
    let drafts = ["first", "second", "third"].map(|evidence| Draft {
        evidence: evidence.into(),
        fingerprint: format!("defect:src.{evidence}.rs:x"),
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

#[tokio::test]
async fn a_batch_reads_the_actor_and_its_permission_once_and_the_head_before_every_post() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (server, _fake) = fake().await;
    let drafts = ["first", "second", "third"].map(|evidence| Draft {
        evidence: evidence.into(),
        fingerprint: format!("defect:src.{evidence}.rs:x"),
        ..draft()
    });
    let kept: Vec<Kept> = drafts
        .into_iter()
        .map(|d| batch::keep(&outbox, d, None).unwrap())
        .collect();
    let summary = batch::submit_many(&client(&server.uri()), &outbox, &kept, |_, _| {}).await;
    assert_eq!(summary.recorded, 3, "{summary:?}");
    let lines = sequence(&server).await;
    let count = |want: &str| lines.iter().filter(|l| *l == want).count();
    assert_eq!(count(&line("GET", USER)), 1, "{lines:?}");
    assert_eq!(count(&line("GET", ACCESS)), 1, "{lines:?}");
    assert_eq!(
        count(&line("GET", COMMENTS_PAGE_1)),
        1,
        "the ledger is read once: {lines:?}"
    );
    assert_eq!(
        count(&line("GET", PULL)),
        4,
        "once before the batch, and after each post: {lines:?}"
    );
    // Each post is preceded by a read of the head since the previous post.
    let posts: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i] == line("POST", COMMENTS))
        .collect();
    assert_eq!(posts.len(), 3);
    for pair in posts.windows(2) {
        assert!(
            lines[pair[0] + 1..pair[1]].contains(&line("GET", PULL)),
            "no head read between two posts: {lines:?}"
        );
        let reads_between = lines[pair[0]..pair[1]]
            .iter()
            .filter(|l| **l == line("GET", PULL))
            .count();
        assert_eq!(
            reads_between, 1,
            "the re-check after one post is the head the next post is judged by: {lines:?}"
        );
    }
}

#[tokio::test]
async fn a_second_decision_for_a_finding_sent_earlier_in_the_batch_sees_the_first() {
    use triage::github::decide::Rejection;
    use triage::model::finding::SubmittedDisposition;
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (server, fake) = fake().await;
    // Two different decisions for one finding, and one for another finding.
    let drafts = [
        draft(),
        Draft {
            status: SubmittedDisposition::Fixed,
            evidence: "Fixed on the reviewed head.".into(),
            ..draft()
        },
        Draft {
            fingerprint: "defect:src.other.rs:x".into(),
            ..draft()
        },
    ];
    let kept: Vec<Kept> = drafts
        .into_iter()
        .map(|d| batch::keep(&outbox, d, None).unwrap())
        .collect();
    let mut outcomes = Vec::new();
    let summary = batch::submit_many(&client(&server.uri()), &outbox, &kept, |entry, result| {
        let outcome = result.as_ref().map(|s| s.outcome.clone()).ok();
        outcomes.push((entry.draft.status, entry.draft.fingerprint.clone(), outcome));
    })
    .await;
    assert_eq!((summary.recorded, summary.rejected), (2, 1), "{outcomes:?}");
    let refused: Vec<_> = outcomes
        .iter()
        .filter(|(_, _, o)| matches!(o, Some(Outcome::Rejected { .. })))
        .collect();
    assert_eq!(refused.len(), 1, "{outcomes:?}");
    let (status, fingerprint, outcome) = refused[0];
    assert_eq!((status, fingerprint.as_str()), (&SubmittedDisposition::Fixed, FP));
    assert!(
        matches!(
            outcome,
            Some(Outcome::Rejected {
                reason: Rejection::AlreadyDecided { .. },
                ..
            })
        ),
        "the first decision of the batch is in the ledger the second reads: {outcome:?}"
    );
    assert_eq!(fake.comments().len(), 2, "no comment for the refused decision");
    let lines = sequence(&server).await;
    let ledger_reads = lines.iter().filter(|l| **l == line("GET", COMMENTS_PAGE_1)).count();
    assert_eq!(
        ledger_reads, 2,
        "once for the batch, once more for the finding sent before: {lines:?}"
    );
}

/// A recorded entry's removal is not flushed to disk; one a crash brings
/// back is sent again, found recorded on the pull request, and removed
/// without a second post.
#[tokio::test]
async fn a_recorded_entry_brought_back_by_a_crash_is_settled_without_posting() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (server, fake) = fake().await;
    let client = client(&server.uri());
    let kept = batch::keep(&outbox, draft(), None).unwrap();
    let first = batch::send_entry(&client, &outbox, &kept.entry, kept.options())
        .await
        .unwrap();
    assert!(first.outcome.is_recorded(), "{:?}", first.outcome);
    assert!(outbox.list().unwrap().entries.is_empty());

    outbox.put(&kept.entry).unwrap();
    let before = sequence(&server).await.len();
    let again = batch::send_entry(&client, &outbox, &kept.entry, kept.options())
        .await
        .unwrap();
    let Outcome::Recorded(receipt) = &again.outcome else {
        panic!("{:?}", again.outcome)
    };
    assert!(receipt.already_recorded, "{receipt:?}");
    let after = sequence(&server).await.split_off(before);
    assert!(after.iter().all(|l| l.starts_with("GET ")), "reads only: {after:?}");
    assert_eq!(fake.comments().len(), 1);
    assert!(outbox.list().unwrap().entries.is_empty(), "settled again");
}

/// A decision whose first send failed (a 500 on the comment), as kept, and
/// the fake GitHub it was sent to.
async fn kept_by_a_failed_send(outbox: &triage::outbox::Outbox) -> (wiremock::MockServer, triage::outbox::Entry) {
    let (server, github) = fake().await;
    github.fault("POST", "/issues/48/comments", Fault::Status(500));
    let first = keep_and_send(&client(&server.uri()), outbox).await;
    assert!(matches!(first, Outcome::Failed { .. }), "{first:?}");
    let [kept] = outbox.list().unwrap().entries.try_into().expect("kept");
    (server, kept)
}

/// A decision first sent to one GitHub API is bound to it on disk before
/// that request; a retry that talks to another API (another `--api-url`)
/// sends it nowhere there and leaves it kept as it was, and the first API
/// takes it again.
#[tokio::test]
async fn a_decision_kept_for_one_github_api_is_not_sent_to_another() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (server, kept) = kept_by_a_failed_send(&outbox).await;
    let here = client(&server.uri()).api_base().url();
    assert_eq!(
        kept.api.as_deref(),
        Some(here.as_str()),
        "bound before the first request"
    );

    let (other, _) = fake().await;
    let refused = batch::send_entry(
        &client(&other.uri()),
        &outbox,
        &kept,
        Kept::retry(kept.clone()).options(),
    )
    .await;
    let Err(e @ batch::SendError::OtherApi { .. }) = refused else {
        panic!("sent to another API: {refused:?}")
    };
    assert!(e.to_string().contains(&format!("--api-url {here}")), "{e}");
    assert!(sequence(&other).await.is_empty(), "nothing reached the other API");
    assert_eq!(outbox.list().unwrap().entries, vec![kept.clone()], "left as it was");

    let again = batch::send_entry(
        &client(&server.uri()),
        &outbox,
        &kept,
        Kept::retry(kept.clone()).options(),
    )
    .await
    .unwrap();
    assert!(again.outcome.is_recorded(), "{:?}", again.outcome);
}

/// The batch sender (`triage outbox retry`, the screen's submit) holds to
/// the same binding as a single send: a decision kept for one GitHub API is
/// reported `OtherApi`, nothing reaches the other API, and it stays kept as
/// it was.
#[tokio::test]
async fn a_batch_retry_does_not_send_a_decision_kept_for_another_api() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (_server, kept) = kept_by_a_failed_send(&outbox).await;
    assert!(kept.api.is_some(), "bound by its first send");

    let (other, _) = fake().await;
    let mut results = Vec::new();
    let summary = batch::submit_many(
        &client(&other.uri()),
        &outbox,
        &[Kept::retry(kept.clone())],
        |_, result| {
            results.push(matches!(result, Err(batch::SendError::OtherApi { .. })));
        },
    )
    .await;
    assert_eq!(results, [true], "reported as kept for another API");
    assert_eq!(summary.not_sent, 1, "{summary:?}");
    assert!(sequence(&other).await.is_empty(), "nothing reached the other API");
    assert_eq!(outbox.list().unwrap().entries, vec![kept], "left as it was");
}

/// A decision never sent, sent in a batch, is bound to the batch's API on
/// disk before its first request (so a later retry elsewhere refuses it).
#[tokio::test]
async fn a_batch_send_binds_an_unbound_decision_to_its_api() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (server, github) = fake().await;
    github.fault("POST", "/issues/48/comments", Fault::Status(500));
    let kept = batch::keep(&outbox, draft(), None).unwrap();
    assert_eq!(kept.entry.api, None, "kept unbound");
    let _ = batch::submit_many(&client(&server.uri()), &outbox, &[kept], |_, _| {}).await;
    let [after] = outbox.list().unwrap().entries.try_into().expect("kept");
    assert_eq!(
        after.api.as_deref(),
        Some(client(&server.uri()).api_base().url().as_str()),
        "bound before the first request"
    );
}
