//! A thread action from the screen: kept on disk (`outbox/threads/`) before
//! the first request, sent, and removed once done or refused; after a
//! failure it stays, and the same action sent again looks for its reply
//! before posting one.

use super::worker::{Net, Worker};
use crate::github::thread_action::{ThreadOutcome, ThreadRequest};
use crate::github::thread_send::send_thread_action;
use crate::outbox::thread_actions::ThreadStore;
use crate::tui::effect::Context;
use crate::tui::message::failure::Shared;
use crate::tui::thread_act::ThreadActed;
use crate::tui::update::Msg;

/// Queues the action on the worker (`Msg::ThreadActed`).
pub fn start(_ctx: &Context, generation: u64, request: ThreadRequest, worker: &Worker) {
    worker.job("a thread action", move |net| {
        let outcome = match ThreadStore::open_default() {
            Ok(store) => run_with(&store, net, request),
            Err(e) => ThreadActed::NoStore(Shared::new(e)),
        };
        Some(Msg::ThreadActed { generation, outcome })
    });
}

/// Keeps, sends and settles one action with this store and the session's
/// network access (what the screen's job does, without the environment).
pub fn run_with(store: &ThreadStore, net: &Net, request: ThreadRequest) -> ThreadActed {
    let entry = match store.keep(request) {
        Ok(entry) => entry,
        Err(e) => return ThreadActed::NotKept(Shared::new(e)),
    };
    let outcome = match net.client() {
        Ok(client) => net.block_on(send_thread_action(&client, &entry.request)),
        Err(why) => ThreadOutcome::Failed {
            reason: why.to_string(),
        },
    };
    let settle = store.settle(&entry, &outcome).err().map(Shared::new);
    ThreadActed::Answered { outcome, settle }
}
