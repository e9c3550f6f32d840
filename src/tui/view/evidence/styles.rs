//! The panel's styles (colours only when allowed) and sanitised spans.

use crate::sanitize::{DEFAULT_TAB_WIDTH, clean};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;

/// Styles of the panel; colours only when allowed.
pub(super) struct Styles {
    pub(super) color: bool,
}

impl Styles {
    pub(super) fn fg(&self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }
    pub(super) fn good(&self) -> Style {
        self.fg(Color::Green)
    }
    pub(super) fn warn(&self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }
    pub(super) fn bad(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
    pub(super) fn dim(&self) -> Style {
        Style::new().add_modifier(Modifier::DIM)
    }
    pub(super) fn path(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }
    pub(super) fn marked(&self) -> Style {
        Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED)
    }
}

/// A span of (possibly untrusted) text, sanitised on the way.
pub(super) fn span<'a>(text: &'a str, style: Style) -> Span<'a> {
    Span::styled(clean(text, DEFAULT_TAB_WIDTH), style)
}
