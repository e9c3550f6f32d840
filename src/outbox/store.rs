//! The outbox directory: entries in a [`JsonDir`], listing, removal, claims.

use super::entry::{Entry, LastOutcome, is_entry_id};
pub use super::json_dir::Claim;
use super::json_dir::JsonDir;
use crate::decision::outcome::Outcome;
use crate::time::now_rfc3339;
use std::path::{Path, PathBuf};

/// Errors of the outbox. Paths are the user's own; no secret is ever inside.
#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    /// A file operation failed.
    #[error("outbox: {action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    /// An entry file is not an entry.
    #[error("outbox: {path} is not a readable entry: {message}")]
    Corrupt { path: PathBuf, message: String },
    /// No home directory and no state directory variable.
    #[error("outbox: cannot tell where to keep decisions (set TRIAGE_STATE_DIR or XDG_STATE_HOME)")]
    NoStateDir,
    /// Not an entry id.
    #[error("outbox: {id:?} is not an entry id (16 lowercase hex digits; see `triage outbox list`)")]
    BadId { id: String },
    /// No such entry.
    #[error("outbox: no entry {id}")]
    NotFound { id: String },
    /// Another process holds the entry's claim (it is sending it right
    /// now): it is neither sent nor dropped here.
    #[error("outbox: entry {id} is being sent by another triage process; try again when it finishes")]
    Busy { id: String },
}

/// All entries, oldest first, and the files that could not be read.
#[derive(Debug, Default)]
pub struct Listing {
    pub entries: Vec<Entry>,
    /// `(file, reason)` for entry files that are damaged (kept, never deleted).
    pub unreadable: Vec<(PathBuf, String)>,
}

/// An outbox directory.
#[derive(Debug, Clone)]
pub struct Outbox {
    files: JsonDir,
}

