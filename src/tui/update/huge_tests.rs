//! A finding with 10,000 evidence items, and one with a 10 MB field: every
//! message and frame builds and lays out a bounded number of lines, however
//! large the evidence (no clock: the bound is counted, not timed).

use super::*;
use crate::model::finding::{Evidence, Side};
use crate::tui::app::App;
use crate::tui::fixture;
use crate::tui::highlight::{Highlighter, ThemeChoice};
use crate::tui::view::evidence::{line_count, visible_lines};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;

const SIZE: (u16, u16) = (120, 40);

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn item(i: usize, excerpt: String, reason: String) -> Evidence {
    Evidence {
        path: format!("src/file{}.rs", i % 7),
        side: Side::New,
        line: 1 + i as u32,
        excerpt,
        reason,
    }
}

/// A screen whose selected finding carries `evidence`, highlighting on.
fn screen(evidence: Vec<Evidence>) -> (App, Arc<Highlighter>) {
    let mut set = fixture::sample_set();
    set.findings[0].evidence = evidence;
    let mut app = fixture::app(set, SIZE);
    let hl = Arc::new(Highlighter::new(ThemeChoice::Ansi));
    app.evidence.highlights = crate::tui::highlight::Highlights::new(true);
    app.evidence.dirty = true;
    update(&mut app, Msg::Resize(SIZE.0, SIZE.1));
    let first = app
        .doc
        .findings()
        .iter()
        .position(|f| f.evidence.len() > 1000 || f.evidence.len() == 1);
    while app.selected() != first && app.browse.cursor + 1 < app.browse.visible.len() {
        update(&mut app, key(KeyCode::Char('j')));
    }
    (app, hl)
}

/// Lines the evidence pane lays out in a frame: at most a screenful,
/// whatever the file.
fn built(app: &App) -> usize {
    let view = &app.evidence.view;
    visible_lines(view, usize::from(view.scroll), usize::from(SIZE.1)).len()
}

fn draw(app: &App, term: &mut Terminal<TestBackend>) {
    term.draw(|f| crate::tui::view::draw(f, app)).expect("draw");
}

#[test]
fn ten_thousand_items_are_laid_out_a_screenful_at_a_time() {
    let evidence: Vec<Evidence> = (0..10_000)
        .map(|i| item(i, format!("let x{i} = f({i});\nx{i}.go();"), format!("reason {i}")))
        .collect();
    let (mut app, hl) = screen(evidence.clone());
    assert_eq!(app.selected_finding().map(|f| f.evidence.len()), Some(10_000));
    let mut term = Terminal::new(TestBackend::new(SIZE.0, SIZE.1)).expect("backend");
    draw(&app, &mut term);
    let whole = app.evidence.total_lines();
    assert_eq!(
        whole,
        1 + 10_000 * 5,
        "head, then blank, place, reason and two code lines per item"
    );
    assert_eq!(
        line_count(&app.evidence.view),
        whole,
        "scroll limits know the whole panel"
    );
    assert!(built(&app) <= usize::from(SIZE.1), "{} lines built", built(&app));

    // Every item highlighted in the background: each result is one message.
    for e in &evidence {
        let job = crate::tui::present::evidence::excerpt_job(e);
        update(&mut app, Msg::Highlighted(hl.highlight(&job.path, &job.lines)));
        assert!(app.evidence.view.items.len() <= usize::from(SIZE.1));
    }
    // Scroll to the very end through the evidence pane, then quit.
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Char('G')));
    draw(&app, &mut term);
    assert!(built(&app) <= usize::from(SIZE.1));
    let screen = format!("{:?}", term.backend().buffer());
    assert!(screen.contains("reason 9999"), "the last item is reachable");
    assert!(screen.contains("Evidence (10000)"), "the title counts every item");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
    );
    assert!(app.ui.quit, "ctrl-c quits");
}

#[test]
fn a_ten_megabyte_field_costs_a_frame_no_more_than_a_screenful() {
    let long_line = "x".repeat(10 * 1024 * 1024);
    let many_lines = "y\n".repeat(5 * 1024 * 1024);
    let (mut app, _) = screen(vec![item(0, long_line, many_lines)]);
    assert_eq!(
        app.selected_finding().map(|f| f.evidence[0].reason.len()),
        Some(10 * 1024 * 1024)
    );
    let mut term = Terminal::new(TestBackend::new(SIZE.0, SIZE.1)).expect("backend");
    draw(&app, &mut term);
    let shown = crate::tui::present::evidence::MAX_FIELD_LINES + 1;
    assert_eq!(
        app.evidence.total_lines(),
        1 + 1 + 1 + shown + 1,
        "a field shows at most so many lines"
    );
    assert!(built(&app) <= usize::from(SIZE.1));
    let view = &app.evidence.view;
    let longest = view.items[0]
        .reason
        .iter()
        .chain(view.items[0].excerpt.iter().flat_map(|l| l.iter().map(|(_, t)| t)));
    assert!(
        longest.map(|t| t.chars().count()).max().unwrap_or(0) < 4200,
        "long lines are cut for display"
    );
    update(&mut app, key(KeyCode::Tab));
    update(&mut app, key(KeyCode::Tab));
    for _ in 0..3 {
        update(&mut app, key(KeyCode::PageDown));
        draw(&app, &mut term);
        assert!(built(&app) <= usize::from(SIZE.1));
    }
    update(&mut app, key(KeyCode::Char('G')));
    draw(&app, &mut term);
    let screen = format!("{:?}", term.backend().buffer());
    assert!(screen.contains("(5241880 more lines not shown)"), "{screen}");
}
