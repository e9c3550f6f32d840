//! Message scripts for the composer: status, typing, paste, counter, confirmation, drafts.

use super::script::*;
use super::*;
use crate::model::finding::SubmittedDisposition as S;
use crate::tui::app::SubmitState;
use crate::tui::composer::choice::Choice;
use crate::tui::decision_state::Question;
use crate::tui::fixture;

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
    update(&mut app, Msg::Paste("one\r\ntwo\u{1b}[31m\u{202e}\rthree".into()));
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
    let effects = preview(&mut app);
    assert!(without_saves(effects).is_empty(), "only the draft is kept");
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence));
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(flash.contains("4098") && flash.contains("4096"), "{flash}");
    update(&mut app, key(KeyCode::Backspace));
    update(&mut app, key(KeyCode::Backspace));
    preview(&mut app);
    assert!(matches!(app.ui.mode, Mode::Compose(Stage::Confirm { .. })));
}

#[test]
fn blank_or_untouched_template_evidence_is_not_ready() {
    let mut app = sample();
    typed(&mut app, "d");
    update(&mut app, key(KeyCode::Enter));
    preview(&mut app);
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence), "template untouched");
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text(" \n\t");
    }
    preview(&mut app);
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence), "blank");
}

#[test]
fn the_confirmation_defaults_to_no() {
    let mut app = sample();
    compose(&mut app, 1, "Fixed in 1a2b3c: constant-time compare.");
    let effects = preview(&mut app);
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Confirm { scroll: 0, yes: false }));
    assert_eq!(
        without_saves(effects),
        vec![Effect::LookupActor],
        "the actor is looked up once"
    );
    let effects = update(&mut app, key(KeyCode::Enter));
    assert!(submitted(&effects).is_empty(), "Enter on No sends nothing");
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence));
    preview(&mut app);
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Confirm { scroll: 0, yes: true }));
    let effects = update(&mut app, key(KeyCode::Enter));
    let items = submitted(&effects);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].draft.evidence, "Fixed in 1a2b3c: constant-time compare.");
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
    compose(&mut app, 5, "Cannot tell whether the comparison is reachable.");
    preview(&mut app);
    typed(&mut app, "n");
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence));
    preview(&mut app);
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
    assert_eq!(app.submit.iter().filter(|s| **s == SubmitState::Draft).count(), 0);
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
    assert_eq!(evidence(&app), format!("see src/auth/session.rs@{}#L41", fixture::SHA));
}

#[test]
fn a_permalink_or_template_after_a_word_gets_a_separating_space() {
    let mut app = sample();
    compose(&mut app, 1, "see");
    update(&mut app, ctrl('l'));
    assert_eq!(evidence(&app), format!("see src/auth/session.rs@{}#L41", fixture::SHA));
    let before = evidence(&app);
    update(&mut app, ctrl('t'));
    let after = evidence(&app);
    let added = after.strip_prefix(&before).expect("inserted at the end");
    assert!(added.starts_with(' ') && !added.starts_with("  "), "{added:?}");
}

#[test]
fn text_from_the_external_editor_replaces_the_evidence() {
    let mut app = sample();
    compose(&mut app, 1, "short");
    let effects = update(&mut app, ctrl('o'));
    assert_eq!(effects, vec![Effect::EditEvidence { text: "short".into() }]);
    update(&mut app, Msg::EditedEvidence(Ok("a much\nlonger text\n".into())));
    assert_eq!(evidence(&app), "a much\nlonger text");
    let exited = crate::tui::message::EditError::Exited {
        program: "vi".into(),
        status: "exit status: 1".into(),
    };
    update(&mut app, Msg::EditedEvidence(Err(exited)));
    assert_eq!(evidence(&app), "a much\nlonger text", "a failed edit changes nothing");
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert_eq!(flash, "The editor's text was not used: vi exited with exit status: 1");
}

#[test]
fn yes_waits_for_the_actor_and_is_refused_while_none_can_be_had() {
    let mut app = sample();
    compose(&mut app, 1, "Fixed in 1a2b3c: constant-time compare.");
    let effects = update(&mut app, ctrl('s'));
    assert!(effects.contains(&Effect::LookupActor));
    assert!(
        submitted(&typed(&mut app, "y")).is_empty(),
        "no Yes while the login is looked up"
    );
    assert!(app.ui.flash.as_ref().is_some_and(|f| f.text.contains("looking up")));
    update(&mut app, key(KeyCode::Tab));
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Confirm { scroll: 0, yes: false }));
    update(
        &mut app,
        Msg::Actor(Err(crate::tui::message::failure::ActorError::NoClient(
            crate::tui::message::failure::ClientError::Setup(crate::github::TokenError::Missing.into()),
        ))),
    );
    assert!(submitted(&typed(&mut app, "y")).is_empty());
    let why = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(why.contains("actor unknown (no GitHub token)"), "{why}");
    // Back to the text and preview again: the login is asked for again.
    update(&mut app, key(KeyCode::Esc));
    let effects = update(&mut app, ctrl('s'));
    assert!(effects.contains(&Effect::LookupActor), "{effects:?}");
    update(&mut app, Msg::Actor(Ok("octocat".to_string())));
    assert_eq!(submitted(&typed(&mut app, "y")).len(), 1);
}
