//! Where each panel goes, as a pure function of the state. The view draws
//! into these areas; `update` uses the same numbers for paging, scrolling and
//! mouse hits, so the two never disagree.

use super::app::{App, Pane};
use super::filter::View;
use super::view::banner;
use ratatui::layout::{Constraint, Direction, Layout, Rect};

/// Below this width the detail and evidence panes share the lower half.
pub const WIDE: u16 = 110;

/// The panel areas of one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    pub header: Rect,
    /// Error / read-only banner (zero height when there is none).
    pub banner: Rect,
    pub list: Rect,
    /// Zero-sized when hidden (narrow terminal showing evidence).
    pub detail: Rect,
    /// Zero-sized when hidden (narrow terminal showing detail).
    pub evidence: Rect,
    pub status: Rect,
}

impl Areas {
    /// The area inside a pane's border.
    pub fn inner(area: Rect) -> Rect {
        Rect {
            x: area.x.saturating_add(1),
            y: area.y.saturating_add(1),
            width: area.width.saturating_sub(2),
            height: area.height.saturating_sub(2),
        }
    }

    /// Rows of findings that fit in the list.
    pub fn list_rows(&self, app: &App) -> usize {
        (usize::from(Areas::inner(self.list).height) / row_height(app)).max(1)
    }

    /// The area of a pane.
    pub fn pane(&self, pane: Pane) -> Rect {
        match pane {
            Pane::List => self.list,
            Pane::Detail => self.detail,
            Pane::Evidence => self.evidence,
        }
    }
}

/// Terminal lines per list row (the drift lane adds an advice line).
pub fn row_height(app: &App) -> usize {
    if app.browse.view == View::Drift { 2 } else { 1 }
}

/// Lines of the header.
pub fn header_height(app: &App) -> u16 {
    if app.doc.set.as_ref().is_some_and(|s| s.river.is_some()) {
        3
    } else {
        2
    }
}

/// Computes the areas for the terminal size in the state.
pub fn areas(app: &App) -> Areas {
    let (w, h) = app.ui.size;
    let full = Rect::new(0, 0, w, h);
    let banner_h = banner::height(app);
    let [header, banner, body, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(header_height(app)),
            Constraint::Length(banner_h),
            Constraint::Min(3),
            Constraint::Length(1),
        ])
        .areas(full);
    let (list, detail, evidence) = if w >= WIDE {
        let [list, right] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(body);
        let [detail, evidence] =
            Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(right);
        (list, detail, evidence)
    } else {
        let [list, lower] = Layout::vertical([Constraint::Percentage(45), Constraint::Percentage(55)]).areas(body);
        if app.ui.lower == Pane::Evidence {
            (list, Rect::default(), lower)
        } else {
            (list, lower, Rect::default())
        }
    };
    Areas {
        header,
        banner,
        list,
        detail,
        evidence,
        status,
    }
}

/// The centred area of an overlay (help, problems, filter menu).
pub fn overlay(app: &App) -> Rect {
    let (w, h) = app.ui.size;
    let width = (w.saturating_mul(9) / 10).clamp(w.min(40), 100);
    let height = (h.saturating_mul(8) / 10).max(h.min(10));
    Rect {
        x: (w - width) / 2,
        y: (h - height) / 2,
        width,
        height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture::{self, app as app_with};

    #[test]
    fn wide_layout_shows_three_panes() {
        let app = app_with(fixture::sample_set(), (120, 40));
        let a = areas(&app);
        assert!(a.list.width > 0 && a.detail.width > 0 && a.evidence.width > 0);
        assert_eq!(a.status.y, 39);
        assert_eq!(a.header.height, 2);
    }

    #[test]
    fn narrow_layout_shows_one_lower_pane() {
        let mut app = app_with(fixture::sample_set(), (80, 24));
        let a = areas(&app);
        assert!(a.detail.height > 0);
        assert_eq!(a.evidence, Rect::default());
        app.ui.lower = Pane::Evidence;
        let a = areas(&app);
        assert_eq!(a.detail, Rect::default());
        assert!(a.evidence.height > 0);
    }

    #[test]
    fn tiny_terminal_does_not_panic() {
        for size in [(0, 0), (1, 1), (10, 3), (200, 2)] {
            let app = app_with(fixture::sample_set(), size);
            let a = areas(&app);
            assert!(a.list_rows(&app) >= 1);
        }
    }
}
