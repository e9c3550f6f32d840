//! A directory of JSON files named by id: the storage under the outbox, the
//! thread actions and the drafts.
//!
//! The directory is created and made owner-only (`0700`) once, when it is
//! opened. Each value is one pretty-printed JSON file `{id}.json` (with a
//! final newline), written atomically and owner-only ([`crate::atomic_write`]).
//! An id is checked by the store's own test before it becomes a path, so no
//! id can name another file. A file counts only when its name is such an id
//! and the id inside matches it; anything else in the directory is ignored,
//! and damaged files are reported, never deleted.

use super::store::{OutboxError, io};
use crate::atomic_write::{Access, sync_dir, write_atomic};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fs;
use std::path::{Path, PathBuf};

/// How often a held claim lock is tried before it counts as held elsewhere.
const CLAIM_TRIES: u32 = 25;
/// The pause between two tries (25 tries: a quarter of a second at most).
const CLAIM_PAUSE: std::time::Duration = std::time::Duration::from_millis(10);

/// An exclusive claim on one entry while it is being sent (an advisory
/// lock on `{id}.lock`; released on drop).
#[derive(Debug)]
pub struct Claim {
    _file: fs::File,
}

/// An opened JSON directory whose ids pass `is_id`.
#[derive(Debug, Clone)]
pub struct JsonDir {
    dir: PathBuf,
    is_id: fn(&str) -> bool,
}

/// The readable values of a directory and the files that could not be read.
#[derive(Debug)]
pub struct JsonListing<T> {
    pub values: Vec<T>,
    /// `(file, reason)` for each damaged file.
    pub unreadable: Vec<(PathBuf, String)>,
}

impl JsonDir {
    /// Opens (creating it, owner-only) the directory `dir`.
    pub fn open(dir: impl Into<PathBuf>, is_id: fn(&str) -> bool) -> Result<JsonDir, OutboxError> {
        let dir = dir.into();
        fs::create_dir_all(&dir).map_err(io("create", &dir))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).map_err(io("protect", &dir))?;
        }
        Ok(JsonDir { dir, is_id })
    }

    /// The directory `dir` when it exists, for reading only: nothing is
    /// created or changed on disk.
    pub fn existing(dir: impl Into<PathBuf>, is_id: fn(&str) -> bool) -> Option<JsonDir> {
        let dir = dir.into();
        dir.is_dir().then_some(JsonDir { dir, is_id })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `{dir}/{id}.json`, or [`OutboxError::BadId`] for anything not an id.
    pub fn path_of(&self, id: &str) -> Result<PathBuf, OutboxError> {
        if !(self.is_id)(id) {
            return Err(OutboxError::BadId { id: id.to_owned() });
        }
        Ok(self.dir.join(format!("{id}.json")))
    }

    /// Writes `value` as the file of `id`, atomically, replacing any before it.
    pub fn put<T: Serialize>(&self, id: &str, value: &T) -> Result<(), OutboxError> {
        let path = self.path_of(id)?;
        let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| corrupt(&path, e.to_string()))?;
        bytes.push(b'\n');
        write_atomic(&path, &bytes, Access::OwnerOnly).map_err(io("write", &path))
    }

    /// Reads the value of `id`; `None` when there is no such file.
    pub fn get<T: DeserializeOwned>(&self, id: &str, id_of: fn(&T) -> &str) -> Result<Option<T>, OutboxError> {
        let path = self.path_of(id)?;
        match fs::read(&path) {
            Ok(bytes) => parse(&path, &bytes, id_of).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io("read", &path)(e)),
        }
    }

    /// Every value in the directory (in no particular order) and the damaged files.
    pub fn list<T: DeserializeOwned>(&self, id_of: fn(&T) -> &str) -> Result<JsonListing<T>, OutboxError> {
        let mut listing = JsonListing {
            values: Vec::new(),
            unreadable: Vec::new(),
        };
        for item in fs::read_dir(&self.dir).map_err(io("list", &self.dir))? {
            let path = item.map_err(io("list", &self.dir))?.path();
            let named = path.file_stem().and_then(|s| s.to_str()).is_some_and(self.is_id);
            if !(named && path.extension().is_some_and(|e| e == "json")) {
                continue;
            }
            let read = fs::read(&path).map_err(|e| e.to_string());
            match read.and_then(|b| parse(&path, &b, id_of).map_err(|e| e.to_string())) {
                Ok(value) => listing.values.push(value),
                Err(reason) => listing.unreadable.push((path, reason)),
            }
        }
        Ok(listing)
    }

    /// Removes the file of `id` (and flushes the directory); false when there was none.
    pub fn remove(&self, id: &str) -> Result<bool, OutboxError> {
        let removed = self.remove_unflushed(id)?;
        if removed {
            sync_dir(&self.dir);
        }
        Ok(removed)
    }

    /// Claims entry `id` for one attempt, so that two processes never send
    /// it at once. [`OutboxError::Busy`] when already claimed.
    pub fn claim(&self, id: &str) -> Result<Claim, OutboxError> {
        self.claim_within(id, CLAIM_TRIES)
    }

    /// [`JsonDir::claim`] trying `tries` times (at least once).
    pub fn claim_within(&self, id: &str, tries: u32) -> Result<Claim, OutboxError> {
        let path = self.path_of(id)?.with_extension("lock");
        let mut options = fs::OpenOptions::new();
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
        for _ in 0..tries.max(1) {
            match file.try_lock() {
                Ok(()) => return Ok(Claim { _file: file }),
                Err(fs::TryLockError::WouldBlock) => std::thread::sleep(CLAIM_PAUSE),
                Err(fs::TryLockError::Error(e)) => return Err(io("lock", &path)(e)),
            }
        }
        Err(OutboxError::Busy { id: id.to_owned() })
    }

    /// Removes the claim file of an entry that is gone (best effort).
    pub fn remove_claim_file(&self, id: &str) -> Result<(), OutboxError> {
        let _ = fs::remove_file(self.path_of(id)?.with_extension("lock"));
        Ok(())
    }

    /// Removes the file of `id` without waiting for the disk: a crash soon
    /// after may bring the file back. Only for a removal whose undoing is
    /// harmless (see [`super::Outbox::remove_recorded`]).
    pub fn remove_unflushed(&self, id: &str) -> Result<bool, OutboxError> {
        let path = self.path_of(id)?;
        match fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(io("remove", &path)(e)),
        }
    }
}

