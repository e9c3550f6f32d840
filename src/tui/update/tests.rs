//! Message scripts: keys in, state and effects out.

use super::*;
use crate::model::finding::{Disposition, Severity};
use crate::model::review::Scope;
use crate::tui::app::{App, SubmitState};
use crate::tui::drift::Drift;
use crate::tui::fixture;
use crate::tui::overlay::filter_menu::FilterMenu;
use crate::tui::overlay::help::Help;
use crate::tui::overlay::problems::Problems;
use crate::tui::present::evidence::HeadLine;
use ratatui::crossterm::event::{KeyEventState, MouseButton, MouseEvent, MouseEventKind};

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Sends each character as a key press; returns every effect.
fn typed(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars().flat_map(|c| update(app, key(KeyCode::Char(c)))).collect()
}

fn sample(size: (u16, u16)) -> App {
    fixture::app(fixture::sample_set(), size)
}

fn selected_rank(app: &App) -> Option<Severity> {
    app.selected_finding().map(|f| f.rank)
}

#[test]
fn starts_on_the_repair_set_in_rank_order() {
    let app = sample((120, 40));
    assert_eq!(app.browse.view, View::Repair);
    let findings = app.doc.findings();
    assert!(app.browse.visible.iter().all(|&i| findings[i].in_repair_set()));
    assert_eq!(selected_rank(&app), Some(Severity::P0));
}

#[test]
fn vim_and_arrow_keys_move_within_bounds() {
    let mut app = sample((120, 40));
    typed(&mut app, "2");
    let n = app.browse.visible.len();
    typed(&mut app, "jj");
    assert_eq!(app.browse.cursor, 2);
    update(&mut app, key(KeyCode::Down));
    update(&mut app, key(KeyCode::Up));
    typed(&mut app, "k");
    assert_eq!(app.browse.cursor, 1);
    typed(&mut app, "G");
    assert_eq!(app.browse.cursor, n - 1);
    typed(&mut app, "jjj");
    assert_eq!(app.browse.cursor, n - 1);
    typed(&mut app, "g");
    assert_eq!(app.browse.cursor, 0);
    update(&mut app, key(KeyCode::PageDown));
    assert_eq!(app.browse.cursor, n - 1, "a page is longer than ten rows here");
}

#[test]
fn the_selection_stays_in_view_in_a_short_terminal() {
    let mut app = fixture::app(fixture::scaled(200), (80, 12));
    typed(&mut app, "2");
    let rows = crate::tui::layout::areas(&app).list_rows(&app);
    for _ in 0..50 {
        typed(&mut app, "j");
        let b = &app.browse;
        assert!(
            b.cursor >= b.offset && b.cursor < b.offset + rows,
            "{} {} {rows}",
            b.cursor,
            b.offset
        );
    }
    update(&mut app, key(KeyCode::PageUp));
    assert_eq!(app.browse.cursor, 50 - rows);
    update(&mut app, Msg::Resize(80, 40));
    let rows = crate::tui::layout::areas(&app).list_rows(&app);
    assert!(app.browse.cursor < app.browse.offset + rows);
}

#[test]
fn views_switch_and_the_drift_lane_explains_itself() {
    let mut app = sample((120, 40));
    typed(&mut app, "3");
    assert_eq!(app.browse.view, View::Drift);
    let first = app.selected_finding().and_then(Drift::of);
    assert_eq!(first, Some(Drift::ResolvedExternally));
    assert_eq!(app.browse.visible.len(), 5);
    typed(&mut app, "v");
    assert_eq!(app.browse.view, View::Repair);
    typed(&mut app, "v");
    assert_eq!(app.browse.view, View::All);
    assert_eq!(app.browse.visible.len(), 10);
}

