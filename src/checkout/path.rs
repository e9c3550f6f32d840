//! Checking an untrusted repository path before anything is read.

use std::fmt;

/// The longest path accepted, in bytes.
const MAX_PATH_BYTES: usize = 4096;

/// Why a repository path is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathProblem {
    /// Empty, or only `.` and `/` parts.
    Empty,
    /// Longer than 4096 bytes.
    TooLong,
    /// Holds a NUL character.
    Nul,
    /// Starts at `/` or `\`, or carries a drive prefix such as `C:`.
    Absolute,
    /// Has a `..` part.
    ParentDir,
    /// Has a `.git` part (repository internals are never shown).
    GitDir,
    /// Leaves the checkout root once symlinks are resolved.
    OutsideRoot,
    /// Names a directory or another non-file.
    NotAFile,
}

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathProblem::Empty => "empty path",
            PathProblem::TooLong => "path longer than 4096 bytes",
            PathProblem::Nul => "path holds a NUL character",
            PathProblem::Absolute => "absolute path",
            PathProblem::ParentDir => "path climbs out with `..`",
            PathProblem::GitDir => "path points into `.git`",
            PathProblem::OutsideRoot => "path leads outside the checkout",
            PathProblem::NotAFile => "not a regular file",
        })
    }
}

/// Checks an untrusted repository path and returns it normalised: parts
/// joined by `/`, empty and `.` parts dropped. A `\` also separates parts
/// for the checks (not for the result), so `..\x` is refused like `../x`.
pub fn check(path: &str) -> Result<String, PathProblem> {
    if path.len() > MAX_PATH_BYTES {
        return Err(PathProblem::TooLong);
    }
    if path.contains('\0') {
        return Err(PathProblem::Nul);
    }
    let bytes = path.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if path.starts_with(['/', '\\']) || drive {
        return Err(PathProblem::Absolute);
    }
    let mut parts = Vec::new();
    for part in path.split('/').filter(|p| !p.is_empty() && *p != ".") {
        for piece in part.split('\\') {
            if piece == ".." {
                return Err(PathProblem::ParentDir);
            }
            if piece.eq_ignore_ascii_case(".git") {
                return Err(PathProblem::GitDir);
            }
        }
        parts.push(part);
    }
    if parts.is_empty() {
        return Err(PathProblem::Empty);
    }
    Ok(parts.join("/"))
}
