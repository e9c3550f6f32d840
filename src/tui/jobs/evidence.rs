//! The checkout's view of the selected finding's evidence, coalesced to the
//! latest selection.
//!
//! One thread and a slot for one request: a new request replaces the one
//! waiting (the replaced finding is told [`Msg::EvidenceSuperseded`], so
//! selecting it again asks again), and the request being worked on stops
//! between two evidence items once a newer one waits. So a burst of 64 `j`
//! presses runs the git reads of at most the finding being read when the
//! burst began and the one selected at its end.
//!
//! Each item's file comes from the reviewed commit, GitHub or the working
//! tree ([`super::context`]).
//!
//! The checkout context found is highlighted next: first in line when no
//! newer selection waits, else behind everything on screen.

use super::worker::Net;
use crate::checkout::Checkout;
use crate::model::finding::Evidence;
use crate::tui::diff::PullRef;
use crate::tui::effect::CONTEXT_LINES;
use crate::tui::evidence_state::LocalResult;
use crate::tui::highlight::queue::{Lane, Queue};
use crate::tui::highlight::{HighlightJob, Highlighter};
use crate::tui::present::evidence::context_job;
use crate::tui::update::Msg;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// One finding's evidence to read from the checkout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub finding: usize,
    pub evidence: Vec<Evidence>,
    pub reviewed_sha: Option<String>,
    /// The pull request, when GitHub may serve the reviewed commit's files.
    pub pull: Option<PullRef>,
}

#[derive(Debug, Default)]
struct Slot {
    pending: Option<Request>,
    closed: bool,
}

#[derive(Debug, Default)]
struct Shared {
    slot: Mutex<Slot>,
    wake: Condvar,
    /// Requests whose reading began.
    started: AtomicUsize,
}

/// The lane (cheap to clone; every clone is the same lane).
#[derive(Debug, Clone, Default)]
pub struct EvidenceLane {
    shared: Arc<Shared>,
}

/// Where the lane's results go and what it uses.
pub struct Parts {
    /// The local checkout, when one was found.
    pub checkout: Option<Arc<Checkout>>,
    /// The session's network access, for files the checkout lacks.
    pub net: Arc<Net>,
    /// The highlighter and its queue, when highlighting is on.
    pub highlight: Option<(Arc<Highlighter>, Queue)>,
    pub tx: Sender<Msg>,
}

impl EvidenceLane {
    /// A lane whose thread is not started yet (requests wait in the slot).
    pub fn new() -> EvidenceLane {
        EvidenceLane::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.shared.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks for `request`; a request still waiting is dropped and its finding told so on `tx`.
    pub fn submit(&self, request: Request, tx: &Sender<Msg>) {
        let replaced = self.lock().pending.replace(request);
        self.shared.wake.notify_one();
        if let Some(old) = replaced {
            let _ = tx.send(Msg::EvidenceSuperseded { finding: old.finding });
        }
    }

    /// How many requests were started (a debug and test counter).
    pub fn started(&self) -> usize {
        self.shared.started.load(Ordering::SeqCst)
    }

    /// True when a newer request waits.
    fn superseded(&self) -> bool {
        self.lock().pending.is_some()
    }

    /// Ends the thread after its current item.
    pub fn close(&self) {
        self.lock().closed = true;
        self.shared.wake.notify_all();
    }

    fn next(&self) -> Option<Request> {
        let mut slot = self.lock();
        loop {
            if slot.closed {
                return None;
            }
            if let Some(request) = slot.pending.take() {
                return Some(request);
            }
            slot = self.shared.wake.wait(slot).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Starts the thread.
    pub fn start(&self, parts: Parts) -> std::io::Result<()> {
        let lane = self.clone();
        std::thread::Builder::new().name("evidence".into()).spawn(move || {
            super::worker::mark_reporting_thread();
            while let Some(request) = lane.next() {
                lane.shared.started.fetch_add(1, Ordering::SeqCst);
                let finding = request.finding;
                let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lane.read(&parts, request)));
                if let Err(payload) = ran {
                    let _ = parts.tx.send(super::worker::failed("reading evidence", &*payload));
                    let _ = parts.tx.send(Msg::EvidenceSuperseded { finding });
                }
            }
        })?;
        Ok(())
    }

    /// Reads one request's items (stopping early for a newer request), then
    /// queues the context for highlighting.
    fn read(&self, parts: &Parts, request: Request) {
        let sha = request.reviewed_sha.as_deref();
        let mut items: Vec<LocalResult> = Vec::with_capacity(request.evidence.len());
        for e in &request.evidence {
            if self.superseded() {
                let _ = parts.tx.send(Msg::EvidenceSuperseded {
                    finding: request.finding,
                });
                return;
            }
            items.push(super::context::read_item(
                parts.checkout.as_deref(),
                &parts.net,
                request.pull.as_ref(),
                e,
                sha,
                CONTEXT_LINES,
            ));
        }
        let jobs: Vec<HighlightJob> = request
            .evidence
            .iter()
            .zip(&items)
            .filter_map(|(e, r)| r.as_ref().ok().map(|local| context_job(&e.path, local)))
            .collect();
        let _ = parts.tx.send(Msg::EvidenceLoaded {
            finding: request.finding,
            items,
        });
        if let Some((_, queue)) = &parts.highlight {
            let lane = if self.superseded() { Lane::Rest } else { Lane::Selected };
            queue.add(lane, jobs);
        }
    }
}
