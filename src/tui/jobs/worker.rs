//! The screen's one background worker: one tokio runtime for the whole
//! session, one GitHub client built on the first job that needs it, a bounded
//! queue of jobs, and an ordered lane for small file writes.
//!
//! - [`Worker::job`] queues a blocking job (git, outbox files, a network round
//!   trip through [`Net`]); at most [`PARALLEL`] run at once and at most
//!   [`QUEUE`] wait. A full queue refuses the job with a notice instead of
//!   growing without bound.
//! - [`Worker::write`] runs small file writes (drafts, packet files, outbox
//!   drops) one after another on a thread of their own, in the order asked,
//!   so a save and the delete after it can never swap; [`Worker::finish`]
//!   waits for the lane before the process exits.
//! - A job that panics is reported as [`Msg::JobFailed`]; the terminal stays
//!   in screen mode (the panic hook leaves threads of this worker alone).
//! - Work that must outlive a quit is written on the file lane first and
//!   queued from there ([`Worker::jobs`]): a decision or thread action is
//!   kept on disk before its job can wait in the queue, so quitting while
//!   it waits loses nothing (it is offered again next time).
//! - [`Worker::finish`] (the way out) waits for the file lane, starts no
//!   job still queued, and gives the jobs already running up to [`GRACE`]
//!   to end (a send under way usually completes instead of being cut).

use crate::github::{Client, ClientConfig, SetupError};
use crate::tui::message::JobFailure;
use crate::tui::message::failure::ClientError;
use crate::tui::update::Msg;
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, PoisonError};

/// Jobs that may wait in the queue.
pub const QUEUE: usize = 64;
/// Jobs that run at once (each may wait on the network for a while).
pub const PARALLEL: usize = 4;
/// How long the way out waits for running jobs to end.
pub const GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// Tokio runtimes built by the screen's workers in this process.
static RUNTIMES: AtomicUsize = AtomicUsize::new(0);
/// GitHub clients built by the screen's workers in this process.
static CLIENTS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set on the worker's threads: their panics come back as messages.
    static REPORTS_OWN_PANICS: Cell<bool> = const { Cell::new(false) };
}

/// True on a thread whose panics the worker reports itself.
pub fn reports_own_panics() -> bool {
    REPORTS_OWN_PANICS.with(Cell::get)
}

/// Marks the current thread as one whose panics the worker reports.
pub(crate) fn mark_reporting_thread() {
    REPORTS_OWN_PANICS.with(|c| c.set(true));
}

/// How many runtimes and GitHub clients the screen built in this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Built {
    pub runtimes: usize,
    pub clients: usize,
}

/// The counts so far (a debug and test counter).
pub fn built() -> Built {
    Built {
        runtimes: RUNTIMES.load(Ordering::SeqCst),
        clients: CLIENTS.load(Ordering::SeqCst),
    }
}

/// Where the client's configuration comes from (the environment, or a test's).
pub type ConfigSource = Box<dyn Fn() -> Result<ClientConfig, SetupError> + Send + Sync>;

/// Network access for jobs: the session's runtime and its one client.
pub struct Net {
    handle: tokio::runtime::Handle,
    config: ConfigSource,
    client: Mutex<Option<Client>>,
}

impl Net {
    /// Network access on this runtime, with the client built from `config` on first use.
    pub fn new(handle: tokio::runtime::Handle, config: ConfigSource) -> Net {
        Net {
            handle,
            config,
            client: Mutex::new(None),
        }
    }

    /// The session's client, built on first use (inside the runtime). A
    /// failure (no token) is not kept: the next job asks again.
    pub fn client(&self) -> Result<Client, ClientError> {
        let mut slot = self.client.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(client) = slot.as_ref() {
            return Ok(client.clone());
        }
        let config = (self.config)().map_err(ClientError::Setup)?;
        let _inside = self.handle.enter();
        let client = Client::new(config).map_err(ClientError::Build)?;
        CLIENTS.fetch_add(1, Ordering::SeqCst);
        *slot = Some(client.clone());
        Ok(client)
    }

