//! Opening a link in a browser: `$BROWSER` first, then the platform's opener.
//!
//! `$BROWSER` is a `:`-separated list of commands, tried in order. An entry
//! is a program name or path, run with the URL as its one argument; an entry
//! that contains `%s` is split at whitespace and the URL replaces each `%s`
//! (`firefox --new-tab %s`). No shell ever runs: the URL is one argument,
//! whatever it holds (and it was built by [`super::link`] from validated
//! facts). After `$BROWSER` comes the platform's opener (`xdg-open`, `open`,
//! `explorer`). An opener "works" when it starts and exits with status 0;
//! `xdg-open` without a display (over SSH) exits non-zero, so the screen
//! then shows the whole URL and copies it with OSC 52.

use super::message::failure::{OpenFailure, Shared};
use std::ffi::OsStr;
use std::process::{Command, Stdio};

/// One way to open a URL: a program and the arguments around the URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opener {
    pub program: String,
    /// The arguments; `None` stands for the URL.
    pub args: Vec<Option<String>>,
}

impl Opener {
    fn plain(program: &str) -> Opener {
        Opener {
            program: program.to_string(),
            args: vec![None],
        }
    }

    /// Reads one `$BROWSER` entry (see the module docs); `None` when blank.
    pub fn parse(entry: &str) -> Option<Opener> {
        let entry = entry.trim();
        if entry.is_empty() {
            return None;
        }
        if !entry.contains("%s") {
            return Some(Opener::plain(entry));
        }
        let mut words = entry.split_whitespace();
        let program = words.next()?.to_string();
        let args = words
            .map(|w| if w == "%s" { None } else { Some(w.replace("%s", "")) })
            .collect();
        Some(Opener { program, args })
    }

    fn run(&self, url: &str) -> Result<(), OpenFailure> {
        let args = self.args.iter().map(|a| a.as_deref().unwrap_or(url));
        match Command::new(&self.program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
        {
            Ok(s) if s.success() => Ok(()),
            Ok(status) => Err(OpenFailure::Exited {
                program: self.program.clone(),
                status,
            }),
            Err(e) => Err(OpenFailure::CannotStart {
                program: self.program.clone(),
                error: Shared::new(e),
            }),
        }
    }
}

/// The openers to try: each `$BROWSER` entry, then the platform's opener.
pub fn openers(browser: Option<&OsStr>) -> Vec<Opener> {
    let mut out: Vec<Opener> = browser
        .and_then(OsStr::to_str)
        .map(|b| b.split(':').filter_map(Opener::parse).collect())
        .unwrap_or_default();
    let platform = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    out.push(Opener::plain(platform));
    out
}

/// Tries each opener in turn: the program that opened `url`, or why none did
/// (every failure, in order).
pub fn open(url: &str, openers: &[Opener]) -> Result<String, Vec<OpenFailure>> {
    let mut failures = Vec::new();
    for opener in openers {
        match opener.run(url) {
            Ok(()) => return Ok(opener.program.clone()),
            Err(why) => failures.push(why),
        }
    }
    Err(failures)
}

/// No opener worked: the status line shows the whole URL (it wraps) and
/// the URL goes to the clipboard.
pub fn not_opened(app: &mut super::app::App, url: String, tried: &[OpenFailure]) -> Vec<super::effect::Effect> {
    let why = tried.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
    super::update::flash(
        app,
        super::app::Level::Warning,
        format!("No browser opened the link ({why}); copied it: {url}"),
    );
    vec![super::effect::Effect::Copy(url)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_programs_or_templates_never_shell() {
        assert_eq!(Opener::parse("  "), None);
        assert_eq!(Opener::parse("/usr/bin/w3m").map(|o| o.args), Some(vec![None]));
        let o = Opener::parse("firefox --new-tab %s").unwrap_or_else(|| unreachable!());
        assert_eq!(o.program, "firefox");
        assert_eq!(o.args, vec![Some("--new-tab".to_string()), None]);
        let list = openers(Some(OsStr::new("lynx:firefox %s::")));
        let names: Vec<&str> = list.iter().map(|o| o.program.as_str()).collect();
        assert_eq!(names.len(), 3, "{names:?}");
        assert_eq!(&names[..2], ["lynx", "firefox"]);
    }

    #[cfg(unix)]
    #[test]
    fn the_url_is_one_argument_and_failures_fall_through() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let out = dir.path().join("args");
        let script = dir.path().join("browser.sh");
        std::fs::write(
            &script,
            format!("#!/bin/sh\nprintf '%s|' \"$@\" > '{}'\n", out.display()),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap_or_else(|e| panic!("{e}"));
        let url = "https://github.com/acme/webhooks/pull/42/files#diff-ab; touch /tmp/x";
        let list = [
            Opener::plain("/nonexistent/browser"),
            Opener::plain("false"),
            Opener::plain(&script.display().to_string()),
        ];
        assert_eq!(open(url, &list), Ok(script.display().to_string()));
        assert_eq!(std::fs::read_to_string(&out).unwrap_or_default(), format!("{url}|"));
        let err = open(url, &list[..2])
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        assert!(
            err.contains("cannot start /nonexistent/browser") && err.contains("false exited"),
            "{err}"
        );
    }
}
