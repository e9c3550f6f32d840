//! A thread action from the screen: kept on disk (`outbox/threads/`) before
//! the first request, sent, and removed once done or refused; after a
//! failure it stays, and the same action sent again looks for its reply
//! before posting one. A reply that rewrites a failed one (the screen
//! offers the kept text again) replaces it: the old entry is dropped once
//! the new one is kept, so `triage thread retry` never posts the old words.

use super::worker::{Net, Worker};
use crate::github::thread_action::ThreadRequest;
use crate::outbox::thread_actions::{ThreadEntry, ThreadStore, thread_entry_id};
use crate::session::thread_attempt::{Attempt, attempt};
use crate::tui::message::failure::Shared;
use crate::tui::thread_act::ThreadActed;
use crate::tui::update::Msg;

/// Keeps the action on disk on the file lane, then queues its send on
/// the worker: once it settled, the store is listed again
/// (`Msg::ThreadsKept`, so the outbox overlay shows what is kept), then the
/// outcome comes (`Msg::ThreadActed`). Kept first, so a quit while the send
/// still waits in the queue loses nothing (`triage thread retry`, or the
/// next screen, sends it).
pub fn start(generation: u64, request: ThreadRequest, replaces: Option<ThreadRequest>, worker: &Worker) {
    let (tx, jobs) = (worker.tx(), worker.jobs());
    worker.write(move || {
        let store = match ThreadStore::open_default() {
            Ok(store) => store,
            Err(e) => {
                let outcome = ThreadActed::NoStore(Shared::new(e));
                return Some(Msg::ThreadActed { generation, outcome });
            }
        };
        let entry = match keep(&store, request, replaces.as_ref()) {
            Ok(entry) => entry,
            Err(outcome) => return Some(Msg::ThreadActed { generation, outcome }),
        };
        jobs.job("a thread action", move |net| {
            let outcome = send(&store, net, &entry);
            if let Ok((kept, _)) = store.list() {
                let _ = tx.send(Msg::ThreadsKept(kept));
            }
            Some(Msg::ThreadActed { generation, outcome })
        });
        None
    });
}

/// Keeps the action in `store` (dropping the failed reply it rewrites).
pub fn keep(
    store: &ThreadStore,
    request: ThreadRequest,
    replaces: Option<&ThreadRequest>,
) -> Result<ThreadEntry, ThreadActed> {
    let entry = store.keep(request).map_err(|e| ThreadActed::NotKept(Shared::new(e)))?;
    if let Some(old) = replaces.map(thread_entry_id).filter(|old| *old != entry.id) {
        store.remove(&old).map_err(|e| ThreadActed::NotKept(Shared::new(e)))?;
    }
    Ok(entry)
}

/// Sends and settles a kept action with the session's network access.
pub fn send(store: &ThreadStore, net: &Net, entry: &ThreadEntry) -> ThreadActed {
    let client = net.client().map_err(|why| why.to_string());
    match net.block_on(attempt(store, client.as_ref().map_err(Clone::clone), entry)) {
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
