//! Acting on a ReviewGate review thread: reply to it, resolve it, reopen
//! (unresolve) it. The request, its local checks, the GraphQL documents and
//! the outcomes; [`super::thread_send`] runs the request sequence.
//!
//! The thread is named by the finding's semantic fingerprint. Its GitHub
//! node id is never taken from a review file or from the user: it comes from
//! GitHub's own thread list, and it goes only into GraphQL variables, never
//! into a URL, a path or a query document.

use serde::{Deserialize, Serialize};

/// The longest reply accepted (bytes). GitHub allows 65,536 characters in a
/// comment; a reply about a finding is a few sentences, so a larger one is
/// almost surely a wrong file, and is refused before anything is sent.
pub const MAX_REPLY_BYTES: usize = 16 * 1024;

/// What to do to the thread.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ThreadVerb {
    /// Post `body` as a reply in the thread (`addPullRequestReviewThreadReply`).
    Reply { body: String },
    /// Mark the thread resolved (`resolveReviewThread`).
    Resolve,
    /// Reopen a resolved thread (`unresolveReviewThread`).
    Unresolve,
}

impl ThreadVerb {
    /// The word for messages: `reply`, `resolve`, `unresolve`.
    pub fn name(&self) -> &'static str {
        match self {
            ThreadVerb::Reply { .. } => "reply",
            ThreadVerb::Resolve => "resolve",
            ThreadVerb::Unresolve => "unresolve",
        }
    }
}

/// One action on the ReviewGate thread of a finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadRequest {
    /// `OWNER/NAME`.
    pub repository: String,
    pub pull_request: u64,
    /// The finding's semantic fingerprint (as in the thread's marker).
    pub fingerprint: String,
    /// When set, the action is refused unless the pull request's head is
    /// still this commit (the screen binds actions to the result it shows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_head: Option<String>,
    #[serde(flatten)]
    pub verb: ThreadVerb,
}

/// Why a request fails its local checks (exit code 1; nothing is sent).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThreadInputError {
    /// The reply is empty or only white space.
    #[error("the reply is empty")]
    EmptyReply,
    /// The reply is larger than [`MAX_REPLY_BYTES`].
    #[error("the reply is {len} bytes; at most {MAX_REPLY_BYTES} are accepted")]
    ReplyTooLarge { len: usize },
    /// The reply holds a NUL character, which GitHub cannot store.
    #[error("the reply holds a NUL character")]
    NulInReply,
    /// `--pr 0`.
    #[error("the pull request number must be 1 or more")]
    ZeroPr,
    /// The head the action is bound to is not a full commit SHA.
    #[error("the head must be a full commit SHA (40 or 64 lowercase hex digits)")]
    BadHead,
}

impl ThreadRequest {
    /// The local checks: a reply is non-blank, NUL-free and bounded; a
    /// bound head is a full commit SHA.
    pub fn check(&self) -> Result<(), ThreadInputError> {
        if self.pull_request == 0 {
            return Err(ThreadInputError::ZeroPr);
        }
        if self
            .expected_head
            .as_deref()
            .is_some_and(|h| !super::fetch::is_commit_sha(h))
        {
            return Err(ThreadInputError::BadHead);
        }
        if let ThreadVerb::Reply { body } = &self.verb {
            if body.trim().is_empty() {
                return Err(ThreadInputError::EmptyReply);
            }
            if body.len() > MAX_REPLY_BYTES {
                return Err(ThreadInputError::ReplyTooLarge { len: body.len() });
            }
            if body.contains('\0') {
                return Err(ThreadInputError::NulInReply);
            }
        }
        Ok(())
    }
}

/// How an action ended well.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThreadDone {
    /// The reply is in the thread; `already` when an earlier attempt had
    /// posted it (found by its body), so nothing was posted this time.
    Replied { url: Option<String>, already: bool },
    /// The thread is resolved; `already` when it was before.
    Resolved { already: bool },
    /// The thread is open again; `already` when it was not resolved.
    Unresolved { already: bool },
}

impl ThreadDone {
    /// One line for a person.
    pub fn summary(&self) -> String {
        match self {
            ThreadDone::Replied { already: true, .. } => {
                "the reply was already in the thread (an earlier attempt posted it); not posted again".into()
            }
            ThreadDone::Replied { .. } => "replied in the thread".into(),
            ThreadDone::Resolved { already: true } => "the thread was already resolved".into(),
            ThreadDone::Resolved { .. } => "resolved the thread".into(),
            ThreadDone::Unresolved { already: true } => "the thread was already open".into(),
            ThreadDone::Unresolved { .. } => "reopened the thread".into(),
        }
    }
}

