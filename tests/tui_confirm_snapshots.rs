//! The confirmation as a reviewer reads it: the evidence as it will be sent
//! first, then the targets (a batch lists each one, with a count), the
//! disposition, the receipt, and the raw comment body last; Yes refused
//! with its reason while the GitHub login is not known.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::crossterm::event::KeyCode;
use triage::tui::app::App;
use triage::tui::message::failure::{ActorError, ClientError};
use triage::tui::update::{Msg, update};
#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/screen.rs"]
mod screen;
use screen::{ctrl, draw, key, keys, screen};

/// The composer on `marks` marked findings (none: the selection), status
/// `fixed`, with `text` as its evidence, previewed.
fn previewed(size: (u16, u16), marks: &str, text: &str) -> App {
    let mut app = fixture::app(fixture::sample_set(), size);
    keys(&mut app, marks);
    keys(&mut app, "dj");
    key(&mut app, KeyCode::Enter);
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text("");
    }
    update(&mut app, Msg::Paste(text.to_string()));
    ctrl(&mut app, 's');
    app
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no {needle:?} in {text}"))
}

#[test]
fn the_evidence_comes_first_and_the_raw_body_last() {
    let mut app = previewed((120, 40), "", "Fixed on the reviewed head: constant-time comparison.");
    update(&mut app, Msg::Actor(Ok("octo-reviewer".into())));
    let text = screen(&app);
    let evidence = line_of(&text, "Evidence, as it will be sent");
    assert!(evidence < line_of(&text, "One comment on"));
    assert!(line_of(&text, "One comment on") < line_of(&text, "ReviewGate records:"));
    assert!(line_of(&text, "ReviewGate records:") < line_of(&text, "receipt:"));
    assert!(line_of(&text, "receipt:") < line_of(&text, "Comment body (exact)"));
    assert!(
        text.contains("constant-time comparison."),
        "the evidence is on the first screen: {text}"
    );
    insta::assert_snapshot!("confirm_reordered", draw(&app).backend());
    // At 80x24 too, the evidence is on the first screen.
    let mut small = previewed((80, 24), "", "Fixed on the reviewed head: constant-time comparison.");
    update(&mut small, Msg::Actor(Ok("octo-reviewer".into())));
    assert!(screen(&small).contains("constant-time"), "{}", screen(&small));
}

#[test]
fn a_batch_lists_every_target_with_a_count() {
    let mut app = previewed((120, 40), "2   ", "Fixed by the retry rewrite.");
    update(&mut app, Msg::Actor(Ok("octo-reviewer".into())));
    let n = app.decide.composer.as_ref().map_or(0, |c| c.targets.len());
    assert_eq!(n, 3);
    let text = screen(&app);
    assert!(text.contains("3 targets"), "{text}");
    for &i in &app.decide.composer.as_ref().unwrap().targets {
        let key = app.doc.findings()[i].key.as_str();
        let shown: String = key.chars().take(20).collect();
        assert!(text.contains(&shown), "{key} missing: {text}");
    }
    insta::assert_snapshot!("confirm_batch_of_three", draw(&app).backend());
}

#[test]
fn yes_is_disabled_with_the_reason_while_the_actor_is_unknown() {
    let mut app = previewed((120, 40), "", "Fixed on the reviewed head: constant-time comparison.");
    update(
        &mut app,
        Msg::Actor(Err(ActorError::NoClient(ClientError::Setup(
            triage::github::TokenError::Missing.into(),
        )))),
    );
    keys(&mut app, "y");
    let text = screen(&app);
    assert!(text.contains("Yes is unavailable"), "{text}");
    assert!(
        !app.submit
            .iter()
            .any(|s| matches!(s, triage::tui::app::SubmitState::Pending { .. }))
    );
    insta::assert_snapshot!("confirm_actor_unknown", draw(&app).backend());
}
