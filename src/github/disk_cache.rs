//! GitHub answers kept on disk between runs, so that a second run asks with
//! `If-None-Match` and an unchanged resource costs a `304` (which GitHub
//! does not count against the rate limit).
//!
//! One file per request path: its name is the SHA-256 of the path (the path
//! and query on the API origin, never a full URL with credentials), its
//! content a header line, the path, the `ETag`, then the body as GitHub sent
//! it. Files are replaced with [`crate::atomic_write`] (owner-only), so a
//! reader sees an old answer or a new one, never a part. The token is never
//! written: only paths (which carry none), `ETag`s and bodies are.
//!
//! A file that does not start with the header, names another path (a hash
//! collision or a hand edit), or is larger than [`MAX_BODY_BYTES`] is
//! ignored: the request then goes out unconditionally.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The first line of every cache file (bumped when the layout changes).
const HEADER: &str = "triage-http-cache v1";
/// The largest body kept (bigger answers are asked for afresh each time).
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// A directory of kept answers. Cheap to clone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiskCache {
    dir: PathBuf,
}

/// One kept answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub etag: String,
    pub body: Vec<u8>,
}

impl DiskCache {
    /// A cache in `dir` (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> DiskCache {
        DiskCache { dir: dir.into() }
    }

    /// The directory the answers live in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn file_of(&self, path: &str) -> PathBuf {
        let digest = Sha256::digest(path.as_bytes());
        let name: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        self.dir.join(format!("{name}.http"))
    }

    /// The answer kept for `path`, if a well-formed one is on disk.
    pub fn load(&self, path: &str) -> Option<Kept> {
        let bytes = std::fs::read(self.file_of(path)).ok()?;
        parse(&bytes, path)
    }

    /// Keeps `body` with its `etag` for `path`. Failures are ignored (the
    /// cache only saves requests; a lost entry costs one full answer).
    pub fn store(&self, path: &str, etag: &str, body: &[u8]) {
        if body.len() > MAX_BODY_BYTES || etag.contains(['\n', '\r']) || path.contains(['\n', '\r']) {
            return;
        }
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let mut out = Vec::with_capacity(body.len() + path.len() + etag.len() + 32);
        for line in [HEADER, path, etag] {
            out.extend_from_slice(line.as_bytes());
            out.push(b'\n');
        }
        out.extend_from_slice(body);
        let written =
            crate::atomic_write::write_atomic(&self.file_of(path), &out, crate::atomic_write::Access::OwnerOnly);
        if let Err(e) = written {
            tracing::debug!(error = %e, "could not keep a GitHub answer on disk");
        }
    }
}

/// Reads a cache file kept for `path`.
fn parse(bytes: &[u8], path: &str) -> Option<Kept> {
    if bytes.len() > MAX_BODY_BYTES + 4096 {
        return None;
    }
    let mut rest = bytes;
    let mut lines = [""; 3];
    for slot in &mut lines {
        let end = rest.iter().position(|b| *b == b'\n')?;
        *slot = std::str::from_utf8(&rest[..end]).ok()?;
        rest = &rest[end + 1..];
    }
    let [header, kept_path, etag] = lines;
    (header == HEADER && kept_path == path && !etag.is_empty()).then(|| Kept {
        etag: etag.to_owned(),
        body: rest.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_round_trips_and_another_path_misses() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = DiskCache::new(dir.path().join("http"));
        assert_eq!(cache.load("/repos/o/r/pulls"), None);
        cache.store("/repos/o/r/pulls?page=1", "W/\"abc\"", b"[1,\n2]");
        let kept = cache.load("/repos/o/r/pulls?page=1").expect("kept");
        assert_eq!(kept.etag, "W/\"abc\"");
        assert_eq!(kept.body, b"[1,\n2]");
        assert_eq!(cache.load("/repos/o/r/pulls?page=2"), None);
    }

    #[test]
    fn a_file_naming_another_path_or_broken_is_ignored() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = DiskCache::new(dir.path());
        cache.store("/a", "e1", b"body");
        let file = cache.file_of("/a");
        let text = std::fs::read_to_string(&file).expect("read");
        std::fs::write(&file, text.replace("\n/a\n", "\n/b\n")).expect("write");
        assert_eq!(cache.load("/a"), None);
        std::fs::write(&file, b"garbage").expect("write");
        assert_eq!(cache.load("/a"), None);
        cache.store("/a", "bad\netag", b"x");
        assert_eq!(cache.load("/a"), None, "an ETag with a newline is never kept");
    }

    #[test]
    fn files_are_owner_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = DiskCache::new(dir.path());
        cache.store("/a", "e", b"{}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(cache.file_of("/a"))
                .expect("meta")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
