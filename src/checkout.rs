//! The local checkout: reading the files an evidence excerpt quotes, and the
//! checkout's HEAD, so the screen can show the code around an excerpt.
//!
//! All I/O here (file reads, `git` processes) runs in the runtime, never in
//! the view. Paths and commit ids come from review files and are untrusted:
//! - a commit id must be 7 to 64 hex digits ([`valid_sha`]);
//! - a path must be relative, without `..`, `.git`, NUL or a drive prefix,
//!   and, once symlinks are resolved, inside the checkout root;
//! - `git` gets every value as its own argument (no shell), and a revision
//!   is only ever passed after validation, in `<sha>:./<path>` form or
//!   after `--end-of-options`;
//! - reads stop at [`MAX_FILE_BYTES`].
//!
//! Side `new` reads the file at the reviewed commit when that commit is in
//! the local repository, whatever the working tree holds; only when it is not
//! (or the review names none) does it read the working tree, which may differ
//! from what was reviewed ([`Revision::WorkingTree`] says so on screen). Side
//! `old` reads the file from the first parent of the reviewed commit when
//! that commit is available locally; for a pull request of several commits
//! that parent is not the merge base, so an old-side excerpt can honestly
//! come out "not found". Git objects are read through one long-lived
//! `git cat-file --batch` per checkout ([`blob`]). [`source`] orders the
//! places context may come from, GitHub's copy of the reviewed commit among
//! them, and [`diff`] reads unified diffs.

pub mod blob;
pub mod diff;
mod excerpt;
mod git;
pub mod local_diff;
mod path;
pub mod source;
#[cfg(test)]
mod tests;

pub use excerpt::{ContextWindow, ExcerptMatch, context, context_block, excerpt_lines, locate_excerpt, same_text};
pub use path::{PathProblem, check as check_path};

use crate::model::finding::{Evidence, Side};
use crate::sanitize::{DEFAULT_TAB_WIDTH, clean};
use blob::{BlobReader, Object};
use std::fmt;
use std::io::Read;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest file (working tree or git object) that is read, in bytes.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// A local working tree the evidence can be checked against.
#[derive(Debug, Clone)]
pub struct Checkout {
    /// Canonical (symlink-free, absolute) root directory.
    root: PathBuf,
    /// The session's one object reader (shared by clones).
    objects: Arc<BlobReader>,
}

impl PartialEq for Checkout {
    fn eq(&self, other: &Checkout) -> bool {
        self.root == other.root
    }
}

impl Eq for Checkout {}

/// How the checkout's HEAD relates to the reviewed commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadMatch {
    /// HEAD is the reviewed commit (a reviewed abbreviation matches its prefix).
    Same,
    /// HEAD is another commit (full id).
    Different { head: String },
    /// HEAD could not be read, or the reviewed id is not a valid commit id.
    Unknown,
}

impl HeadMatch {
    /// Compares a HEAD id (if read) with a reviewed commit id (untrusted).
    pub fn compare(head: Option<&str>, reviewed: &str) -> HeadMatch {
        let (Some(head), Some(reviewed)) = (head, valid_sha(reviewed)) else {
            return HeadMatch::Unknown;
        };
        let head = head.to_ascii_lowercase();
        if head.starts_with(&reviewed) {
            HeadMatch::Same
        } else {
            HeadMatch::Different { head }
        }
    }
}

/// Where a file's text was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Revision {
    /// The working tree (side `new`, when the reviewed commit is not local).
    WorkingTree,
    /// A commit (full id), e.g. the reviewed commit's parent for side `old`.
    Commit(String),
    /// The reviewed commit itself (full id), read from the local repository.
    Reviewed(String),
    /// GitHub's copy of the file at the reviewed commit (the id as reviewed).
    GitHub(String),
}

impl Revision {
    /// Where the context came from, as the evidence pane says it.
    pub fn origin(&self) -> String {
        match self {
            Revision::WorkingTree => "from the working tree \u{2014} may differ from what was reviewed".to_string(),
            Revision::Commit(sha) => format!("from commit {}", short(sha)),
            Revision::Reviewed(sha) => format!("from the reviewed commit {}", short(sha)),
            Revision::GitHub(sha) => format!("from GitHub at {}", short(sha)),
        }
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Revision::WorkingTree => f.write_str("the working tree"),
            Revision::Commit(sha) => write!(f, "commit {}", short(sha)),
            Revision::Reviewed(sha) => write!(f, "the reviewed commit {}", short(sha)),
            Revision::GitHub(sha) => write!(f, "GitHub's copy at {}", short(sha)),
        }
    }
}

