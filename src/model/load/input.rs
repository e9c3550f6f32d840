//! Reading an input: a regular file or standard input (`-`), and nothing
//! else, never more than a cap.
//!
//! A FIFO with no writer, a terminal or another device, or a directory would
//! block or make no sense as a review document, so anything but a regular
//! file is refused before it is opened, and checked again on the open file,
//! in case the path was replaced in between. The open itself does not wait
//! (`O_NONBLOCK`: opening a FIFO otherwise blocks until a writer comes, before
//! the second check could run); on a regular file the flag changes nothing. Reading stops one byte past the
//! cap, so an oversize input is seen as such without being read whole.

use super::LoadError;
use std::io::Read;
use std::path::Path;

/// Reads `path` (`-` = standard input), at most `cap + 1` bytes.
pub(super) fn read_capped(path: &Path, cap: usize) -> Result<Vec<u8>, LoadError> {
    read_in_two_steps(path, cap, |_| cap)
}

/// Reads `path` (`-` = standard input) at most `first + 1` bytes; when there
/// is more, `then` is shown those bytes and names the cap that applies, and
/// reading goes on up to that cap + 1 (a cap of `first` or less stops here).
pub(super) fn read_in_two_steps(
    path: &Path,
    first: usize,
    then: impl FnOnce(&[u8]) -> usize,
) -> Result<Vec<u8>, LoadError> {
    if path.as_os_str() == "-" {
        return read_steps(std::io::stdin().lock(), None, first, then).map_err(|e| io_error(path, e));
    }
    let before = std::fs::metadata(path).map_err(|e| io_error(path, e))?;
    refuse_unless_regular(path, &before)?;
    let file = crate::open_file::open_without_waiting(path).map_err(|e| io_error(path, e))?;
    let opened = file.metadata().map_err(|e| io_error(path, e))?;
    refuse_unless_regular(path, &opened)?;
    // One byte more than the file has, so its end is seen without growing.
    let size = opened.len().saturating_add(1);
    read_steps(file, Some(size), first, then).map_err(|e| io_error(path, e))
}

fn limit(cap: usize) -> u64 {
    (cap as u64).saturating_add(1)
}

/// The two steps of [`read_in_two_steps`] on an open source; `size` is one
/// more than the source's length when it is known, so the buffer is
/// allocated once per step instead of grown by doubling (which would hold
/// the old and the new buffer at once).
fn read_steps(
    source: impl Read,
    size: Option<u64>,
    first: usize,
    then: impl FnOnce(&[u8]) -> usize,
) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(size.map_or(0, |n| n.min(limit(first))) as usize);
    let mut source = source.take(limit(first));
    source.read_to_end(&mut bytes)?;
    if bytes.len() <= first {
        return Ok(bytes);
    }
    let cap = then(&bytes);
    if cap > first {
        let left = limit(cap) - bytes.len() as u64;
        if let Some(n) = size {
            bytes.reserve_exact(n.saturating_sub(bytes.len() as u64).min(left) as usize);
        }
        source.into_inner().take(left).read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

fn refuse_unless_regular(path: &Path, meta: &std::fs::Metadata) -> Result<(), LoadError> {
    if meta.is_file() {
        return Ok(());
    }
    Err(LoadError::NotAFile {
        path: path.display().to_string(),
        what: kind_of(meta),
    })
}

/// What a path that is not a regular file is, in words.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

pub(super) fn io_error(path: &Path, source: std::io::Error) -> LoadError {
    LoadError::Io {
        path: path.display().to_string(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_whole_up_to_one_byte_past_the_cap() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("doc.json");
        let bytes: Vec<u8> = (0..70_000u32).map(|i| (i * 31 % 251) as u8).collect();
        std::fs::write(&path, &bytes).expect("write");
        assert_eq!(read_capped(&path, 1 << 20).expect("read"), bytes);
        assert_eq!(read_capped(&path, 70_000).expect("read"), bytes);
        assert_eq!(read_capped(&path, 1000).expect("read"), &bytes[..1001]);
    }

    #[test]
    fn only_regular_files_are_read() {
        let dir = tempfile::tempdir().expect("dir");
        let err = read_capped(dir.path(), 100).expect_err("a directory");
        assert!(err.to_string().contains("is a directory"), "{err}");
        #[cfg(unix)]
        {
            let err = read_capped(Path::new("/dev/null"), 100).expect_err("a device");
            assert!(err.to_string().contains("is a device"), "{err}");
        }
    }
}