    /// The session's client, or, before one is built, a client from
    /// `config` kept as the session's (the first `--pr` fetch brings its
    /// own configuration so that its errors keep their types).
    pub fn client_from(&self, config: ClientConfig) -> Result<Client, crate::github::GhError> {
        let mut slot = self.client.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(client) = slot.as_ref() {
            return Ok(client.clone());
        }
        let _inside = self.handle.enter();
        let client = Client::new(config)?;
        CLIENTS.fetch_add(1, Ordering::SeqCst);
        *slot = Some(client.clone());
        Ok(client)
    }

    /// The session's runtime.
    pub fn handle(&self) -> &tokio::runtime::Handle {
        &self.handle
    }

    /// Runs a future on the session's runtime from a job (a blocking thread).
    pub fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
        self.handle.block_on(future)
    }
}

/// One queued job: its name (for a failure report) and its work.
type Job = (&'static str, Box<dyn FnOnce(&Net) -> Option<Msg> + Send>);

/// A small file write, run in order on the file lane.
type Write = Box<dyn FnOnce() -> Option<Msg> + Send>;

/// Where jobs are queued from: the worker itself, or a file write that
/// queues the job its write was for ([`Worker::jobs`]).
#[derive(Clone)]
pub struct Jobs {
    queue: tokio::sync::mpsc::Sender<Job>,
    tx: Sender<Msg>,
}

impl Jobs {
    /// Queues a job; a full queue refuses it with a notice (`name` says what was refused).
    pub fn job(&self, name: &'static str, work: impl FnOnce(&Net) -> Option<Msg> + Send + 'static) {
        if self.queue.try_send((name, Box::new(work))).is_err() {
            let _ = self
                .tx
                .send(Msg::Notice(crate::tui::message::notice::Notice::QueueFull {
                    job: name,
                }));
        }
    }
}

/// Whether the worker is on its way out, and how many jobs run.
#[derive(Default)]
struct Activity {
    closing: std::sync::atomic::AtomicBool,
    running: Mutex<usize>,
    ended: std::sync::Condvar,
}

impl Activity {
    /// Counts a job as running until the returned guard is dropped.
    fn start(self: &Arc<Self>) -> Running {
        *self.running.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        Running(Arc::clone(self))
    }

    /// Waits until no job runs, or `grace` has passed.
    fn wait_idle(&self, grace: std::time::Duration) {
        let running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = self
            .ended
            .wait_timeout_while(running, grace, |n| *n > 0)
            .unwrap_or_else(PoisonError::into_inner);
    }
}

/// A running job (see [`Activity::start`]); ends it when dropped, even by a panic.
struct Running(Arc<Activity>);

impl Drop for Running {
    fn drop(&mut self) {
        *self.0.running.lock().unwrap_or_else(PoisonError::into_inner) -= 1;
        self.0.ended.notify_all();
    }
}

/// The worker (see the module documentation).
pub struct Worker {
    runtime: tokio::runtime::Runtime,
    net: Arc<Net>,
    jobs: Jobs,
    activity: Arc<Activity>,
    writes: Option<std::sync::mpsc::Sender<Write>>,
    writer: Option<std::thread::JoinHandle<()>>,
    tx: Sender<Msg>,
}

impl Worker {
    /// Starts the runtime, the dispatcher and the file lane; no client yet.
    pub fn new(tx: Sender<Msg>, config: ConfigSource) -> std::io::Result<Worker> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .max_blocking_threads(PARALLEL * 2)
            .thread_name("triage-worker")
            .on_thread_start(mark_reporting_thread)
            .enable_all()
            .build()?;
        RUNTIMES.fetch_add(1, Ordering::SeqCst);
        let net = Arc::new(Net::new(runtime.handle().clone(), config));
        let (queue, jobs) = tokio::sync::mpsc::channel::<Job>(QUEUE);
        let activity = Arc::new(Activity::default());
        runtime.spawn(dispatch(jobs, Arc::clone(&net), tx.clone(), Arc::clone(&activity)));
        let (writes, lane) = std::sync::mpsc::channel::<Write>();
        let lane_tx = tx.clone();
        let writer = std::thread::Builder::new().name("triage-files".into()).spawn(move || {
            mark_reporting_thread();
            for write in lane {
                let msg = std::panic::catch_unwind(std::panic::AssertUnwindSafe(write))
                    .unwrap_or_else(|payload| Some(failed("a file write", &*payload)));
                if let Some(msg) = msg {
                    let _ = lane_tx.send(msg);
                }
            }
        })?;
        Ok(Worker {
            runtime,
            net,
            jobs: Jobs { queue, tx: tx.clone() },
            activity,
            writes: Some(writes),
            writer: Some(writer),
            tx,
        })
    }

    /// Queues a job; a full queue refuses it with a notice (`name` says what was refused).
    pub fn job(&self, name: &'static str, work: impl FnOnce(&Net) -> Option<Msg> + Send + 'static) {
        self.jobs.job(name, work);
    }

    /// Where a file write queues the job it was for.
    pub fn jobs(&self) -> Jobs {
        self.jobs.clone()
    }

    /// Runs a small file write after the ones asked before it.
    pub fn write(&self, work: impl FnOnce() -> Option<Msg> + Send + 'static) {
        let refused = match &self.writes {
            Some(lane) => lane.send(Box::new(work)).is_err(),
            None => true,
        };
        if refused {
            let _ = self.tx.send(Msg::JobFailed {
                job: "a file write",
                failure: JobFailure::LaneStopped,
            });
        }
    }

    /// Where jobs send their messages.
    pub fn tx(&self) -> Sender<Msg> {
        self.tx.clone()
    }

    /// The session's network access (for work outside the queue, such as the first load).
    pub fn net(&self) -> Arc<Net> {
        Arc::clone(&self.net)
    }

    /// A handle of the session's runtime.
    pub fn handle(&self) -> tokio::runtime::Handle {
        self.runtime.handle().clone()
    }

    /// The way out: waits until every file write asked so far is done,
    /// starts no queued job, and waits up to [`GRACE`] for the running ones.
    pub fn finish(&mut self) {
        self.writes = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
        if !self.activity.closing.swap(true, Ordering::SeqCst) {
            self.activity.wait_idle(GRACE);
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Takes jobs off the queue and runs at most [`PARALLEL`] at once.
///
/// Once the worker is closing, a job taken off the queue is not started:
/// what it was for is on disk already (see the module documentation).
async fn dispatch(mut jobs: tokio::sync::mpsc::Receiver<Job>, net: Arc<Net>, tx: Sender<Msg>, activity: Arc<Activity>) {
    let slots = Arc::new(tokio::sync::Semaphore::new(PARALLEL));
    while let Some((name, work)) = jobs.recv().await {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return;
        };
        if activity.closing.load(Ordering::SeqCst) {
            continue;
        }
        let (net, tx) = (Arc::clone(&net), tx.clone());
        let running = activity.start();
        tokio::spawn(async move {
            let ran = tokio::task::spawn_blocking(move || {
                let _running = running;
                work(&net)
            })
            .await;
            drop(slot);
            let msg = match ran {
                Ok(msg) => msg,
                Err(e) if e.is_panic() => Some(failed(name, &*e.into_panic())),
                Err(e) => Some(Msg::JobFailed {
                    job: name,
                    failure: JobFailure::Aborted(e.to_string()),
                }),
            };
            if let Some(msg) = msg {
                let _ = tx.send(msg);
            }
        });
    }
}

/// The message of a job that panicked with this payload.
pub fn failed(job: &'static str, payload: &(dyn std::any::Any + Send)) -> Msg {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned());
    Msg::JobFailed {
        job,
        failure: JobFailure::Panicked(crate::sanitize::clean_line(&text)),
    }
}

#[cfg(test)]
mod tests;
