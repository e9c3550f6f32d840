//! The worker: one client for every job of a session, a panic reported as a
//! message with the worker still working, writes in the order asked, and a
//! bounded queue.

use super::*;
use crate::github::{ApiBase, Token};
use std::sync::mpsc::{Receiver, channel};

fn config_counting(calls: Arc<AtomicUsize>) -> ConfigSource {
    Box::new(move || {
        calls.fetch_add(1, Ordering::SeqCst);
        let base = ApiBase::parse("http://127.0.0.1:9").map_err(crate::github::SetupError::ApiBase)?;
        Ok(ClientConfig::new(base, Token::new("t0ken-for-tests")?))
    })
}

fn notices(rx: &Receiver<Msg>, n: usize) -> Vec<Msg> {
    rx.iter().take(n).collect()
}

/// Reads `n` notices and checks each job said its client was ready.
fn every_client_was_ready(rx: &std::sync::mpsc::Receiver<Msg>, n: usize) {
    let seen = notices(rx, n);
    assert!(
        seen.iter().all(|m| matches!(m, Msg::Progress(t) if t == "client true")),
        "{seen:?}"
    );
}

#[test]
fn every_job_of_a_session_gets_the_same_client_built_once() {
    let (tx, rx) = channel();
    let calls = Arc::new(AtomicUsize::new(0));
    let worker = Worker::new(tx, config_counting(Arc::clone(&calls))).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..5 {
        worker.job("a client job", |net| {
            let ok = net.client().is_ok();
            Some(Msg::Progress(format!("client {ok}")))
        });
    }
    every_client_was_ready(&rx, 5);
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "configured and built once for five jobs"
    );
}

#[test]
fn a_panicking_job_is_a_message_and_the_worker_goes_on() {
    let (tx, rx) = channel();
    let worker =
        Worker::new(tx, Box::new(|| Err(crate::github::TokenError::Missing.into()))).unwrap_or_else(|e| panic!("{e}"));
    worker.job("a job that breaks", |_| panic!("broken \u{1b}[2J job"));
    let first = notices(&rx, 1);
    match first.as_slice() {
        [Msg::JobFailed { job, failure }] => {
            assert_eq!(*job, "a job that breaks");
            assert_eq!(*failure, JobFailure::Panicked("broken ␛[2J job".into()), "sanitised");
        }
        other => panic!("{other:?}"),
    }
    worker.job("a job after it", |_| Some(Msg::Tick));
    assert_eq!(notices(&rx, 1), [Msg::Tick]);
}

#[test]
fn writes_run_in_the_order_asked_and_finish_waits_for_them() {
    let (tx, rx) = channel();
    let mut worker =
        Worker::new(tx, Box::new(|| Err(crate::github::TokenError::Missing.into()))).unwrap_or_else(|e| panic!("{e}"));
    let log = Arc::new(Mutex::new(Vec::new()));
    for i in 0..50 {
        let log = Arc::clone(&log);
        worker.write(move || {
            log.lock().unwrap_or_else(PoisonError::into_inner).push(i);
            None
        });
    }
    worker.write(|| panic!("a write that breaks"));
    worker.finish();
    let done = log.lock().unwrap_or_else(PoisonError::into_inner).clone();
    assert_eq!(done, (0..50).collect::<Vec<_>>());
    assert!(matches!(
        rx.try_recv(),
        Ok(Msg::JobFailed {
            job: "a file write",
            ..
        })
    ));
}

#[test]
fn a_full_queue_refuses_a_job_with_a_notice() {
    let (tx, rx) = channel();
    let worker =
        Worker::new(tx, Box::new(|| Err(crate::github::TokenError::Missing.into()))).unwrap_or_else(|e| panic!("{e}"));
    let (release, gate) = channel::<()>();
    let gate = Arc::new(Mutex::new(gate));
    // PARALLEL jobs hold every slot; the dispatcher holds one more; QUEUE wait.
    for _ in 0..(PARALLEL + 1 + QUEUE) {
        let gate = Arc::clone(&gate);
        worker.job("a slow job", move |_| {
            let _ = gate.lock().unwrap_or_else(PoisonError::into_inner).recv();
            None
        });
    }
    let mut refused = 0;
    for _ in 0..8 {
        worker.job("one too many", |_| None);
    }
    while let Ok(msg) = rx.try_recv() {
        if matches!(&msg, Msg::Notice(n) if n.to_string().contains("one too many was not started")) {
            refused += 1;
        }
    }
    assert!(refused >= 1, "the queue is bounded");
    for _ in 0..(PARALLEL + 1 + QUEUE + 8) {
        let _ = release.send(());
    }
}

#[test]
fn the_first_fetch_s_client_is_the_session_s_client_for_every_later_job() {
    let (tx, rx) = channel();
    let calls = Arc::new(AtomicUsize::new(0));
    let worker = Worker::new(tx, config_counting(Arc::clone(&calls))).unwrap_or_else(|e| panic!("{e}"));
    let net = worker.net();
    let config = || {
        let base = ApiBase::parse("http://127.0.0.1:9").unwrap_or_else(|e| panic!("{e}"));
        ClientConfig::new(base, Token::new("t0ken-for-tests").unwrap_or_else(|e| panic!("{e}")))
    };
    // As the first `--pr` fetch does, on the load thread (not a runtime thread).
    let first = std::thread::spawn(move || net.client_from(config()).is_ok());
    assert!(first.join().unwrap_or(false));
    for _ in 0..3 {
        worker.job("a client job", move |net| {
            let ok = net.client().is_ok() && net.client_from(config()).is_ok();
            Some(Msg::Progress(format!("client {ok}")))
        });
    }
    every_client_was_ready(&rx, 3);
    assert_eq!(
        calls.load(Ordering::SeqCst),
        0,
        "the jobs use the client the first fetch built; none configures another"
    );
}

/// The way out lets the jobs already running end (within the grace) and
/// starts none of those still queued: what they were for is on disk.
#[test]
fn finish_lets_running_jobs_end_and_starts_no_queued_one() {
    let (tx, _rx) = channel();
    let mut worker = Worker::new(tx, config_counting(Arc::new(AtomicUsize::new(0)))).unwrap_or_else(|e| panic!("{e}"));
    let (ran, queued_ran) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (started_tx, started) = channel();
    for _ in 0..PARALLEL {
        let (ran, started_tx) = (Arc::clone(&ran), started_tx.clone());
        worker.job("a slow read", move |net| {
            let _ = started_tx.send(());
            net.block_on(async { tokio::time::sleep(std::time::Duration::from_millis(200)).await });
            ran.fetch_add(1, Ordering::SeqCst);
            None
        });
    }
    for _ in 0..PARALLEL {
        started.recv().unwrap_or_else(|e| panic!("{e}"));
    }
    let later = Arc::clone(&queued_ran);
    worker.job("queued behind them", move |_| {
        later.fetch_add(1, Ordering::SeqCst);
        None
    });
    worker.finish();
    assert_eq!(ran.load(Ordering::SeqCst), PARALLEL, "a running job was cut");
    drop(worker);
    assert_eq!(
        queued_ran.load(Ordering::SeqCst),
        0,
        "a queued job started on the way out"
    );
}
