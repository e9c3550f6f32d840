//! Message scripts for sending: batches, outcomes, retry, River, undo, escalation.

use super::script::*;
use super::*;
use crate::tui::app::{App, SubmitState};
use crate::tui::decision_state::{Question, Receipt};
use crate::tui::fixture;

fn recorded(shown_as: &'static str) -> SubmitOutcome {
    SubmitOutcome::Recorded(Receipt {
        summary: "fixed recorded by octo".into(),
        link: Some("https://github.com/acme/webhooks/pull/42#issuecomment-1".into()),
        shown_as: Some(shown_as),
        suppressed: false,
    })
}

#[test]
fn a_batch_on_marks_sends_in_rank_order_and_sums_up() {
    let mut app = sample();
    typed(&mut app, "2");
    typed(&mut app, "   ");
    assert_eq!(app.mark_count(), 3);
    compose(&mut app, 1, "Fixed by the retry rewrite.");
    preview(&mut app);
    let effects = typed(&mut app, "y");
    let Some(Effect::Submit { generation, items, .. }) = effects.first().cloned() else {
        panic!("no submit: {effects:?}");
    };
    assert_eq!(items.len(), 3);
    let ranks: Vec<_> = items.iter().map(|it| app.doc.findings()[it.finding].rank).collect();
    let mut sorted = ranks.clone();
    sorted.sort();
    assert_eq!(ranks, sorted, "rank order");
    let outcomes = [
        recorded("fixed"),
        SubmitOutcome::Failed {
            reason: super::script::failure("GitHub timed out"),
        },
        SubmitOutcome::Rejected {
            reason: super::script::failure("read-only permission"),
            stale_head: None,
        },
    ];
    for (it, outcome) in items.iter().zip(outcomes) {
        assert!(app.decide.batch.is_some());
        update(
            &mut app,
            Msg::SubmitFinished {
                finding: it.finding,
                generation,
                outcome,
            },
        );
    }
    assert!(app.decide.batch.is_none());
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(
        flash.starts_with("Sent 3 decisions: 1 recorded, 1 rejected, 1 failed"),
        "{flash}"
    );
    assert!(matches!(app.submit[items[0].finding], SubmitState::Recorded(_)));
    assert!(matches!(app.submit[items[1].finding], SubmitState::Failed { .. }));
    assert!(matches!(app.submit[items[2].finding], SubmitState::Rejected { .. }));
}

#[test]
fn retry_sends_the_same_decision_under_a_new_generation() {
    let mut app = sample();
    compose(&mut app, 1, "Fixed.");
    preview(&mut app);
    let first = submitted(&typed(&mut app, "y"));
    let i = first[0].finding;
    let SubmitState::Pending { generation } = app.submit[i] else {
        panic!("not pending")
    };
    let failed = SubmitOutcome::Failed {
        reason: super::script::failure("connection refused"),
    };
    update(
        &mut app,
        Msg::SubmitFinished {
            finding: i,
            generation,
            outcome: failed,
        },
    );
    assert_ne!(
        app.selected(),
        Some(i),
        "the confirmation moved on to the next undecided finding"
    );
    typed(&mut app, "N");
    assert_eq!(app.selected(), Some(i), "a failed send leaves the finding undecided");
    let effects = typed(&mut app, "r");
    let again = submitted(&effects);
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].draft, first[0].draft, "the same decision (same outbox entry)");
    let SubmitState::Pending { generation: next } = app.submit[i] else {
        panic!("not pending")
    };
    assert!(next > generation);
    update(
        &mut app,
        Msg::SubmitFinished {
            finding: i,
            generation,
            outcome: recorded("fixed"),
        },
    );
    assert_eq!(
        app.submit[i],
        SubmitState::Pending { generation: next },
        "the old generation is dropped"
    );
    update(
        &mut app,
        Msg::SubmitFinished {
            finding: i,
            generation: next,
            outcome: recorded("fixed"),
        },
    );
    assert!(matches!(app.submit[i], SubmitState::Recorded(_)));
    assert!(typed(&mut app, "r").is_empty(), "nothing to retry once recorded");
}

#[test]
fn a_recorded_accept_still_shows_open() {
    let mut app = sample();
    compose(&mut app, 0, "Valid; fix planned in the next sprint.");
    preview(&mut app);
    let items = submitted(&typed(&mut app, "y"));
    let i = items[0].finding;
    let SubmitState::Pending { generation } = app.submit[i] else {
        panic!("not pending")
    };
    update(
        &mut app,
        Msg::SubmitFinished {
            finding: i,
            generation,
            outcome: recorded("open"),
        },
    );
    let mark = crate::tui::view::list::decision_mark(app.submit.get(i), 0, &app.settings.theme);
    assert_eq!((mark.glyph, mark.label), ("✓", Some("open")));
}

