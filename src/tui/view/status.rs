//! The status bar: a message from the last action, or key hints generated
//! from the key table of the current mode.

use crate::sanitize::clean_line;
use crate::tui::app::{App, Level, Mode, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Draws the status bar.
pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.settings.theme;
    let mode = match app.ui.mode {
        Mode::Normal => match app.ui.focus {
            Pane::List => " LIST ",
            Pane::Detail => " DETAIL ",
            Pane::Evidence => " EVIDENCE ",
        },
        Mode::Search => " SEARCH ",
        Mode::Filter { .. } => " FILTER ",
        Mode::PathInput { .. } => " PATH ",
        Mode::Help { .. } => " HELP ",
        Mode::Problems { .. } => " PROBLEMS ",
    };
    let mut spans = vec![
        Span::styled(
            mode,
            theme.focus.add_modifier(ratatui::style::Modifier::REVERSED),
        ),
        Span::raw(" "),
    ];
    match &app.ui.flash {
        Some(flash) => {
            let style = match flash.level {
                Level::Info => theme.accent,
                Level::Warning => theme.warning,
                Level::Error => theme.error,
            };
            spans.push(Span::styled(clean_line(&flash.text), style));
        }
        None => {
            for (key, label) in app.keymap().hints(app.key_mode()) {
                spans.push(Span::styled(key, theme.label));
                spans.push(Span::raw(format!(" {label}  ")));
            }
            if app.ui.mode == Mode::Search {
                spans.push(Span::styled("type to search", theme.dim));
            }
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
