//! The check made before the screen opens, so that a mistyped command or a
//! path that is no readable file is a usage error on stderr (exit 2) instead
//! of a read-only screen about a file that was never a review. (A missing
//! terminal is found by [`crate::tui::tty`], after a `--pr` fetch has had its
//! say, and is a usage error too.)

use super::args::OpenArgs;
use super::exit::Usage;
use clap::CommandFactory;
use std::path::Path;

/// The screen's FILE is `-`, or a regular file that can be opened for reading.
/// A name that does not exist and looks like a word (no `/`, no `.`) is
/// taken for a mistyped subcommand and answered with the list of commands.
pub fn file(args: &OpenArgs) -> Result<(), Usage> {
    let Some(path) = args.file.as_deref() else {
        return Ok(());
    };
    if path.as_os_str() == "-" {
        return Ok(());
    }
    let shown = crate::sanitize::clean_line(&path.display().to_string());
    match std::fs::metadata(path) {
        Err(_) if looks_like_a_command(path) => Err(Usage(format!(
            "unknown command '{shown}' (commands: {}); `triage --help` lists them, `triage FILE` opens a review file",
            commands().join(", ")
        ))),
        Err(e) => Err(Usage(format!("cannot open {shown}: {}", describe(&e)))),
        Ok(m) if m.is_dir() => Err(Usage(format!(
            "{shown} is a directory; give a review file (JSON or ZIP), `-` for stdin, or --pr N"
        ))),
        Ok(m) if !m.is_file() => Err(Usage(format!("{shown} is not a regular file"))),
        Ok(_) => std::fs::File::open(path)
            .map(drop)
            .map_err(|e| Usage(format!("cannot read {shown}: {}", describe(&e)))),
    }
}

fn looks_like_a_command(path: &Path) -> bool {
    let text = path.to_string_lossy();
    !text.is_empty() && !text.contains(['/', '\\', '.'])
}

fn describe(e: &std::io::Error) -> &'static str {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file",
        std::io::ErrorKind::PermissionDenied => "permission denied",
        _ => "not readable",
    }
}

/// The subcommand names, from the parser itself so they cannot drift.
fn commands() -> Vec<String> {
    super::args::Cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn open(path: &str) -> Result<(), Usage> {
        file(&OpenArgs {
            file: Some(PathBuf::from(path)),
            ..OpenArgs::default()
        })
    }

    #[test]
    fn a_word_that_is_no_file_is_an_unknown_command() {
        let err = open("lst").err().map(|u| u.0).unwrap_or_default();
        assert!(err.starts_with("unknown command 'lst'"), "{err}");
        assert!(err.contains("list") && err.contains("validate"), "{err}");
    }

    #[test]
    fn directories_and_missing_paths_are_usage_errors() {
        let dir = std::env::temp_dir();
        let err = open(&dir.display().to_string()).err().map(|u| u.0).unwrap_or_default();
        assert!(err.contains("is a directory"), "{err}");
        let err = open("missing/result.json").err().map(|u| u.0).unwrap_or_default();
        assert_eq!(err, "cannot open missing/result.json: no such file");
        assert!(open("-").is_ok());
        assert!(file(&OpenArgs::default()).is_ok(), "no FILE: the demo");
    }
}
