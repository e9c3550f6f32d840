//! Where each panel goes, as a pure function of the state. The view draws
//! into these areas; `update` uses the same numbers for paging, scrolling and
//! mouse hits, so the two never disagree.

use super::app::{App, Pane};
use super::filter::View;
use super::present::banner;
use ratatui::layout::{Constraint, Direction, Layout, Rect};

/// The list's default share of a wide body, in percent: its columns (and
/// the title after them) need the room more than the wrapped detail text.
pub const LIST_SHARE: i16 = 60;

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

/// The list's share of the body in percent: the default (60% beside the
/// other panes, 45% above them in a narrow terminal) moved a tenth per
/// `<`/`>`, between 20% and 80%.
pub fn list_share(app: &App) -> u16 {
    let base: i16 = if app.ui.size.0 >= WIDE { LIST_SHARE } else { 45 };
    let share = (base + 10 * i16::from(app.ui.split_shift)).clamp(20, 80);
    u16::try_from(share).unwrap_or(50)
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
            Constraint::Length(super::present::status::height(app)),
        ])
        .areas(full);
    if app.ui.zoom {
        let pane = |p: Pane| if app.ui.focus == p { body } else { Rect::default() };
        return Areas {
            header,
            banner,
            list: pane(Pane::List),
            detail: pane(Pane::Detail),
            evidence: pane(Pane::Evidence),
            status,
        };
    }
    let share = list_share(app);
    let (list, detail, evidence) = if w >= WIDE {
        let [list, right] =
            Layout::horizontal([Constraint::Percentage(share), Constraint::Percentage(100 - share)]).areas(body);
        let [detail, evidence] =
            Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(right);
        (list, detail, evidence)
    } else {
        let [list, lower] =
            Layout::vertical([Constraint::Percentage(share), Constraint::Percentage(100 - share)]).areas(body);
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

/// The centred area of an overlay (help, problems, filter menu, composer):
/// nine tenths of the width at any size (at least 40 columns when the
/// terminal has them), so a wide terminal shows long lines whole.
pub fn overlay(app: &App) -> Rect {
    let (w, h) = app.ui.size;
    let width = (w.saturating_mul(9) / 10).max(w.min(40));
    let height = (h.saturating_mul(8) / 10).max(h.min(10));
    Rect {
        x: (w - width) / 2,
        y: (h - height) / 2,
        width,
        height,
    }
}

/// The area of the diff view: the screen above the status line (`update`
/// pages by its height; the diff view is drawn into the same area).
pub fn diff_area(app: &App) -> Rect {
    let (w, h) = app.ui.size;
    Rect {
        x: 0,
        y: 0,
        width: w,
        height: h.saturating_sub(1),
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
