//! Overlays and banners at a wide terminal: the `!` and `?` overlays grow
//! with the width, and banner lines wrap instead of being cut.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use triage::model::problem::Problem;
use triage::tui::app::{Document, Source};
#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/screen.rs"]
mod screen;
use screen::{draw, keys};

const LONG: &str = "thread_transition is \"retained\" but thread_status open with disposition fixed gives \
    \"resolution_pending\"; the recorded history ends in a fixed record whose actor is not the reviewer \
    and whose evidence summary names a different reviewed head than the result does";

fn long_problem_doc() -> Document {
    let problems = vec![
        Problem::new("R19", "/findings/2/thread_transition", LONG),
        Problem::new("R13", "/findings/4/evidence/0/excerpt", "evidence excerpt is blank"),
    ];
    let set = fixture::sample_set();
    Document::new(
        Source::File("result.json".into()),
        Some(set.format),
        Some(set),
        problems,
    )
}

/// The width in cells of the overlay whose top border holds `title`.
fn overlay_width(screen: &str, title: &str) -> usize {
    screen
        .lines()
        .filter(|l| l.contains(title))
        .map(|l| {
            let from = l.chars().position(|c| c == '┌').unwrap_or(0);
            let to = l.chars().position(|c| c == '┐').unwrap_or(from);
            to - from + 1
        })
        .max()
        .unwrap_or(0)
}

/// True when every word of `text` is somewhere on the screen.
fn all_words_shown(screen: &str, text: &str) -> bool {
    text.split_whitespace().all(|w| screen.contains(w))
}

#[test]
fn problems_overlay_at_200_columns() {
    let mut app = fixture::app_on(long_problem_doc(), (200, 50));
    keys(&mut app, "!");
    let screen = draw(&app).backend().to_string();
    assert_eq!(
        overlay_width(&screen, "Problems and angle errors"),
        180,
        "nine tenths of the width"
    );
    assert!(
        screen.contains("different reviewed head than the result does"),
        "wrapped, not cut"
    );
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn help_overlay_at_200_columns() {
    let mut app = fixture::app(fixture::sample_set(), (200, 50));
    keys(&mut app, "?");
    let screen = draw(&app).backend().to_string();
    assert_eq!(overlay_width(&screen, "Keys (generated"), 180);
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn banner_lines_wrap_instead_of_being_cut() {
    let app = fixture::app_on(long_problem_doc(), (120, 30));
    let screen = draw(&app).backend().to_string();
    assert!(all_words_shown(&screen, LONG), "{screen}");
    assert!(all_words_shown(&screen, "nothing can be submitted from it"), "{screen}");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn banner_at_200_columns() {
    let mut set = fixture::review_error_set();
    set.angle_errors[0].message = LONG.to_string();
    let app = fixture::app(set, (200, 50));
    let screen = draw(&app).backend().to_string();
    assert!(all_words_shown(&screen, LONG), "{screen}");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn a_huge_banner_message_takes_a_few_rows_and_points_to_the_overlay() {
    let mut set = fixture::review_error_set();
    set.angle_errors[0].message = "word ".repeat(20_000);
    let app = fixture::app(set, (80, 30));
    let screen = draw(&app).backend().to_string();
    assert!(screen.contains("press ! to see it whole"), "{screen}");
    assert!(screen.contains("Repair set"), "the list keeps its place: {screen}");
}
