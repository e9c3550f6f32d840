//! The screen's sending job against a fake GitHub on loopback: decisions are
//! kept before any request, sent one after another, each outcome reported,
//! and a failure keeps its decision in the outbox while the others record.

use super::*;
use crate::github::draft::Draft;
use crate::github::{ApiBase, ClientConfig, RetryPolicy, Token};
use crate::model::finding::SubmittedDisposition;
use fake::{Fake, Fault};
use std::sync::Mutex;
use std::time::Duration;

#[path = "../../../../tests/github_submit/fake.rs"]
#[allow(dead_code)]
mod fake;

const REPO: &str = "acme/webhooks";
const SHA: &str = "abc123";
const ACTOR: &str = "octo-reviewer";

fn draft(fp: &str, status: SubmittedDisposition) -> Draft {
    Draft {
        repository: REPO.into(),
        pull_request: 42,
        reviewed_sha: SHA.into(),
        fingerprint: fp.into(),
        status,
        evidence: "Verified on the reviewed head.".into(),
        actor: None,
    }
}

fn items() -> Vec<SubmitItem> {
    vec![
        SubmitItem {
            finding: 4,
            draft: draft("defect:a.rs:one", SubmittedDisposition::Accepted),
            replaces: None,
            supersede: false,
        },
        SubmitItem {
            finding: 7,
            draft: draft("defect:b.rs:two", SubmittedDisposition::Fixed),
            replaces: None,
            supersede: false,
        },
    ]
}

fn config(base: &str) -> ClientConfig {
    let api = ApiBase::parse(base).unwrap_or_else(|e| panic!("{e}"));
    let mut config = ClientConfig::new(api, Token::new("ghp_test").unwrap_or_else(|e| panic!("{e}")));
    config.timeout = Duration::from_secs(5);
    config.retry = RetryPolicy {
        max_attempts: 2,
        first_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(10),
    };
    config
}

/// Runs the job on a thread of its own (it makes its own runtime) and
/// returns every reported outcome in order.
fn run_job(outbox: Outbox, connect: Result<ClientConfig, ClientError>) -> Vec<(usize, SubmitOutcome)> {
    run_items(outbox, connect, items())
}

/// [`run_job`] with these items.
fn run_items(
    outbox: Outbox,
    connect: Result<ClientConfig, ClientError>,
    items: Vec<SubmitItem>,
) -> Vec<(usize, SubmitOutcome)> {
    let seen = Mutex::new(Vec::new());
    let report = |f: usize, o: SubmitOutcome| seen.lock().unwrap_or_else(|e| e.into_inner()).push((f, o));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let connect = || {
        let _inside = runtime.enter();
        crate::github::Client::new(connect?).map_err(ClientError::Build)
    };
    // The screen's two steps: kept on the file lane, then sent in a job.
    let kept = keep_all(&outbox, Some("review.json".into()), items, &report);
    send(&outbox, (connect, |f| runtime.block_on(f)), kept, &report);
    seen.into_inner().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_keeps_first_records_each_and_a_failure_stays_in_the_outbox() {
    let (server, fake) = Fake::start_for(REPO, 42, SHA, ACTOR).await;
    // The second comment POST fails.
    fake.fault_after("POST", "/issues/42/comments", 1, Fault::Status(502));

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let outbox = Outbox::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let check = Outbox::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let base = server.uri();
    let seen =
        tokio::task::spawn_blocking(move || std::thread::spawn(move || run_job(outbox, Ok(config(&base)))).join())
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|_| panic!("the job panicked"));

    assert_eq!(seen.len(), 2, "{seen:?}");
    let (first, second) = (&seen[0], &seen[1]);
    let SubmitOutcome::Recorded(receipt) = &first.1 else {
        panic!("{first:?}")
    };
    assert_eq!(first.0, 4);
    assert_eq!(receipt.shown_as, Some("open"), "accepted stays still_open");
    assert!(
        receipt
            .link
            .as_deref()
            .is_some_and(|l| l.ends_with("/acme/webhooks/pull/42#issuecomment-9001"))
    );
    let SubmitOutcome::Failed { reason } = &second.1 else {
        panic!("{second:?}")
    };
    let reason = reason.to_string();
    assert_eq!(second.0, 7);
    let left = check.list().unwrap_or_else(|e| panic!("{e}")).entries;
    assert_eq!(left.len(), 1, "the recorded one left the outbox, the failed one stayed");
    assert_eq!(left[0].draft.fingerprint, "defect:b.rs:two");
    assert_eq!(left[0].attempts, 1);
    assert!(
        reason.contains(&left[0].id) && reason.contains("kept in the outbox"),
        "{reason}"
    );
}

