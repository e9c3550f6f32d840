//! Draws the banner whose lines [`crate::tui::present::banner`] makes.

use crate::tui::app::App;
/// The banner's lines live in `present` (update needs its height); the old paths stay.
pub use crate::tui::present::banner::{angle_error_line, height, lines, problem_line, shown};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Block, Borders, Paragraph};

/// Draws the banner.
pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    if area.height == 0 {
        return;
    }
    let theme = &app.settings.theme;
    let lines = shown(app);
    let shown: Vec<_> = lines.iter().map(|l| super::to_line(l, theme)).collect();
    let block = Block::default().borders(Borders::ALL).border_style(theme.error);
    frame.render_widget(Paragraph::new(shown).block(block), area);
}
