//! Moving around: the selection, pane scrolling, focus, the mouse, and the
//! bookkeeping after every message (selection kept in view, pane text
//! rebuilt for a new selection or width, scroll positions clamped).

use super::action::Action;
use super::app::{App, Mode, Pane};
use super::detail_text;
use super::effect::Effect;
use super::layout::{self, Areas};
use super::overlay;
use super::text;
use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

/// Lines one mouse-wheel notch scrolls.
const WHEEL: usize = 3;

/// A new position after a movement in a list of `len` items, `page` per screen.
pub fn step(pos: usize, len: usize, action: Action, page: usize) -> usize {
    let last = len.saturating_sub(1);
    let page = page.max(1);
    match action {
        Action::Down => pos.saturating_add(1).min(last),
        Action::Up => pos.saturating_sub(1),
        Action::PageDown => pos.saturating_add(page).min(last),
        Action::PageUp => pos.saturating_sub(page),
        Action::Top => 0,
        Action::Bottom => last,
        _ => pos,
    }
}

/// Applies a movement action where it belongs in the current mode and focus.
pub fn movement(app: &mut App, action: Action) {
    let areas = layout::areas(app);
    match app.ui.mode {
        // The overlays move themselves (the mouse wheel comes here too).
        Mode::Filter(menu) => {
            let _ = overlay::filter_menu::update(app, menu, action);
        }
        Mode::Help(open) => {
            let _ = overlay::help::update(app, open, action);
        }
        Mode::Problems(open) => {
            let _ = overlay::problems::update(app, open, action);
        }
        Mode::Diff { scroll } => {
            let page = usize::from(Areas::inner(super::layout::diff_area(app)).height);
            app.ui.mode = Mode::Diff {
                scroll: step(scroll, app.diff.rows().len(), action, page),
            };
        }
        Mode::Normal if app.ui.focus == Pane::Detail => {
            let page = usize::from(Areas::inner(areas.detail).height);
            app.ui.detail_scroll = step(app.ui.detail_scroll, app.detail.lines.len(), action, page);
        }
        Mode::Normal if app.ui.focus == Pane::Evidence => {
            let page = usize::from(Areas::inner(areas.evidence).height);
            let len = app.evidence.total_lines();
            app.ui.evidence_scroll = step(app.ui.evidence_scroll, len, action, page);
        }
        // Their own modules move these (composer, outbox, questions).
        Mode::Compose(_) | Mode::Outbox { .. } | Mode::Ask(_) | Mode::ThreadReply { .. } => {}
        Mode::Normal | Mode::Search | Mode::PathInput(_) => {
            let rows = areas.list_rows(app);
            app.browse.cursor = step(app.browse.cursor, app.browse.visible.len(), action, rows);
        }
    }
}

/// Focuses a pane (in a narrow terminal, detail and evidence take turns).
pub fn focus(app: &mut App, pane: Pane) {
    app.ui.focus = pane;
    if pane != Pane::List {
        app.ui.lower = pane;
    }
}

fn hit(area: Rect, col: u16, row: u16) -> bool {
    area.contains(Position { x: col, y: row })
}

/// Wheel scrolls what is under the pointer; a left click selects a row or focuses a pane.
pub fn mouse(app: &mut App, ev: MouseEvent) {
    let areas = layout::areas(app);
    let overlay = !matches!(app.ui.mode, Mode::Normal | Mode::Search);
    let wheel = match ev.kind {
        MouseEventKind::ScrollDown => Some(Action::Down),
        MouseEventKind::ScrollUp => Some(Action::Up),
        _ => None,
    };
    if let Some(action) = wheel {
        if !overlay {
            let under = [Pane::List, Pane::Detail, Pane::Evidence]
                .into_iter()
                .find(|p| hit(areas.pane(*p), ev.column, ev.row));
            let Some(pane) = under else { return };
            app.ui.focus = pane;
        }
        for _ in 0..WHEEL {
            movement(app, action);
        }
        return;
    }
    if ev.kind != MouseEventKind::Down(MouseButton::Left) || overlay {
        return;
    }
    let inner = Areas::inner(areas.list);
    if hit(inner, ev.column, ev.row) {
        let pos = app.browse.offset + usize::from(ev.row - inner.y) / layout::row_height(app);
        if pos < app.browse.visible.len() {
            app.browse.cursor = pos;
        }
        app.ui.focus = Pane::List;
    } else if hit(areas.detail, ev.column, ev.row) {
        app.ui.focus = Pane::Detail;
    } else if hit(areas.evidence, ev.column, ev.row) {
        app.ui.focus = Pane::Evidence;
    }
}

