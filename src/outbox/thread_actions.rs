//! Thread actions (reply, resolve, unresolve) kept on disk until GitHub has
//! done them: a kind of entry of its own, in `threads/` under the outbox
//! directory, so the decision entries beside it are never confused with it.
//!
//! An action is written before the first request and removed once it is
//! done or refused; after a failure it stays, and the next attempt of the
//! same action (same id) looks for an earlier reply before posting one.

use super::entry::is_entry_id;
use super::json_dir::{Claim, JsonDir};
use super::store::OutboxError;
use crate::github::thread_action::{ThreadOutcome, ThreadRequest};
use crate::time::now_rfc3339;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// One kept thread action. Never holds a token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadEntry {
    /// 16 lowercase hex digits derived from the action itself, so the same
    /// action kept twice is one entry.
    pub id: String,
    /// When it was first kept (UTC, RFC 3339).
    pub created_at: String,
    #[serde(flatten)]
    pub request: ThreadRequest,
    /// Attempts made so far.
    #[serde(default)]
    pub attempts: u32,
    /// How the last attempt ended (one line; may quote GitHub: sanitise before display).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_outcome: Option<String>,
    /// The GitHub API the action is sent to (its base URL), written before
    /// the first request; an attempt that talks to another API does not
    /// send it (see [`crate::outbox::Entry::api`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api: Option<String>,
}

impl ThreadEntry {
    /// A new entry for `request` (not yet written).
    pub fn new(request: ThreadRequest) -> ThreadEntry {
        ThreadEntry {
            id: thread_entry_id(&request),
            created_at: now_rfc3339(),
            request,
            attempts: 0,
            last_outcome: None,
            api: None,
        }
    }
}

