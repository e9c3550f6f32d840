//! The outbox directory: atomic writes, listing, removal, claims.

use super::entry::{Entry, LastOutcome, is_entry_id};
use crate::github::protocol::Outcome;
use crate::github::time::now_rfc3339;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How often a held claim lock is tried before it counts as held elsewhere.
const CLAIM_TRIES: u32 = 25;
/// The pause between two tries (25 tries: a quarter of a second at most).
const CLAIM_PAUSE: std::time::Duration = std::time::Duration::from_millis(10);

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
    /// Another process is submitting this entry right now.
    #[error("outbox: entry {id} is being submitted by another triage process")]
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
    dir: PathBuf,
}

/// An exclusive claim on one entry while it is being submitted (an
/// advisory lock; released on drop).
#[derive(Debug)]
pub struct Claim {
    _file: File,
}

impl Outbox {
    /// Opens (creating it, owner-only) the outbox at `dir`.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Outbox, OutboxError> {
        let dir = dir.into();
        fs::create_dir_all(&dir).map_err(io("create", &dir))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).map_err(io("protect", &dir))?;
        }
        Ok(Outbox { dir })
    }

    /// Opens the default outbox (see the module documentation).
    pub fn open_default() -> Result<Outbox, OutboxError> {
        Outbox::open(super::default_dir()?)
    }

    /// The outbox at `dir` for reading only: nothing is created or changed on
    /// disk, and `None` when the directory does not exist (an empty outbox).
    pub fn existing(dir: impl Into<PathBuf>) -> Option<Outbox> {
        let dir = dir.into();
        dir.is_dir().then_some(Outbox { dir })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path_of(&self, id: &str) -> Result<PathBuf, OutboxError> {
        if !is_entry_id(id) {
            return Err(OutboxError::BadId { id: id.to_owned() });
        }
        Ok(self.dir.join(format!("{id}.json")))
    }

    /// Writes an entry atomically (replacing one with the same id).
    pub fn put(&self, entry: &Entry) -> Result<(), OutboxError> {
        let path = self.path_of(&entry.id)?;
        let mut bytes = serde_json::to_vec_pretty(entry).map_err(|e| OutboxError::Corrupt {
            path: path.clone(),
            message: e.to_string(),
        })?;
        bytes.push(b'\n');
        write_atomic(&self.dir, &path, &bytes)
    }

    /// Reads one entry; `None` when there is none with that id.
    pub fn get(&self, id: &str) -> Result<Option<Entry>, OutboxError> {
        let path = self.path_of(id)?;
        match fs::read(&path) {
            Ok(bytes) => parse(&path, &bytes).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io("read", &path)(e)),
        }
    }

    /// Every entry, oldest first (damaged files are reported, not dropped).
    pub fn list(&self) -> Result<Listing, OutboxError> {
        let mut listing = Listing::default();
        for item in fs::read_dir(&self.dir).map_err(io("list", &self.dir))? {
            let path = item.map_err(io("list", &self.dir))?.path();
            let is_entry = path.extension().is_some_and(|e| e == "json")
                && path.file_stem().and_then(|s| s.to_str()).is_some_and(is_entry_id);
            if !is_entry {
                continue;
            }
            match fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|b| parse(&path, &b).map_err(|e| e.to_string()))
            {
                Ok(entry) => listing.entries.push(entry),
                Err(reason) => listing.unreadable.push((path, reason)),
            }
        }
        listing
            .entries
            .sort_by(|a, b| (&a.created_at, &a.id).cmp(&(&b.created_at, &b.id)));
        Ok(listing)
    }

    /// Removes an entry; false when there was none.
    pub fn remove(&self, id: &str) -> Result<bool, OutboxError> {
        let path = self.path_of(id)?;
        match fs::remove_file(&path) {
            Ok(()) => {
                let _ = fs::remove_file(path.with_extension("lock"));
                sync_dir(&self.dir);
                Ok(true)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(io("remove", &path)(e)),
        }
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
        let path = self.path_of(id)?.with_extension("lock");
        let mut options = OpenOptions::new();
        options.create(true).truncate(false).write(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let file = options.open(&path).map_err(io("lock", &path))?;
        // A lock released a moment ago can still be held for a few
        // milliseconds by a child process forked meanwhile by another thread
        // (it shares the open file until its exec closes it), so a held lock
        // is tried again for a short while before it counts as claimed
        // elsewhere.
        for _ in 0..CLAIM_TRIES {
            match file.try_lock() {
                Ok(()) => return Ok(Claim { _file: file }),
                Err(std::fs::TryLockError::WouldBlock) => std::thread::sleep(CLAIM_PAUSE),
                Err(std::fs::TryLockError::Error(e)) => return Err(io("lock", &path)(e)),
            }
        }
        Err(OutboxError::Busy { id: id.to_owned() })
    }
}

fn parse(path: &Path, bytes: &[u8]) -> Result<Entry, OutboxError> {
    let entry: Entry = serde_json::from_slice(bytes).map_err(|e| OutboxError::Corrupt {
        path: path.to_owned(),
        message: e.to_string(),
    })?;
    let named = path.file_stem().and_then(|s| s.to_str());
    if named != Some(entry.id.as_str()) {
        return Err(OutboxError::Corrupt {
            path: path.to_owned(),
            message: "the id inside does not match the file name".into(),
        });
    }
    Ok(entry)
}

pub(super) fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> OutboxError + use<> {
    let path = path.to_owned();
    move |source| OutboxError::Io { action, path, source }
}

/// Temporary file in the same directory, written and fsynced, renamed over
/// the target, then the directory fsynced: readers see the old or the new
/// file, never a part.
pub(super) fn write_atomic(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), OutboxError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("entry");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut options = OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&tmp).map_err(io("write", &tmp))?;
        file.write_all(bytes).map_err(io("write", &tmp))?;
        file.sync_all().map_err(io("sync", &tmp))?;
        fs::rename(&tmp, path).map_err(io("rename", path))?;
        sync_dir(dir);
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Fsyncs a directory so a rename or removal survives a crash (best effort:
/// not every platform can open a directory).
pub(super) fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::decide::Step;
    use crate::github::draft::Draft;
    use crate::github::error::GhError;
    use crate::model::finding::SubmittedDisposition;

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
    fn a_claim_excludes_a_second_one() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::open(dir.path()).unwrap();
        let e = entry("x");
        let first = outbox.claim(&e.id).unwrap();
        assert!(matches!(outbox.claim(&e.id), Err(OutboxError::Busy { .. })));
        drop(first);
        assert!(outbox.claim(&e.id).is_ok());
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
