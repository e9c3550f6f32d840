//! Message scripts for the thread reply kept on disk: saved a moment after
//! typing stops, on a hang-up and on quit; removed once posted or emptied;
//! restored into the input when the pull request is opened again.

use super::script::*;
use super::*;
use crate::github::thread_action::{ThreadDone, ThreadOutcome};
use crate::outbox::drafts::{DraftKind, DraftOrigin, StoredDraft, draft_id};
use crate::tui::thread_act::ThreadActed;

fn timer(effects: &[Effect]) -> Option<u64> {
    effects.iter().find_map(|e| match e {
        Effect::DraftTimer { generation } => Some(*generation),
        _ => None,
    })
}

/// The drift lane on a finding whose thread waits for resolution, the
/// reply input open on it; returns the finding's fingerprint.
fn replying(app: &mut App) -> String {
    typed(app, "3jj");
    typed(app, "tr");
    assert!(matches!(app.ui.mode, Mode::ThreadReply { .. }), "{:?}", app.ui.mode);
    app.selected_finding().expect("a finding").key.as_str().to_owned()
}

/// The reply typed for the thread of `fp` ("" when none is).
fn reply<'a>(app: &'a App, fp: &str) -> &'a str {
    app.live.thread.replies.get(fp).map_or("", String::as_str)
}

#[test]
fn a_typed_reply_is_kept_once_typing_stops_and_on_a_hang_up() {
    let mut app = sample();
    let fp = replying(&mut app);
    typed(&mut app, "Checked on the head");
    let generation = timer(&typed(&mut app, ".")).expect("each character arms the timer");
    let [draft] = saved(&update(&mut app, Msg::DraftIdle(generation)))
        .try_into()
        .expect("one reply draft");
    assert_eq!(draft.kind, DraftKind::ThreadReply);
    assert_eq!(draft.evidence, "Checked on the head.");
    assert_eq!(draft.fingerprints, vec![fp.clone()]);
    assert_ne!(
        draft.id,
        draft_id(&draft.origin, draft.reviewed_sha.as_deref(), &[fp]),
        "never the file of the finding's decision draft"
    );
    typed(&mut app, " More");
    let kept = saved(&update(&mut app, Msg::Terminate));
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].evidence, "Checked on the head. More");
    assert!(app.ui.quit);
}

#[test]
fn an_emptied_reply_and_a_posted_one_leave_no_file() {
    let mut app = sample();
    let fp = replying(&mut app);
    typed(&mut app, "ok");
    let generation = timer(&typed(&mut app, "!")).expect("timer");
    let [draft] = saved(&update(&mut app, Msg::DraftIdle(generation)))
        .try_into()
        .expect("kept");
    let cleared = update(&mut app, ctrl('u'));
    let generation = timer(&cleared).expect("clearing is an edit");
    let effects = update(&mut app, Msg::DraftIdle(generation));
    assert!(saved(&effects).is_empty());
    assert_eq!(deleted(&effects), vec![draft.id.clone()]);

    typed(&mut app, "Fixed on the head.");
    let generation = timer(&typed(&mut app, " ")).expect("timer");
    update(&mut app, Msg::DraftIdle(generation));
    update(&mut app, key(KeyCode::Enter));
    let effects = typed(&mut app, "y");
    let sent = effects.iter().find_map(|e| match e {
        Effect::ThreadAction { generation, .. } => Some(*generation),
        _ => None,
    });
    let effects = update(
        &mut app,
        Msg::ThreadActed {
            generation: sent.expect("sent"),
            outcome: ThreadActed::Answered {
                outcome: ThreadOutcome::Done(ThreadDone::Replied {
                    url: None,
                    already: false,
                }),
                settle: None,
            },
        },
    );
    assert_eq!(deleted(&effects), vec![draft.id], "the posted reply's file goes");
    assert_eq!(reply(&app, &fp), "");
    assert!(app.live.thread.replies_saved.is_empty());
}

#[test]
fn a_kept_reply_comes_back_into_the_input_and_never_over_typed_text() {
    let mut app = sample();
    let fp = replying(&mut app);
    update(&mut app, key(KeyCode::Esc));
    let origin = DraftOrigin::PullRequest {
        repository: "acme/webhooks".into(),
        pull_request: 42,
        api: None,
    };
    let draft = StoredDraft {
        id: crate::outbox::drafts::draft_id_of(DraftKind::ThreadReply, &origin, None, std::slice::from_ref(&fp)),
        kind: DraftKind::ThreadReply,
        origin,
        reviewed_sha: None,
        fingerprints: vec![fp.clone()],
        status: None,
        evidence: "Typed before the hang-up.".into(),
        updated_at: None,
    };
    let mut gone = draft.clone();
    gone.fingerprints = vec!["defect:not.in.this.result".into()];
    gone.id = "0".repeat(32);
    let loaded = |drafts: Vec<StoredDraft>| Msg::DraftsLoaded { drafts, unreadable: 0 };
    update(&mut app, loaded(vec![draft.clone(), gone]));
    assert_eq!(reply(&app, &fp), "Typed before the hang-up.");
    let said = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(
        said.contains("Restored a thread reply") && said.contains("not in this result"),
        "{said}"
    );
    assert!(app.decide.drafts.is_empty(), "a reply is not a decision draft");

    app.live.thread.replies.insert(fp.clone(), "typed here since".into());
    update(&mut app, loaded(vec![draft]));
    assert_eq!(reply(&app, &fp), "typed here since");
}

/// Each thread keeps its own reply: words typed in one thread's input are
/// not offered in another's, both are kept on disk in their own files, and
/// posting one leaves the other.
#[test]
fn each_thread_keeps_its_own_reply() {
    let mut app = sample();
    let first = replying(&mut app);
    typed(&mut app, "for the first");
    update(&mut app, key(KeyCode::Esc));
    typed(&mut app, "j");
    typed(&mut app, "tr");
    assert!(matches!(app.ui.mode, Mode::ThreadReply { .. }), "{:?}", app.ui.mode);
    let second = app.selected_finding().expect("a finding").key.as_str().to_owned();
    assert_ne!(first, second, "the lane has two findings with threads");
    assert_eq!(
        reply(&app, &second),
        "",
        "the first thread's words are not offered here"
    );
    typed(&mut app, "for the second");
    let mut kept = saved(&update(&mut app, Msg::Terminate));
    kept.sort_by(|a, b| a.evidence.cmp(&b.evidence));
    let kept: Vec<(&str, &[String])> = kept
        .iter()
        .map(|d| (d.evidence.as_str(), d.fingerprints.as_slice()))
        .collect();
    assert_eq!(
        kept,
        vec![
            ("for the first", std::slice::from_ref(&first)),
            ("for the second", std::slice::from_ref(&second)),
        ]
    );
    assert_eq!(reply(&app, &first), "for the first");
    assert!(
        saved(&update(&mut app, Msg::Terminate)).is_empty(),
        "unchanged replies are not written again"
    );
}

/// The thread menu says when a reply typed for its thread waits.
#[test]
fn the_thread_menu_says_a_reply_waits() {
    let mut app = sample();
    replying(&mut app);
    typed(&mut app, "half");
    update(&mut app, key(KeyCode::Esc));
    typed(&mut app, "t");
    let Mode::Ask(q) = app.ui.mode else {
        panic!("{:?}", app.ui.mode)
    };
    let text = crate::tui::thread_act::text(&app, q).join("\n");
    assert!(text.contains("A reply you typed for this thread waits"), "{text}");
}
