//! Reading git objects through one long-lived `git cat-file --batch`
//! process per checkout, started on first use and kept for the session.
//!
//! Object names are built by the checkout from validated parts only (a
//! checked commit id, a checked path). A name holding a line break would end
//! the request early and could ask for a second object, so it is refused
//! here as well. An object larger than the caller's limit is never read into
//! memory: the process is stopped (its unread answer would desynchronise
//! the stream) and a fresh one starts with the next request.

use super::CheckoutError;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::Mutex;

/// The answer for one object name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Object {
    /// The object exists: its full id, its type (`blob`, `commit` ...) and its bytes.
    Found { oid: String, kind: String, bytes: Vec<u8> },
    /// No such object (or path at that commit).
    Missing,
    /// The object is larger than the limit asked for (its size).
    TooLarge { size: u64 },
}

/// A running `git cat-file --batch`.
struct Batch {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Drop for Batch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The object reader of one checkout directory (shared by every job).
pub struct BlobReader {
    dir: PathBuf,
    batch: Mutex<Option<Batch>>,
}

impl std::fmt::Debug for BlobReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlobReader")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl BlobReader {
    /// A reader for the repository at `dir` (nothing is started yet).
    pub fn new(dir: &Path) -> BlobReader {
        BlobReader {
            dir: dir.to_path_buf(),
            batch: Mutex::new(None),
        }
    }

    /// Whether the batch process is running (for tests: one per session).
    pub fn running_pid(&self) -> Option<u32> {
        let guard = self.batch.lock().ok()?;
        guard.as_ref().map(|b| b.child.id())
    }

    /// Reads `name` (`<sha>`, `<sha>^{commit}`, `<sha>:./<path>`), at most
    /// `limit` bytes of content. A process that died is started again once.
    pub fn read(&self, name: &str, limit: u64) -> Result<Object, CheckoutError> {
        if name.is_empty() || name.contains(['\n', '\r', '\0']) {
            return Err(CheckoutError::Git(format!("refused object name {name:?}")));
        }
        let mut guard = self
            .batch
            .lock()
            .map_err(|_| CheckoutError::Git("the object reader failed earlier".into()))?;
        let mut last = None;
        for _ in 0..2 {
            if guard.is_none() {
                *guard = Some(spawn(&self.dir)?);
            }
            let Some(batch) = guard.as_mut() else { continue };
            match ask(batch, name, limit) {
                Ok(answer) => {
                    if matches!(answer, Object::TooLarge { .. }) {
                        *guard = None;
                    }
                    return Ok(answer);
                }
                Err(e) => {
                    *guard = None;
                    last = Some(e);
                }
            }
        }
        Err(CheckoutError::Git(format!(
            "git cat-file failed: {}",
            last.map_or_else(|| "no answer".to_string(), |e| e.to_string())
        )))
    }
}

fn spawn(dir: &Path) -> Result<Batch, CheckoutError> {
    let mut child = super::git::command(dir, ["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| CheckoutError::Git(format!("cannot start git cat-file: {e}")))?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(CheckoutError::Git("git cat-file has no pipes".into()));
    };
    Ok(Batch {
        child,
        stdin,
        stdout: BufReader::new(stdout),
    })
}

/// One request and its answer (header, then content and a final LF).
fn ask(batch: &mut Batch, name: &str, limit: u64) -> std::io::Result<Object> {
    batch.stdin.write_all(name.as_bytes())?;
    batch.stdin.write_all(b"\n")?;
    batch.stdin.flush()?;
    let mut header = Vec::new();
    (&mut batch.stdout).take(4096).read_until(b'\n', &mut header)?;
    let header = String::from_utf8_lossy(&header);
    let header = header.trim_end_matches('\n');
    if header.is_empty() {
        return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "no answer"));
    }
    parse_header(header, name, limit, &mut batch.stdout)
}

fn parse_header(header: &str, name: &str, limit: u64, stdout: &mut impl Read) -> std::io::Result<Object> {
    if header.ends_with(" missing") || header.ends_with(" ambiguous") {
        return Ok(Object::Missing);
    }
    let bad = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("unexpected answer for {name:?}"),
        )
    };
    let mut parts = header.rsplitn(3, ' ');
    let size: u64 = parts.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
    let kind = parts.next().ok_or_else(bad)?.to_string();
    let oid = parts.next().ok_or_else(bad)?.to_string();
    if !oid.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    if size > limit {
        return Ok(Object::TooLarge { size });
    }
    let mut bytes = vec![0; usize::try_from(size).map_err(|_| bad())?];
    stdout.read_exact(&mut bytes)?;
    let mut lf = [0u8; 1];
    stdout.read_exact(&mut lf)?;
    Ok(Object::Found { oid, kind, bytes })
}