/// Why the old side of an excerpt cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OldUnavailable {
    /// The review names no reviewed commit (River Review results).
    NoReviewedSha,
    /// The reviewed commit is not in the local repository (fetch it first).
    CommitNotLocal { sha: String },
    /// The reviewed commit has no parent (a root commit).
    NoParent { sha: String },
    /// The checkout root is not a git repository.
    NotARepository,
}

impl fmt::Display for OldUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OldUnavailable::NoReviewedSha => f.write_str("the review names no reviewed commit"),
            OldUnavailable::CommitNotLocal { sha } => {
                write!(f, "reviewed commit {} is not in the local repository", short(sha))
            }
            OldUnavailable::NoParent { sha } => write!(f, "reviewed commit {} has no parent", short(sha)),
            OldUnavailable::NotARepository => f.write_str("the checkout is not a git repository"),
        }
    }
}

/// Why a file could not be read. Paths are shown debug-quoted (escaped).
#[derive(Debug, thiserror::Error)]
pub enum CheckoutError {
    /// The path is refused before any read.
    #[error("refused path {path:?}: {problem}")]
    UnsafePath { path: String, problem: PathProblem },
    /// The commit id is not 7 to 64 hex digits.
    #[error("{0:?} is not a commit id (7 to 64 hex digits)")]
    InvalidSha(String),
    /// Old side not available (see [`OldUnavailable`]).
    #[error("old side not available: {0}")]
    OldSideUnavailable(OldUnavailable),
    /// No such file at that revision.
    #[error("{path:?} does not exist in {revision}")]
    NotFound { path: String, revision: Revision },
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error("{path:?} is larger than {limit} bytes")]
    TooLarge { path: String, limit: u64 },
    /// The file holds NUL bytes.
    #[error("{path:?} is a binary file")]
    Binary { path: String },
    /// `git` could not be run or failed unexpectedly.
    #[error("git failed: {0}")]
    Git(String),
    /// Reading the working-tree file failed.
    #[error("cannot read {path:?}: {source}")]
    Io { path: String, source: std::io::Error },
}

/// The text of one file, split into lines (raw, unsanitised).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileText {
    /// The normalised repository path (`/`-separated, no `.` parts).
    pub path: String,
    pub side: Side,
    pub revision: Revision,
    /// Lines split at LF (a CR before the LF is dropped; a final LF does not
    /// start another line; a leading UTF-8 byte order mark is dropped).
    /// Invalid UTF-8 is shown as U+FFFD.
    pub lines: Vec<String>,
}

/// An excerpt checked against the checkout: what the runtime hands to the App.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalEvidence {
    /// Where the file was read from.
    pub revision: Revision,
    /// Where the excerpt was found.
    pub found: ExcerptMatch,
    /// Line number (1-based) of the first context line.
    pub first_line: usize,
    /// Context lines, sanitised (tabs expanded), ready to display or highlight.
    pub lines: Vec<String>,
    /// The 1-based lines to emphasise: the matched block, or the stated line
    /// when the excerpt was not found.
    pub marked: RangeInclusive<usize>,
}

/// Validates an untrusted commit id: 7 to 64 hex digits, returned lower-case.
pub fn valid_sha(sha: &str) -> Option<String> {
    let ok = (7..=64).contains(&sha.len()) && sha.bytes().all(|b| b.is_ascii_hexdigit());
    ok.then(|| sha.to_ascii_lowercase())
}

/// The first seven characters of a (validated) commit id.
pub fn short(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}

impl Checkout {
    /// Finds the checkout: `repo_root` when given (it must be a directory),
    /// else the git top-level of the current directory.
    pub fn discover(repo_root: Option<&Path>) -> Option<Checkout> {
        let cwd = std::env::current_dir().ok()?;
        Checkout::discover_in(repo_root, &cwd)
    }

