//! The status bar: a message from the last action, or key hints generated
//! from the key table of the current mode.

use crate::sanitize::clean_line;
use crate::tui::action::Action;
use crate::tui::app::{App, Level, Mode, Pane};
use crate::tui::decision_state::{Question, SPINNER};
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
        Mode::Filter { .. } => " FILTER ",
        Mode::PathInput { .. } => " PATH ",
        Mode::Help { .. } => " HELP ",
        Mode::Problems { .. } => " PROBLEMS ",
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

/// The most rows a message in the status bar takes.
const MAX_ROWS: u16 = 4;

/// Rows of the status bar: one, or (in the list and search, where no
/// overlay covers the bottom rows) as many as the message needs to be read
/// whole (a link, a reason), up to [`MAX_ROWS`].
pub fn height(app: &App) -> u16 {
    let Some(flash) = &app.ui.flash else {
        return 1;
    };
    if !matches!(app.ui.mode, Mode::Normal | Mode::Search) {
        return 1;
    }
    let width = usize::from(app.ui.size.0.max(1));
    // The mode label, the spinner and its text take at most this much before the message.
    let lead = 14 + busy(app).map_or(0, |b| b.chars().count() + 3);
    let cells = lead + unicode_width::UnicodeWidthStr::width(clean_line(&flash.text).as_str());
    // Wrapping at spaces can need a row more than the cells alone.
    let rows = if cells <= width { 1 } else { cells.div_ceil(width) + 1 };
    u16::try_from(rows)
        .unwrap_or(MAX_ROWS)
        .clamp(1, MAX_ROWS)
        .min(app.ui.size.1 / 4)
        .max(1)
}

/// The answers that belong to the thread questions only.
fn thread(a: Action) -> bool {
    matches!(
        a,
        Action::ThreadReply | Action::ThreadResolve | Action::ThreadReopen | Action::ThreadDecide
    )
}

/// What runs in the background, for the spinner (`None`: nothing).
pub fn busy(app: &App) -> Option<String> {
    if let Some(b) = app.decide.batch {
        return Some(if b.total == 1 {
            "sending…".to_string()
        } else {
            format!("sending {}/{}…", b.done() + 1, b.total)
        });
    }
    if app.live.thread.sending.is_some() {
        return Some("sending the thread action…".to_string());
    }
    if app.live.refreshing.is_some() {
        return Some("refreshing…".to_string());
    }
    None
}
