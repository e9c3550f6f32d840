//! Opening a review file: what the screen is asked to open, and loading a
//! path where an unreadable file is a problem to show, not an error.

use super::fetch::PrTarget;
use crate::model::load::{LoadError, Loaded, load_path, load_path_for_value};
use crate::model::problem::Problem;
use crate::model::review::Format;
use std::path::{Path, PathBuf};

/// What to open: a file (`-` is stdin), or the pull request of `pr` when it
/// names one, else the bundled demo; `kind` forces the format; `repo_root`
/// is the checkout evidence is read from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenOptions {
    pub file: Option<PathBuf>,
    pub kind: Option<Format>,
    pub repo_root: Option<PathBuf>,
    pub pr: PrTarget,
    /// Opened from the inbox: `Esc` in the list ends the screen (back to the inbox).
    pub esc_returns: bool,
}

/// Loads a path; an unreadable file becomes a problem (rule `io`), not an error.
pub fn load_or_problem(path: &Path, forced: Option<Format>) -> Loaded {
    io_as_problem(load_path(path, forced), forced)
}

/// Like [`load_or_problem`], keeping the parsed value (for projection) and
/// no model of a v3 review output (see [`load_path_for_value`]).
pub fn load_or_problem_keeping_value(path: &Path, forced: Option<Format>) -> Loaded {
    io_as_problem(load_path_for_value(path, forced), forced)
}

fn io_as_problem(result: Result<Loaded, LoadError>, forced: Option<Format>) -> Loaded {
    match result {
        Ok(loaded) => loaded,
        Err(err) => Loaded {
            format: forced,
            set: None,
            problems: vec![Problem::new("io", "", err.to_string())],
            doc: None,
        },
    }
}