#[test]
fn a_stale_head_rejection_turns_submission_off() {
    let mut app = sample();
    compose(&mut app, 1, "Fixed.");
    preview(&mut app);
    let i = submitted(&typed(&mut app, "y"))[0].finding;
    let SubmitState::Pending { generation } = app.submit[i] else {
        panic!("not pending")
    };
    let outcome = SubmitOutcome::Rejected {
        reason: super::script::failure("stale head"),
        stale_head: Some("ab".repeat(20)),
    };
    update(
        &mut app,
        Msg::SubmitFinished {
            finding: i,
            generation,
            outcome,
        },
    );
    assert_eq!(app.live.stale_head, Some("ab".repeat(20)));
    typed(&mut app, "j");
    compose(&mut app, 1, "Another.");
    preview(&mut app);
    assert_eq!(
        app.ui.mode,
        Mode::Compose(Stage::Evidence),
        "drafting works, sending does not"
    );
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(flash.contains("head moved"), "{flash}");
}

#[test]
fn demo_invalid_and_local_results_cannot_decide() {
    let mut demo = fixture::app_on(crate::tui::demo_document(), (120, 40));
    typed(&mut demo, "d");
    assert_eq!(demo.ui.mode, Mode::Normal);
    let flash = demo.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(flash.contains("bundled demo"), "{flash}");
    let mut set = fixture::sample_set();
    set.scope = crate::model::review::Scope::Local;
    let mut local = fixture::app(set, (120, 40));
    typed(&mut local, "d");
    let flash = local.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(flash.contains("local-scope"), "{flash}");
}

#[test]
fn river_decisions_go_to_river_files() {
    let mut app = fixture::app(fixture::river_set(), (120, 40));
    typed(&mut app, "d");
    let c = app.decide.composer.as_ref().expect("composer");
    assert_eq!(c.system.choices().len(), 8);
    compose_from_status(&mut app, 1, "The key is a test fixture.");
    preview(&mut app);
    let effects = typed(&mut app, "y");
    let Some(Effect::RecordRiver { items, .. }) = effects.first() else {
        panic!("no river effect: {effects:?}");
    };
    assert_eq!(items[0].decision.evidence, "The key is a test fixture.");
    assert_eq!(items[0].decision.status.as_str(), "false_positive");
}

/// Picks status `row` in an open status list and types `text` as the evidence.
fn compose_from_status(app: &mut App, row: usize, text: &str) {
    for _ in 0..row {
        typed(app, "j");
    }
    update(app, key(KeyCode::Enter));
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text("");
    }
    typed(app, text);
}

#[test]
fn undo_asks_then_revokes() {
    let mut app = fixture::app(fixture::river_set(), (120, 40));
    typed(&mut app, "u");
    let Mode::Ask(Question::Undo { finding }) = app.ui.mode else {
        panic!("no question")
    };
    let effects = typed(&mut app, "y");
    assert!(matches!(&effects[..], [Effect::UndoRiver { finding: f, .. }] if *f == finding));
    update(
        &mut app,
        Msg::Undone {
            finding,
            result: Err(crate::tui::message::failure::Shared::new(
                crate::river_store::StoreError::NoActiveSuppression("0123456789abcdef".into()),
            )),
        },
    );
    assert!(
        app.ui
            .flash
            .as_ref()
            .is_some_and(|f| f.text.contains("Nothing revoked"))
    );
}

#[test]
fn escalation_asks_clipboard_or_file() {
    let mut app = sample();
    typed(&mut app, "3");
    typed(&mut app, "x");
    assert_eq!(app.ui.mode, Mode::Ask(Question::Escalate));
    let effects = typed(&mut app, "f");
    let Some(Effect::WriteFile { name, text }) = effects.first() else {
        panic!("{effects:?}")
    };
    assert!(name.starts_with("triage-escalation-") && text.len() < 4096);
    typed(&mut app, "x");
    let effects = typed(&mut app, "c");
    assert!(matches!(effects.first(), Some(Effect::Copy(t)) if t.contains("## Escalation")));
    typed(&mut app, "2");
    typed(&mut app, "g");
    let calm = app
        .selected_finding()
        .is_some_and(|f| crate::tui::drift::Drift::of(f).is_none());
    if calm {
        typed(&mut app, "x");
        assert_eq!(
            app.ui.mode,
            Mode::Normal,
            "no drift and no needs_human: nothing to escalate"
        );
    }
}

#[test]
fn a_needs_human_draft_can_be_escalated_with_its_note() {
    let mut app = sample();
    compose(&mut app, 5, "Ask the auth owner.");
    update(&mut app, key(KeyCode::Esc));
    typed(&mut app, "x");
    assert_eq!(app.ui.mode, Mode::Ask(Question::Escalate));
    let effects = typed(&mut app, "c");
    let Some(Effect::Copy(text)) = effects.first() else {
        panic!("{effects:?}")
    };
    assert!(text.contains("needs a human decision"), "{text}");
    assert!(text.contains("Ask the auth owner."), "{text}");
    assert!(app.decide.packet.is_none(), "delivered once");
}
