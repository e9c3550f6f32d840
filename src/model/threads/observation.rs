//! A pull request's ReviewGate threads as GitHub shows them now, and whether
//! they could be read at all.

use crate::model::finding::{ThreadFacts, ThreadReply};
use std::collections::HashMap;

/// One ReviewGate review thread as GitHub shows it now.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObservedThread {
    /// GitHub's node id of the thread (from GitHub's own answer; it goes
    /// only into GraphQL variables, never into a URL or path).
    pub id: String,
    /// The per-run finding id in the thread's marker (may be empty, as
    /// ReviewGate accepts it).
    pub finding_id: String,
    /// GitHub shows the thread resolved.
    pub resolved: bool,
    /// The code the thread is attached to has changed since it was posted.
    pub outdated: bool,
    /// Login of whoever resolved it (when resolved).
    pub resolved_by: Option<String>,
    /// When it was resolved, if GitHub reported it (its review-thread API does not).
    pub resolved_at: Option<String>,
    /// The newest reply after the finding's own comment.
    pub last_reply: Option<ThreadReply>,
    /// Web link to the thread.
    pub url: Option<String>,
}

impl ObservedThread {
    /// The facts the drift lane shows.
    pub fn facts(&self) -> ThreadFacts {
        ThreadFacts {
            resolved_by: self.resolved_by.clone(),
            resolved_at: self.resolved_at.clone(),
            last_reply: self.last_reply.clone(),
            url: self.url.clone(),
        }
    }
}

/// A ReviewGate thread whose fingerprint matches no finding of the loaded
/// result. ReviewGate itself leaves such threads behind (it resolves the
/// threads of findings its verifier rejected, and those findings are not in
/// the result); they are shown, never dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrphanThread {
    /// The semantic fingerprint in the thread's marker.
    pub fingerprint: String,
    pub thread: ObservedThread,
}

/// The outcome of reading a pull request's threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThreadObservation {
    /// The threads were read completely: ReviewGate's threads by semantic
    /// fingerprint (of several threads with one fingerprint, the one GitHub
    /// listed last).
    Available(HashMap<String, ObservedThread>),
    /// The threads could not be read reliably; the reason is one sentence for the screen.
    Unavailable {
        /// Why (for example "GitHub refused the thread query: ...").
        reason: String,
    },
}

impl ThreadObservation {
    /// The reason the threads are unknown, if they are.
    pub fn unavailable_reason(&self) -> Option<&str> {
        match self {
            ThreadObservation::Available(_) => None,
            ThreadObservation::Unavailable { reason } => Some(reason),
        }
    }
}
