//! triage: load, validate and triage automated code-review findings.
//!
//! Map of the modules:
//! - [`model`]: domain types, format readers, strict validation, fingerprints
//!   (pure: no terminal, runtime or network).
//! - [`atomic_write`]: the one atomic file replacement (temporary file, fsync, rename).
//! - [`sanitize`]: the one step between untrusted text and any display.
//! - [`time`]: the clock and the RFC 3339 text written to files (jiff).
//! - [`checkout`]: the local checkout (files, HEAD) the evidence is checked against.
//! - [`cli`]: the headless subcommands.
//! - [`tui`]: the interactive screen (pure update, read-only view).
//! - [`github`]: the only module that talks to GitHub (octocrab).
//! - [`outbox`]: decisions kept on disk until GitHub has recorded them.
//! - [`river_store`]: River Review feedback log and suppression index.
//! - [`log`]: the optional diagnostic log file (`TRIAGE_LOG`), never on the terminal.
//! - [`git_remote`]: the GitHub repository of the current checkout (`origin`), the `--repo` default.

// The test fixtures (tests/support/fixture.rs) name the crate `triage` both
// inside its unit tests and in the integration tests.
#[cfg(test)]
extern crate self as triage;

pub mod atomic_write;
pub mod checkout;
pub mod cli;
pub mod git_remote;
pub mod github;
pub mod log;
pub mod model;
pub mod outbox;
pub mod river_store;
pub mod sanitize;
pub mod time;
pub mod tui;