/// A value of the file at `path`, whose id must match the file name.
fn parse<T: DeserializeOwned>(path: &Path, bytes: &[u8], id_of: fn(&T) -> &str) -> Result<T, OutboxError> {
    let value: T = serde_json::from_slice(bytes).map_err(|e| corrupt(path, e.to_string()))?;
    let named = path.file_stem().and_then(|s| s.to_str());
    if named != Some(id_of(&value)) {
        return Err(corrupt(path, "the id inside does not match the file name".into()));
    }
    Ok(value)
}

fn corrupt(path: &Path, message: String) -> OutboxError {
    OutboxError::Corrupt {
        path: path.to_owned(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Note {
        id: String,
        text: String,
    }

    fn is_id(id: &str) -> bool {
        id.len() == 4 && id.bytes().all(|b| b.is_ascii_lowercase())
    }

    fn note(id: &str, text: &str) -> Note {
        Note {
            id: id.into(),
            text: text.into(),
        }
    }

    #[test]
    fn the_file_format_is_pretty_json_with_a_final_newline() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = JsonDir::open(tmp.path().join("d"), is_id).expect("open");
        dir.put("abcd", &note("abcd", "é")).expect("put");
        let text = fs::read_to_string(dir.dir().join("abcd.json")).expect("read");
        assert_eq!(text, "{\n  \"id\": \"abcd\",\n  \"text\": \"é\"\n}\n");
        assert_eq!(dir.get("abcd", |n: &Note| &n.id).expect("get"), Some(note("abcd", "é")));
        assert_eq!(dir.get("zzzz", |n: &Note| &n.id).expect("get"), None);
    }

    #[test]
    fn ids_are_checked_and_mismatched_or_damaged_files_reported() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = JsonDir::open(tmp.path(), is_id).expect("open");
        for bad in ["../x", "abcd.json", "ABCD", ""] {
            assert!(matches!(dir.path_of(bad), Err(OutboxError::BadId { .. })), "{bad}");
            assert!(matches!(dir.remove(bad), Err(OutboxError::BadId { .. })), "{bad}");
        }
        dir.put("good", &note("good", "kept")).expect("put");
        fs::write(tmp.path().join("junk.json"), b"{").expect("junk");
        let other = serde_json::to_vec(&note("else", "x")).expect("json");
        fs::write(tmp.path().join("move.json"), other).expect("renamed");
        fs::write(tmp.path().join("notes.txt"), b"ignored").expect("foreign");
        fs::write(tmp.path().join("Long-name.json"), b"{").expect("not an id");
        let listing = dir.list(|n: &Note| &n.id).expect("list");
        assert_eq!(listing.values, vec![note("good", "kept")]);
        let mut reasons: Vec<_> = listing.unreadable.iter().map(|(p, r)| (p.clone(), r.clone())).collect();
        reasons.sort();
        assert_eq!(reasons.len(), 2, "{reasons:?}");
        assert_eq!(reasons[1].0, tmp.path().join("move.json"));
        assert!(reasons[1].1.contains("does not match the file name"), "{reasons:?}");
        assert!(matches!(
            dir.get("move", |n: &Note| &n.id),
            Err(OutboxError::Corrupt { .. })
        ));
        assert!(dir.remove("good").expect("remove"));
        assert!(!dir.remove("good").expect("remove again"));
        assert!(matches!(
            dir.remove_unflushed("../good"),
            Err(OutboxError::BadId { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn directory_and_files_are_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().expect("tempdir");
        let mode = |p: &Path| fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        let dir = JsonDir::open(tmp.path().join("d"), is_id).expect("open");
        dir.put("abcd", &note("abcd", "x")).expect("put");
        assert_eq!((mode(dir.dir()), mode(&dir.dir().join("abcd.json"))), (0o700, 0o600));
    }
}
