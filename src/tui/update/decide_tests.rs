//! Message scripts for the composer and sending: keys in, state and effects out.

use super::*;
use crate::model::finding::SubmittedDisposition as S;
use crate::tui::app::{App, SubmitState};
use crate::tui::composer::choice::Choice;
use crate::tui::decision_state::{Question, Receipt};
use crate::tui::fixture;

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

fn typed(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars()
        .flat_map(|c| update(app, key(KeyCode::Char(c))))
        .collect()
}

fn sample() -> App {
    fixture::app(fixture::sample_set(), (120, 40))
}

fn evidence(app: &App) -> String {
    app.decide
        .composer
        .as_ref()
        .map(|c| c.evidence())
        .unwrap_or_default()
}

/// Opens the composer on the selection, picks the status at `row`, and
/// replaces the template with `text`.
fn compose(app: &mut App, row: usize, text: &str) {
    typed(app, "d");
    for _ in 0..row {
        typed(app, "j");
    }
    update(app, key(KeyCode::Enter));
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text("");
    }
    typed(app, text);
}

fn submitted(effects: &[Effect]) -> Vec<SubmitItem> {
    effects
        .iter()
        .flat_map(|e| match e {
            Effect::Submit { items, .. } => items.clone(),
            _ => Vec::new(),
        })
        .collect()
}

use crate::tui::effect::SubmitItem;

#[test]
fn the_status_list_offers_six_statuses_and_enter_picks_with_a_template() {
    let mut app = sample();
    typed(&mut app, "d");
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Status { cursor: 0 }));
    typed(&mut app, "jjGkk");
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Status { cursor: 3 }));
    update(&mut app, key(KeyCode::Enter));
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence));
    let c = app.decide.composer.as_ref().expect("composer");
    assert_eq!(c.choice, Some(Choice::ReviewGate(S::AlreadyImplemented)));
    let sha = fixture::SHA;
    assert!(
        evidence(&app).contains(&format!("src/auth/session.rs@{sha}#L41")),
        "the template links the first evidence item: {}",
        evidence(&app)
    );
}

#[test]
fn typing_edits_and_letters_are_text_not_commands() {
    let mut app = sample();
    compose(&mut app, 1, "q jk/d");
    assert_eq!(evidence(&app), "q jk/d");
    assert!(!app.ui.quit);
    update(&mut app, key(KeyCode::Backspace));
    update(&mut app, key(KeyCode::Enter));
    typed(&mut app, "x");
    assert_eq!(evidence(&app), "q jk/\nx");
}

#[test]
fn paste_goes_in_exactly_with_line_breaks_as_new_lines() {
    let mut app = sample();
    compose(&mut app, 1, "");
    update(
        &mut app,
        Msg::Paste("one\r\ntwo\u{1b}[31m\u{202e}\rthree".into()),
    );
    assert_eq!(evidence(&app), "one\ntwo\u{1b}[31m\u{202e}\nthree");
}

#[test]
fn the_byte_counter_over_the_limit_blocks_the_preview() {
    let mut app = sample();
    compose(&mut app, 1, "");
    update(&mut app, Msg::Paste("é".repeat(2049)));
    let budget = app.decide.composer.as_ref().map(|c| c.budget());
    assert!(matches!(
        budget,
        Some(crate::tui::composer::Budget::Over {
            bytes: 4098,
            limit: 4096
        })
    ));
    let effects = update(&mut app, ctrl('s'));
    assert!(effects.is_empty());
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence));
    let flash = app
        .ui
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(flash.contains("4098") && flash.contains("4096"), "{flash}");
    update(&mut app, key(KeyCode::Backspace));
    update(&mut app, key(KeyCode::Backspace));
    update(&mut app, ctrl('s'));
    assert!(matches!(app.ui.mode, Mode::Compose(Stage::Confirm { .. })));
}

#[test]
fn blank_or_untouched_template_evidence_is_not_ready() {
    let mut app = sample();
    typed(&mut app, "d");
    update(&mut app, key(KeyCode::Enter));
    update(&mut app, ctrl('s'));
    assert_eq!(
        app.ui.mode,
        Mode::Compose(Stage::Evidence),
        "template untouched"
    );
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text(" \n\t");
    }
    update(&mut app, ctrl('s'));
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence), "blank");
}

