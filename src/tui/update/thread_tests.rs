//! Thread actions from the lane: the menu, the remedies offer, the reply
//! input, confirmations that default to No, and the outcome coming back.

use super::script::*;
use super::*;
use crate::github::thread_action::{ThreadDone, ThreadOutcome, ThreadRequest, ThreadVerb};
use crate::model::finding::{ThreadStatus, ThreadTransition};
use crate::tui::decision_state::Question;
use crate::tui::fixture;
use crate::tui::thread_act::ThreadActed;

/// The drift lane with the cursor on the first finding whose thread has `transition`.
fn on_transition(transition: ThreadTransition) -> App {
    let mut app = sample();
    typed(&mut app, "3");
    while app
        .selected_finding()
        .and_then(|f| f.reviewgate())
        .is_some_and(|r| r.thread.transition != transition)
    {
        let before = app.browse.cursor;
        typed(&mut app, "j");
        assert_ne!(before, app.browse.cursor, "no {transition:?} in the lane");
    }
    app
}

fn sent(effects: &[Effect]) -> Option<&ThreadRequest> {
    effects.iter().find_map(|e| match e {
        Effect::ThreadAction { request, .. } => Some(request),
        _ => None,
    })
}

#[test]
fn resolved_externally_offers_the_two_remedies() {
    let mut app = on_transition(ThreadTransition::ResolvedExternally);
    typed(&mut app, "t");
    assert!(matches!(app.ui.mode, Mode::Ask(Question::ThreadRemedies { .. })));
    // Resolving is not offered: only reopening or a decision.
    typed(&mut app, "s");
    assert!(matches!(app.ui.mode, Mode::Ask(Question::ThreadRemedies { .. })));
    typed(&mut app, "d");
    assert!(matches!(app.ui.mode, Mode::Compose(_)), "{:?}", app.ui.mode);

    let mut app = on_transition(ThreadTransition::ResolvedExternally);
    typed(&mut app, "to");
    assert!(matches!(app.ui.mode, Mode::Ask(Question::ThreadConfirm { .. })));
    let fp = app.selected_finding().map(|f| f.key.as_str().to_owned());
    let effects = typed(&mut app, "y");
    let request = sent(&effects).cloned();
    assert_eq!(
        request,
        Some(ThreadRequest {
            repository: "acme/webhooks".into(),
            pull_request: 42,
            fingerprint: fp.unwrap_or_default(),
            expected_head: app.doc.set.as_ref().and_then(|s| s.reviewed_sha.clone()),
            verb: ThreadVerb::Unresolve,
        })
    );
    assert!(app.live.thread.sending.is_some());
}

#[test]
fn confirmations_default_to_no() {
    for cancel in [KeyCode::Enter, KeyCode::Esc, KeyCode::Char('n')] {
        let mut app = on_transition(ThreadTransition::ResolutionPending);
        typed(&mut app, "ts");
        assert!(matches!(app.ui.mode, Mode::Ask(Question::ThreadConfirm { .. })));
        let effects = update(&mut app, key(cancel));
        assert!(sent(&effects).is_none(), "{cancel:?} sent the action");
        assert_eq!(app.ui.mode, Mode::Normal);
        assert!(app.live.thread.pending.is_none() && app.live.thread.sending.is_none());
    }
}

#[test]
fn a_reply_is_typed_reviewed_and_sent_on_yes() {
    let mut app = on_transition(ThreadTransition::ResolutionPending);
    typed(&mut app, "tr");
    assert!(matches!(app.ui.mode, Mode::ThreadReply { .. }));
    update(&mut app, key(KeyCode::Enter));
    assert!(
        matches!(app.ui.mode, Mode::ThreadReply { .. }),
        "an empty reply is not confirmed"
    );
    typed(&mut app, "Fixed in 1a2b, resolving.");
    update(&mut app, Msg::Paste(" pasted\u{1b}[31m\nsecond line".into()));
    update(&mut app, key(KeyCode::Enter));
    assert!(matches!(app.ui.mode, Mode::Ask(Question::ThreadConfirm { .. })));
    let effects = typed(&mut app, "y");
    let verb = sent(&effects).map(|r| r.verb.clone());
    assert_eq!(
        verb,
        Some(ThreadVerb::Reply {
            body: "Fixed in 1a2b, resolving. pasted[31m".into()
        })
    );
}