/// Restores the invariants after a message: cursor in range and in view,
/// pane text built for the selection and width, scrolls in range. Asks for
/// the checkout's view of a newly selected finding's evidence.
pub fn sync(app: &mut App) -> Vec<Effect> {
    let len = app.browse.visible.len();
    app.browse.cursor = app.browse.cursor.min(len.saturating_sub(1));
    let areas = layout::areas(app);
    let rows = areas.list_rows(app);
    let b = &mut app.browse;
    if b.cursor < b.offset {
        b.offset = b.cursor;
    } else if b.cursor >= b.offset + rows {
        b.offset = b.cursor + 1 - rows;
    }
    b.offset = b.offset.min(len.saturating_sub(rows));
    // The rows on screen are built here, so drawing only reads them.
    for &i in app.browse.visible.iter().skip(app.browse.offset).take(rows) {
        let _ = app.doc.row(i);
    }
    let width = areas.detail.width.max(areas.evidence.width);
    refresh_detail(app, width.saturating_sub(2));
    let selected = app.selected();
    let finding = selected.and_then(|i| app.doc.findings().get(i));
    app.evidence.refresh(selected, finding, app.settings.color);
    let detail_h = usize::from(Areas::inner(areas.detail).height).max(1);
    let evidence_h = usize::from(Areas::inner(areas.evidence).height).max(1);
    app.ui.detail_scroll = app
        .ui
        .detail_scroll
        .min(app.detail.lines.len().saturating_sub(detail_h));
    let evidence_len = app.evidence.total_lines();
    app.ui.evidence_scroll = app.ui.evidence_scroll.min(evidence_len.saturating_sub(evidence_h));
    let focused = app.ui.focus == Pane::Evidence && app.ui.mode == Mode::Normal;
    let finding = selected.and_then(|i| app.doc.findings().get(i));
    app.evidence
        .window(finding, app.ui.evidence_scroll, evidence_h, focused);
    let mut effects = request_evidence(app);
    effects.extend(prioritize(app, rows));
    effects
}

/// Excerpts larger than this are not asked for ahead of the rest (they are
/// shown plain anyway past the highlighter's limits, and copying them on every
/// selection would cost more than it saves).
const PRIORITY_EXCERPT_BYTES: usize = 64 * 1024;
/// Excerpts of one finding asked for ahead of the rest.
const PRIORITY_PER_FINDING: usize = 16;

/// The highlight request for the selection and the rows on screen, once per
/// change of either (only when highlighting is on).
fn prioritize(app: &mut App, rows: usize) -> Vec<Effect> {
    let key = (app.selected(), app.browse.offset);
    if !app.evidence.highlights.on || app.evidence.prioritized == Some(key) {
        return Vec::new();
    }
    app.evidence.prioritized = Some(key);
    let findings = app.doc.findings();
    let jobs = |i: usize| {
        findings.get(i).into_iter().flat_map(|f| {
            f.evidence
                .iter()
                .filter(|e| e.excerpt.len() <= PRIORITY_EXCERPT_BYTES)
                .take(PRIORITY_PER_FINDING)
                .map(super::present::evidence::excerpt_job)
        })
    };
    let selected = key.0.map(|i| jobs(i).collect()).unwrap_or_default();
    let on_screen = app.browse.visible.iter().skip(app.browse.offset).take(rows);
    let visible = on_screen
        .filter(|&&i| Some(i) != key.0)
        .flat_map(|&i| jobs(i))
        .collect();
    vec![Effect::Highlight { selected, visible }]
}

/// The checkout read of the selected finding, once per finding.
fn request_evidence(app: &mut App) -> Vec<Effect> {
    let Some(i) = app.selected() else {
        return Vec::new();
    };
    if !app.evidence.checkout || app.evidence.requested.contains(&i) {
        return Vec::new();
    }
    let Some(f) = app.doc.findings().get(i) else {
        return Vec::new();
    };
    let evidence = super::river_evidence::items(f).into_owned();
    if evidence.is_empty() {
        return Vec::new();
    }
    let effect = Effect::LoadEvidence {
        finding: i,
        evidence,
        reviewed_sha: app.doc.set.as_ref().and_then(|s| s.reviewed_sha.clone()),
        pull: super::diff::pull_of(app),
    };
    app.evidence.requested.insert(i);
    vec![effect]
}

