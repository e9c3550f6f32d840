//! Which repository's `.river/` a decision is recorded in.
//!
//! In order: `--repo-root` (must be a directory); else the artifact's
//! `context.repoRoot` when that directory exists on this machine and is a
//! repository root (it has `.git` or `.river`: the path comes from the review
//! file, which is untrusted, so it may not point files anywhere else); else
//! the git top-level of the current directory; else an error.

use super::StoreError;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the root came from (shown to the user).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootSource {
    /// `--repo-root`.
    Flag,
    /// The artifact's `context.repoRoot`.
    Artifact,
    /// `git rev-parse --show-toplevel` in the current directory.
    GitTopLevel,
}

impl RootSource {
    /// A short description.
    pub fn describe(self) -> &'static str {
        match self {
            RootSource::Flag => "--repo-root",
            RootSource::Artifact => "the review's context.repoRoot",
            RootSource::GitTopLevel => "the git top-level of the current directory",
        }
    }
}

/// True when `dir` is a directory that looks like a repository root.
fn is_repo_root(dir: &Path) -> bool {
    dir.is_dir() && (dir.join(".git").exists() || dir.join(".river").is_dir())
}

/// The git top-level of `cwd`, if git knows one.
fn git_top_level(cwd: &Path) -> Option<PathBuf> {
    let out = Command::new("git")
        .args(["rev-parse", "--show-toplevel"])
        .current_dir(cwd)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let line = text.trim_end_matches(['\n', '\r']);
    (!line.is_empty()).then(|| PathBuf::from(line))
}

/// Picks the repository root (see the module documentation).
pub fn resolve_root(
    flag: Option<&Path>,
    artifact_root: Option<&str>,
    cwd: &Path,
) -> Result<(PathBuf, RootSource), StoreError> {
    if let Some(dir) = flag {
        if dir.is_dir() {
            return Ok((dir.to_path_buf(), RootSource::Flag));
        }
        return Err(StoreError::RepoRoot(format!(
            "--repo-root {} is not a directory",
            dir.display()
        )));
    }
    if let Some(root) = artifact_root
        .map(Path::new)
        .filter(|p| p.is_absolute() && is_repo_root(p))
    {
        return Ok((root.to_path_buf(), RootSource::Artifact));
    }
    git_top_level(cwd).map(|p| (p, RootSource::GitTopLevel)).ok_or_else(|| {
        StoreError::RepoRoot(
            "cannot tell the repository root: pass --repo-root DIR (the review's context.repoRoot is absent or \
             not a repository here, and the current directory is not in a git repository)"
                .to_owned(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_wins_and_must_exist() {
        let dir = tempfile::tempdir().unwrap();
        let (root, source) = resolve_root(Some(dir.path()), Some("/elsewhere"), dir.path()).unwrap();
        assert_eq!((root.as_path(), source), (dir.path(), RootSource::Flag));
        let missing = dir.path().join("missing");
        assert!(matches!(
            resolve_root(Some(&missing), None, dir.path()),
            Err(StoreError::RepoRoot(_))
        ));
    }

    #[test]
    fn artifact_root_only_when_it_is_a_repository_here() {
        let repo = tempfile::tempdir().unwrap();
        let plain = tempfile::tempdir().unwrap();
        std::fs::create_dir(repo.path().join(".river")).unwrap();
        let root = repo.path().to_str().unwrap();
        let (got, source) = resolve_root(None, Some(root), plain.path()).unwrap();
        assert_eq!((got.as_path(), source), (repo.path(), RootSource::Artifact));
        // A plain directory named by the review is not trusted as a root.
        let named = plain.path().to_str().unwrap();
        let other = resolve_root(None, Some(named), plain.path());
        assert!(!matches!(other, Ok((_, RootSource::Artifact))));
        // Relative paths from the review are never used.
        assert!(!matches!(
            resolve_root(None, Some("."), repo.path()),
            Ok((_, RootSource::Artifact))
        ));
    }

    #[test]
    fn falls_back_to_git_top_level() {
        let repo = tempfile::tempdir().unwrap();
        let init = Command::new("git")
            .args(["init", "-q"])
            .current_dir(repo.path())
            .status()
            .unwrap();
        assert!(init.success());
        let sub = repo.path().join("a").join("b");
        std::fs::create_dir_all(&sub).unwrap();
        let (got, source) = resolve_root(None, Some("/does/not/exist"), &sub).unwrap();
        assert_eq!(source, RootSource::GitTopLevel);
        assert_eq!(got.canonicalize().unwrap(), repo.path().canonicalize().unwrap());
    }
}
