//! The `triage` binary run as a user would: a private HOME with the state
//! directory inside it, no usable PATH, no colour, nothing else inherited.

use std::path::Path;

/// How one run ended.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `triage args` with `home` as HOME (state in `home/state`), from the
/// working directory `cwd` (`None`: the crate root, where tests start).
pub fn run(args: &[&str], home: &Path, cwd: Option<&Path>) -> Run {
    let mut command = assert_cmd::Command::cargo_bin("triage").expect("binary");
    command
        .args(args)
        .env_clear()
        .env("PATH", "/nonexistent")
        .env("HOME", home)
        .env("TRIAGE_STATE_DIR", home.join("state"))
        .env("NO_COLOR", "1");
    if let Some(dir) = cwd {
        command.current_dir(dir);
    }
    let out = command.output().expect("run");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