#[test]
fn threads_without_a_github_thread_or_a_pull_request_have_no_actions() {
    let mut app = sample();
    typed(&mut app, "2");
    while app
        .selected_finding()
        .and_then(|f| f.reviewgate())
        .is_some_and(|r| r.thread.status != ThreadStatus::NotPublished)
    {
        typed(&mut app, "j");
    }
    typed(&mut app, "t");
    assert_eq!(app.ui.mode, Mode::Normal);
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(flash.contains("posted no thread"), "{flash}");
    let mut river = fixture::app(fixture::river_set(), (120, 30));
    typed(&mut river, "t");
    assert_eq!(river.ui.mode, Mode::Normal);
}

#[test]
fn outcomes_come_back_and_a_done_action_refreshes_the_threads() {
    let mut app = on_transition(ThreadTransition::ResolutionPending);
    app.live.pr = true;
    typed(&mut app, "ts");
    let effects = typed(&mut app, "y");
    let generation = effects.iter().find_map(|e| match e {
        Effect::ThreadAction { generation, .. } => Some(*generation),
        _ => None,
    });
    let generation = generation.unwrap_or_default();
    // A stale generation is ignored.
    let none = update(
        &mut app,
        Msg::ThreadActed {
            generation: generation + 100,
            outcome: done(ThreadDone::Resolved { already: true }),
        },
    );
    assert!(none.is_empty() && app.live.thread.sending.is_some());
    let effects = update(
        &mut app,
        Msg::ThreadActed {
            generation,
            outcome: done(ThreadDone::Resolved { already: false }),
        },
    );
    assert!(
        effects.iter().any(|e| matches!(e, Effect::Refresh { .. })),
        "{effects:?}"
    );
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(flash.contains("resolved the thread"), "{flash}");

    typed(&mut app, "ts");
    let effects = typed(&mut app, "y");
    let generation = effects.iter().find_map(|e| match e {
        Effect::ThreadAction { generation, .. } => Some(*generation),
        _ => None,
    });
    update(
        &mut app,
        Msg::ThreadActed {
            generation: generation.unwrap_or_default(),
            outcome: ThreadActed::Answered {
                outcome: ThreadOutcome::Failed {
                    reason: "could not reach GitHub".into(),
                },
                settle: None,
            },
        },
    );
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(
        flash.contains("kept") && flash.contains("triage thread retry"),
        "{flash}"
    );
}

/// GitHub's answer: done, settled without trouble.
fn done(done: ThreadDone) -> ThreadActed {
    ThreadActed::Answered {
        outcome: ThreadOutcome::Done(done),
        settle: None,
    }
}

/// A reply that failed stays kept; rewriting it on the screen and sending
/// the new words replaces the kept entry (so `thread retry` never posts the
/// old words too), and a failure reads the threads again with `--pr`.
#[test]
fn a_rewritten_failed_reply_replaces_the_kept_one() {
    let mut app = on_transition(ThreadTransition::ResolutionPending);
    app.live.pr = true;
    let send = |app: &mut App, text: &str| {
        typed(app, "tr");
        update(app, ctrl('u'));
        typed(app, text);
        update(app, key(KeyCode::Enter));
        typed(app, "y")
    };
    let effects = send(&mut app, "first words");
    let (generation, first) = effects
        .iter()
        .find_map(|e| match e {
            Effect::ThreadAction {
                generation,
                request,
                replaces,
                ..
            } => {
                assert!(replaces.is_none());
                Some((*generation, request.clone()))
            }
            _ => None,
        })
        .expect("a thread action");
    let failed = ThreadActed::Answered {
        outcome: ThreadOutcome::Failed {
            reason: "GitHub GraphQL error: Something went wrong".into(),
        },
        settle: None,
    };
    let effects = update(
        &mut app,
        Msg::ThreadActed {
            generation,
            outcome: failed,
        },
    );
    assert!(
        effects.iter().any(|e| matches!(e, Effect::Refresh { .. })),
        "a failed action may have landed: the threads are read again: {effects:?}"
    );
    assert_eq!(app.live.thread.kept.as_ref(), Some(&first));
    let effects = send(&mut app, "second words");
    let replaced = effects.iter().find_map(|e| match e {
        Effect::ThreadAction { request, replaces, .. } => Some((request.verb.clone(), replaces.clone())),
        _ => None,
    });
    assert_eq!(
        replaced,
        Some((
            ThreadVerb::Reply {
                body: "second words".into()
            },
            Some(first)
        ))
    );
}
