//! The evidence panel: each excerpt with its place and reason, its
//! (highlighted or plain) text, what the local checkout says about it, and
//! whether the checkout's HEAD is the reviewed commit.
//!
//! Drawn from an [`EvidenceView`] the App prepares; nothing here reads
//! files, runs git or highlights. Every piece of text goes through the
//! sanitiser again as it becomes a span (free for clean text), so even a
//! carelessly built `EvidenceView` cannot put a control character on screen.
//!
//! Per excerpt: `path:line  side`, the reason, the quoted excerpt behind a
//! heavy bar (`┃`), the verdict of the local check (`✓` matches, `↪` moved,
//! `✗` not found, `!` not checked, `…` pending), then the checkout's lines
//! behind a light bar (`│`) with the matched lines marked `▶` and emphasised.

mod body;
mod styles;

pub use crate::tui::present::evidence::{
    CheckedView, EvidenceView, ExcerptView, HeadLine, LocalView, MAX_FIELD_LINES, MAX_LINE_CHARS, Window, cap_line,
    context_job, excerpt_job, excerpt_raw_lines, excerpt_shown_lines, field_lines, shown_lines, split_count,
};
pub use body::{item_line_count, line_count, lines, visible_lines};

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use ratatui::widgets::{Block, Paragraph, Wrap};
use styles::Styles;

/// Draws the panel into `area`: a bordered block, long lines wrapped.
pub fn render(frame: &mut Frame, area: Rect, data: &EvidenceView) {
    let s = Styles { color: data.color };
    let border = if data.focused {
        s.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    } else {
        s.dim()
    };
    let total = data.window.total_items.unwrap_or(data.items.len());
    let block = Block::bordered()
        .title(format!(" Evidence ({total}) "))
        .border_style(border);
    // Only the lines from the scroll position on, one screenful, are laid out.
    let rows = usize::from(area.height.saturating_sub(2));
    let paragraph = Paragraph::new(visible_lines(data, usize::from(data.scroll), rows))
        .block(block)
        .wrap(Wrap { trim: false });
    frame.render_widget(paragraph, area);
}

#[cfg(test)]
mod tests;
