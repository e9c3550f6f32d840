//! A thread action from the screen: kept on disk (`outbox/threads/`) before
//! the first request, sent, and removed once done or refused; after a
//! failure it stays, and the same action sent again looks for its reply
//! before posting one.

use crate::github::thread_action::{ThreadOutcome, ThreadRequest};
use crate::github::thread_send::send_thread_action;
use crate::github::{Client, ClientConfig};
use crate::outbox::thread_actions::ThreadStore;
use crate::tui::effect::Context;
use crate::tui::thread_act::ThreadActed;
use crate::tui::update::Msg;
use std::sync::mpsc::Sender;

/// Starts the action on a thread of its own (`Msg::ThreadActed`).
pub fn start(ctx: &Context, generation: u64, request: ThreadRequest, tx: Sender<Msg>) {
    let api_url = ctx.pr.api_url.clone();
    std::thread::spawn(move || {
        let outcome = run(api_url.as_deref(), request).unwrap_or_else(ThreadActed::Failed);
        let _ = tx.send(Msg::ThreadActed { generation, outcome });
    });
}

fn run(api_url: Option<&str>, request: ThreadRequest) -> Result<ThreadActed, String> {
    let store = ThreadStore::open_default().map_err(|e| e.to_string())?;
    let config = ClientConfig::discover(api_url).map_err(|e| e.to_string())?;
    Ok(run_with(&store, config, request))
}

/// Keeps, sends and settles one action with this store and client
/// configuration (what the screen's job does, without the environment).
pub fn run_with(store: &ThreadStore, config: ClientConfig, request: ThreadRequest) -> ThreadActed {
    let entry = match store.keep(request) {
        Ok(entry) => entry,
        Err(e) => return ThreadActed::Failed(format!("not sent: {e}")),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => return ThreadActed::Failed(format!("cannot start the network runtime: {e}")),
    };
    let outcome = runtime.block_on(async {
        match Client::new(config) {
            Ok(client) => send_thread_action(&client, &entry.request).await,
            Err(e) => ThreadOutcome::Failed { reason: e.to_string() },
        }
    });
    let summary = match store.settle(&entry, &outcome) {
        Err(e) => format!("{} (warning: {e})", outcome.summary()),
        Ok(()) => outcome.summary(),
    };
    match outcome {
        ThreadOutcome::Done(_) => ThreadActed::Done(summary),
        ThreadOutcome::Refused(_) => ThreadActed::Refused(summary),
        ThreadOutcome::Failed { .. } => ThreadActed::Failed(summary),
    }
}