#[test]
fn without_a_token_every_decision_is_kept_and_the_screen_says_how_to_send_it() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let outbox = Outbox::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let check = Outbox::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let no_token = Err(ClientError::Setup(crate::github::token::TokenError::Missing.into()));
    let seen = run_job(outbox, no_token);
    assert_eq!(seen.len(), 2);
    let kept = check.list().unwrap_or_else(|e| panic!("{e}")).entries;
    assert_eq!(kept.len(), 2, "both decisions are on disk although nothing was sent");
    for (_, outcome) in &seen {
        let SubmitOutcome::Failed { reason } = outcome else {
            panic!("{outcome:?}")
        };
        let reason = reason.to_string();
        assert!(reason.contains("set GH_TOKEN, then press r"), "{reason}");
        assert!(kept.iter().any(|e| reason.contains(&e.id)), "{reason}");
    }
}

#[test]
fn a_rebound_decision_replaces_the_stale_entry() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let outbox = Outbox::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let mut old = draft("defect:a.rs:one", SubmittedDisposition::Fixed);
    old.reviewed_sha = "0ld".into();
    let stale = batch::keep(&outbox, old, None).unwrap_or_else(|e| panic!("{e}"));
    let item = SubmitItem {
        finding: 0,
        draft: draft("defect:a.rs:one", SubmittedDisposition::Fixed),
        replaces: Some(stale.entry.id.clone()),
        supersede: false,
    };
    let kept = keep_all(&outbox, None, vec![item], &|_, o| panic!("{o:?}"));
    assert_eq!(kept.len(), 1);
    let ids: Vec<String> = outbox
        .list()
        .unwrap_or_else(|e| panic!("{e}"))
        .entries
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(
        ids,
        vec![kept[0].1.entry.id.clone()],
        "only the re-bound decision is left"
    );
}

/// Runs the screen's job from a blocking context (it makes its own runtime).
async fn screen_sends(dir: &std::path::Path, base: &str, items: Vec<SubmitItem>) -> Vec<(usize, SubmitOutcome)> {
    let outbox = Outbox::open(dir).unwrap_or_else(|e| panic!("{e}"));
    let base = base.to_owned();
    tokio::task::spawn_blocking(move || run_items(outbox, Ok(config(&base)), items))
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_screen_and_a_headless_submit_of_one_decision_leave_one_comment() {
    let (server, fake) = Fake::start_for(REPO, 42, SHA, ACTOR).await;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let headless = Outbox::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let one = || {
        vec![SubmitItem {
            finding: 4,
            draft: draft("defect:a.rs:one", SubmittedDisposition::Accepted),
            replaces: None,
            supersede: false,
        }]
    };
    // The headless submit holds the entry while the screen sends the same decision.
    let kept = batch::keep(&headless, one().remove(0).draft, None).unwrap_or_else(|e| panic!("{e}"));
    let claim = headless.claim(&kept.entry.id).unwrap_or_else(|e| panic!("{e}"));
    let seen = screen_sends(dir.path(), &server.uri(), one()).await;
    let SubmitOutcome::Failed { reason } = &seen[0].1 else {
        panic!("{seen:?}")
    };
    let reason = reason.to_string();
    assert!(
        reason.contains("another triage process") && reason.contains("that process settles it"),
        "{reason}"
    );
    assert!(
        !reason.contains("kept in the outbox as"),
        "the screen does not hold the entry: {reason}"
    );
    drop(claim);
    let client = crate::github::Client::new(config(&server.uri())).unwrap_or_else(|e| panic!("{e}"));
    let sent = batch::send_entry(&client, &headless, &kept.entry, kept.options())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(sent.outcome.is_recorded(), "{:?}", sent.outcome);

    // The screen's r: the same decision again goes through the ledger.
    let again = screen_sends(dir.path(), &server.uri(), one()).await;
    let SubmitOutcome::Recorded(receipt) = &again[0].1 else {
        panic!("{again:?}")
    };
    assert!(receipt.summary.contains("already recorded"), "{}", receipt.summary);
    assert_eq!(fake.comments().len(), 1, "exactly one comment");
    let posts = server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.method.as_str() == "POST")
        .count();
    assert_eq!(posts, 2, "one comment and its status");
    assert!(headless.list().unwrap_or_else(|e| panic!("{e}")).entries.is_empty());
}
