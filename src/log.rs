//! The diagnostic log: off unless `TRIAGE_LOG` is set, and then written to
//! `triage.log` in the state directory (appended, owner-only), never to the
//! terminal, so it cannot disturb the screen or a command's output.
//!
//! `TRIAGE_LOG` is a level (`error`, `warn`, `info`, `debug`, `trace`) for
//! `triage` and its GitHub client (every other crate logs warnings only), or
//! a full `tracing` filter (`triage=debug,hyper=info`) taken as written.
//!
//! What is logged never holds the token: the client's events name methods,
//! URLs and statuses, and a token exists only inside the GitHub client's
//! header (its `Debug` is redacted); a test reads the log of a real submit
//! against a fake GitHub and finds no token in it.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tracing_subscriber::EnvFilter;

/// The environment variable that turns the log on.
pub const LOG_ENV: &str = "TRIAGE_LOG";

/// The log file's name in the state directory.
pub const LOG_FILE: &str = "triage.log";

/// Why the log could not be set up (the program runs on without it).
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The value is neither a level nor a filter `tracing` reads.
    #[error("{LOG_ENV}={value:?} is not a level or a tracing filter: {message}")]
    Filter { value: String, message: String },
    /// The state directory or the log file cannot be created or opened.
    #[error("the log file {path} cannot be opened: {source}")]
    Open { path: PathBuf, source: std::io::Error },
    /// No state directory can be found (no HOME and no variable naming one).
    #[error("cannot tell where the state directory is: {0}")]
    NoStateDir(String),
    /// This process already has a log.
    #[error("a log is already installed")]
    Installed,
}

/// Installs the log when `TRIAGE_LOG` asks for one: `Ok(None)` when it does
/// not, else the file it writes to.
pub fn init_from_env() -> Result<Option<PathBuf>, LogError> {
    let Some(value) = std::env::var_os(LOG_ENV) else {
        return Ok(None);
    };
    let value = value.to_string_lossy().trim().to_owned();
    if value.is_empty() || value == "off" {
        return Ok(None);
    }
    let dir = crate::outbox::state_dir().map_err(|e| LogError::NoStateDir(e.to_string()))?;
    init(&value, &dir).map(Some)
}

/// The filter directives for a `TRIAGE_LOG` value (see the module docs).
pub fn directives(value: &str) -> String {
    match value.to_ascii_lowercase().as_str() {
        level @ ("error" | "warn" | "info" | "debug" | "trace") => format!("warn,triage={level},octocrab={level}"),
        _ => value.to_owned(),
    }
}

/// Installs the process's log writing to `dir/triage.log` with the filter of
/// `value`; returns the file's path.
pub fn init(value: &str, dir: &Path) -> Result<PathBuf, LogError> {
    let filter = EnvFilter::try_new(directives(value)).map_err(|e| LogError::Filter {
        value: value.to_owned(),
        message: e.to_string(),
    })?;
    std::fs::create_dir_all(dir).map_err(|source| LogError::Open {
        path: dir.to_owned(),
        source,
    })?;
    let path = dir.join(LOG_FILE);
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = options.open(&path).map_err(|source| LogError::Open {
        path: path.clone(),
        source,
    })?;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(Mutex::new(file))
        .with_ansi(false)
        .try_init()
        .map_err(|_| LogError::Installed)?;
    tracing::info!(version = env!("CARGO_PKG_VERSION"), "log started");
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_covers_triage_and_its_client_and_a_filter_is_kept() {
        assert_eq!(directives("DEBUG"), "warn,triage=debug,octocrab=debug");
        assert_eq!(directives("triage=trace"), "triage=trace");
    }

    #[test]
    fn a_bad_filter_is_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let err = init("triage=loud", dir.path()).expect_err("not a level");
        assert!(err.to_string().contains("TRIAGE_LOG=\"triage=loud\""), "{err}");
        assert!(!dir.path().join(LOG_FILE).exists(), "no file for a refused filter");
    }
}
