//! The screen's usage errors: a mistyped subcommand, a path that is no
//! readable file and a missing terminal each say so on stderr in one line
//! and exit 2, without drawing anything on stdout.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "support/binary.rs"]
mod binary;

use binary::Run;
use std::path::Path;

fn triage(args: &[&str], dir: &Path) -> Run {
    binary::run(args, dir, Some(dir))
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

#[test]
fn a_mistyped_subcommand_names_the_commands() {
    let dir = tempdir();
    let run = triage(&["lst"], dir.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.starts_with("triage: unknown command 'lst'"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("list, "), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

#[test]
fn a_directory_or_a_missing_file_is_a_usage_error() {
    let dir = tempdir();
    let shown = dir.path().display().to_string();
    let run = triage(&[&shown], dir.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(
        run.stderr.trim_end(),
        format!("triage: {shown} is a directory; give a review file (JSON or ZIP), `-` for stdin, or --pr N")
    );
    let run = triage(&["results/none.json"], dir.path());
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(
        run.stderr.trim_end(),
        "triage: cannot open results/none.json: no such file"
    );
    assert!(!run.stderr.contains("INVALID"));
}

#[test]
fn no_terminal_is_one_clear_sentence_and_exit_2() {
    let dir = tempdir();
    let file = dir.path().join("result.json");
    std::fs::copy(
        "tests/fixtures/conformance/agent-result/valid-scope-pull-request.json",
        &file,
    )
    .expect("fixture");
    for args in [vec![], vec![file.to_str().unwrap_or_default()]] {
        let run = triage(&args, dir.path());
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "nothing drawn: {:?}", run.stdout);
        assert!(
            run.stderr
                .starts_with("triage: the screen needs a terminal, and stdout is not one;"),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("os error"), "{}", run.stderr);
    }
}
