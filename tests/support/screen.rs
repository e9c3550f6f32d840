//! Driving and drawing the screen in tests: keys go through `update` as the
//! event loop sends them, frames are drawn on a `TestBackend` of the app's
//! size. Shared by the screen test crates (`#[path = "support/screen.rs"]`).
#![allow(dead_code)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use triage::tui::app::App;
use triage::tui::effect::Effect;
use triage::tui::update::{Msg, update};
use triage::tui::view;

/// One frame of `app`, at its size.
pub fn draw(app: &App) -> Terminal<TestBackend> {
    let (w, h) = app.ui.size;
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap_or_else(|e| panic!("{e}"));
    terminal.draw(|f| view::draw(f, app)).unwrap_or_else(|e| panic!("{e}"));
    terminal
}

/// One frame of `app` as text.
pub fn screen(app: &App) -> String {
    draw(app).backend().to_string()
}

/// Types `text`, one key per character; the effects of all of them.
pub fn keys(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars()
        .flat_map(|c| update(app, Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))))
        .collect()
}

/// Presses `code`.
pub fn key(app: &mut App, code: KeyCode) -> Vec<Effect> {
    update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

/// Presses ctrl-`c`.
pub fn ctrl(app: &mut App, c: char) -> Vec<Effect> {
    update(app, Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)))
}
