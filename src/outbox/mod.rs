//! Decisions kept on disk until GitHub has recorded them.
//!
//! Every decision is written here (atomically: temporary file, fsync,
//! rename, fsync of the directory) before the first network call, and
//! removed only when it is recorded or the user drops it. After a crash, a
//! kill, a network failure or a stale head it is still there.
//!
//! Location: `$TRIAGE_STATE_DIR/outbox/` when set, else
//! `$XDG_STATE_HOME/triage/outbox/`, else `~/.local/state/triage/outbox/`.
//! One JSON file per entry, named by its id, readable by the owner only.

pub mod drafts;
pub mod entry;
mod json_dir;
mod store;
pub mod thread_actions;

pub use entry::{Entry, LastOutcome, OutcomeKind, Staleness};
pub use store::{Claim, Listing, Outbox, OutboxError};

use std::path::PathBuf;

/// The state directory of `triage` (the outbox lives in its `outbox/`).
pub fn state_dir() -> Result<PathBuf, OutboxError> {
    state_dir_with(
        |name| std::env::var_os(name),
        directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf()),
    )
}

/// [`state_dir`] with the environment and home directory passed in.
pub fn state_dir_with(
    env: impl Fn(&str) -> Option<std::ffi::OsString>,
    home: Option<PathBuf>,
) -> Result<PathBuf, OutboxError> {
    let absolute = |name: &str| env(name).map(PathBuf::from).filter(|p| p.is_absolute());
    if let Some(dir) = absolute("TRIAGE_STATE_DIR") {
        return Ok(dir);
    }
    if let Some(dir) = absolute("XDG_STATE_HOME") {
        return Ok(dir.join("triage"));
    }
    match home {
        Some(home) => Ok(home.join(".local").join("state").join("triage")),
        None => Err(OutboxError::NoStateDir),
    }
}

/// How a kept action stands against the GitHub API a run talks to (the
/// API it was first sent to is written into it before that request; see
/// [`Entry::api`] and [`thread_actions::ThreadEntry::api`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiBinding {
    /// Sent to this API before: send it.
    Here,
    /// Never sent: bind it to this API on disk, then send it.
    Unbound,
    /// Sent to the API at this base URL before: not sent here (kept).
    Elsewhere(String),
}

impl ApiBinding {
    /// The binding of an action kept for `kept` (`None`: never sent) in a
    /// run that talks to `here`.
    pub fn of(kept: Option<&str>, here: &str) -> ApiBinding {
        match kept {
            Some(api) if api == here => ApiBinding::Here,
            Some(api) => ApiBinding::Elsewhere(api.to_owned()),
            None => ApiBinding::Unbound,
        }
    }
}

/// The default outbox directory.
pub fn default_dir() -> Result<PathBuf, OutboxError> {
    Ok(state_dir()?.join("outbox"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn override_then_xdg_then_home() {
        let home = Some(PathBuf::from("/home/u"));
        let both = env(&[("TRIAGE_STATE_DIR", "/t"), ("XDG_STATE_HOME", "/x")]);
        assert_eq!(state_dir_with(both, home.clone()).unwrap(), PathBuf::from("/t"));
        assert_eq!(
            state_dir_with(env(&[("XDG_STATE_HOME", "/x")]), home.clone()).unwrap(),
            PathBuf::from("/x/triage")
        );
        let relative = env(&[("XDG_STATE_HOME", "rel")]);
        assert_eq!(
            state_dir_with(relative, home.clone()).unwrap(),
            PathBuf::from("/home/u/.local/state/triage")
        );
        assert!(state_dir_with(env(&[]), None).is_err());
    }
}