impl Outbox {
    /// Opens (creating it, owner-only) the outbox at `dir`.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Outbox, OutboxError> {
        Ok(Outbox {
            files: JsonDir::open(dir, is_entry_id)?,
        })
    }

    /// Opens the default outbox (see the module documentation).
    pub fn open_default() -> Result<Outbox, OutboxError> {
        Outbox::open(super::default_dir()?)
    }

    /// The outbox at `dir` for reading only: nothing is created or changed on
    /// disk, and `None` when the directory does not exist (an empty outbox).
    pub fn existing(dir: impl Into<PathBuf>) -> Option<Outbox> {
        JsonDir::existing(dir, is_entry_id).map(|files| Outbox { files })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        self.files.dir()
    }

    /// Writes an entry atomically (replacing one with the same id).
    pub fn put(&self, entry: &Entry) -> Result<(), OutboxError> {
        self.files.put(&entry.id, entry)
    }

    /// Reads one entry; `None` when there is none with that id.
    pub fn get(&self, id: &str) -> Result<Option<Entry>, OutboxError> {
        self.files.get(id, entry_id)
    }

    /// Every entry, oldest first (damaged files are reported, not dropped).
    pub fn list(&self) -> Result<Listing, OutboxError> {
        let found = self.files.list(entry_id)?;
        let mut entries = found.values;
        entries.sort_by(|a, b| (&a.created_at, &a.id).cmp(&(&b.created_at, &b.id)));
        Ok(Listing {
            entries,
            unreadable: found.unreadable,
        })
    }

    /// Drops an entry (and its claim file), flushed to disk: a dropped or
    /// replaced decision never comes back after a crash. False when there
    /// was none. The entry's claim is taken first, so an entry another
    /// process is sending right now is not dropped ([`OutboxError::Busy`],
    /// nothing removed): that sender settles it, and whether the decision
    /// was recorded is then known. A drop that went ahead under a sender's
    /// feet would say "dropped" while the sender posts it anyway.
    pub fn remove(&self, id: &str) -> Result<bool, OutboxError> {
        let _claim = self.files.claim(id)?;
        let removed = self.files.remove(id)?;
        self.files.remove_claim_file(id)?;
        Ok(removed)
    }

    /// Removes the entry of a decision GitHub was seen to hold (and its
    /// claim file) without waiting for the disk, so a recorded decision
    /// does not end on a directory flush. Only the holder of the entry's
    /// claim (its sender) removes it so, which `_held` stands for. A crash
    /// soon after may bring the entry back; sending it again then finds the
    /// decision already recorded (the pull request's ledger is read before
    /// anything is posted) and removes it, posting nothing. False when
    /// there was none.
    pub fn remove_recorded(&self, _held: &Claim, id: &str) -> Result<bool, OutboxError> {
        let removed = self.files.remove_unflushed(id)?;
        self.unclaim(id, removed)
    }

    fn unclaim(&self, id: &str, removed: bool) -> Result<bool, OutboxError> {
        if removed {
            self.files.remove_claim_file(id)?;
        }
        Ok(removed)
    }

    /// Counts an attempt and stores its outcome; returns the updated entry.
    pub fn mark_attempt(&self, id: &str, outcome: &Outcome) -> Result<Entry, OutboxError> {
        let mut entry = self
            .get(id)?
            .ok_or_else(|| OutboxError::NotFound { id: id.to_owned() })?;
        entry.attempts = entry.attempts.saturating_add(1);
        entry.last_attempt_at = Some(now_rfc3339());
        entry.last_outcome = Some(LastOutcome::of(outcome));
        self.put(&entry)?;
        Ok(entry)
    }

    /// Writes down that a clean-up DELETE of `comment_id` is about to be
    /// sent for entry `id` (before it is sent).
    pub fn note_delete(&self, id: &str, comment_id: u64) -> Result<(), OutboxError> {
        let mut entry = self
            .get(id)?
            .ok_or_else(|| OutboxError::NotFound { id: id.to_owned() })?;
        if !entry.pending_deletes.contains(&comment_id) {
            entry.pending_deletes.push(comment_id);
            self.put(&entry)?;
        }
        Ok(())
    }

    /// Notes that the comment of a clean-up DELETE is gone.
    pub fn delete_done(&self, id: &str, comment_id: u64) -> Result<(), OutboxError> {
        let Some(mut entry) = self.get(id)? else {
            return Ok(());
        };
        if entry.pending_deletes.contains(&comment_id) {
            entry.pending_deletes.retain(|c| *c != comment_id);
            self.put(&entry)?;
        }
        Ok(())
    }

    /// Claims an entry for one submission, so that two processes never send
    /// the same decision at once. [`OutboxError::Busy`] when already claimed.
    pub fn claim(&self, id: &str) -> Result<Claim, OutboxError> {
        self.files.claim(id)
    }
}

fn entry_id(entry: &Entry) -> &str {
    &entry.id
}