/// Rebuilds the detail text when the selection or width changed.
fn refresh_detail(app: &mut App, width: u16) {
    let selected = app.selected();
    let key = selected.map(|i| (i, width));
    if app.detail.key == key && key.is_some() {
        return;
    }
    if app.detail.key.map(|(i, _)| i) != selected {
        app.ui.detail_scroll = 0;
        app.ui.evidence_scroll = 0;
    }
    app.detail.key = key;
    let Some(finding) = app.selected_finding() else {
        app.detail.lines.clear();
        return;
    };
    let facts = super::decide::detail_facts(app, selected);
    let entries = selected
        .map(|i| super::recorded::for_finding(app, i))
        .unwrap_or_default();
    let ledger = match (&app.live.ledger, super::recorded::ledger(app)) {
        (_, Some(l)) => detail_text::LedgerFacts::Entries(l, &entries),
        (super::recorded::LedgerView::Unknown(why), None) => detail_text::LedgerFacts::Unknown(why),
        _ => detail_text::LedgerFacts::None,
    };
    let detail = detail_text::build(
        finding,
        detail_text::DecisionFacts {
            state: selected.and_then(|i| app.submit.get(i)),
            draft: facts.draft,
            blocked: facts.blocked.as_deref(),
            ledger,
        },
    );
    app.detail.lines = text::wrap(&detail, width);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn highlight_asks(effects: &[Effect]) -> Vec<(Vec<String>, usize)> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Highlight { selected, visible } => {
                    Some((selected.iter().map(|j| j.lines.join("\n")).collect(), visible.len()))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_new_selection_asks_for_its_excerpts_first_once() {
        let mut app = crate::tui::fixture::app(crate::tui::fixture::scaled(30), (120, 40));
        app.evidence.highlights = crate::tui::highlight::Highlights::new(false);
        let resize = || crate::tui::update::Msg::Resize(120, 40);
        let first = highlight_asks(&crate::tui::update::update(&mut app, resize()));
        assert_eq!(first.len(), 1, "asked once for the first frame");
        assert!(
            highlight_asks(&crate::tui::update::update(&mut app, resize())).is_empty(),
            "nothing changed: nothing asked"
        );
        let j = KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE);
        let moved = highlight_asks(&crate::tui::update::update(&mut app, crate::tui::update::Msg::Key(j)));
        let selected = app.selected_finding().map(|f| f.evidence.clone()).unwrap_or_default();
        let want: Vec<String> = selected
            .iter()
            .map(|e| crate::tui::present::evidence::excerpt_job(e).lines.join("\n"))
            .collect();
        assert!(!want.is_empty(), "the fixture's findings carry evidence");
        assert_eq!(moved.len(), 1);
        assert_eq!(moved[0].0, want, "the selected finding's excerpts, in order");
        assert!(moved[0].1 > 0, "then the rows on screen");
    }

    #[test]
    fn only_the_rows_on_screen_are_built() {
        let app = crate::tui::fixture::app(crate::tui::fixture::scaled(5_000), (120, 40));
        let rows = layout::areas(&app).list_rows(&app);
        let built = app.doc.prepared.rows.built();
        assert!(built > 0 && built <= rows, "{built} rows built for {rows} on screen");
        let window: Vec<usize> = app
            .browse
            .visible
            .iter()
            .copied()
            .skip(app.browse.offset)
            .take(rows)
            .collect();
        let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).expect("terminal");
        term.draw(|f| crate::tui::view::draw(f, &app)).expect("draw");
        assert_eq!(app.doc.prepared.rows.built(), built, "drawing builds none");
        assert_eq!(built, window.len());
    }

    #[test]
    fn step_stays_in_range() {
        assert_eq!(step(0, 10, Action::Up, 5), 0);
        assert_eq!(step(9, 10, Action::Down, 5), 9);
        assert_eq!(step(3, 10, Action::PageDown, 5), 8);
        assert_eq!(step(8, 10, Action::PageDown, 5), 9);
        assert_eq!(step(8, 10, Action::PageUp, 5), 3);
        assert_eq!(step(4, 10, Action::Bottom, 5), 9);
        assert_eq!(step(4, 10, Action::Top, 5), 0);
        assert_eq!(step(0, 0, Action::Down, 5), 0);
    }
}