#[test]
fn search_narrows_as_you_type_and_esc_clears_it() {
    let mut app = sample((120, 40));
    typed(&mut app, "2/");
    assert_eq!(app.ui.mode, Mode::Search);
    typed(&mut app, "retry");
    assert_eq!(app.browse.query, "retry");
    let hits = app.browse.visible.clone();
    assert!(!hits.is_empty() && hits.len() < 10);
    assert!(
        app.selected_finding()
            .is_some_and(|f| f.path.as_deref() == Some("app/webhooks/retry.py"))
    );
    update(&mut app, key(KeyCode::Backspace));
    assert_eq!(app.browse.query, "retr");
    assert!(app.browse.visible.len() >= hits.len());
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.ui.mode, Mode::Normal);
    assert_eq!(app.browse.query, "retr", "enter keeps the query");
    typed(&mut app, "j");
    update(&mut app, key(KeyCode::Esc));
    assert!(app.browse.query.is_empty());
    assert_eq!(app.browse.visible.len(), 10);
    assert!(!app.ui.quit, "the first Esc only clears the search");
}

#[test]
fn search_matches_fingerprints_and_letters_in_search_are_text() {
    let mut app = sample((120, 40));
    typed(&mut app, "2/security:src");
    assert!(
        app.selected_finding()
            .is_some_and(|f| f.key.as_str().starts_with("security:"))
    );
    assert!(!app.ui.quit, "q while typing is text");
    typed(&mut app, "qqq");
    assert!(app.browse.visible.is_empty());
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.ui.mode, Mode::Normal);
    assert!(app.browse.query.is_empty());
}

#[test]
fn paste_types_one_clean_line() {
    let mut app = sample((120, 40));
    typed(&mut app, "2/");
    update(&mut app, Msg::Paste("ret\u{1b}[2Jry\nsecond".to_string()));
    assert_eq!(app.browse.query, "ret[2Jry");
}

#[test]
fn filter_menu_toggles_facets() {
    let mut app = sample((120, 40));
    typed(&mut app, "2f");
    assert_eq!(app.ui.mode, Mode::Filter(FilterMenu { cursor: 0 }));
    typed(&mut app, " ");
    assert!(
        app.browse
            .visible
            .iter()
            .all(|&i| app.doc.findings()[i].rank == Severity::P0)
    );
    // Down to still_open (five severities, then dispositions: fixed, still_open).
    typed(&mut app, "kjjjjjj");
    assert_eq!(app.ui.mode, Mode::Filter(FilterMenu { cursor: 6 }));
    typed(&mut app, " ");
    assert_eq!(app.browse.filters.disposition, vec![Disposition::StillOpen]);
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.ui.mode, Mode::Normal);
    assert!(!app.browse.filters.is_empty());
    typed(&mut app, "c");
    assert!(app.browse.filters.is_empty());
    assert_eq!(app.browse.visible.len(), 10);
}

#[test]
fn path_filter_is_edited_in_the_menu() {
    let mut app = sample((120, 40));
    typed(&mut app, "2fG");
    update(&mut app, key(KeyCode::Enter));
    assert!(matches!(app.ui.mode, Mode::PathInput(_)));
    typed(&mut app, "src/");
    update(&mut app, key(KeyCode::Enter));
    assert!(matches!(app.ui.mode, Mode::Filter(_)));
    update(&mut app, key(KeyCode::Esc));
    let findings = app.doc.findings();
    assert!(!app.browse.visible.is_empty());
    assert!(
        app.browse
            .visible
            .iter()
            .all(|&i| { findings[i].path.as_deref().is_some_and(|p| p.contains("src/")) })
    );
}

#[test]
fn marks_toggle_and_select_all_visible() {
    let mut app = sample((120, 40));
    typed(&mut app, "2 ");
    assert_eq!(app.mark_count(), 1);
    assert_eq!(app.browse.cursor, 1, "marking moves on");
    typed(&mut app, "a");
    assert_eq!(app.mark_count(), 10);
    typed(&mut app, "a");
    assert_eq!(app.mark_count(), 0);
    typed(&mut app, "1a");
    assert_eq!(app.mark_count(), app.browse.visible.len());
}

