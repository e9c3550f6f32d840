//! Quitting the screen while a confirmed decision or thread action still
//! waits for a worker slot (every slot busy with slow reads): each is kept
//! in the outbox before its send is queued, so the quit loses neither, as
//! the quit question says ("they stay in the outbox and are offered next
//! time"). A binary of its own: it sets the state directory for the process.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::sync::mpsc::channel;
use std::time::Duration;
use triage::github::draft::Draft;
use triage::github::{ApiBase, ClientConfig, Token};
use triage::model::finding::SubmittedDisposition;
use triage::outbox::Outbox;
use triage::tui::effect::Context;
use triage::tui::jobs::worker::{PARALLEL, Worker};
use triage::tui::message::SubmitItem;

#[test]
fn a_decision_and_a_thread_action_confirmed_just_before_quitting_are_kept() {
    let state = tempfile::tempdir().unwrap();
    // SAFETY: this test binary runs this one test only.
    unsafe { std::env::set_var("TRIAGE_STATE_DIR", state.path()) };
    let (tx, _rx) = channel();
    let config = || {
        let base = ApiBase::parse("http://127.0.0.1:9").map_err(triage::github::SetupError::ApiBase)?;
        Ok(ClientConfig::new(base, Token::new("t0ken")?))
    };
    let worker = Worker::new(tx, Box::new(config)).unwrap();
    // Slow reads in flight (ledger, refresh, diff...): every slot is busy.
    for _ in 0..PARALLEL {
        worker.job("a slow read", |_| {
            std::thread::sleep(Duration::from_millis(300));
            None
        });
    }
    let draft = Draft {
        repository: "o/r".into(),
        pull_request: 3,
        reviewed_sha: "abc".into(),
        fingerprint: "defect:a:b".into(),
        status: SubmittedDisposition::Fixed,
        evidence: "typed just now".into(),
        actor: None,
    };
    let item = SubmitItem {
        finding: 0,
        draft,
        replaces: None,
        supersede: false,
    };
    let ctx = Context {
        pr: Default::default(),
        repo_root: None,
        source: None,
    };
    triage::tui::jobs::github::submit(&ctx, 1, vec![item], Vec::new(), &worker);
    // The user quits (q, y) or SIGHUP arrives: the screen finishes the file
    // lane and drops the runner, and with it the worker.
    // A thread resolve confirmed (y) at the same moment.
    let resolve = triage::github::thread_action::ThreadRequest {
        repository: "o/r".into(),
        pull_request: 3,
        fingerprint: "defect:a:b".into(),
        expected_head: Some("abc".into()),
        verb: triage::github::thread_action::ThreadVerb::Resolve,
    };
    triage::tui::jobs::thread::start(2, resolve, None, &worker);
    let mut worker = worker;
    worker.finish();
    drop(worker);
    let outbox = Outbox::open(state.path().join("outbox")).unwrap();
    let kept = outbox.list().unwrap().entries;
    let threads = triage::outbox::thread_actions::ThreadStore::open(state.path().join("outbox").join("threads"))
        .unwrap()
        .list()
        .unwrap()
        .0;
    assert_eq!(
        (kept.len(), threads.len()),
        (1, 1),
        "the confirmed decision and the confirmed resolve are neither kept nor sent: {kept:?} {threads:?}"
    );
}
