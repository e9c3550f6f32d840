//! Background work the runner starts: every job runs on the one
//! [`worker::Worker`] of the session (one tokio runtime, one GitHub client
//! built on first use, a bounded queue, an ordered lane for file writes) and
//! reports back through the message channel. Nothing here touches the
//! screen's state.
//!
//! - [`github`]: keep decisions in the outbox, send them; the actor's login;
//! - [`river`]: write River decisions and revoke suppressions;
//! - [`ledger`]: read the pull request's recorded decisions;
//! - [`refresh`]: re-fetch a `--pr` result and its threads;
//! - [`thread`]: keep a thread action on disk and send it;
//! - [`suspend`]: job control (`ctrl-z`), run on the screen's thread;
//! - [`context`]: evidence context (reviewed commit, GitHub, working tree),
//!   read on the evidence lane ([`evidence`]);
//! - [`diff`]: the pull request's change around the evidence (`D`);
//! - [`files`]: the outbox listing, $EDITOR on the evidence, packet files;
//! - [`worker`]: the worker itself.

pub mod context;
pub mod diff;
pub mod evidence;
pub mod files;
pub mod github;
pub mod ledger;
pub mod refresh;
pub mod river;
pub mod suspend;
pub mod thread;
pub mod timer;
pub mod worker;