#[test]
fn the_split_is_saved_when_it_changes_and_starts_where_it_was_left() {
    let mut app = sample((120, 40));
    assert_eq!(typed(&mut app, ">"), vec![Effect::SaveSplit(1)]);
    assert_eq!(typed(&mut app, "<<"), vec![Effect::SaveSplit(0), Effect::SaveSplit(-1)]);
    assert_eq!(
        typed(&mut app, "<<<"),
        vec![Effect::SaveSplit(-2), Effect::SaveSplit(-3), Effect::SaveSplit(-4)]
    );
    assert!(
        typed(&mut app, "<").is_empty(),
        "at the 20% limit nothing changes, nothing is saved"
    );
    assert_eq!(typed(&mut app, ">"), vec![Effect::SaveSplit(-3)], "one press back");
    // A screen opened with a remembered shift starts there.
    let mut remembered = app.settings.clone();
    remembered.split_shift = 2;
    let mut next = App::new(app.doc.clone(), remembered, (120, 40));
    assert_eq!(crate::tui::layout::list_share(&next), 80);
    // Remembered beyond what this width allows: the first press still moves the split.
    next.ui.split_shift = 6;
    assert_eq!(typed(&mut next, "<"), vec![Effect::SaveSplit(1)]);
    assert_eq!(crate::tui::layout::list_share(&next), 70);
}

#[test]
fn e_opens_the_evidence_item_scrolled_to() {
    let mut set = fixture::sample_set();
    for f in &mut set.findings {
        let first = f.evidence[0].clone();
        for n in 1..5u32 {
            f.evidence.push(crate::model::finding::Evidence {
                path: format!("src/item{n}.rs"),
                line: 100 * n,
                ..first.clone()
            });
        }
    }
    let mut app = fixture::app(set, (80, 24));
    update(&mut app, Msg::Resize(80, 24));
    let items = app.selected_finding().map(|f| f.evidence.clone()).unwrap_or_default();
    while app.ui.focus != crate::tui::app::Pane::Evidence {
        update(&mut app, key(KeyCode::Tab));
    }
    // Scrolling line by line, `e` names each item in turn, never the finding's place once past the first.
    let mut opened: Vec<Effect> = Vec::new();
    for _ in 0..60 {
        let effect = typed(&mut app, "e");
        if opened.last() != effect.first() {
            opened.extend(effect);
        }
        typed(&mut app, "j");
    }
    let expected: Vec<Effect> = items
        .iter()
        .take(opened.len())
        .map(|e| Effect::OpenEditor {
            path: e.path.clone(),
            line: Some(e.line),
        })
        .collect();
    assert!(opened.len() >= 3, "scrolled past at least two items: {opened:?}");
    assert_eq!(opened, expected);
}

#[test]
fn o_e_y_ask_for_effects_built_from_trusted_parts() {
    let mut app = sample((120, 40));
    // The Files changed view at the line: the anchor is the SHA-256 of the path.
    let url = "https://github.com/acme/webhooks/pull/42/files#diff-99edbb38e2ba871d5c47b8eebba19ae5ed1a52150f88360fce75788c6771a7bfR41".to_string();
    assert_eq!(typed(&mut app, "o"), vec![Effect::OpenUrl(url)]);
    assert_eq!(
        typed(&mut app, "e"),
        vec![Effect::OpenEditor {
            path: "src/auth/session.rs".into(),
            line: Some(41)
        }]
    );
    let fp = app
        .selected_finding()
        .map(|f| f.key.as_str().to_string())
        .unwrap_or_default();
    assert_eq!(typed(&mut app, "y"), vec![Effect::Copy(fp)]);
    assert!(
        app.ui
            .flash
            .as_ref()
            .is_some_and(|f| f.text.starts_with("Copied fingerprint"))
    );
}

