//! The status bar: a message from the last action, or key hints generated
//! from the key table of the current mode.

use crate::sanitize::clean_line;
use crate::tui::action::Action;
use crate::tui::app::{App, Level, Mode, Pane};
use crate::tui::decision_state::{Question, SPINNER};
pub use crate::tui::present::status::{busy, height};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

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
        Mode::Filter(_) => " FILTER ",
        Mode::PathInput(_) => " PATH ",
        Mode::Help(_) => " HELP ",
        Mode::Problems(_) => " PROBLEMS ",
        Mode::Compose(crate::tui::composer::Stage::Status { .. }) => " DECIDE ",
        Mode::Compose(crate::tui::composer::Stage::Evidence) => " EVIDENCE ",
        Mode::Compose(crate::tui::composer::Stage::Confirm { .. }) => " CONFIRM ",
        Mode::Outbox { .. } => " OUTBOX ",
        Mode::Ask(_) => " ASK ",
        Mode::ThreadReply { .. } => " REPLY ",
        Mode::Diff { .. } => " DIFF ",
    };
    let mut spans = vec![
        Span::styled(mode, theme.focus.add_modifier(ratatui::style::Modifier::REVERSED)),
        Span::raw(" "),
    ];
    if let Some(work) = busy(app) {
        let frame = SPINNER[app.decide.spinner % SPINNER.len()];
        spans.push(Span::styled(format!("{frame} {work} "), theme.accent));
    }
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
            let relevant = |a: Action| match app.ui.mode {
                Mode::Ask(Question::Escalate) => !matches!(a, Action::AnswerYes | Action::AnswerNo) && !thread(a),
                Mode::Ask(Question::ThreadMenu { .. }) => {
                    matches!(
                        a,
                        Action::ThreadReply | Action::ThreadResolve | Action::ThreadReopen | Action::Quit
                    )
                }
                Mode::Ask(Question::ThreadRemedies { .. }) => {
                    matches!(a, Action::ThreadReopen | Action::ThreadDecide | Action::Quit)
                }
                Mode::Ask(_) => !matches!(a, Action::ToClipboard | Action::ToFile) && !thread(a),
                _ => true,
            };
            for (key, label) in app.keymap().hints_where(app.key_mode(), relevant) {
                spans.push(Span::styled(key, theme.label));
                spans.push(Span::raw(format!(" {label}  ")));
            }
            if app.ui.mode == Mode::Search {
                spans.push(Span::styled("type to search", theme.dim));
            }
        }
    }
    // A message wraps onto the rows [`height`] gave it; hints stay on one row.
    let paragraph = Paragraph::new(Line::from(spans));
    let paragraph = if height(app) > 1 {
        paragraph.wrap(Wrap { trim: false })
    } else {
        paragraph
    };
    frame.render_widget(paragraph, area);
}

/// The answers that belong to the thread questions only.
fn thread(a: Action) -> bool {
    matches!(
        a,
        Action::ThreadReply | Action::ThreadResolve | Action::ThreadReopen | Action::ThreadDecide
    )
}
