//! The terminal guard: raw mode, the alternate screen, mouse capture and
//! bracketed paste on while it lives; all of it undone on drop, on every
//! exit path, and by a panic hook chained in front of the previous one.
//!
//! The hook restores the terminal only for a panic of the screen's own
//! thread (the UI is over). A panic of a worker thread while the screen runs
//! leaves the terminal alone: its message is kept for the event loop, which
//! shows it in the status bar ([`take_worker_panics`]).
//!
//! The viewport is fixed at the size read once on entry and changed only by
//! resize events ([`TerminalGuard::resize`]), so a frame never asks the
//! terminal for its size. Each frame is wrapped in synchronized-update
//! sequences (`CSI ? 2026 h` … `CSI ? 2026 l`): a terminal that knows them
//! shows the frame at once instead of tearing; one that does not ignores
//! them (an unknown private mode).

use super::reader::Gate;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use ratatui::crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
use ratatui::crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::crossterm::{cursor, execute};
use ratatui::layout::Rect;
use ratatui::{Frame, Terminal, TerminalOptions, Viewport};
use std::io::{self, Stdout, Write};
use std::sync::{Arc, Mutex, Once};
use std::thread::ThreadId;

/// The terminal type the program draws on.
pub type Term = Terminal<CrosstermBackend<Stdout>>;

static PANIC_HOOK: Once = Once::new();
/// The thread that runs the screen, while a guard is active.
static UI_THREAD: Mutex<Option<ThreadId>> = Mutex::new(None);
/// Messages of worker panics not yet shown.
static WORKER_PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The worker panics since the last call (message and place, sanitised).
pub fn take_worker_panics() -> Vec<String> {
    std::mem::take(&mut *WORKER_PANICS.lock().unwrap_or_else(|e| e.into_inner()))
}

/// One line about a panic: its message (when it is text) and where.
fn panic_line(info: &std::panic::PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned());
    let place = info
        .location()
        .map(|l| format!(" at {}:{}", l.file(), l.line()))
        .unwrap_or_default();
    crate::sanitize::clean_line(&format!("{text}{place}"))
}

/// Puts the terminal back the way a shell expects it. Safe to call twice.
pub fn restore() {
    let mut out = io::stdout();
    // Each step is attempted even when an earlier one fails.
    let _ = execute!(out, DisableBracketedPaste);
    let _ = execute!(out, DisableMouseCapture);
    let _ = execute!(out, LeaveAlternateScreen);
    let _ = execute!(out, cursor::Show);
    let _ = disable_raw_mode();
    let _ = out.flush();
}

fn install_panic_hook() {
    PANIC_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let ui = *UI_THREAD.lock().unwrap_or_else(|e| e.into_inner());
            match ui {
                // The worker reports its own threads' panics as messages.
                Some(id) if id != std::thread::current().id() && super::jobs::worker::reports_own_panics() => {}
                Some(id) if id != std::thread::current().id() => {
                    WORKER_PANICS
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(panic_line(info));
                }
                _ => {
                    restore();
                    previous(info);
                }
            }
        }));
    });
}

/// Owns the terminal while the screen runs.
pub struct TerminalGuard {
    terminal: Term,
    active: bool,
    /// The input reader, paused while a child program owns the terminal.
    input: Option<Arc<Gate>>,
    /// The size frames are drawn at.
    size: (u16, u16),
}

impl TerminalGuard {
    /// Switches the terminal into screen mode.
    pub fn enter() -> io::Result<TerminalGuard> {
        install_panic_hook();
        let (w, h) = ratatui::crossterm::terminal::size()?;
        let options = TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, w, h)),
        };
        let terminal = Terminal::with_options(CrosstermBackend::new(io::stdout()), options)?;
        let mut guard = TerminalGuard {
            terminal,
            active: false,
            input: None,
            size: (w, h),
        };
        guard.resume()?;
        Ok(guard)
    }

    /// The terminal to draw on.
    pub fn terminal(&mut self) -> &mut Term {
        &mut self.terminal
    }

    /// The size the screen draws at (from entry or the last resize event).
    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    /// The terminal now has this size (a resize event): the next frame is drawn whole at it.
    pub fn resize(&mut self, w: u16, h: u16) -> io::Result<()> {
        if self.size == (w, h) {
            return Ok(());
        }
        self.size = (w, h);
        self.terminal.resize(Rect::new(0, 0, w, h))
    }

    /// Reads the size from the terminal itself (after a child program ran,
    /// when resize events may have gone to it) and draws at it from now on.
    pub fn reread_size(&mut self) -> io::Result<(u16, u16)> {
        let (w, h) = ratatui::crossterm::terminal::size()?;
        self.resize(w, h)?;
        Ok((w, h))
    }

    /// Draws one frame between synchronized-update sequences.
    pub fn draw(&mut self, render: impl FnOnce(&mut Frame)) -> io::Result<()> {
        ratatui::crossterm::queue!(self.terminal.backend_mut(), BeginSynchronizedUpdate)?;
        let drawn = self.terminal.draw(render).map(drop);
        // Ended even when the frame failed, so the terminal does not stay frozen.
        let ended = execute!(self.terminal.backend_mut(), EndSynchronizedUpdate);
        drawn.and(ended)
    }

    /// Pauses this reader whenever a child program gets the terminal.
    pub fn attach_input(&mut self, gate: Arc<Gate>) {
        self.input = Some(gate);
    }

    /// Leaves screen mode for a child program (the editor); see [`TerminalGuard::resume`].
    pub fn suspend(&mut self) {
        if let Some(gate) = &self.input {
            gate.pause();
        }
        restore();
        self.active = false;
        *UI_THREAD.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Returns to screen mode and forces a full redraw.
    ///
    /// The screen is cleared by resizing the viewport to the size it has,
    /// not by `Terminal::clear`: that asks the terminal where its cursor is
    /// (`CSI 6n`) and waits for the answer, which costs a round trip to the
    /// terminal before the first frame (a network one over SSH) and ends
    /// the screen with an error when no answer comes within two seconds.
    /// The alternate screen has no cursor position worth keeping.
    pub fn resume(&mut self) -> io::Result<()> {
        enable_raw_mode()?;
        self.active = true;
        *UI_THREAD.lock().unwrap_or_else(|e| e.into_inner()) = Some(std::thread::current().id());
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableBracketedPaste,
            cursor::Hide
        )?;
        let (w, h) = self.size;
        let cleared = self.terminal.resize(Rect::new(0, 0, w, h));
        if let Some(gate) = &self.input {
            gate.open();
        }
        cleared
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        if let Some(gate) = &self.input {
            gate.close();
        }
        *UI_THREAD.lock().unwrap_or_else(|e| e.into_inner()) = None;
        if self.active {
            restore();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_panic_under_the_screen_is_kept_as_a_message_not_a_restore() {
        install_panic_hook();
        *UI_THREAD.lock().unwrap_or_else(|e| e.into_inner()) = Some(std::thread::current().id());
        let worker = std::thread::spawn(|| panic!("worker \u{1b}[2J broke"));
        let joined = worker.join();
        *UI_THREAD.lock().unwrap_or_else(|e| e.into_inner()) = None;
        assert!(joined.is_err());
        let kept = take_worker_panics();
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert!(
            kept[0].starts_with("worker ␛[2J broke at src/tui/terminal.rs:"),
            "{kept:?}"
        );
        assert!(take_worker_panics().is_empty(), "each message is shown once");
    }
}
