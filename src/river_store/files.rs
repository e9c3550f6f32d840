//! The thin I/O layer: where River's files live, locks, atomic replacement
//! and appends.
//!
//! Concurrency: each read-modify-write of the memory index, and each feedback
//! append, runs under an exclusive advisory lock (std's `File::lock`, `flock`
//! on Unix), so writers in other processes or threads never lose each other's
//! entries. No lock file is created in the repository: a feedback append locks
//! the log file it appends to, and an index update locks the directory
//! `.river/memory/` itself (the index file cannot carry the lock, because it
//! is replaced by a rename and a lock on the old file would not guard the new
//! one). The index is replaced atomically ([`crate::atomic_write`]), so a reader
//! sees the old or the new index, never half of one. River Review itself
//! takes none of these locks; how an index River rewrites meanwhile is
//! replaced without losing its entries is [`super::replace`]'s.

use crate::atomic_write::Access;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The largest memory index read (anything bigger is refused, not truncated).
pub const MAX_INDEX_BYTES: u64 = 64 * 1024 * 1024;

/// Paths of River's files under one repository root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RiverPaths {
    pub root: PathBuf,
}

impl RiverPaths {
    /// River's files under `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        RiverPaths { root: root.into() }
    }

    /// `<root>/.river/memory/index.json`.
    pub fn index(&self) -> PathBuf {
        self.root.join(".river").join("memory").join("index.json")
    }

    /// `<root>/.river/memory/`, the directory locked while the index is updated.
    pub fn index_dir(&self) -> PathBuf {
        self.root.join(".river").join("memory")
    }

    /// `<root>/.river/feedback/<YYYY-MM>.jsonl`.
    pub fn feedback(&self, month: &str) -> PathBuf {
        self.root.join(".river").join("feedback").join(format!("{month}.jsonl"))
    }
}

/// An exclusive lock, released when dropped (closing the handle releases it).
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

/// Takes the exclusive lock on the directory `dir` itself (creating it if
/// needed), so no lock file is left behind. Blocks until other holders
/// release it.
pub fn lock_dir(dir: &Path) -> io::Result<Lock> {
    fs::create_dir_all(dir)?;
    let file = File::open(dir)?;
    file.lock()?;
    Ok(Lock { _file: file })
}

/// The bytes of `path`, or `None` when it does not exist.
pub fn read_optional(path: &Path) -> io::Result<Option<Vec<u8>>> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::new();
    file.take(MAX_INDEX_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INDEX_BYTES {
        let message = format!("larger than {MAX_INDEX_BYTES} bytes; refusing to rewrite it");
        return Err(io::Error::new(io::ErrorKind::InvalidData, message));
    }
    Ok(Some(bytes))
}

/// An atomic replacement of `path` ([`crate::atomic_write`]) up to the
/// rename: the bytes are written and flushed next to `path` (its directory
/// created first) and put in place by
/// [`crate::atomic_write::Staged::commit`]. Keeps the permissions of the
/// file it replaces.
pub fn stage(path: &Path, bytes: &[u8]) -> io::Result<crate::atomic_write::Staged> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::other("the index path has no directory"))?;
    fs::create_dir_all(dir)?;
    crate::atomic_write::stage(path, bytes, Access::KeepExisting)
}

/// Appends one line (a newline is added) to `path` in a single write, first
/// ending an unterminated last line so entries never run together. The file
/// itself is locked for the append (its directory is created if needed).
pub fn append_line(path: &Path, line: &str) -> io::Result<()> {
    append_line_unless(path, line, |_| false).map(|_| ())
}

/// [`append_line`], unless `present` says, of the file's text as it stands
/// under the lock, that the line is already there: then nothing is written
/// and false is returned.
pub fn append_line_unless(path: &Path, line: &str, present: impl FnOnce(&str) -> bool) -> io::Result<bool> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let mut file = OpenOptions::new().read(true).append(true).create(true).open(path)?;
    file.lock()?;
    let mut before = Vec::new();
    (&file).take(MAX_INDEX_BYTES).read_to_end(&mut before)?;
    if present(&String::from_utf8_lossy(&before)) {
        return Ok(false);
    }
    let len = file.metadata()?.len();
    let mut text = String::with_capacity(line.len() + 2);
    if len > 0 {
        let mut last = [0u8; 1];
        file.seek(SeekFrom::Start(len - 1))?;
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            text.push('\n');
        }
    }
    text.push_str(line);
    text.push('\n');
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("index.json");
        stage(&path, b"one").unwrap().commit().unwrap();
        stage(&path, b"two").unwrap().commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["index.json"]);
    }

    #[test]
    fn append_terminates_a_dangling_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.jsonl");
        append_line(&path, "{\"a\":1}").unwrap();
        fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"partial\":")
            .unwrap();
        append_line(&path, "{\"b\":2}").unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\"a\":1}\n{\"partial\":\n{\"b\":2}\n"
        );
    }

    #[test]
    fn read_optional_distinguishes_absent() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_optional(&dir.path().join("none")).unwrap(), None);
        fs::write(dir.path().join("x"), b"abc").unwrap();
        assert_eq!(
            read_optional(&dir.path().join("x")).unwrap().as_deref(),
            Some(&b"abc"[..])
        );
    }

    #[test]
    fn directory_lock_is_exclusive_and_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l");
        let held = lock_dir(&path).unwrap();
        let other = File::open(&path).unwrap();
        assert!(matches!(other.try_lock(), Err(fs::TryLockError::WouldBlock)));
        drop(held);
        assert!(other.try_lock().is_ok());
        assert_eq!(fs::read_dir(&path).unwrap().count(), 0);
    }
}
