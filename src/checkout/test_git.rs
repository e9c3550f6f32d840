//! Git for the checkout tests: real temporary repositories, set up by the
//! `git` binary the code under test also runs.

use std::path::Path;
use std::process::Command;

/// Runs git in `dir` and returns trimmed stdout; test setup only.
pub(super) fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A new repository in `dir` on branch `main`, with a committer and no
/// signing (the machine's git configuration must not matter).
pub(super) fn init(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    for (key, value) in [
        ("user.name", "Test"),
        ("user.email", "test@example.com"),
        ("commit.gpgsign", "false"),
    ] {
        git(dir, &["config", key, value]);
    }
}
