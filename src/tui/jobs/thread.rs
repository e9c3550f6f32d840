//! A thread action from the screen: kept on disk (`outbox/threads/`) before
//! the first request, sent, and removed once done or refused; after a
//! failure it stays, and the same action sent again looks for its reply
//! before posting one. A reply that rewrites a failed one (the screen
//! offers the kept text again) replaces it: the old entry is dropped once
//! the new one is kept, so `triage thread retry` never posts the old words.

use super::worker::{Net, Worker};
use crate::github::thread_action::ThreadRequest;
use crate::outbox::thread_actions::{ThreadStore, thread_entry_id};
use crate::session::thread_attempt::{Attempt, attempt};
use crate::tui::message::failure::Shared;
use crate::tui::thread_act::ThreadActed;
use crate::tui::update::Msg;

/// Queues the action on the worker: once it settled, the store is listed
/// again (`Msg::ThreadsKept`, so the outbox overlay shows what is kept),
/// then the outcome comes (`Msg::ThreadActed`).
pub fn start(generation: u64, request: ThreadRequest, replaces: Option<ThreadRequest>, worker: &Worker) {
    let tx = worker.tx();
    worker.job("a thread action", move |net| {
        let outcome = match ThreadStore::open_default() {
            Ok(store) => {
                let outcome = run_with(&store, net, request, replaces.as_ref());
                if let Ok((kept, _)) = store.list() {
                    let _ = tx.send(Msg::ThreadsKept(kept));
                }
                outcome
            }
            Err(e) => ThreadActed::NoStore(Shared::new(e)),
        };
        Some(Msg::ThreadActed { generation, outcome })
    });
}

/// Keeps, sends and settles one action with this store and the session's
/// network access (what the screen's job does, without the environment).
pub fn run_with(
    store: &ThreadStore,
    net: &Net,
    request: ThreadRequest,
    replaces: Option<&ThreadRequest>,
) -> ThreadActed {
    let entry = match store.keep(request) {
        Ok(entry) => entry,
        Err(e) => return ThreadActed::NotKept(Shared::new(e)),
    };
    if let Some(old) = replaces.map(thread_entry_id).filter(|old| *old != entry.id)
        && let Err(e) = store.remove(&old)
    {
        return ThreadActed::NotKept(Shared::new(e));
    }
    let client = net.client().map_err(|why| why.to_string());
    match net.block_on(attempt(store, client.as_ref().map_err(Clone::clone), &entry)) {
        Attempt::Sent { outcome, settle } => ThreadActed::Answered {
            outcome,
            settle: settle.map(Shared::new),
        },
        Attempt::Busy => ThreadActed::Busy,
        Attempt::Gone => ThreadActed::Gone,
        Attempt::OtherApi(why) => ThreadActed::OtherApi(why),
        Attempt::Store(e) => ThreadActed::NotKept(Shared::new(e)),
    }
}
