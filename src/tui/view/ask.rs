//! A question box with one-key answers, centred low on the screen.

use crate::tui::app::App;
use crate::tui::ask;
use crate::tui::decision_state::Question;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// Draws the question.
pub fn render(frame: &mut Frame, app: &App, q: Question) {
    let theme = &app.settings.theme;
    let (w, h) = app.ui.size;
    let text = ask::text(app, q);
    let width = w.saturating_sub(4).clamp(w.min(20), 110);
    let height = u16::try_from(text.len() + 2).unwrap_or(u16::MAX).min(h);
    let area = Rect {
        x: (w - width) / 2,
        y: h.saturating_sub(height + 2),
        width,
        height,
    };
    let title = match q {
        Question::Quit => " Quit? ",
        Question::Escalate => " Escalate ",
        Question::Undo { .. } => " Undo suppression ",
        Question::ThreadMenu { .. } => " Thread ",
        Question::ThreadRemedies { .. } => " Resolved externally ",
        Question::ThreadConfirm { .. } => " Confirm thread action ",
        Question::Supersede { .. } => " Supersede? ",
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.warning)
        .title(Span::styled(title, theme.heading));
    let lines: Vec<Line> = text.into_iter().map(Line::raw).collect();
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// Draws the thread reply input in the same place as a question.
pub fn render_reply(frame: &mut Frame, app: &App, finding: usize) {
    let theme = &app.settings.theme;
    let (w, h) = app.ui.size;
    let lines = vec![
        Line::raw(ask::reply_prompt()),
        Line::styled(crate::tui::thread_act::reply_line(app, finding), theme.accent),
    ];
    let width = w.saturating_sub(4).clamp(w.min(20), 110);
    let height = 4u16.min(h);
    let area = Rect {
        x: (w - width) / 2,
        y: h.saturating_sub(height + 2),
        width,
        height,
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus)
        .title(Span::styled(" Reply in the thread ", theme.heading));
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