/// Why GitHub's state refuses the action (exit code 3; kept in the outbox).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThreadRefusal {
    /// No ReviewGate thread on the pull request carries the fingerprint.
    #[error("no ReviewGate thread on {repository}#{pull_request} carries fingerprint {fingerprint}")]
    NoThread {
        repository: String,
        pull_request: u64,
        fingerprint: String,
    },
    /// The pull request is closed or merged.
    #[error("{repository}#{pull_request} is {state}, not open")]
    NotOpen {
        repository: String,
        pull_request: u64,
        state: String,
    },
    /// The head moved past the result the action was made on.
    #[error("the head of the pull request moved to {now} (the action was made on {expected})")]
    HeadMoved { expected: String, now: String },
    /// GitHub refused the mutation (permission, locked conversation ...).
    #[error("GitHub refused to {verb} the thread: {message}")]
    Refused { verb: &'static str, message: String },
}

/// The outcome of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThreadOutcome {
    Done(ThreadDone),
    Refused(ThreadRefusal),
    /// GitHub, the network or the token failed; one sentence. Retry later.
    Failed {
        reason: String,
    },
}

impl ThreadOutcome {
    /// One line for a person (may quote GitHub: sanitise before display).
    pub fn summary(&self) -> String {
        match self {
            ThreadOutcome::Done(done) => done.summary(),
            ThreadOutcome::Refused(r) => r.to_string(),
            ThreadOutcome::Failed { reason } => reason.clone(),
        }
    }
}

/// The comments of one thread, a page at a time, with the caller's login
/// (to find a reply an earlier attempt posted).
pub const THREAD_COMMENTS_QUERY: &str = "\
query($id: ID!, $after: String) {
  viewer { login }
  node(id: $id) {
    ... on PullRequestReviewThread {
      id
      isResolved
      comments(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { body url author { login } }
      }
    }
  }
}";

/// Posts a reply.
pub const REPLY_MUTATION: &str = "\
mutation($threadId: ID!, $body: String!) {
  addPullRequestReviewThreadReply(input: { pullRequestReviewThreadId: $threadId, body: $body }) {
    comment { id url }
  }
}";

/// Resolves a thread.
pub const RESOLVE_MUTATION: &str = "\
mutation($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}";

/// Reopens a thread.
pub const UNRESOLVE_MUTATION: &str = "\
mutation($threadId: ID!) {
  unresolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}";

#[cfg(test)]
mod tests {
    use super::*;

    fn request(verb: ThreadVerb) -> ThreadRequest {
        ThreadRequest {
            repository: "o/r".into(),
            pull_request: 3,
            fingerprint: "defect:a".into(),
            expected_head: None,
            verb,
        }
    }

    #[test]
    fn replies_are_checked_before_anything_is_sent() {
        let reply = |b: &str| request(ThreadVerb::Reply { body: b.into() }).check();
        assert_eq!(reply("Checked: fixed in 1a2b."), Ok(()));
        assert_eq!(reply(" \n\t"), Err(ThreadInputError::EmptyReply));
        assert_eq!(reply("a\0b"), Err(ThreadInputError::NulInReply));
        let big = "x".repeat(MAX_REPLY_BYTES + 1);
        assert_eq!(reply(&big), Err(ThreadInputError::ReplyTooLarge { len: big.len() }));
        assert_eq!(reply(&"x".repeat(MAX_REPLY_BYTES)), Ok(()));
        assert_eq!(request(ThreadVerb::Resolve).check(), Ok(()));
        let mut zero = request(ThreadVerb::Unresolve);
        zero.pull_request = 0;
        assert_eq!(zero.check(), Err(ThreadInputError::ZeroPr));
    }

    #[test]
    fn requests_round_trip_through_json() {
        let r = request(ThreadVerb::Reply { body: "ok".into() });
        let text = serde_json::to_string(&r).unwrap_or_default();
        assert!(text.contains(r#""action":"reply""#), "{text}");
        assert_eq!(serde_json::from_str::<ThreadRequest>(&text).ok(), Some(r));
        let r = request(ThreadVerb::Resolve);
        let text = serde_json::to_string(&r).unwrap_or_default();
        assert_eq!(serde_json::from_str::<ThreadRequest>(&text).ok(), Some(r));
    }
}
