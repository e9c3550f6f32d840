//! Lost answers, late deletes and two senders of one decision: the decision
//! ends recorded on GitHub or kept in the outbox, never neither, and never
//! twice.

use super::fake::Fault;
use super::support::*;
use serde_json::json;
use std::time::Duration;
use triage::github::decide::{Rejection, Step};
use triage::github::protocol::Outcome;
use triage::outbox::OutboxError;
use triage::session::batch::{self, SendError};
use wiremock::{MockServer, ResponseTemplate};

const STATUSES_ROUTE: &str = "/statuses/abc123";
const COMMENT_9001: &str = "/issues/comments/9001";

/// The first attempt: the status answer is lost (the status is set), and
/// every clean-up DELETE is still in flight when the client gives up.
async fn first_attempt_loses_status_and_delete(
    fake: &super::fake::Fake,
    client: &triage::github::Client,
    outbox: &triage::outbox::Outbox,
) {
    fake.fault("POST", STATUSES_ROUTE, Fault::LateAnswer(Duration::from_millis(900)));
    for _ in 0..2 {
        fake.fault("DELETE", COMMENT_9001, Fault::Delayed(Duration::from_millis(900)));
    }
    let first = keep_and_send(client, outbox).await;
    let Outcome::Failed {
        step: Step::Attestation,
        comment_left: Some(9001),
        ..
    } = first
    else {
        panic!("{first:?}")
    };
    let kept = outbox.list().unwrap().entries;
    assert_eq!(kept.len(), 1);
    assert_eq!(
        kept[0].pending_deletes,
        [9001],
        "the delete was written down before it was sent"
    );
}

#[tokio::test]
async fn late_delete_race_then_a_retry_deletes_first_and_posts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (server, fake) = fake().await;
    let client = impatient_client(&server.uri(), 300);
    first_attempt_loses_status_and_delete(&fake, &client, &outbox).await;

    let before = sequence(&server).await.len();
    let second = keep_and_send(&client, &outbox).await;
    let Outcome::Recorded(receipt) = &second else {
        panic!("{second:?}")
    };
    assert_eq!(receipt.comment_id, 9002, "the comment being deleted is never reused");
    assert!(!receipt.reused && !receipt.already_recorded);
    let seen = sequence(&server).await.split_off(before);
    assert_eq!(
        seen[0],
        format!("DELETE /repos/{REPO}/issues/comments/9001"),
        "{seen:?}"
    );
    assert_eq!(
        seen.iter()
            .filter(|l| l.starts_with("POST") && l.ends_with("/comments"))
            .count(),
        1
    );
    assert!(
        !seen
            .iter()
            .any(|l| l.starts_with("GET") && l.contains("/issues/comments/9001")),
        "{seen:?}"
    );
    // The first attempt's DELETEs land now: they change nothing.
    fake.land_delayed();
    assert_eq!(held_on_github(&fake), Some(9002));
    assert!(outbox.list().unwrap().entries.is_empty());
}

#[tokio::test]
async fn late_delete_race_whose_retry_cannot_delete_either_keeps_the_decision() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (server, fake) = fake().await;
    let client = impatient_client(&server.uri(), 300);
    first_attempt_loses_status_and_delete(&fake, &client, &outbox).await;
    for _ in 0..2 {
        fake.fault("DELETE", COMMENT_9001, Fault::Delayed(Duration::from_millis(900)));
    }
    let before = sequence(&server).await.len();
    let second = keep_and_send(&client, &outbox).await;
    let Outcome::Failed {
        step: Step::CleanUp,
        comment_left: Some(9001),
        ..
    } = second
    else {
        panic!("{second:?}")
    };
    let seen = sequence(&server).await.split_off(before);
    assert!(
        seen.iter().all(|l| l.starts_with("DELETE")),
        "nothing but the delete: {seen:?}"
    );
    fake.land_delayed();
    assert_eq!(held_on_github(&fake), None);
    let kept = outbox.list().unwrap().entries;
    assert_eq!(kept.len(), 1, "not on GitHub, so still in the outbox");
    assert_eq!(kept[0].pending_deletes, [9001]);

    // Once the network is back the retry settles it: 404 counts as deleted.
    let third = keep_and_send(&client, &outbox).await;
    assert!(third.is_recorded(), "{third:?}");
    assert_eq!(held_on_github(&fake), Some(9002));
    assert!(outbox.list().unwrap().entries.is_empty());
}