/// 16 hex digits of SHA-256 over the action's fields.
pub fn thread_entry_id(request: &ThreadRequest) -> String {
    let fields = serde_json::json!(["thread", request]);
    let digest = Sha256::digest(fields.to_string().as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The thread-action directory.
#[derive(Debug, Clone)]
pub struct ThreadStore {
    files: JsonDir,
}

impl ThreadStore {
    /// Opens (creating it, owner-only) the store at `dir`.
    pub fn open(dir: impl Into<PathBuf>) -> Result<ThreadStore, OutboxError> {
        Ok(ThreadStore {
            files: JsonDir::open(dir, is_entry_id)?,
        })
    }

    /// Opens `outbox/threads/` under the state directory.
    pub fn open_default() -> Result<ThreadStore, OutboxError> {
        ThreadStore::open(super::default_dir()?.join("threads"))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        self.files.dir()
    }

    /// Keeps `request`: the entry already there for the same action (with
    /// its attempts), or a new one written now.
    pub fn keep(&self, request: ThreadRequest) -> Result<ThreadEntry, OutboxError> {
        let fresh = ThreadEntry::new(request);
        if let Some(old) = self.get(&fresh.id)? {
            return Ok(old);
        }
        self.put(&fresh)?;
        Ok(fresh)
    }

    /// Writes an entry atomically.
    pub fn put(&self, entry: &ThreadEntry) -> Result<(), OutboxError> {
        self.files.put(&entry.id, entry)
    }

    /// Reads one entry; `None` when there is none with that id (a file whose
    /// id inside differs from its name is [`OutboxError::Corrupt`]).
    pub fn get(&self, id: &str) -> Result<Option<ThreadEntry>, OutboxError> {
        self.files.get(id, |e: &ThreadEntry| &e.id)
    }

    /// Every readable entry, oldest first; the number of damaged files.
    pub fn list(&self) -> Result<(Vec<ThreadEntry>, usize), OutboxError> {
        let found = self.files.list(|e: &ThreadEntry| &e.id)?;
        let mut entries = found.values;
        entries.sort_by(|a, b| (&a.created_at, &a.id).cmp(&(&b.created_at, &b.id)));
        Ok((entries, found.unreadable.len()))
    }

    /// Stores how an attempt ended: done or refused removes the entry (a
    /// refusal is not retried unchanged), a failure keeps it for a retry.
    /// Only the holder of the entry's claim (its sender) settles it, which
    /// `held` stands for.
    pub fn settle(&self, held: &Claim, entry: &ThreadEntry, outcome: &ThreadOutcome) -> Result<(), OutboxError> {
        match outcome {
            ThreadOutcome::Done(_) | ThreadOutcome::Refused(_) => self.remove_claimed(held, &entry.id).map(|_| ()),
            ThreadOutcome::Failed { .. } => {
                let mut kept = entry.clone();
                kept.attempts = kept.attempts.saturating_add(1);
                kept.last_outcome = Some(outcome.summary());
                self.put(&kept)
            }
        }
    }

    /// Drops an entry (and its claim file); false when there was none. The
    /// entry's claim is taken first, so an action another process is
    /// sending right now is not dropped ([`OutboxError::Busy`], nothing
    /// removed): that sender settles it.
    pub fn remove(&self, id: &str) -> Result<bool, OutboxError> {
        let held = self.files.claim(id)?;
        self.remove_claimed(&held, id)
    }

    /// Removes an entry whose claim `_held` is held here, and its claim
    /// file (whether or not the entry was still there).
    fn remove_claimed(&self, _held: &Claim, id: &str) -> Result<bool, OutboxError> {
        let removed = self.files.remove(id)?;
        self.files.remove_claim_file(id)?;
        Ok(removed)
    }

    /// Claims an entry for one attempt, so that two processes never send
    /// the same action at once ([`OutboxError::Busy`] when already claimed).
    /// Read the entry again under the claim: another process may have
    /// settled it meanwhile.
    pub fn claim(&self, id: &str) -> Result<Claim, OutboxError> {
        self.files.claim(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::thread_action::{ThreadDone, ThreadVerb};

    fn request(body: &str) -> ThreadRequest {
        ThreadRequest {
            repository: "o/r".into(),
            pull_request: 3,
            fingerprint: "defect:a".into(),
            expected_head: None,
            verb: ThreadVerb::Reply { body: body.into() },
        }
    }

    #[test]
    fn kept_until_done_one_entry_per_action() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = ThreadStore::open(dir.path().join("threads")).expect("open");
        let first = store.keep(request("checked")).expect("keep");
        let failed = ThreadOutcome::Failed { reason: "down".into() };
        store
            .settle(&store.claim(&first.id).expect("claim"), &first, &failed)
            .expect("settle");
        let again = store.keep(request("checked")).expect("keep again");
        assert_eq!((again.id.as_str(), again.attempts), (first.id.as_str(), 1));
        assert_ne!(store.keep(request("other")).expect("keep").id, first.id);
        assert_eq!(store.list().expect("list").0.len(), 2);
        let done = ThreadOutcome::Done(ThreadDone::Replied {
            url: None,
            already: true,
        });
        store
            .settle(&store.claim(&again.id).expect("claim"), &again, &done)
            .expect("settle");
        let (left, unreadable) = store.list().expect("list");
        assert_eq!((left.len(), unreadable), (1, 0));
        std::fs::write(store.dir().join("0123456789abcdef.json"), b"{").expect("write");
        assert_eq!(store.list().expect("list").1, 1);
    }

    #[test]
    fn an_action_being_sent_is_not_dropped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = ThreadStore::open(dir.path().join("threads")).expect("open");
        let entry = store.keep(request("words")).expect("keep");
        let sending = store.claim(&entry.id).expect("claim");
        let refused = store.remove(&entry.id);
        assert!(matches!(refused, Err(OutboxError::Busy { .. })), "{refused:?}");
        assert_eq!(
            store.get(&entry.id).expect("get"),
            Some(entry.clone()),
            "nothing removed"
        );
        drop(sending);
        assert!(
            store.remove(&entry.id).expect("remove"),
            "dropped once its sender is done"
        );
        assert_eq!(
            std::fs::read_dir(store.dir()).expect("list").count(),
            0,
            "no claim file left"
        );
    }
}
