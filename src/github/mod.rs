//! The only module that talks to GitHub (octocrab lives in [`client`] alone).
//!
//! - [`client`]: [`Client`] with `get_json`, `post_json`, `delete`, `graphql`
//!   and `get_bytes_following_redirect`; retries, timeouts, rate limits.
//! - [`token`], [`endpoint`], [`route`]: the token, the API/web base and
//!   encoded routes.
//! - [`draft`], [`decide`], [`protocol`]: the disposition protocol of
//!   ReviewGate (local checks, pure decisions, the request sequence).
//! - [`fetch`], [`artifact_zip`]: the newest exact-head result of a pull request.
//! - [`ledger`]: the decisions a pull request already holds (read side).
//! - [`pr_files`]: the pull request's changed files (patches) and a file at a commit.
//! - [`threads`], [`graphql`]: live review-thread state.
//! - [`thread_action`], [`thread_send`]: reply to, resolve and reopen a thread.
//! - [`open_prs`], [`repo_runs`], [`repo_comments`]: every open pull request and the
//!   repository's review runs, artifacts and comments, for the inbox; [`disk_cache`]: answers kept between runs.

pub mod artifact_zip;
pub mod cleanup;
pub mod client;
mod conditional;
pub mod disk_cache;
pub mod endpoint;
pub mod error;
pub mod fetch;
pub mod graphql;
pub mod ledger;
pub mod open_prs;
pub mod pr_files;
pub mod protocol;
pub mod redirect;
pub mod repo_comments;
pub mod repo_runs;
pub mod response;
pub mod route;
pub mod thread_action;
pub mod thread_send;
pub mod threads;
pub mod token;
pub mod wire;

/// The protocol's local checks and pure decisions live in [`crate::decision`];
/// these paths name them where the protocol runs.
pub use crate::decision::{decide, draft};

pub use client::{Client, ClientConfig, RetryPolicy, SetupError};
pub use conditional::RequestStats;
pub use endpoint::ApiBase;
pub use error::GhError;
pub use route::{RepoName, Route};
pub use token::{Token, TokenError};