    /// [`Checkout::discover`] with an explicit current directory.
    pub fn discover_in(repo_root: Option<&Path>, cwd: &Path) -> Option<Checkout> {
        let root = match repo_root {
            Some(dir) => cwd.join(dir),
            None => PathBuf::from(git::toplevel(cwd)?),
        };
        let root = root.canonicalize().ok()?;
        root.is_dir().then(|| Checkout {
            objects: Arc::new(BlobReader::new(&root)),
            root,
        })
    }

    /// The session's object reader (one `git cat-file --batch`).
    pub fn objects(&self) -> &BlobReader {
        &self.objects
    }

    /// The canonical root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The full id of HEAD, if this is a git repository with a HEAD.
    pub fn head_sha(&self) -> Option<String> {
        git::rev_parse(&self.root, "HEAD")
    }

    /// Whether HEAD is the reviewed commit (untrusted id).
    pub fn is_reviewed_head(&self, reviewed_sha: &str) -> HeadMatch {
        HeadMatch::compare(self.head_sha().as_deref(), reviewed_sha)
    }

    /// Reads `path` (untrusted) on `side`: for `new` the reviewed commit
    /// when it is local, else the working tree; for `old` the parent of
    /// `reviewed_sha`.
    pub fn read_file(&self, path: &str, side: Side, reviewed_sha: Option<&str>) -> Result<FileText, CheckoutError> {
        match self.read_committed(path, side, reviewed_sha) {
            Err(e) if side == Side::New && source::not_local(&e) => self.read_working_file(path),
            other => other,
        }
    }

    /// Reads `path` (untrusted) from the local repository only: the reviewed
    /// commit for `new`, its first parent for `old`. When the commit is not
    /// local the error says so ([`CheckoutError::OldSideUnavailable`], whose
    /// reasons hold for either side).
    pub fn read_committed(
        &self,
        path: &str,
        side: Side,
        reviewed_sha: Option<&str>,
    ) -> Result<FileText, CheckoutError> {
        let clean_path = checked(path)?;
        let commit = self.reviewed_commit(reviewed_sha)?;
        let (revision, bytes) = match side {
            Side::New => {
                let bytes = self.read_blob(&commit, &clean_path, &Revision::Reviewed(commit.clone()))?;
                (Revision::Reviewed(commit), bytes)
            }
            Side::Old => {
                let Some(parent) = self.resolve_commit(&format!("{commit}^1^{{commit}}"))? else {
                    return Err(CheckoutError::OldSideUnavailable(OldUnavailable::NoParent {
                        sha: commit,
                    }));
                };
                let revision = Revision::Commit(parent.clone());
                (revision.clone(), self.read_blob(&parent, &clean_path, &revision)?)
            }
        };
        file_text(clean_path, side, revision, bytes)
    }

    /// Reads `path` (untrusted) from the working tree.
    pub fn read_working_file(&self, path: &str) -> Result<FileText, CheckoutError> {
        let clean_path = checked(path)?;
        let bytes = self.read_working(&clean_path)?;
        file_text(clean_path, Side::New, Revision::WorkingTree, bytes)
    }

    /// The full id of the reviewed commit (untrusted id) when it is local.
    pub fn reviewed_commit(&self, reviewed_sha: Option<&str>) -> Result<String, CheckoutError> {
        let unavailable = CheckoutError::OldSideUnavailable;
        let raw = reviewed_sha.ok_or(unavailable(OldUnavailable::NoReviewedSha))?;
        let sha = valid_sha(raw).ok_or_else(|| CheckoutError::InvalidSha(raw.to_string()))?;
        if git::toplevel(&self.root).is_none() {
            return Err(unavailable(OldUnavailable::NotARepository));
        }
        self.resolve_commit(&format!("{sha}^{{commit}}"))?
            .ok_or(unavailable(OldUnavailable::CommitNotLocal { sha }))
    }

    /// Resolves a revision built from validated parts to a full commit id
    /// through the object reader (`None`: no such commit here).
    fn resolve_commit(&self, rev: &str) -> Result<Option<String>, CheckoutError> {
        match self.objects.read(rev, MAX_FILE_BYTES)? {
            Object::Found { oid, kind, .. } if kind == "commit" => Ok(Some(oid)),
            _ => Ok(None),
        }
    }

