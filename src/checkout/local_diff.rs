//! The pull request's change from the local repository: `git diff` between
//! the merge base and the reviewed commit, for the evidence paths only.
//!
//! The merge base is computed from the pull request's base commit when it is
//! known (and local); otherwise from the first of `origin/HEAD`,
//! `origin/main`, `origin/master`, `main`, `master` that exists and does not
//! already contain the reviewed commit. When none does, the reviewed
//! commit's own change (against its first parent) is shown, and said so.
//! Paths are checked and passed as literal pathspecs after `--`.

use super::diff::{FileDiff, MAX_PATCH_BYTES, parse_git};
use super::{Checkout, CheckoutError, git, short, valid_sha};
use std::ffi::OsStr;

/// Branches tried for the merge base when the base commit is not known.
const BASE_REFS: [&str; 5] = ["origin/HEAD", "origin/main", "origin/master", "main", "master"];

/// Where the old side of the change starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Base {
    /// The merge base (full id) of the reviewed commit with `with` (a base
    /// commit id or a branch name).
    MergeBase { sha: String, with: String },
    /// No base found: the reviewed commit's first parent (full id).
    Parent(String),
}

impl Base {
    /// The base commit's full id.
    pub fn sha(&self) -> &str {
        match self {
            Base::MergeBase { sha, .. } | Base::Parent(sha) => sha,
        }
    }
}

/// The change of the evidence files between the base and the reviewed commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalChange {
    pub base: Base,
    /// The reviewed commit (full id).
    pub reviewed: String,
    /// One entry per changed file among the paths asked for.
    pub files: Vec<FileDiff>,
}

impl LocalChange {
    /// Where the diff came from, in words (ids shortened).
    pub fn origin(&self) -> String {
        let to = short(&self.reviewed);
        match &self.base {
            Base::MergeBase { sha, with } if valid_sha(with).is_some() => format!(
                "local repository: merge base {} with the base commit {} .. reviewed {to}",
                short(sha),
                short(with)
            ),
            Base::MergeBase { sha, with } => {
                format!(
                    "local repository: merge base {} with {with} .. reviewed {to}",
                    short(sha)
                )
            }
            Base::Parent(sha) => format!(
                "local repository: no base branch found, the reviewed commit's own change {} .. {to}",
                short(sha)
            ),
        }
    }
}

impl Checkout {
    /// The base the reviewed commit (a local full id) is compared with.
    pub fn change_base(&self, reviewed: &str, base_hint: Option<&str>) -> Result<Base, CheckoutError> {
        let hint = base_hint.and_then(valid_sha);
        let candidates = hint.iter().map(String::as_str).chain(BASE_REFS);
        for with in candidates {
            if let Some(sha) = git::merge_base(&self.root, with, reviewed)
                && sha != reviewed
            {
                return Ok(Base::MergeBase {
                    sha,
                    with: with.to_string(),
                });
            }
        }
        git::rev_parse(&self.root, &format!("{reviewed}^1^{{commit}}"))
            .map(Base::Parent)
            .ok_or_else(|| {
                CheckoutError::OldSideUnavailable(super::OldUnavailable::NoParent {
                    sha: reviewed.to_string(),
                })
            })
    }

    /// The pull request's change of `paths` (untrusted; each checked) from
    /// the local repository, when it has the reviewed commit.
    pub fn pull_change(
        &self,
        reviewed_sha: Option<&str>,
        base_hint: Option<&str>,
        paths: &[String],
    ) -> Result<LocalChange, CheckoutError> {
        let reviewed = self.reviewed_commit(reviewed_sha)?;
        let base = self.change_base(&reviewed, base_hint)?;
        let mut clean = Vec::with_capacity(paths.len());
        for p in paths {
            clean.push(super::checked(p)?);
        }
        let mut args: Vec<&OsStr> = [
            "--literal-pathspecs",
            "diff",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--find-renames",
            "--unified=3",
            base.sha(),
            &reviewed,
            "--",
        ]
        .into_iter()
        .map(OsStr::new)
        .collect();
        args.extend(clean.iter().map(OsStr::new));
        let limit = MAX_PATCH_BYTES * clean.len().clamp(1, 8);
        let (bytes, cut) = git::bounded_stdout(&self.root, &args, limit).map_err(CheckoutError::Git)?;
        let text = String::from_utf8_lossy(&bytes);
        let mut files = parse_git(&text, limit);
        if cut && let Some(last) = files.last_mut() {
            last.truncated = true;
        }
        Ok(LocalChange { base, reviewed, files })
    }
}
