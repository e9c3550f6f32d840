//! Snapshots of the finding list at 80, 120 and 200 columns with long
//! titles, wide-character and deep paths (the file name and `:line` always
//! stay), the confidence column, zoom and a resized split.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use triage::tui::app::App;
#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/screen.rs"]
mod screen;
use screen::{keys, screen};
use triage::tui::update::{Msg, update};

/// The sample review with paths and titles that strain the columns.
fn strained() -> triage::model::review::ReviewSet {
    let mut set = fixture::sample_set();
    let paths = [
        (
            "services/payments/internal/checkout/web/src/components/forms/PaymentForm.tsx",
            41,
        ),
        ("app/支払い/返金処理/refunds.py", 57),
        ("a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/nested_module.rs", 1204),
        ("crates/ledger/src/retry.rs", 88),
        ("README.md", 3),
    ];
    for (f, (path, line)) in set.findings.iter_mut().zip(paths) {
        f.path = Some(path.to_string());
        f.line = Some(line);
        f.title = Some(format!(
            "{} — a long title that says what is wrong in enough words to need the room",
            f.key.as_str().split(':').next().unwrap_or_default()
        ));
    }
    set
}

/// Every row of the list shows its file name and `:line` whole.
fn assert_locations_whole(text: &str) {
    for needle in [
        "PaymentForm.tsx:41",
        "/refunds.py:57",
        "/nested_module.rs:1204",
        "retry.rs:88",
    ] {
        assert!(text.contains(needle), "{needle} missing:\n{text}");
    }
}

fn list_at(width: u16, height: u16) -> String {
    let mut app = fixture::app(strained(), (width, height));
    keys(&mut app, "2");
    screen(&app)
}

#[test]
fn list_at_80_columns() {
    let text = list_at(80, 24);
    assert_locations_whole(&text);
    insta::assert_snapshot!(text);
}

#[test]
fn list_at_120_columns() {
    let text = list_at(120, 40);
    assert_locations_whole(&text);
    assert!(text.contains("0.9"), "confidence shown:\n{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn list_at_200_columns() {
    let text = list_at(200, 50);
    assert_locations_whole(&text);
    assert!(
        text.contains("services/payments/") && text.contains("…/PaymentForm.tsx:41"),
        "the start of the path comes back at 200 columns:\n{text}"
    );
    assert!(
        text.contains("app/支払い/返金処理/refunds.py:57"),
        "a short wide path is whole:\n{text}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn zoomed_list_and_zoomed_detail() {
    let mut app = fixture::app(strained(), (120, 30));
    keys(&mut app, "2z");
    let list = screen(&app);
    assert!(!list.contains("Detail"), "{list}");
    insta::assert_snapshot!("zoomed_list", list);
    keys(&mut app, "z");
    update(&mut app, Msg::Key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE)));
    keys(&mut app, "z");
    let detail = screen(&app);
    assert!(
        detail.contains("Detail") && !detail.contains("All findings"),
        "{detail}"
    );
    insta::assert_snapshot!("zoomed_detail", detail);
}

#[test]
fn the_split_moves_a_tenth_per_key_between_a_fifth_and_four_fifths() {
    let mut app = fixture::app(strained(), (120, 30));
    let width = |app: &App| triage::tui::layout::areas(app).list.width;
    assert_eq!(width(&app), 72, "60% by default");
    keys(&mut app, "2<<");
    assert_eq!(width(&app), 48);
    keys(&mut app, "<<<<<<");
    assert_eq!(width(&app), 24, "at least 20%");
    keys(&mut app, ">>>>>>>>>>");
    assert_eq!(width(&app), 96, "at most 80%");
    keys(&mut app, "<");
    assert_eq!(width(&app), 84, "one press back from the limit moves at once");
    keys(&mut app, ">");
    insta::assert_snapshot!(screen(&app));
}
