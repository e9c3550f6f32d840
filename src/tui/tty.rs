//! Whether there is a terminal to draw on, asked before screen mode is
//! entered, so that running the screen from a script or a service says so in
//! one sentence (a usage error, exit 2) instead of an operating-system error.

use std::io::IsTerminal;

/// There is no terminal for the screen; the text says which part is missing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the screen needs a terminal, and {0}; for scripts use `triage list`, `triage validate` or `triage submit`")]
pub struct NoTerminal(pub &'static str);

/// stdout must be a terminal; keys come from stdin when it is one, else from
/// `/dev/tty` (so `triage - < result.json` works from a shell, not from cron).
pub fn check() -> Result<(), NoTerminal> {
    if !std::io::stdout().is_terminal() {
        return Err(NoTerminal("stdout is not one"));
    }
    if std::io::stdin().is_terminal() || cfg!(not(unix)) {
        return Ok(());
    }
    std::fs::File::open("/dev/tty")
        .map(drop)
        .map_err(|_| NoTerminal("this process has none to read keys from"))
}