pub(super) fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> OutboxError + use<> {
    let path = path.to_owned();
    move |source| OutboxError::Io { action, path, source }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::decide::Step;
    use crate::decision::draft::Draft;
    use crate::github::error::GhError;
    use crate::model::finding::SubmittedDisposition;
    use std::fs;

    fn entry(evidence: &str) -> Entry {
        Entry::new(
            Draft {
                repository: "o/r".into(),
                pull_request: 3,
                reviewed_sha: "abc".into(),
                fingerprint: "defect:a:b".into(),
                status: SubmittedDisposition::Fixed,
                evidence: evidence.into(),
                actor: None,
            },
            None,
        )
    }

    #[test]
    fn put_get_list_remove() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(dir.path().join("outbox")).unwrap();
        let (a, b) = (entry("a"), entry("b"));
        outbox.put(&a).unwrap();
        outbox.put(&b).unwrap();
        assert_eq!(outbox.get(&a.id).unwrap(), Some(a.clone()));
        let listing = outbox.list().unwrap();
        assert_eq!(listing.entries.len(), 2);
        assert!(listing.unreadable.is_empty());
        assert!(outbox.remove(&a.id).unwrap());
        assert!(!outbox.remove(&a.id).unwrap());
        assert_eq!(outbox.get(&a.id).unwrap(), None);
        let names: Vec<_> = fs::read_dir(outbox.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            names,
            vec![std::ffi::OsString::from(format!("{}.json", b.id))],
            "no temporary files left"
        );
        let held = outbox.claim(&b.id).unwrap();
        assert!(
            outbox.remove_recorded(&held, &b.id).unwrap(),
            "a recorded entry goes too"
        );
        assert!(!outbox.remove_recorded(&held, &b.id).unwrap());
        drop(held);
        assert_eq!(fs::read_dir(outbox.dir()).unwrap().count(), 0, "with its claim file");
    }

    #[test]
    fn attempts_are_counted_with_their_outcome() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(dir.path()).unwrap();
        let e = entry("x");
        outbox.put(&e).unwrap();
        let failed = Outcome::Failed {
            step: Step::Comment,
            error: GhError::Timeout {
                after: Default::default(),
            },
            comment_left: None,
        };
        let after = outbox.mark_attempt(&e.id, &failed).unwrap();
        assert_eq!(after.attempts, 1);
        assert_eq!(
            outbox.get(&e.id).unwrap().unwrap().last_outcome.unwrap().kind,
            super::super::OutcomeKind::Failed
        );
        assert!(matches!(
            outbox.mark_attempt("0123456789abcdef", &failed),
            Err(OutboxError::NotFound { .. })
        ));
    }

    #[test]
    fn ids_cannot_name_other_files_and_damaged_files_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(dir.path()).unwrap();
        assert!(matches!(outbox.get("../x"), Err(OutboxError::BadId { .. })));
        assert!(matches!(outbox.remove("x.json"), Err(OutboxError::BadId { .. })));
        fs::write(dir.path().join("0123456789abcdef.json"), b"{not json").unwrap();
        fs::write(dir.path().join("notes.txt"), b"ignored").unwrap();
        let listing = outbox.list().unwrap();
        assert!(listing.entries.is_empty());
        assert_eq!(listing.unreadable.len(), 1);
    }

    #[test]
    fn threads_saving_one_entry_at_once_all_succeed() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(dir.path()).unwrap();
        let e = entry("saved from four threads");
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..25 {
                        outbox.put(&e).expect("each write has its own temporary file");
                    }
                });
            }
        });
        assert_eq!(outbox.get(&e.id).unwrap(), Some(e.clone()));
        let names: Vec<_> = fs::read_dir(outbox.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from(format!("{}.json", e.id))]);
    }

    #[test]
    fn a_claim_excludes_a_second_one() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(dir.path()).unwrap();
        let e = entry("x");
        let first = outbox.claim(&e.id).unwrap();
        assert!(matches!(outbox.claim(&e.id), Err(OutboxError::Busy { .. })));
        drop(first);
        assert!(outbox.claim(&e.id).is_ok());
    }

    #[test]
    fn an_entry_being_sent_is_not_dropped_and_a_drop_leaves_no_claim_file() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(dir.path()).unwrap();
        let e = entry("x");
        outbox.put(&e).unwrap();
        let sending = outbox.claim(&e.id).unwrap();
        let refused = outbox.remove(&e.id);
        assert!(matches!(refused, Err(OutboxError::Busy { .. })), "{refused:?}");
        let message = refused.unwrap_err().to_string();
        assert!(message.contains("being sent by another triage"), "{message}");
        assert!(message.contains("try again when it finishes"), "{message}");
        assert_eq!(outbox.get(&e.id).unwrap(), Some(e.clone()), "nothing removed");
        drop(sending);
        assert!(outbox.remove(&e.id).unwrap(), "dropped once its sender is done");
        assert!(!outbox.remove("0123456789abcdef").unwrap(), "no such entry");
        assert_eq!(fs::read_dir(outbox.dir()).unwrap().count(), 0, "no claim file left");
    }

    #[cfg(unix)]
    #[test]
    fn files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(dir.path().join("o")).unwrap();
        let e = entry("x");
        outbox.put(&e).unwrap();
        let mode = fs::metadata(outbox.dir().join(format!("{}.json", e.id)))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
