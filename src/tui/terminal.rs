//! The terminal guard: raw mode, the alternate screen, mouse capture and
//! bracketed paste on while it lives; all of it undone on drop, on every
//! exit path, and by a panic hook chained in front of the previous one.

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use ratatui::crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::crossterm::{cursor, execute};
use std::io::{self, Stdout, Write};
use std::sync::Once;

/// The terminal type the program draws on.
pub type Term = Terminal<CrosstermBackend<Stdout>>;

static PANIC_HOOK: Once = Once::new();

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
            restore();
            previous(info);
        }));
    });
}

/// Owns the terminal while the screen runs.
pub struct TerminalGuard {
    terminal: Term,
    active: bool,
}

impl TerminalGuard {
    /// Switches the terminal into screen mode.
    pub fn enter() -> io::Result<TerminalGuard> {
        install_panic_hook();
        let terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
        let mut guard = TerminalGuard {
            terminal,
            active: false,
        };
        guard.resume()?;
        Ok(guard)
    }

    /// The terminal to draw on.
    pub fn terminal(&mut self) -> &mut Term {
        &mut self.terminal
    }

    /// Leaves screen mode for a child program (the editor); see [`TerminalGuard::resume`].
    pub fn suspend(&mut self) {
        restore();
        self.active = false;
    }

    /// Returns to screen mode and forces a full redraw.
    pub fn resume(&mut self) -> io::Result<()> {
        enable_raw_mode()?;
        self.active = true;
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableBracketedPaste,
            cursor::Hide
        )?;
        self.terminal.clear()
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        if self.active {
            restore();
        }
    }
}
