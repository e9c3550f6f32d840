//! Message scripts for one review open in two screens: the second keeps
//! its drafts in files of its own and removes none of the first's but
//! those of a decision it confirms; drafts of one finding kept by both are
//! joined, newest first, when the review is opened again.

use super::script::*;
use super::*;
use crate::outbox::drafts::{DraftKind, DraftOrigin, StoredDraft, draft_id, draft_id_of, screen_id};
use crate::tui::fixture;

fn origin() -> DraftOrigin {
    DraftOrigin::PullRequest {
        repository: "acme/webhooks".into(),
        pull_request: 42,
        api: None,
    }
}

const SCREEN: &str = "4242-1";

/// The decision draft of the first ranked finding, as the screen named
/// `screen` keeps it.
fn decision(app: &App, screen: Option<&str>, evidence: &str, at: &str) -> StoredDraft {
    let fingerprints = vec![app.doc.findings()[app.doc.prepared.ranked[0]].key.as_str().to_owned()];
    StoredDraft {
        id: screen_id(draft_id(&origin(), Some(fixture::SHA), &fingerprints), screen),
        kind: DraftKind::Decision,
        origin: origin(),
        reviewed_sha: Some(fixture::SHA.into()),
        fingerprints,
        status: Some("fixed".into()),
        evidence: evidence.into(),
        updated_at: Some(at.into()),
    }
}

fn loaded(app: &mut App, drafts: Vec<StoredDraft>) -> Vec<Effect> {
    update(app, Msg::DraftsLoaded { drafts, unreadable: 0 })
}

fn second_screen() -> App {
    let mut app = sample();
    app.decide.open_elsewhere = Some(SCREEN.into());
    app
}

#[test]
fn a_second_screen_keeps_its_drafts_apart_and_removes_none_of_the_first() {
    let mut app = second_screen();
    let first = decision(&app, None, "typed in the first screen", "2025-01-01T00:00:00Z");
    loaded(&mut app, vec![first.clone()]);
    typed(&mut app, "d");
    typed(&mut app, " and checked here");
    let effects = update(&mut app, key(KeyCode::Esc));
    let [kept] = saved(&effects).try_into().expect("one draft written");
    assert_eq!(kept.id, screen_id(first.id.clone(), Some(SCREEN)), "a file of its own");
    assert_ne!(kept.id, first.id);
    assert!(kept.evidence.ends_with(" and checked here"), "{:?}", kept.evidence);
    assert!(
        deleted(&effects).is_empty(),
        "the first screen's file stays: {effects:?}"
    );

    // Emptied here: only this screen's own file goes.
    typed(&mut app, "d");
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text("");
        c.choice = None;
    }
    let effects = update(&mut app, key(KeyCode::Esc));
    assert_eq!(deleted(&effects), vec![kept.id.clone()]);
}

#[test]
fn a_decision_confirmed_in_the_second_screen_takes_every_file_of_it() {
    let mut app = second_screen();
    let first = decision(&app, None, "typed in the first screen", "2025-01-01T00:00:00Z");
    loaded(&mut app, vec![first.clone()]);
    typed(&mut app, "d");
    typed(&mut app, ".");
    update(&mut app, key(KeyCode::Esc));
    typed(&mut app, "d");
    preview(&mut app);
    let effects = typed(&mut app, "y");
    let Some(Effect::Submit { drafts, .. }) = effects.first() else {
        panic!("no submit: {effects:?}");
    };
    let own = screen_id(first.id.clone(), Some(SCREEN));
    assert!(drafts.contains(&first.id) && drafts.contains(&own), "{drafts:?}");
}

#[test]
fn drafts_of_one_finding_kept_by_two_screens_are_joined_newest_first() {
    let mut app = sample();
    let older = decision(&app, None, "Fixed in retry.rs.", "2025-01-01T00:00:00Z");
    let newer = decision(&app, Some(SCREEN), "Checked the caller too.", "2025-01-02T00:00:00Z");
    let effects = loaded(&mut app, vec![older.clone(), newer.clone()]);
    let said = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(
        said.contains("from another screen or another head") && said.contains("joined"),
        "{said}"
    );
    let c = app.decide.drafts.values().next().expect("one draft");
    let text = c.evidence();
    assert_eq!(
        text,
        "Checked the caller too.\n\n-- another kept draft of this finding --\nFixed in retry.rs."
    );
    // The screen that holds the review keeps the joined text in its own
    // file at once, and removes the other screen's.
    let [written] = saved(&effects).try_into().expect("the joined draft is written");
    assert_eq!(
        (written.id.as_str(), written.evidence.as_str()),
        (older.id.as_str(), text.as_str())
    );
    assert_eq!(deleted(&effects), vec![newer.id]);
}

#[test]
fn a_later_version_of_the_same_text_is_not_joined_twice() {
    let mut app = sample();
    let older = decision(&app, None, "Fixed in retry.rs.", "2025-01-01T00:00:00Z");
    let newer = decision(
        &app,
        Some(SCREEN),
        "Fixed in retry.rs. Checked the caller.",
        "2025-01-02T00:00:00Z",
    );
    loaded(&mut app, vec![older, newer]);
    let c = app.decide.drafts.values().next().expect("one draft");
    assert_eq!(c.evidence(), "Fixed in retry.rs. Checked the caller.");
}

fn reply(app: &App, screen: Option<&str>, text: &str, at: &str) -> StoredDraft {
    let fp = app.doc.findings()[app.doc.prepared.ranked[0]].key.as_str().to_owned();
    let fingerprints = vec![fp];
    StoredDraft {
        id: screen_id(
            draft_id_of(DraftKind::ThreadReply, &origin(), None, &fingerprints),
            screen,
        ),
        kind: DraftKind::ThreadReply,
        origin: origin(),
        reviewed_sha: None,
        fingerprints,
        status: None,
        evidence: text.into(),
        updated_at: Some(at.into()),
    }
}

#[test]
fn replies_of_one_thread_typed_in_two_screens_are_joined_and_kept_apart_while_both_are_open() {
    let mut app = second_screen();
    let first = reply(&app, None, "Fixed on the head.", "2025-01-01T00:00:00Z");
    let effects = loaded(&mut app, vec![first.clone()]);
    assert!(
        saved(&effects).is_empty() && deleted(&effects).is_empty(),
        "{effects:?}"
    );
    let fp = first.fingerprints[0].clone();
    app.live
        .thread
        .replies
        .insert(fp.clone(), "Fixed on the head. See the test.".into());
    let effects = update(&mut app, Msg::Terminate);
    let [kept] = saved(&effects).try_into().expect("written");
    assert_eq!(kept.id, screen_id(first.id.clone(), Some(SCREEN)));
    assert!(deleted(&effects).is_empty());

    let mut app = sample();
    let other = reply(&app, Some(SCREEN), "Thanks for the report.", "2025-01-02T00:00:00Z");
    let effects = loaded(&mut app, vec![first.clone(), other.clone()]);
    assert_eq!(
        app.live.thread.replies.get(&fp).map(String::as_str),
        Some("Thanks for the report.  // also typed in another screen: Fixed on the head.")
    );
    let [written] = saved(&effects).try_into().expect("the joined reply is written");
    assert_eq!(written.id, first.id);
    assert_eq!(deleted(&effects), vec![other.id]);
}