#[tokio::test]
async fn a_rejection_whose_delete_failed_keeps_and_reports_the_comment_then_retry_removes_it() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    mount_no_decisions(&server).await;
    on(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "POST", STATUS, status_created("some-app[bot]")).await;
    on(&server, "DELETE", DELETE_1, ResponseTemplate::new(500)).await;
    let client = client(&server.uri());

    let first = keep_and_send(&client, &outbox).await;
    let Outcome::Rejected {
        reason: Rejection::CreatorMismatch { .. },
        comment_removed: false,
        comment_left: Some(1),
    } = &first
    else {
        panic!("{first:?}")
    };
    let summary = first.summary();
    assert!(
        summary.contains("comment 1 could not be removed") && summary.contains("outbox retry"),
        "{summary}"
    );
    let kept = outbox.list().unwrap().entries;
    assert_eq!(kept[0].pending_deletes, [1]);
    let last = kept[0].last_outcome.as_ref().unwrap();
    assert_eq!(last.comment_id, Some(1), "the entry names the comment left behind");

    server.reset().await;
    on(&server, "DELETE", DELETE_1, ResponseTemplate::new(204)).await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, "moved0"))).await;
    let retry = keep_and_send(&client, &outbox).await;
    assert!(
        matches!(
            retry,
            Outcome::Rejected {
                reason: Rejection::StaleHead { .. },
                comment_left: None,
                ..
            }
        ),
        "{retry:?}"
    );
    let seen = sequence(&server).await;
    assert_eq!(
        seen[0],
        line("DELETE", DELETE_1),
        "the retry removes the comment first: {seen:?}"
    );
    assert!(outbox.list().unwrap().entries[0].pending_deletes.is_empty());
}

#[tokio::test]
async fn the_loser_of_two_senders_is_told_who_holds_the_entry_and_sends_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (server, _fake) = fake().await;
    let kept = batch::keep(&outbox, draft(), None).unwrap();
    let held = outbox.claim(&kept.entry.id).unwrap();
    let lost = batch::send_entry(&client(&server.uri()), &outbox, &kept.entry, kept.options()).await;
    let Err(SendError::Outbox(e @ OutboxError::Busy { .. })) = &lost else {
        panic!("{lost:?}")
    };
    assert!(e.to_string().contains("another triage process"), "{e}");
    assert!(sequence(&server).await.is_empty());
    drop(held);

    // The winner recorded it and removed the entry before the loser claimed it.
    let winner = batch::send_entry(&client(&server.uri()), &outbox, &kept.entry, kept.options()).await;
    assert!(winner.unwrap().outcome.is_recorded());
    let late = batch::send_entry(&client(&server.uri()), &outbox, &kept.entry, kept.options()).await;
    assert!(matches!(late, Err(SendError::Gone { .. })), "{late:?}");
    assert!(
        late.unwrap_err()
            .to_string()
            .contains("settled by another triage process")
    );
}

