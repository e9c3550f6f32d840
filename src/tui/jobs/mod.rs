//! Background work the runner starts: each job runs on a thread of its own
//! (network jobs on a tokio runtime of their own) and reports back through
//! the message channel. Nothing here touches the screen's state.
//!
//! - [`github`]: keep decisions in the outbox, send them; the actor's login;
//! - [`river`]: write River decisions and revoke suppressions;
//! - [`ledger`]: read the pull request's recorded decisions;
//! - [`refresh`]: re-fetch a `--pr` result and its threads;
//! - [`thread`]: keep a thread action on disk and send it;
//! - [`suspend`]: job control (`ctrl-z`), run on the screen's thread;
//! - [`context`]: evidence context (reviewed commit, GitHub, working tree);
//! - [`diff`]: the pull request's change around the evidence (`D`);
//! - [`files`]: the outbox listing, $EDITOR on the evidence, packet files.

pub mod context;
pub mod diff;
pub mod files;
pub mod github;
pub mod ledger;
pub mod refresh;
pub mod river;
pub mod suspend;
pub mod thread;
pub mod timer;

use crate::github::{Client, ClientConfig};

/// A runtime and a client for one job, or one sentence saying why not
/// (no token, bad API base, no runtime).
pub(crate) fn connect(api_url: Option<&str>) -> Result<(tokio::runtime::Runtime, ClientConfig), String> {
    let config = ClientConfig::discover(api_url).map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the network runtime: {e}"))?;
    Ok((runtime, config))
}

/// Builds the client inside the runtime.
pub(crate) fn client(config: ClientConfig) -> Result<Client, String> {
    Client::new(config).map_err(|e| e.to_string())
}