#[test]
fn the_confirmation_defaults_to_no() {
    let mut app = sample();
    compose(&mut app, 1, "Fixed in 1a2b3c: constant-time compare.");
    let effects = update(&mut app, ctrl('s'));
    assert_eq!(
        app.ui.mode,
        Mode::Compose(Stage::Confirm {
            scroll: 0,
            yes: false
        })
    );
    assert_eq!(
        effects,
        vec![Effect::LookupActor],
        "the actor is looked up once"
    );
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(submitted(&effects).is_empty(), "Enter on No sends nothing");
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence));
    update(&mut app, ctrl('s'));
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(
        app.ui.mode,
        Mode::Compose(Stage::Confirm {
            scroll: 0,
            yes: true
        })
    );
    let effects = update(&mut app, key(KeyCode::Enter));
    let items = submitted(&effects);
    assert_eq!(items.len(), 1);
    assert_eq!(
        items[0].draft.evidence,
        "Fixed in 1a2b3c: constant-time compare."
    );
    assert_eq!(items[0].draft.status, S::Fixed);
    assert_eq!(items[0].draft.reviewed_sha, fixture::SHA);
    let i = items[0].finding;
    assert!(matches!(app.submit[i], SubmitState::Pending { .. }));
    assert_eq!(app.ui.mode, Mode::Normal);
    assert!(app.decide.composer.is_none() && app.decide.drafts.is_empty());
}

#[test]
fn y_confirms_and_n_goes_back_to_the_text() {
    let mut app = sample();
    compose(
        &mut app,
        5,
        "Cannot tell whether the comparison is reachable.",
    );
    update(&mut app, ctrl('s'));
    typed(&mut app, "n");
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence));
    update(&mut app, ctrl('s'));
    let items = submitted(&typed(&mut app, "y"));
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].draft.status, S::NeedsHuman);
}

#[test]
fn esc_keeps_the_draft_and_reopening_restores_it() {
    let mut app = sample();
    let i = app.selected().unwrap_or_default();
    compose(&mut app, 1, "half a thought");
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.ui.mode, Mode::Normal);
    assert_eq!(app.submit[i], SubmitState::Draft);
    assert_eq!(app.decide.drafts.len(), 1);
    typed(&mut app, "j");
    typed(&mut app, "k");
    typed(&mut app, "d");
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence));
    assert_eq!(evidence(&app), "half a thought");
    typed(&mut app, "!");
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(
        app.decide.drafts.values().next().map(|c| c.evidence()),
        Some("half a thought!".into())
    );
}

#[test]
fn an_empty_composer_leaves_no_draft() {
    let mut app = sample();
    typed(&mut app, "d");
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.ui.mode, Mode::Normal);
    assert!(app.decide.drafts.is_empty());
    assert_eq!(
        app.submit
            .iter()
            .filter(|s| **s == SubmitState::Draft)
            .count(),
        0
    );
}

#[test]
fn quitting_with_a_draft_asks_first() {
    let mut app = sample();
    compose(&mut app, 1, "keep me");
    update(&mut app, ctrl('c'));
    assert_eq!(app.ui.mode, Mode::Ask(Question::Quit));
    assert!(
        !app.ui.quit && app.decide.drafts.len() == 1,
        "the composer became a draft"
    );
    typed(&mut app, "n");
    assert_eq!(app.ui.mode, Mode::Normal);
    typed(&mut app, "q");
    typed(&mut app, "y");
    assert!(app.ui.quit);
}

#[test]
fn a_permalink_of_the_evidence_is_inserted_at_the_cursor() {
    let mut app = sample();
    compose(&mut app, 1, "see ");
    update(&mut app, ctrl('l'));
    assert_eq!(
        evidence(&app),
        format!("see src/auth/session.rs@{}#L41", fixture::SHA)
    );
}

