//! Opening a file named by untrusted input (a review's path, a command-line
//! argument) without waiting on it: opening a FIFO for reading otherwise
//! blocks until a writer comes, before the caller can look at what it
//! opened. The callers then refuse anything but a regular file from the open
//! file's own metadata.

use std::fs::File;
use std::io;
use std::path::Path;

/// Opens `path` for reading, never waiting for a FIFO's writer
/// (`O_NONBLOCK`; on a regular file the flag changes nothing).
#[cfg(unix)]
pub fn open_without_waiting(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let nonblock = i32::try_from(rustix::fs::OFlags::NONBLOCK.bits()).unwrap_or(0);
    std::fs::OpenOptions::new().read(true).custom_flags(nonblock).open(path)
}

/// Opens `path` for reading (no FIFOs to wait on here).
#[cfg(not(unix))]
pub fn open_without_waiting(path: &Path) -> io::Result<File> {
    File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_regular_file_reads_as_usual() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("a.json");
        std::fs::write(&path, b"{}").expect("write");
        let mut text = String::new();
        open_without_waiting(&path)
            .and_then(|mut f| f.read_to_string(&mut text))
            .expect("read");
        assert_eq!(text, "{}");
    }

    /// A FIFO with no writer: the open returns at once and tells what it is.
    #[cfg(unix)]
    #[test]
    fn a_fifo_without_a_writer_is_opened_without_waiting() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().expect("dir");
        let fifo = dir.path().join("review.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let opened = open_without_waiting(&fifo).and_then(|f| f.metadata());
            let _ = tx.send(opened.map(|m| m.file_type().is_fifo()));
        });
        // A blocked open never answers; a generous bound keeps the test from hanging.
        let got = rx.recv_timeout(std::time::Duration::from_secs(20));
        assert!(matches!(got, Ok(Ok(true))), "{got:?}");
    }
}