#[test]
fn y_refuses_a_fingerprint_with_control_characters_and_says_why() {
    use crate::model::finding::FindingKey;
    let mut set = fixture::sample_set();
    for f in &mut set.findings {
        f.key = FindingKey::Semantic("defect:src.cache.rs:x\u{1b}[201~touch /tmp/PWNED\r".into());
    }
    let mut app = fixture::app(set, (120, 40));
    assert!(typed(&mut app, "y").is_empty(), "nothing goes to the clipboard");
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(flash.starts_with("Not copied") && flash.contains("U+001B"), "{flash}");
}

#[test]
fn o_on_a_local_review_explains_instead() {
    let mut set = fixture::sample_set();
    set.scope = Scope::Local;
    let mut app = fixture::app(set, (120, 40));
    assert!(typed(&mut app, "o").is_empty());
    assert!(
        app.ui
            .flash
            .as_ref()
            .is_some_and(|f| f.level == Level::Warning && f.text.contains("local"))
    );
    let mut hostile = fixture::sample_set();
    hostile.findings[1].evidence[0].path = "../../etc/passwd".into();
    let mut app = fixture::app(hostile, (120, 40));
    assert!(typed(&mut app, "e").is_empty(), "no editor outside the checkout");
    let mut bare = fixture::sample_set();
    bare.findings[1].evidence.clear();
    bare.findings[1].path = Some("/etc/passwd".into());
    let mut app = fixture::app(bare, (120, 40));
    assert!(
        typed(&mut app, "e").is_empty(),
        "nor for a finding without evidence items"
    );
}

#[test]
fn help_overlay_opens_scrolls_and_closes() {
    let mut app = sample((80, 24));
    typed(&mut app, "?");
    assert_eq!(app.ui.mode, Mode::Help(Help { scroll: 0 }));
    typed(&mut app, "jj");
    assert_eq!(app.ui.mode, Mode::Help(Help { scroll: 2 }));
    typed(&mut app, "?");
    assert_eq!(app.ui.mode, Mode::Normal);
    typed(&mut app, "?");
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.ui.mode, Mode::Normal);
    assert!(!app.ui.quit);
}

#[test]
fn q_quits_and_esc_goes_back() {
    let mut app = sample((120, 40));
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.ui.focus, Pane::Detail);
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.ui.focus, Pane::List);
    assert!(!app.ui.quit);
    let mut app = sample((120, 40));
    typed(&mut app, "q");
    assert!(app.ui.quit);
    let mut app = sample((120, 40));
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
    );
    assert!(app.ui.quit);
}

#[test]
fn key_releases_are_ignored() {
    let mut app = sample((120, 40));
    let release = KeyEvent::new_with_kind_and_state(
        KeyCode::Char('q'),
        KeyModifiers::NONE,
        KeyEventKind::Release,
        KeyEventState::NONE,
    );
    update(&mut app, Msg::Key(release));
    assert!(!app.ui.quit);
}

#[test]
fn tab_cycles_panes_and_the_focused_pane_scrolls() {
    let mut app = sample((80, 24));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.ui.focus, Pane::Detail);
    let cursor = app.browse.cursor;
    typed(&mut app, "jjj");
    assert_eq!(app.browse.cursor, cursor, "j scrolls the detail, not the list");
    assert_eq!(app.ui.detail_scroll, 3);
    typed(&mut app, "G");
    let page = usize::from(crate::tui::layout::Areas::inner(crate::tui::layout::areas(&app).detail).height);
    assert_eq!(
        app.ui.detail_scroll,
        app.detail.lines.len() - page,
        "bottom leaves a full page"
    );
    update(&mut app, key(KeyCode::Tab));
    assert_eq!((app.ui.focus, app.ui.lower), (Pane::Evidence, Pane::Evidence));
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.ui.focus, Pane::List);
    update(&mut app, key(KeyCode::BackTab));
    assert_eq!(app.ui.focus, Pane::Evidence);
    typed(&mut app, "hh");
    assert_eq!(app.ui.focus, Pane::List);
}

#[test]
fn a_new_selection_starts_its_detail_at_the_top() {
    let mut app = sample((80, 24));
    update(&mut app, key(KeyCode::Enter));
    typed(&mut app, "jj");
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Tab));
    typed(&mut app, "j");
    assert_eq!(app.ui.detail_scroll, 0);
}

