//! The one way `triage` replaces a file: readers see the old or the new
//! content, never a part, and the replacement survives a crash.
//!
//! A uniquely named temporary file (`tempfile`, created exclusively next to
//! the target, `.{name}.XXXXXX.tmp`) is written, flushed to disk, renamed over
//! the target, and then the directory itself is flushed so the rename sticks.
//! Every call gets its own temporary name, so two threads (or processes)
//! writing the same target never share one; the last rename wins whole. On
//! any failure the temporary file is removed.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Who may read the file once written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Owner read/write only (`0600` on Unix), whatever the umask allows more.
    OwnerOnly,
    /// As any new file of the user's (`0666` less the umask).
    Ordinary,
    /// The permissions of the file being replaced; [`Access::Ordinary`] for a new one.
    KeepExisting,
}

/// Replaces `path` with `bytes` atomically (see the module documentation).
/// The directory must exist; a bare file name means the current directory.
pub fn write_atomic(path: &Path, bytes: &[u8], access: Access) -> io::Result<()> {
    stage(path, bytes, access)?.commit()
}

/// A replacement written and flushed to disk but not yet renamed over its
/// target: [`Staged::commit`] puts it in place; dropped, it is removed and
/// the target stays as it was. (For a writer that checks the target once
/// more between the slow flush and the rename.)
#[derive(Debug)]
pub struct Staged {
    temp: tempfile::NamedTempFile,
    path: PathBuf,
    dir: PathBuf,
}

/// The first half of [`write_atomic`]: `bytes` in a temporary file next to
/// `path`, flushed to disk.
pub fn stage(path: &Path, bytes: &[u8], access: Access) -> io::Result<Staged> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = if access == Access::OwnerOnly { 0o600 } else { 0o666 };
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    let mut temp = builder.tempfile_in(dir)?;
    temp.write_all(bytes)?;
    if access == Access::KeepExisting
        && let Ok(meta) = std::fs::metadata(path)
    {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    temp.as_file().sync_all()?;
    Ok(Staged {
        temp,
        path: path.to_owned(),
        dir: dir.to_owned(),
    })
}

impl Staged {
    /// The second half of [`write_atomic`]: renames the flushed file over
    /// its target, then flushes the directory.
    pub fn commit(self) -> io::Result<()> {
        self.temp.persist(&self.path).map_err(|e| e.error)?;
        sync_dir(&self.dir);
        Ok(())
    }
}

/// Flushes a directory's entries (a rename or removal) to disk. Best effort:
/// not every platform can open a directory.
pub fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replaces_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.json");
        write_atomic(&path, b"one", Access::Ordinary).expect("first");
        write_atomic(&path, b"two", Access::Ordinary).expect("second");
        assert_eq!(fs::read(&path).expect("read"), b"two");
        assert_eq!(names(dir.path()), ["a.json"]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("taken");
        fs::create_dir(&target).expect("a directory where the file should go");
        fs::write(target.join("inside"), b"x").expect("fill it");
        assert!(write_atomic(&target, b"new", Access::Ordinary).is_err());
        assert_eq!(names(dir.path()), ["taken"]);
        assert!(write_atomic(&dir.path().join("no/such/dir/f"), b"x", Access::Ordinary).is_err());
    }

    #[test]
    fn a_staged_replacement_is_in_place_only_once_committed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("s.json");
        fs::write(&path, b"old").expect("seed");
        drop(stage(&path, b"dropped", Access::Ordinary).expect("stage"));
        assert_eq!(fs::read(&path).expect("read"), b"old");
        assert_eq!(names(dir.path()), ["s.json"], "a dropped stage leaves nothing");
        let staged = stage(&path, b"new", Access::Ordinary).expect("stage");
        assert_eq!(fs::read(&path).expect("read"), b"old", "not yet in place");
        staged.commit().expect("commit");
        assert_eq!(fs::read(&path).expect("read"), b"new");
        assert_eq!(names(dir.path()), ["s.json"]);
    }

    #[test]
    fn threads_writing_one_target_never_share_a_temporary() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("e.json");
        let bodies: Vec<Vec<u8>> = (0..8u8).map(|i| vec![b'a' + i; 64 * 1024]).collect();
        std::thread::scope(|s| {
            for body in &bodies {
                let path = &path;
                s.spawn(move || {
                    for _ in 0..10 {
                        write_atomic(path, body, Access::OwnerOnly).expect("write");
                    }
                });
            }
        });
        let last = fs::read(&path).expect("read");
        assert!(bodies.contains(&last), "the file is one whole body");
        assert_eq!(names(dir.path()), ["e.json"]);
    }

    #[cfg(unix)]
    #[test]
    fn access_sets_or_keeps_the_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let mode = |p: &Path| fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        let private = dir.path().join("private");
        write_atomic(&private, b"x", Access::OwnerOnly).expect("write");
        assert_eq!(mode(&private), 0o600);
        let kept = dir.path().join("kept");
        fs::write(&kept, b"old").expect("seed");
        fs::set_permissions(&kept, fs::Permissions::from_mode(0o640)).expect("chmod");
        write_atomic(&kept, b"new", Access::KeepExisting).expect("write");
        assert_eq!(mode(&kept), 0o640);
        let ordinary = dir.path().join("ordinary");
        write_atomic(&ordinary, b"x", Access::Ordinary).expect("write");
        assert_eq!(mode(&ordinary) & 0o600, 0o600, "at least the owner's");
    }
}