    /// The bytes of `rel` at `commit` (a full id), bounded.
    fn read_blob(&self, commit: &str, rel: &str, revision: &Revision) -> Result<Vec<u8>, CheckoutError> {
        // `./` makes git resolve the path from the checkout root, as the
        // working-tree read does, even when the root is a subdirectory.
        match self.objects.read(&format!("{commit}:./{rel}"), MAX_FILE_BYTES)? {
            Object::Found { kind, bytes, .. } if kind == "blob" => Ok(bytes),
            Object::TooLarge { .. } => Err(too_large(rel)),
            _ => Err(CheckoutError::NotFound {
                path: rel.to_string(),
                revision: revision.clone(),
            }),
        }
    }

    /// Reads a working-tree file, refusing symlinks that leave the root.
    fn read_working(&self, rel: &str) -> Result<Vec<u8>, CheckoutError> {
        let not_found = || CheckoutError::NotFound {
            path: rel.to_string(),
            revision: Revision::WorkingTree,
        };
        let io = |source| CheckoutError::Io {
            path: rel.to_string(),
            source,
        };
        let full = match self.root.join(rel).canonicalize() {
            Ok(full) => full,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(not_found()),
            Err(e) => return Err(io(e)),
        };
        let unsafe_path = |problem| CheckoutError::UnsafePath {
            path: rel.to_string(),
            problem,
        };
        if !full.starts_with(&self.root) {
            return Err(unsafe_path(PathProblem::OutsideRoot));
        }
        // The review names the path: a FIFO there must not hold the reader.
        let file = crate::open_file::open_without_waiting(&full).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(unsafe_path(PathProblem::NotAFile));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(too_large(rel));
        }
        let mut bytes = Vec::new();
        file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(too_large(rel));
        }
        Ok(bytes)
    }

    /// Reads the file of one evidence item and checks its excerpt, keeping
    /// `n` lines of context around the match (or the stated line).
    pub fn inspect(
        &self,
        evidence: &Evidence,
        reviewed_sha: Option<&str>,
        n: usize,
    ) -> Result<LocalEvidence, CheckoutError> {
        let file = self.read_file(&evidence.path, evidence.side, reviewed_sha)?;
        Ok(inspect_text(&file, evidence, n))
    }
}

/// Checks the excerpt of one evidence item against a file's text, keeping
/// `n` lines of context around the match (or the stated line).
pub fn inspect_text(file: &FileText, evidence: &Evidence, n: usize) -> LocalEvidence {
    let stated = evidence.line as usize;
    let found = locate_excerpt(&file.lines, &evidence.excerpt, stated);
    let block_len = excerpt_lines(&evidence.excerpt).len().max(1);
    let marked = match found {
        ExcerptMatch::AtLine(at) | ExcerptMatch::Moved { to: at, .. } => at..=at + block_len - 1,
        ExcerptMatch::NotFound => stated..=stated,
    };
    let window = context_block(&file.lines, *marked.start(), block_len, n);
    LocalEvidence {
        revision: file.revision.clone(),
        found,
        first_line: window.first_line,
        lines: window
            .lines
            .iter()
            .map(|l| clean(l, DEFAULT_TAB_WIDTH).into_owned())
            .collect(),
        marked,
    }
}

/// Checks an untrusted path (see [`path::check`]) into the error type.
fn checked(path: &str) -> Result<String, CheckoutError> {
    path::check(path).map_err(|problem| CheckoutError::UnsafePath {
        path: path.to_string(),
        problem,
    })
}

/// File bytes as text, refusing binary content.
pub fn file_text(path: String, side: Side, revision: Revision, bytes: Vec<u8>) -> Result<FileText, CheckoutError> {
    if bytes.contains(&0) {
        return Err(CheckoutError::Binary { path });
    }
    Ok(FileText {
        lines: split_file(&bytes),
        path,
        side,
        revision,
    })
}

fn too_large(path: &str) -> CheckoutError {
    CheckoutError::TooLarge {
        path: path.to_string(),
        limit: MAX_FILE_BYTES,
    }
}

/// Splits file bytes into lines (see [`FileText::lines`]).
fn split_file(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    if text.is_empty() {
        return Vec::new();
    }
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect()
}
#[cfg(test)]
mod source_tests;
#[cfg(test)]
mod test_git;
