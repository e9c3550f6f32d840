//! A pull request's ReviewGate threads as GitHub shows them now, and whether
//! they could be read at all.

use crate::model::finding::{ThreadFacts, ThreadReply};
use std::collections::HashMap;

/// One ReviewGate review thread as GitHub shows it now.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObservedThread {
    /// GitHub's node id of the thread.
    pub id: String,
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

/// The outcome of reading a pull request's threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThreadObservation {
    /// The threads were read completely: ReviewGate's threads by semantic fingerprint.
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
