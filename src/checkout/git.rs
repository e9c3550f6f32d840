//! The few `git` commands the checkout needs, each run without a shell and
//! with every value as its own argument.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `git -C dir args..` with no terminal prompts and no optional locks.
fn run<I, S>(dir: &Path, args: I) -> std::io::Result<Output>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    command(dir, args).output()
}

/// `git -C dir args..` that never prompts, takes no optional locks and reads
/// no stdin (a caller may set its own stdin).
pub(super) fn command<I, S>(dir: &Path, args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new("git");
    command
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null());
    command
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

/// The best common ancestor of two validated commit ids or fixed ref names.
pub(super) fn merge_base(dir: &Path, a: &str, b: &str) -> Option<String> {
    let sha = first_line(run(dir, ["merge-base", "--end-of-options", a, b]))?;
    sha.bytes().all(|b| b.is_ascii_hexdigit()).then_some(sha)
}

/// Runs `git -C dir args..` and keeps at most `limit` bytes of stdout; the
/// process is stopped once more arrives. Returns the bytes and whether they
/// were cut, or git's complaint when it failed.
pub(super) fn bounded_stdout(dir: &Path, args: &[&OsStr], limit: usize) -> Result<(Vec<u8>, bool), String> {
    use std::io::Read;
    let mut child = command(dir, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start git: {e}"))?;
    let mut bytes = Vec::new();
    let read = match child.stdout.take() {
        Some(out) => out.take(limit as u64 + 1).read_to_end(&mut bytes).map(|_| ()),
        None => Ok(()),
    };
    let cut = bytes.len() > limit;
    if cut {
        bytes.truncate(limit);
        let _ = child.kill();
    }
    let status = child.wait().map_err(|e| format!("git did not finish: {e}"))?;
    read.map_err(|e| format!("cannot read git's output: {e}"))?;
    if !cut && !status.success() {
        return Err(format!("git exited with {status}"));
    }
    Ok((bytes, cut))
}
