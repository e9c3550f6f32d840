//! The disposition protocol against a fake GitHub on 127.0.0.1: method, path,
//! body and order of every request, the outbox around it, and the command
//! line (exit codes, no token anywhere).

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "github_submit/cli.rs"]
mod cli;
#[path = "github_submit/client.rs"]
mod client;
#[path = "github_submit/fake.rs"]
mod fake;
#[path = "support/gate.rs"]
mod gate;
#[path = "github_submit/ledger.rs"]
mod ledger;
#[path = "github_submit/outbox_retry.rs"]
mod outbox_retry;
#[path = "github_submit/protocol.rs"]
mod protocol;
#[path = "github_submit/races.rs"]
mod races;
#[path = "github_submit/redirect.rs"]
mod redirect;
#[path = "github_submit/support.rs"]
mod support;
