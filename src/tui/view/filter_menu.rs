//! The filter menu overlay: every facet value with its state, and the path text.

use crate::sanitize::clean_line;
use crate::tui::app::{App, Mode};
use crate::tui::filter::FilterItem;
use crate::tui::layout::{self, Areas};
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// Draws the menu with `cursor` highlighted.
pub fn render(frame: &mut Frame, app: &App, cursor: usize) {
    let theme = &app.settings.theme;
    let area = layout::overlay(app);
    let inner = Areas::inner(area);
    let items = FilterItem::all();
    let height = usize::from(inner.height).max(1);
    let offset = cursor.saturating_sub(height - 1);
    let editing = matches!(app.ui.mode, Mode::PathInput(_));
    let lines: Vec<Line> = items
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(n, item)| {
            let on = app.browse.filters.is_on(*item);
            let mark = if on { "[x]" } else { "[ ]" };
            let mut spans = vec![
                Span::raw(if n == cursor { "▶ " } else { "  " }),
                Span::styled(format!("{mark} "), if on { theme.accent } else { theme.dim }),
                Span::styled(format!("{:<15}", item.group()), theme.dim),
                Span::raw(item.label()),
            ];
            if *item == FilterItem::Path {
                let caret = if editing { "▏" } else { "" };
                spans.push(Span::styled(
                    format!(" \"{}{caret}\"", clean_line(&app.browse.filters.path)),
                    theme.accent,
                ));
            }
            let line = Line::from(spans);
            if n == cursor { line.style(theme.selected) } else { line }
        })
        .collect();
    let title = Span::styled(" Filters ", theme.heading);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus)
        .title(title);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