#[test]
fn mouse_click_selects_and_wheel_scrolls() {
    let mut app = sample((120, 40));
    typed(&mut app, "2");
    let list = crate::tui::layout::areas(&app).list;
    let click = |row: u16, kind| MouseEvent {
        kind,
        column: list.x + 5,
        row,
        modifiers: KeyModifiers::NONE,
    };
    update(
        &mut app,
        Msg::Mouse(click(list.y + 1 + 3, MouseEventKind::Down(MouseButton::Left))),
    );
    assert_eq!(app.browse.cursor, 3);
    update(&mut app, Msg::Mouse(click(list.y + 2, MouseEventKind::ScrollDown)));
    assert_eq!(app.browse.cursor, 6);
    update(
        &mut app,
        Msg::Mouse(click(list.y + 30, MouseEventKind::Down(MouseButton::Left))),
    );
    assert_eq!(app.browse.cursor, 6, "a click below the last row selects nothing");
}

#[test]
fn stale_submission_outcomes_are_dropped() {
    let mut app = sample((120, 40));
    app.submit[0] = SubmitState::Pending { generation: 2 };
    let outcome = |reason: &str| SubmitOutcome::Failed {
        reason: super::script::failure(reason),
    };
    update(
        &mut app,
        Msg::SubmitFinished {
            finding: 0,
            generation: 1,
            outcome: outcome("old"),
        },
    );
    assert_eq!(app.submit[0], SubmitState::Pending { generation: 2 });
    update(
        &mut app,
        Msg::SubmitFinished {
            finding: 0,
            generation: 2,
            outcome: outcome("network down"),
        },
    );
    assert_eq!(
        app.submit[0],
        SubmitState::Failed {
            reason: super::script::failure("network down")
        }
    );
    update(
        &mut app,
        Msg::SubmitFinished {
            finding: 99,
            generation: 2,
            outcome: outcome("nobody"),
        },
    );
}

#[test]
fn evidence_is_requested_once_per_finding_and_filled_in() {
    use crate::checkout::{ExcerptMatch, LocalEvidence, Revision};
    use crate::tui::present::evidence::LocalView;
    let mut app = sample((120, 40));
    app.evidence.checkout = true;
    app.evidence.dirty = true;
    let first = update(&mut app, Msg::Resize(120, 40));
    let selected = app.selected().unwrap_or(usize::MAX);
    assert!(matches!(first.as_slice(), [Effect::LoadEvidence { finding, .. }] if *finding == selected));
    assert!(update(&mut app, Msg::Resize(120, 41)).is_empty(), "asked once");
    assert!(matches!(app.evidence.view.items[0].local, LocalView::Pending));
    let local = LocalEvidence {
        revision: Revision::WorkingTree,
        found: ExcerptMatch::NotFound,
        first_line: 39,
        lines: vec!["a".into(), "b".into()],
        marked: 41..=41,
    };
    update(
        &mut app,
        Msg::EvidenceLoaded {
            finding: selected,
            items: vec![Ok(local)],
        },
    );
    assert!(matches!(&app.evidence.view.items[0].local, LocalView::Checked(c) if c.found == ExcerptMatch::NotFound));
    update(&mut app, Msg::Head(HeadLine::Same));
    assert_eq!(app.evidence.view.head, HeadLine::Same);
    assert_eq!(typed(&mut app, "j").len(), 1, "the next finding is asked for");
}

#[test]
fn problems_overlay_only_when_there_is_something_to_show() {
    let mut app = sample((120, 40));
    typed(&mut app, "!");
    assert_eq!(app.ui.mode, Mode::Normal);
    assert!(app.ui.flash.is_some());
    let mut app = fixture::app(fixture::review_error_set(), (120, 40));
    typed(&mut app, "!");
    assert_eq!(app.ui.mode, Mode::Problems(Problems { scroll: 0 }));
}
