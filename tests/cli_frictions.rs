//! Small command-line frictions: severities in any case, every option of
//! `list` described in `--help`, `outbox retry` naming `--all` in its usage,
//! and a `review_error` result saying so on stderr.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "support/binary.rs"]
mod binary;

use binary::Run;
use std::path::Path;

fn triage(args: &[&str], dir: &Path) -> Run {
    binary::run(args, dir, None)
}

const PR: &str = "tests/fixtures/conformance/agent-result/valid-scope-pull-request.json";
const REVIEW_ERROR: &str = "tests/fixtures/conformance/agent-result/valid-review-error-null-score.json";

#[test]
fn severities_are_accepted_in_any_case_and_unknown_ones_are_usage_errors() {
    let dir = tempfile::tempdir().expect("dir");
    let upper = triage(
        &["list", "--all", "--severity", "P2,P3", "--format", "tsv", PR],
        dir.path(),
    );
    let lower = triage(
        &["list", "--all", "--severity", "p2,p3", "--format", "tsv", PR],
        dir.path(),
    );
    assert_eq!(lower.code, Some(0), "{}", lower.stderr);
    assert_eq!(lower.stdout, upper.stdout);
    let bad = triage(&["list", "--severity", "p9", PR], dir.path());
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("unknown severity \"p9\""), "{}", bad.stderr);
}

#[test]
fn format_and_kind_are_described_in_help() {
    let dir = tempfile::tempdir().expect("dir");
    for cmd in [vec!["list", "--help"], vec!["validate", "--help"]] {
        let help = triage(&cmd, dir.path()).stdout;
        for (flag, words) in [("--format", "Output:"), ("--kind", "Force the input format")] {
            let at = help
                .find(&format!("{flag} <"))
                .unwrap_or_else(|| panic!("{flag} in {help}"));
            let described = help[at..].lines().nth(1).unwrap_or_default();
            assert!(described.contains(words), "{cmd:?} {flag}: {described:?}");
        }
    }
}

#[test]
fn outbox_retry_without_an_id_names_all_in_its_usage() {
    let dir = tempfile::tempdir().expect("dir");
    let run = triage(&["outbox", "retry"], dir.path());
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("Usage: triage outbox retry <ID|--all>"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_review_error_result_says_so_on_stderr_and_lists_on_stdout() {
    let dir = tempfile::tempdir().expect("dir");
    let run = triage(&["list", "--all", REVIEW_ERROR], dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.starts_with("SEV"), "{}", run.stdout);
    assert!(
        run.stderr
            .starts_with("triage: this result is a review_error: the review did not complete and is not a pass"),
        "{}",
        run.stderr
    );
    let normal = triage(&["list", "--all", PR], dir.path());
    assert!(normal.stderr.is_empty(), "{}", normal.stderr);
}
