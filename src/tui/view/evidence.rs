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
mod build;
mod model;
mod styles;

pub use body::{line_count, lines};
pub use build::{context_job, excerpt_job, excerpt_raw_lines};
pub use model::{CheckedView, EvidenceView, ExcerptView, HeadLine, LocalView};

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
    let block = Block::bordered()
        .title(format!(" Evidence ({}) ", data.items.len()))
        .border_style(border);
    let paragraph = Paragraph::new(lines(data))
        .block(block)
        .wrap(Wrap { trim: false })
        .scroll((data.scroll, 0));
    frame.render_widget(paragraph, area);
}

#[cfg(test)]
mod tests;
