//! Review threads against a fake GitHub on loopback (wiremock): thread
//! identity exactly as ReviewGate reads it, and the thread actions (reply,
//! resolve, unresolve) with the method, path, body and order of every request.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "github_threads/actions.rs"]
mod actions;
#[path = "github_threads/cli.rs"]
mod cli;
#[path = "support/fake_github.rs"]
mod fake_github;
#[path = "support/fixture.rs"]
mod fixture;
#[path = "github_threads/identity.rs"]
mod identity;
#[path = "github_threads/lane.rs"]
mod lane;
#[path = "github_threads/support.rs"]
mod support;
