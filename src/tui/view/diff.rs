//! The diff view (`D`): the pull request's hunk around each evidence line,
//! drawn from the rows [`crate::tui::diff`] prepared (sanitised, maybe
//! highlighted). Removed lines carry `-` and the old number, added lines `+`
//! and the new number; evidence lines are marked `▶` and emphasised.

use crate::checkout::diff::LineKind;
use crate::tui::app::App;
use crate::tui::diff::{DiffView, Row, RowKind};
use crate::tui::layout::Areas;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// The view covers the screen above the status line.
pub fn area(app: &App) -> Rect {
    let (w, h) = app.ui.size;
    Rect {
        x: 0,
        y: 0,
        width: w,
        height: h.saturating_sub(1),
    }
}

fn number(n: Option<u32>) -> String {
    n.map_or_else(|| "     ".to_string(), |n| format!("{n:>5}"))
}

/// One row as a line; `color` allows colours (not under `NO_COLOR`).
fn line<'a>(row: &'a Row, app: &App, color: bool) -> Line<'a> {
    let theme = &app.settings.theme;
    let fg = |c: Color| if color { Style::new().fg(c) } else { Style::new() };
    let text = || row.text.iter().map(|(style, t)| Span::styled(t.as_str(), *style));
    match &row.kind {
        RowKind::Heading => Line::from(
            text()
                .map(|s| s.style(fg(Color::Cyan).add_modifier(Modifier::BOLD)))
                .collect::<Vec<_>>(),
        ),
        RowKind::Note => Line::from(text().map(|s| s.style(theme.dim)).collect::<Vec<_>>()),
        RowKind::Section => Line::from(text().map(|s| s.style(fg(Color::Magenta))).collect::<Vec<_>>()),
        RowKind::Blank => Line::default(),
        RowKind::Line { kind, old, new, marked } => {
            let (sign, sign_style) = match kind {
                LineKind::Added => ("+", fg(Color::Green).add_modifier(Modifier::BOLD)),
                LineKind::Removed => ("-", fg(Color::Red).add_modifier(Modifier::BOLD)),
                LineKind::Context => (" ", Style::new()),
            };
            let mark = if *marked { "▶" } else { " " };
            let gutter = format!("{mark}{} {} ", number(*old), number(*new));
            let gutter_style = if *marked {
                Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED)
            } else {
                theme.dim
            };
            let mut spans = vec![
                Span::styled(gutter, gutter_style),
                Span::styled(format!("{sign} "), sign_style),
            ];
            let code = text().map(|s| {
                if *marked {
                    s.patch_style(Style::new().add_modifier(Modifier::BOLD))
                } else {
                    s
                }
            });
            spans.extend(code);
            Line::from(spans)
        }
    }
}

/// Draws the view from `scroll` on.
pub fn render(frame: &mut Frame, app: &App, scroll: usize) {
    let area = area(app);
    let theme = &app.settings.theme;
    let title = match &app.diff {
        DiffView::Loading { .. } => " Change around the evidence (reading…) ",
        _ => " Change around the evidence (D) ",
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus)
        .title(Span::styled(title, theme.heading))
        .title_bottom(Span::styled(" j/k PgUp/PgDn scroll · Esc close ", theme.dim));
    let inner = Areas::inner(area);
    let lines: Vec<Line> = match &app.diff {
        DiffView::Loading { .. } => vec![Line::styled("… reading the change", theme.dim)],
        DiffView::Closed => Vec::new(),
        DiffView::Shown { rows, .. } => rows
            .iter()
            .skip(scroll)
            .take(usize::from(inner.height))
            .map(|r| line(r, app, app.settings.color))
            .collect(),
    };
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
