//! Message scripts for progress: `n`/`N` to the next undecided finding, the
//! selection moving on after a decision, marks cleared once a batch is
//! sent, and the undecided-only filter.

use super::script::*;
use super::*;
use crate::tui::app::{App, SubmitState};
use crate::tui::filter::FilterItem;
use crate::tui::progress::{self, Progress};

/// Confirms a decision with status row 1 on the selection (or the marks).
fn decide(app: &mut App, text: &str) -> Vec<Effect> {
    compose(app, 1, text);
    preview(app);
    typed(app, "y")
}

fn pending(app: &App, i: usize) -> bool {
    matches!(app.submit.get(i), Some(SubmitState::Pending { .. }))
}

#[test]
fn n_and_capital_n_step_through_undecided_findings_and_wrap() {
    let mut app = sample();
    typed(&mut app, "2");
    let len = app.browse.visible.len();
    assert!(len >= 4, "{len}");
    typed(&mut app, "n");
    assert_eq!(app.browse.cursor, 1);
    typed(&mut app, "N");
    assert_eq!(app.browse.cursor, 0);
    typed(&mut app, "N");
    assert_eq!(app.browse.cursor, len - 1, "N wraps to the bottom");
    assert!(app.ui.flash.as_ref().is_some_and(|f| f.text.contains("Wrapped")));
    typed(&mut app, "n");
    assert_eq!(app.browse.cursor, 0, "n wraps to the top");
    let second = app.browse.visible[1];
    app.submit[second] = SubmitState::Pending { generation: 99 };
    typed(&mut app, "n");
    assert_eq!(app.browse.cursor, 2, "a decided finding is skipped");
    typed(&mut app, "N");
    assert_eq!(app.browse.cursor, 0, "and skipped going back");
}

#[test]
fn n_says_so_when_everything_listed_is_decided() {
    let mut app = sample();
    for i in app.browse.visible.clone() {
        app.submit[i] = SubmitState::Pending { generation: 1 };
    }
    typed(&mut app, "j");
    let at = app.browse.cursor;
    typed(&mut app, "n");
    assert_eq!(app.browse.cursor, at);
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert_eq!(flash, "Every listed finding is decided.");
}

#[test]
fn with_a_search_n_steps_through_the_undecided_matches() {
    let mut app = sample();
    typed(&mut app, "2/");
    typed(&mut app, "retry");
    update(&mut app, key(KeyCode::Enter));
    let matches = app.browse.visible.clone();
    assert!(!matches.is_empty() && matches.len() < app.doc.findings().len());
    for step in 1..=matches.len() {
        typed(&mut app, "n");
        assert_eq!(app.browse.cursor, step % matches.len());
        assert!(matches.contains(&app.selected().unwrap_or(usize::MAX)));
    }
}

#[test]
fn confirming_a_decision_moves_to_the_next_undecided_finding() {
    let mut app = sample();
    typed(&mut app, "2");
    let first = app.browse.visible[0];
    let third = app.browse.visible[2];
    app.submit[app.browse.visible[1]] = SubmitState::Pending { generation: 50 };
    let effects = decide(&mut app, "Fixed on the head.");
    assert_eq!(submitted(&effects).len(), 1);
    assert!(pending(&app, first));
    assert_eq!(app.selected(), Some(third), "the decided second finding is skipped");
    assert_eq!(
        progress::of_view(&app),
        Progress {
            decided: 2,
            total: app.browse.visible.len()
        }
    );
}

#[test]
fn a_sent_batch_clears_its_marks_and_moves_on() {
    let mut app = sample();
    typed(&mut app, "2");
    typed(&mut app, "  ");
    assert_eq!(app.mark_count(), 2);
    let after = app.browse.visible[2];
    let effects = decide(&mut app, "Fixed by the retry rewrite.");
    assert_eq!(submitted(&effects).len(), 2);
    assert_eq!(app.mark_count(), 0, "marks clear once the batch is sent");
    assert_eq!(app.selected(), Some(after));
}

#[test]
fn a_decision_that_is_not_confirmed_keeps_marks_and_selection() {
    let mut app = sample();
    typed(&mut app, "2");
    typed(&mut app, " ");
    typed(&mut app, "k");
    compose(&mut app, 1, "Fixed.");
    preview(&mut app);
    typed(&mut app, "n");
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.mark_count(), 1);
    assert_eq!(app.browse.cursor, 0);
}

#[test]
fn the_undecided_filter_hides_decided_findings_but_progress_still_counts_them() {
    let mut app = sample();
    typed(&mut app, "2");
    let total = app.browse.visible.len();
    let first = app.browse.visible[0];
    let effects = decide(&mut app, "Fixed.");
    assert_eq!(submitted(&effects).len(), 1);
    let pos = FilterItem::all().iter().position(|i| *i == FilterItem::Undecided);
    typed(&mut app, "f");
    for _ in 0..pos.unwrap_or(0) {
        typed(&mut app, "j");
    }
    typed(&mut app, " ");
    update(&mut app, key(KeyCode::Esc));
    assert!(app.browse.filters.undecided_only);
    assert_eq!(app.browse.visible.len(), total - 1);
    assert!(!app.browse.visible.contains(&first));
    assert_eq!(progress::of_view(&app), Progress { decided: 1, total });
    let next = app.browse.visible[0];
    let Some(SubmitState::Pending { generation }) = app.submit.get(first).cloned() else {
        panic!("not pending");
    };
    let failed = SubmitOutcome::Failed {
        reason: super::script::failure("timeout"),
    };
    update(
        &mut app,
        Msg::SubmitFinished {
            finding: first,
            generation,
            outcome: failed,
        },
    );
    assert_eq!(progress::of_view(&app).decided, 0, "a failed send is no decision");
    let effects = decide(&mut app, "Fixed too.");
    assert_eq!(submitted(&effects).len(), 1);
    assert!(pending(&app, next));
    assert_eq!(app.browse.visible.len(), total - 1, "the newly decided one drops out");
    assert_eq!(progress::of_view(&app).decided, 1);
    assert!(!app.browse.visible.contains(&next));
}
