//! Message scripts for leaving and coming back: `Esc` never quits, `q` does
//! (asking first when work would be lost), `ctrl-z` suspends and `fg` resumes.

use super::script::*;
use super::*;
use crate::tui::decision_state::Question;

#[test]
fn esc_at_the_top_of_the_list_does_nothing() {
    let mut app = sample();
    typed(&mut app, "j");
    let before = (app.ui.mode, app.ui.focus, app.browse.cursor);
    for _ in 0..3 {
        let effects = update(&mut app, key(KeyCode::Esc));
        assert!(effects.is_empty(), "{effects:?}");
    }
    assert!(!app.ui.quit);
    assert_eq!((app.ui.mode, app.ui.focus, app.browse.cursor), before);
}

#[test]
fn esc_goes_back_from_a_pane_and_a_search_but_not_further() {
    let mut app = sample();
    update(&mut app, key(KeyCode::Tab));
    typed(&mut app, "/");
    typed(&mut app, "retry");
    update(&mut app, key(KeyCode::Enter));
    assert!(!app.browse.query.is_empty());
    update(&mut app, key(KeyCode::Esc));
    assert!(app.browse.query.is_empty(), "the first Esc clears the search");
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.ui.focus, Pane::List);
    update(&mut app, key(KeyCode::Esc));
    assert!(!app.ui.quit);
    typed(&mut app, "q");
    assert!(app.ui.quit, "q quits");
}

#[test]
fn q_asks_first_when_a_draft_exists_and_esc_stays() {
    let mut app = sample();
    compose(&mut app, 0, "kept");
    update(&mut app, key(KeyCode::Esc));
    typed(&mut app, "q");
    assert_eq!(app.ui.mode, Mode::Ask(Question::Quit));
    assert!(!app.ui.quit);
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.ui.mode, Mode::Normal);
    assert!(!app.ui.quit);
}

#[test]
fn q_asks_first_while_a_thread_action_is_being_sent_and_says_it_stays_kept() {
    let mut app = sample();
    let request = crate::github::thread_action::ThreadRequest {
        repository: "acme/webhooks".into(),
        pull_request: 42,
        fingerprint: "defect:a:b".into(),
        expected_head: None,
        verb: crate::github::thread_action::ThreadVerb::Resolve,
    };
    app.live.thread.sending = Some((1, request));
    typed(&mut app, "q");
    assert_eq!(app.ui.mode, Mode::Ask(Question::Quit));
    let text = crate::tui::ask::text(&app, Question::Quit).join("\n");
    assert!(
        text.contains("A thread resolve is still being sent; it stays in the outbox"),
        "{text}"
    );
    typed(&mut app, "y");
    assert!(app.ui.quit, "y quits");
}

#[test]
fn ctrl_z_asks_for_a_suspend_and_changes_nothing_else() {
    let mut app = sample();
    typed(&mut app, "j");
    let before = (app.ui.mode, app.ui.focus, app.browse.cursor);
    let effects = update(&mut app, ctrl('z'));
    assert_eq!(effects, vec![Effect::Suspend]);
    assert!(!app.ui.quit);
    assert_eq!((app.ui.mode, app.ui.focus, app.browse.cursor), before);
    typed(&mut app, "?");
    assert_eq!(update(&mut app, ctrl('z')), vec![Effect::Suspend], "in an overlay too");
}

#[test]
fn ctrl_z_while_writing_keeps_the_draft_on_disk_first_and_stays_in_the_composer() {
    let mut app = sample();
    compose(&mut app, 0, "half written");
    let mode = app.ui.mode;
    let effects = update(&mut app, ctrl('z'));
    let [Effect::SaveDraft { draft }, Effect::Suspend] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(draft.evidence, "half written");
    assert_eq!(app.ui.mode, mode, "the composer stays open");
    assert_eq!(evidence(&app), "half written", "nothing was typed by ctrl-z");
}

#[test]
fn resuming_takes_the_new_size_and_rebuilds_the_panes() {
    let mut app = sample();
    update(&mut app, ctrl('z'));
    let effects = update(&mut app, Msg::Resumed(80, 24));
    assert!(effects.iter().all(|e| !matches!(e, Effect::Suspend)), "{effects:?}");
    assert_eq!(app.ui.size, (80, 24));
    assert!(!app.detail.lines.is_empty());
    let widest = app
        .detail
        .lines
        .iter()
        .map(|l| l.spans.iter().map(|(_, t)| t.chars().count()).sum::<usize>())
        .max()
        .unwrap_or(0);
    assert!(widest <= 80, "detail rewrapped for 80 columns: {widest}");
}
