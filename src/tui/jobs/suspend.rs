//! Job control: `ctrl-z` hands the terminal back to the shell and stops the
//! process; `fg` continues it and the screen comes back, fully redrawn.
//!
//! Raw mode turns the terminal's own suspend character into an ordinary key,
//! so the screen sends itself SIGTSTP after leaving screen mode. The default
//! action of SIGTSTP stops the process inside the call; the call returns once
//! the shell sends SIGCONT.

use crate::tui::message::notice::Notice;
use crate::tui::terminal::TerminalGuard;
use crate::tui::update::Msg;

/// Leaves screen mode, stops the process until it is continued, re-enters
/// screen mode (which clears, so the next frame is drawn whole) and returns
/// the message that reports the terminal's size after the return.
pub fn stop_and_continue(guard: &mut TerminalGuard) -> Msg {
    guard.suspend();
    let stopped = stop_self();
    if let Err(e) = guard.resume() {
        return Msg::Notice(Notice::TerminalNotRestored(e.into()));
    }
    if let Err(e) = stopped {
        return Msg::Notice(Notice::NotSuspended(e.into()));
    }
    // Resize events while stopped went nowhere: the size is read once here.
    match guard.reread_size() {
        Ok((w, h)) => Msg::Resumed(w, h),
        Err(e) => Msg::Notice(Notice::SizeUnknown(e.into())),
    }
}

#[cfg(unix)]
fn stop_self() -> std::io::Result<()> {
    signal_hook::low_level::raise(signal_hook::consts::SIGTSTP)
}

#[cfg(not(unix))]
fn stop_self() -> std::io::Result<()> {
    Err(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "job control is not available on this platform",
    ))
}
