//! triage: load, validate and triage automated code-review findings.
//!
//! Map of the modules:
//! - [`sanitize`]: the one step between untrusted text and any display.
//! - [`model`]: domain types, format readers, strict validation, fingerprints
//!   (pure: no terminal, runtime or network).
//! - [`atomic_write`]: the one atomic file replacement (temporary file, fsync, rename).
//! - [`open_file`]: opening a file named by untrusted input without waiting on a FIFO.
//! - [`time`]: the clock and the RFC 3339 text written to files (jiff).
//! - [`checkout`]: the local checkout (files, HEAD) the evidence is checked against.
//! - [`decision`]: decisions as values (drafts and their checks, the
//!   protocol's steps and refusals, outcomes), shared by `github` and `outbox`.
//! - [`git_remote`]: the GitHub repository of the current checkout (`origin`), the `--repo` default.
//! - [`github`]: the only module that talks to GitHub (octocrab).
//! - [`outbox`]: decisions kept on disk until GitHub has recorded them.
//! - [`river_store`]: River Review feedback log and suppression index.
//! - [`log`]: the optional diagnostic log file (`TRIAGE_LOG`), never on the terminal.
//! - [`inbox`]: every open pull request of a repository, ranked by what needs a human.
//! - [`session`]: what the commands and the screen both do with a pull
//!   request (resolve, fetch, threads, ledger, record through the outbox,
//!   atomic writes), called with plain option structs.
//! - [`tui`]: the interactive screen (pure update, read-only view).
//! - [`cli`]: the headless subcommands: argument parsing and printing only.
//!
//! Layers, lowest first. Code may use its own module and the modules of
//! lower layers, never a higher layer or another module of its own layer
//! (`tests/layering.rs` reads this list and fails on such an import):
//!
//! 1. `atomic_write`, `open_file`, `sanitize`, `time`
//! 2. `model`
//! 3. `github::error`, `github::route`, `github::wire` (GitHub's vocabulary: plain values, no I/O)
//! 4. `checkout`, `decision`, `git_remote`
//! 5. `github`
//! 6. `outbox`, `river_store`
//! 7. `inbox`, `log`, `session`
//! 8. `tui`
//! 9. `cli`
//!
//! The modules of layer 3 count as one: they may use each other.

// The test fixtures (tests/support/fixture.rs) name the crate `triage` both
// inside its unit tests and in the integration tests.
#[cfg(test)]
extern crate self as triage;

pub mod atomic_write;
pub mod checkout;
pub mod cli;
pub mod decision;
pub mod git_remote;
pub mod github;
pub mod inbox;
pub mod log;
pub mod model;
pub mod open_file;
pub mod outbox;
pub mod river_store;
pub mod sanitize;
pub mod session;
pub mod time;
pub mod tui;
