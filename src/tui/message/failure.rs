//! Why background work failed, as it crosses the channel: an enum per kind
//! of failure, holding the library's own typed errors. Plain data: the
//! words are in [`crate::tui::present::failure`], where the screen turns a
//! failure into the sentence it shows.

use crate::checkout::CheckoutError;
use crate::checkout::source::ContextError;
use crate::github::GhError;
use crate::github::client::SetupError;
use crate::github::fetch::FetchError;
use crate::github::pr_files::ContentsError;
use crate::github::protocol::Outcome;
use crate::github::route::RepoNameError;
use crate::outbox::OutboxError;
use crate::river_store::StoreError;
use crate::session::batch::SendError;
use crate::session::fetch::TargetError;
use std::sync::Arc;

/// A library error that cannot be cloned (it holds an `io::Error`), shared
/// so that a message carrying it can be. Two are equal when they say the
/// same: what a test (or a repeated notice) can compare.
#[derive(Debug)]
pub struct Shared<E>(pub Arc<E>);

impl<E> Clone for Shared<E> {
    fn clone(&self) -> Shared<E> {
        Shared(Arc::clone(&self.0))
    }
}

impl<E> Shared<E> {
    /// Shares `error`.
    pub fn new(error: E) -> Shared<E> {
        Shared(Arc::new(error))
    }
}

impl<E> From<E> for Shared<E> {
    fn from(error: E) -> Shared<E> {
        Shared::new(error)
    }
}

impl<E: std::fmt::Display> PartialEq for Shared<E> {
    fn eq(&self, other: &Shared<E>) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.to_string() == other.0.to_string()
    }
}

impl<E: std::fmt::Display> Eq for Shared<E> {}

/// Why the session's GitHub client could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientError {
    /// No configuration: no usable token or API base.
    Setup(SetupError),
    /// The configuration was refused when the client was built.
    Build(GhError),
}

/// Why the authenticated GitHub login is unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActorError {
    /// No client to ask with.
    NoClient(ClientError),
    /// GitHub did not tell.
    Lookup(GhError),
}

/// Why the change around a finding's evidence could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffError {
    /// Nowhere to ask: the local repository could not answer (or there is
    /// none), and the review names no pull request.
    NoPull { local: Option<LocalDiffError> },
    /// The local repository could not answer (or there is none) and there
    /// is no GitHub client.
    NoClient {
        local: Option<LocalDiffError>,
        why: ClientError,
    },
    /// The review's repository is not an `owner/name`.
    BadRepository(RepoNameError),
    /// GitHub did not list the pull request's files.
    Files(GhError),
}

/// Why the local repository could not give the change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalDiffError {
    pub error: Shared<CheckoutError>,
    /// The repository lacks the commits (not a failure of the repository itself).
    pub not_local: bool,
}

/// Why a refresh read nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefreshError {
    /// The pull request could not be named from the review and the options.
    Target(Shared<TargetError>),
    /// No GitHub client.
    NoClient(ClientError),
    /// Neither the result nor the pull request's head could be read.
    Unread {
        fetch: Shared<FetchError>,
        head: Shared<FetchError>,
    },
}

/// Why a decision was not recorded (or not recorded as asked); `id` is
/// the outbox entry that keeps it where there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendFailure {
    /// The outbox could not be opened: nothing was kept or sent.
    NoOutbox(Shared<OutboxError>),
    /// This decision could not be kept in the outbox: nothing was sent.
    NotKept(Shared<OutboxError>),
    /// Kept, but there is no GitHub client to send with.
    NoClient { id: String, why: ClientError },
    /// Kept, but not sent (claimed elsewhere, settled elsewhere, invalid ...).
    NotSent { id: String, error: Shared<SendError> },
    /// GitHub's answer (refused, failed, or a different decision already
    /// there), and an outbox error while settling the entry afterwards.
    Answered {
        id: String,
        outcome: Box<Outcome>,
        settle: Option<Shared<OutboxError>>,
    },
    /// A River decision could not be written (or its repository found).
    River(Shared<StoreError>),
}

/// Why GitHub's copy of an excerpt's file could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoteFileError {
    /// The review names no pull request to ask about.
    NoPull,
    /// The review's repository is not an `owner/name`.
    BadRepository(RepoNameError),
    /// No GitHub client to ask with.
    NoClient(ClientError),
    /// GitHub did not give the file.
    Fetch(ContentsError),
}

/// Why the checkout gave no context for one excerpt.
pub type EvidenceError = Shared<ContextError<RemoteFileError>>;

/// Why one program did not open a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenFailure {
    /// It ran and ended with a failure status.
    Exited {
        program: String,
        status: std::process::ExitStatus,
    },
    /// It could not be started (the system's error).
    CannotStart {
        program: String,
        error: Shared<std::io::Error>,
    },
}
