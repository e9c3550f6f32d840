//! The loading frame: what is drawn before the review is read or fetched
//! (the header with what is opened, the step, how to quit), at two sizes and
//! as steps and ticks arrive.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use triage::tui::app::App;
use triage::tui::startup::{Loading, update};
use triage::tui::update::Msg;

#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/screen.rs"]
mod screen;
use screen::screen;

fn loading(size: (u16, u16), what: &str) -> App {
    let mut app = fixture::app(fixture::scaled(0), size);
    app.ui.loading = Some(Loading {
        what: what.into(),
        step: "starting".into(),
    });
    app
}

#[test]
fn the_loading_frame_of_a_pull_request_fetch() {
    let mut app = loading((80, 12), "pull request #42");
    update(&mut app, Msg::Progress("fetching the pull request".into()));
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn the_loading_frame_of_a_file_with_the_spinner_moved() {
    let mut app = loading((60, 6), "review-100k.json");
    update(&mut app, Msg::Progress("reading and validating".into()));
    update(&mut app, Msg::Tick);
    let frame = screen(&app);
    assert!(frame.contains("/ reading and validating…"), "{frame}");
    insta::assert_snapshot!(frame);
}
