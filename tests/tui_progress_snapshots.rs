//! Snapshots of the progress header: decided/remaining of the current view,
//! as decisions go out and with the undecided filter on.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use triage::tui::app::{App, SubmitState};
#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/screen.rs"]
mod screen;
use screen::keys;
use triage::tui::view;

fn header(app: &App) -> String {
    let (w, h) = app.ui.size;
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap_or_else(|e| panic!("{e}"));
    terminal.draw(|f| view::draw(f, app)).unwrap_or_else(|e| panic!("{e}"));
    let screen = terminal.backend().to_string();
    screen.lines().take(3).collect::<Vec<_>>().join("\n")
}

#[test]
fn progress_header_as_findings_are_decided() {
    let mut app = fixture::app(fixture::sample_set(), (120, 40));
    keys(&mut app, "2");
    let start = header(&app);
    assert!(start.contains("decided 0/"), "{start}");
    let visible = app.browse.visible.clone();
    app.submit[visible[0]] = SubmitState::Pending { generation: 1 };
    app.submit[visible[2]] = SubmitState::Pending { generation: 1 };
    keys(&mut app, "j");
    let two = header(&app);
    insta::assert_snapshot!(format!("{start}\n---\n{two}"));
    for &i in &visible {
        app.submit[i] = SubmitState::Pending { generation: 1 };
    }
    keys(&mut app, "k");
    insta::assert_snapshot!("all_decided", header(&app));
}

#[test]
fn progress_header_at_80_columns_keeps_the_count_first() {
    let mut app = fixture::app(fixture::sample_set(), (80, 24));
    let first = app.browse.visible[0];
    app.submit[first] = SubmitState::Pending { generation: 1 };
    keys(&mut app, "j");
    let text = header(&app);
    assert!(text.lines().nth(1).is_some_and(|l| l.contains("decided 1/")), "{text}");
    insta::assert_snapshot!(text);
}