#[tokio::test]
async fn two_processes_sending_one_decision_leave_exactly_one_comment() {
    let dir = tempfile::tempdir().unwrap();
    let (server, fake) = fake().await;
    // Each process has its own outbox handle on the same directory.
    let (a, b) = (outbox_in(dir.path()), outbox_in(dir.path()));
    let first = keep_and_send(&client(&server.uri()), &a).await;
    assert!(first.is_recorded(), "{first:?}");
    let second = keep_and_send(&client(&server.uri()), &b).await;
    let Outcome::Recorded(receipt) = &second else {
        panic!("{second:?}")
    };
    assert!(receipt.already_recorded && receipt.comment_id == 9001, "{receipt:?}");
    assert_eq!(fake.comments().len(), 1);
    assert!(second.summary().starts_with("already recorded (comment 9001)"));
    let posts = sequence(&server).await.iter().filter(|l| l.starts_with("POST")).count();
    assert_eq!(posts, 2, "one comment and one status, from the first process only");
    let _ = json!(null);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_losing_command_says_another_process_holds_the_entry() {
    let home = tempfile::tempdir().unwrap();
    let (server, _fake) = fake().await;
    let outbox = triage::outbox::Outbox::open(home.path().join("state/outbox")).unwrap();
    let kept = batch::keep(&outbox, draft(), None).unwrap();
    let _held = outbox.claim(&kept.entry.id).unwrap();
    let run = super::cli::triage(super::cli::result_args(EVIDENCE), &server.uri(), home.path()).await;
    assert_eq!(run.code, 4, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("another triage process"), "{}", run.stdout);
    assert!(run.stdout.contains("that process holds outbox entry"), "{}", run.stdout);
    assert!(!run.stdout.contains("stays in the outbox as"), "{}", run.stdout);
    assert!(sequence(&server).await.is_empty(), "nothing was sent");
}

/// `outbox retry --all` exits as `submit` does for an entry another process
/// holds: 4 (a failure to send), with the entry reported busy.
#[tokio::test(flavor = "multi_thread")]
async fn a_retry_of_a_held_entry_exits_as_submit_does() {
    let home = tempfile::tempdir().unwrap();
    let (server, _fake) = fake().await;
    let outbox = triage::outbox::Outbox::open(home.path().join("state/outbox")).unwrap();
    let kept = batch::keep(&outbox, draft(), None).unwrap();
    let _held = outbox.claim(&kept.entry.id).unwrap();
    let args = ["outbox", "retry", "--all", "--format", "json"]
        .map(String::from)
        .to_vec();
    let run = super::cli::triage(args, &server.uri(), home.path()).await;
    assert_eq!(run.code, 4, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(r#""outcome":"busy""#), "{}", run.stdout);
    assert!(sequence(&server).await.is_empty(), "nothing was sent");
}

/// `triage outbox drop` (or the screen's drop) while another process is
/// sending the entry is refused, and nothing is removed: the sender goes on,
/// records the decision and settles the entry as it always does. (Before,
/// the drop said "dropped" while the sender posted the decision anyway.)
#[tokio::test]
async fn a_decision_being_sent_is_not_dropped_and_its_sender_records_it() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = outbox_in(dir.path());
    let (server, fake) = fake().await;
    // The comment lands at once; its answer comes late, so the sender holds
    // the claim a while longer.
    fake.fault(
        "POST",
        "/issues/48/comments",
        Fault::LateAnswer(Duration::from_millis(1500)),
    );
    let client = client(&server.uri());
    let kept = batch::keep(&outbox, draft(), None).unwrap();
    let id = kept.entry.id.clone();
    let (sent, dropped) = tokio::join!(
        batch::send_entry(&client, &outbox, &kept.entry, kept.options()),
        async {
            while fake.0.lock().unwrap().comments.is_empty() {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            // Another process: `triage outbox drop ID`, while the comment's
            // answer is on its way.
            let other = outbox.clone();
            let id = id.clone();
            tokio::task::spawn_blocking(move || (other.remove(&id), other.get(&id)))
                .await
                .unwrap()
        }
    );
    let (dropped, still_kept) = dropped;
    let Err(e @ OutboxError::Busy { .. }) = &dropped else {
        panic!("dropped while being sent: {dropped:?}")
    };
    assert!(e.to_string().contains("try again when it finishes"), "{e}");
    assert!(still_kept.unwrap().is_some(), "nothing was removed");
    let sent = sent.unwrap();
    assert!(sent.outcome.is_recorded(), "{:?}", sent.outcome);
    assert!(sent.settle_error.is_none(), "{:?}", sent.settle_error);
    assert!(held_on_github(&fake).is_some());
    assert!(outbox.list().unwrap().entries.is_empty(), "settled by its sender");
    assert!(!outbox.remove(&id).unwrap(), "nothing left to drop");
}