#[test]
fn text_from_the_external_editor_replaces_the_evidence() {
    let mut app = sample();
    compose(&mut app, 1, "short");
    let effects = update(&mut app, ctrl('o'));
    assert_eq!(
        effects,
        vec![Effect::EditEvidence {
            text: "short".into()
        }]
    );
    update(
        &mut app,
        Msg::EditedEvidence(Ok("a much\nlonger text\n".into())),
    );
    assert_eq!(evidence(&app), "a much\nlonger text");
    update(
        &mut app,
        Msg::EditedEvidence(Err("vi exited with 1".into())),
    );
    assert_eq!(
        evidence(&app),
        "a much\nlonger text",
        "a failed edit changes nothing"
    );
}

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
    update(&mut app, ctrl('s'));
    let effects = typed(&mut app, "y");
    let Some(Effect::Submit { generation, items }) = effects.first().cloned() else {
        panic!("no submit: {effects:?}");
    };
    assert_eq!(items.len(), 3);
    let ranks: Vec<_> = items
        .iter()
        .map(|it| app.doc.findings()[it.finding].rank)
        .collect();
    let mut sorted = ranks.clone();
    sorted.sort();
    assert_eq!(ranks, sorted, "rank order");
    let outcomes = [
        recorded("fixed"),
        SubmitOutcome::Failed {
            reason: "GitHub timed out".into(),
        },
        SubmitOutcome::Rejected {
            reason: "read-only permission".into(),
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
    let flash = app
        .ui
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(
        flash.starts_with("Sent 3 decisions: 1 recorded, 1 rejected, 1 failed"),
        "{flash}"
    );
    assert!(matches!(
        app.submit[items[0].finding],
        SubmitState::Recorded(_)
    ));
    assert!(matches!(
        app.submit[items[1].finding],
        SubmitState::Failed { .. }
    ));
    assert!(matches!(
        app.submit[items[2].finding],
        SubmitState::Rejected { .. }
    ));
}

#[test]
fn retry_sends_the_same_decision_under_a_new_generation() {
    let mut app = sample();
    compose(&mut app, 1, "Fixed.");
    update(&mut app, ctrl('s'));
    let first = submitted(&typed(&mut app, "y"));
    let i = first[0].finding;
    let SubmitState::Pending { generation } = app.submit[i] else {
        panic!("not pending")
    };
    let failed = SubmitOutcome::Failed {
        reason: "connection refused".into(),
    };
    update(
        &mut app,
        Msg::SubmitFinished {
            finding: i,
            generation,
            outcome: failed,
        },
    );
    let effects = typed(&mut app, "r");
    let again = submitted(&effects);
    assert_eq!(again.len(), 1);
    assert_eq!(
        again[0].draft, first[0].draft,
        "the same decision (same outbox entry)"
    );
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
    assert!(
        typed(&mut app, "r").is_empty(),
        "nothing to retry once recorded"
    );
}

#[test]
fn a_recorded_accept_still_shows_open() {
    let mut app = sample();
    compose(&mut app, 0, "Valid; fix planned in the next sprint.");
    update(&mut app, ctrl('s'));
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
    update(&mut app, ctrl('s'));
    let i = submitted(&typed(&mut app, "y"))[0].finding;
    let SubmitState::Pending { generation } = app.submit[i] else {
        panic!("not pending")
    };
    let outcome = SubmitOutcome::Rejected {
        reason: "stale head".into(),
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
    update(&mut app, ctrl('s'));
    assert_eq!(
        app.ui.mode,
        Mode::Compose(Stage::Evidence),
        "drafting works, sending does not"
    );
    let flash = app
        .ui
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(flash.contains("head moved"), "{flash}");
}

#[test]
fn demo_invalid_and_local_results_cannot_decide() {
    let mut demo = fixture::app_on(crate::tui::demo_document(), (120, 40));
    typed(&mut demo, "d");
    assert_eq!(demo.ui.mode, Mode::Normal);
    let flash = demo
        .ui
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(flash.contains("bundled demo"), "{flash}");
    let mut set = fixture::sample_set();
    set.scope = crate::model::review::Scope::Local;
    let mut local = fixture::app(set, (120, 40));
    typed(&mut local, "d");
    let flash = local
        .ui
        .flash
        .as_ref()
        .map(|f| f.text.clone())
        .unwrap_or_default();
    assert!(flash.contains("local-scope"), "{flash}");
}

#[test]
fn river_decisions_go_to_river_files() {
    let mut app = fixture::app(fixture::river_set(), (120, 40));
    typed(&mut app, "d");
    let c = app.decide.composer.as_ref().expect("composer");
    assert_eq!(c.system.choices().len(), 8);
    compose_from_status(&mut app, 1, "The key is a test fixture.");
    update(&mut app, ctrl('s'));
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
            result: Err("no active suppression".into()),
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
