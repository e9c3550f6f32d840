//! The words of a failure: each typed error that crosses the channel
//! ([`crate::tui::message::failure`]) said as the status bar, the detail
//! pane and the composer show it. The library errors inside speak for
//! themselves; these sentences say what the screen was doing and what is
//! kept.

use crate::checkout::short;
use crate::checkout::source::{ContextError, Skip};
use crate::github::fetch::FetchError;
use crate::github::{SetupError, TokenError};
use crate::session::batch::SendError;
use crate::tui::message::failure::{
    ActorError, ClientError, DiffError, LocalDiffError, OpenFailure, RefreshError, RemoteFileError, SendFailure, Shared,
};
use crate::tui::message::{EditError, JobFailure, ThreadActed};
use std::fmt::{Display, Formatter, Result};

impl<E: Display> Display for Shared<E> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        self.0.fmt(f)
    }
}

impl Display for ClientError {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            ClientError::Setup(e) => e.fmt(f),
            ClientError::Build(e) => e.fmt(f),
        }
    }
}

/// The actor line already says how to give a token, so a missing one is
/// said in three words there.
impl Display for ActorError {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            ActorError::NoClient(ClientError::Setup(SetupError::Token(TokenError::Missing))) => {
                f.write_str("no GitHub token")
            }
            ActorError::NoClient(e) => e.fmt(f),
            ActorError::Lookup(e) => write!(f, "cannot read your GitHub login: {e}"),
        }
    }
}

impl Display for RemoteFileError {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            RemoteFileError::NoPull => f.write_str("the review names no pull request"),
            RemoteFileError::BadRepository(e) => e.fmt(f),
            RemoteFileError::NoClient(e) => e.fmt(f),
            RemoteFileError::Fetch(e) => e.fmt(f),
        }
    }
}

/// What the evidence pane says instead of context: the place that
/// answered, or what each place tried said (`; ` between them).
impl Display for ContextError<RemoteFileError> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            ContextError::Read(e) => e.fmt(f),
            ContextError::Skipped(skipped) => {
                for (i, skip) in skipped.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    match skip {
                        Skip::Local(e) => e.fmt(f)?,
                        Skip::GitHub(e) => write!(f, "GitHub: {e}")?,
                    }
                }
                Ok(())
            }
            ContextError::OldNoReviewedSha => {
                f.write_str("old side not available: the review names no reviewed commit")
            }
            ContextError::OldNoRepository { sha } => write!(
                f,
                "old side not available: no local repository holds the parent of {}",
                short(sha)
            ),
            ContextError::NoPlace => f.write_str("no local checkout, and GitHub cannot be asked for this review"),
        }
    }
}

impl Display for LocalDiffError {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        if self.not_local {
            self.error.fmt(f)
        } else {
            write!(f, "the local repository: {}", self.error)
        }
    }
}

impl Display for DiffError {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            DiffError::NoPull { local: Some(local) } => local.fmt(f),
            DiffError::NoPull { local: None } => f.write_str("no local checkout, and the review names no pull request"),
            DiffError::NoClient {
                local: Some(local),
                why,
            } => write!(f, "{local}; GitHub cannot be asked: {why}"),
            DiffError::NoClient { local: None, why } => write!(f, "no local checkout; GitHub cannot be asked: {why}"),
            DiffError::BadRepository(e) => e.fmt(f),
            DiffError::Files(e) => write!(f, "cannot read the pull request's files: {e}"),
        }
    }
}

impl Display for RefreshError {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            RefreshError::Target(e) => e.fmt(f),
            RefreshError::NoClient(e) => e.fmt(f),
            RefreshError::Unread { fetch, head } => write!(f, "{fetch}; {head}"),
        }
    }
}

impl Display for SendFailure {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            SendFailure::NoOutbox(e) => write!(f, "the outbox cannot be opened ({e}); nothing was sent"),
            SendFailure::NotKept(e) => write!(
                f,
                "the decision could not be kept in the outbox ({e}); nothing was sent"
            ),
            SendFailure::NoClient { id, why } => write!(
                f,
                "not sent, kept in the outbox as {id}: {why}; set GH_TOKEN, then press r"
            ),
            SendFailure::NotSent { id, error } => match &*error.0 {
                // Another process holds the entry: it settles it, and the ledger
                // read by the next attempt (r) shows what it recorded.
                SendError::Outbox(e @ crate::outbox::OutboxError::Busy { .. }) => {
                    write!(f, "{e}; that process settles it (r checks the pull request again)")
                }
                e @ (SendError::Gone { .. } | SendError::OtherApi { .. }) => e.fmt(f),
                e => write!(f, "{e} (kept in the outbox as {id})"),
            },
            SendFailure::Answered { id, outcome, settle } => {
                write!(f, "{}; kept in the outbox as {id}", outcome.summary())?;
                match settle {
                    Some(e) => write!(f, "; outbox: {e}"),
                    None => Ok(()),
                }
            }
            SendFailure::River(e) => e.fmt(f),
        }
    }
}

/// Why no result for a moved head was loaded, after "The head moved to
/// HEAD: " (so a missing run need not name the head again).
pub fn head_moved(reason: &Shared<FetchError>) -> String {
    match &*reason.0 {
        FetchError::NoRun { workflow, .. } => format!("no completed run of {workflow} for it yet"),
        other => other.to_string(),
    }
}

/// The status bar's words for an edit that could not be used.
impl Display for EditError {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            EditError::NoEditor => f.write_str("no editor is set ($VISUAL or $EDITOR)"),
            EditError::TempFile(e) => write!(f, "cannot create a temporary file: {e}"),
            EditError::Terminal(e) => write!(f, "the terminal could not be restored: {e}"),
            EditError::Exited { program, status } => write!(f, "{program} exited with {status}"),
            EditError::CannotStart { program, reason } => {
                write!(f, "cannot start {program}: {reason} (set $VISUAL or $EDITOR)")
            }
            EditError::ReadBack(e) => write!(f, "cannot read the edited text back: {e}"),
            EditError::NotUtf8 => f.write_str("the edited text is not UTF-8"),
        }
    }
}

impl std::error::Error for EditError {}

impl Display for JobFailure {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            JobFailure::Panicked(message) | JobFailure::Aborted(message) => f.write_str(message),
            JobFailure::LaneStopped => f.write_str("the file lane has stopped"),
        }
    }
}

impl std::error::Error for JobFailure {}

/// The sentence a thread action ends with (may quote GitHub: sanitised
/// when shown); the status bar adds what is kept.
impl Display for ThreadActed {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            ThreadActed::Answered { outcome, settle: None } => f.write_str(&outcome.summary()),
            ThreadActed::Answered {
                outcome,
                settle: Some(e),
            } => write!(f, "{} (warning: {e})", outcome.summary()),
            ThreadActed::Busy => f.write_str("not sent: another triage process is sending this action right now"),
            ThreadActed::Gone => f.write_str("not sent: another triage process has just settled this action"),
            ThreadActed::OtherApi(why) => f.write_str(why),
            ThreadActed::NoStore(e) => e.fmt(f),
            ThreadActed::NotKept(e) => write!(f, "not sent: {e}"),
        }
    }
}

impl Display for OpenFailure {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            OpenFailure::Exited { program, status } => write!(f, "{program} exited with {status}"),
            OpenFailure::CannotStart { program, error } => write!(f, "cannot start {program} ({error})"),
        }
    }
}
