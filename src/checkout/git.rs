//! The few `git` commands the checkout needs, each run without a shell and
//! with every value as its own argument.

use super::CheckoutError;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `git -C dir args..` with no terminal prompts and no optional locks.
fn run<I, S>(dir: &Path, args: I) -> std::io::Result<Output>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .output()
}

/// The first line of stdout when the command succeeded.
fn first_line(output: std::io::Result<Output>) -> Option<String> {
    let output = output.ok().filter(|o| o.status.success())?;
    let text = String::from_utf8(output.stdout).ok()?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.to_string())
}

/// The top-level directory of the work tree containing `dir`.
pub(super) fn toplevel(dir: &Path) -> Option<String> {
    first_line(run(dir, ["rev-parse", "--show-toplevel"]))
}

/// Resolves a revision built from validated parts to a full commit id.
pub(super) fn rev_parse(dir: &Path, rev: &str) -> Option<String> {
    let sha = first_line(run(dir, ["rev-parse", "--verify", "--quiet", "--end-of-options", rev]))?;
    sha.bytes().all(|b| b.is_ascii_hexdigit()).then_some(sha)
}

/// The size of the blob `object` (`<sha>:./<path>`), if it exists.
pub(super) fn blob_size(dir: &Path, object: &str) -> Option<u64> {
    let output = run(dir, ["cat-file", "-t", object]).ok()?;
    if !output.status.success() || output.stdout.trim_ascii() != b"blob" {
        return None;
    }
    first_line(run(dir, ["cat-file", "-s", object]))?.parse().ok()
}

/// The raw bytes of the blob `object` (no filters, no text conversion).
pub(super) fn blob(dir: &Path, object: &str) -> Result<Vec<u8>, CheckoutError> {
    let output = run(dir, ["cat-file", "blob", object]).map_err(|e| CheckoutError::Git(e.to_string()))?;
    if !output.status.success() {
        let message = String::from_utf8_lossy(&output.stderr);
        return Err(CheckoutError::Git(message.trim().to_string()));
    }
    Ok(output.stdout)
}
