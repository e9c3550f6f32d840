//! The detail and evidence panes: slices of text wrapped in `update`.

use crate::tui::app::{App, Pane, TextCache};
use crate::tui::layout::Areas;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

fn title(name: &str, cache: &TextCache, scroll: usize, area: Rect, app: &App) -> Line<'static> {
    let height = usize::from(Areas::inner(area).height);
    let total = cache.lines.len();
    let mut spans = vec![Span::styled(format!(" {name} "), app.settings.theme.heading)];
    if total > height && height > 0 {
        let last = (scroll + height).min(total);
        spans.push(Span::raw(format!("{}-{last}/{total} ", scroll + 1)));
    }
    Line::from(spans)
}

/// Draws the detail pane of the selected finding.
pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    if area.area() == 0 {
        return;
    }
    let scroll = app.ui.detail_scroll;
    let block = super::pane_block(title("Detail", &app.detail, scroll, area, app), app, Pane::Detail);
    super::text_pane(frame, area, block, &app.detail.lines, scroll, &app.settings.theme);
}

/// Draws the evidence pane of the selected finding (prepared in `update`).
pub fn render_evidence(frame: &mut Frame, area: Rect, app: &App) {
    if area.area() == 0 {
        return;
    }
    super::evidence::render(frame, area, &app.evidence.view);
}
