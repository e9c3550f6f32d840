//! Message scripts for drafts on disk: saved on Esc, quit and preview,
//! removed once confirmed, restored (stale when written for another head).

use super::script::*;
use super::*;
use crate::model::finding::SubmittedDisposition as S;
use crate::outbox::drafts::{DraftKind, DraftOrigin, StoredDraft, draft_id};
use crate::tui::app::SubmitState;
use crate::tui::composer::choice::Choice;
use crate::tui::fixture;

fn origin() -> DraftOrigin {
    DraftOrigin::PullRequest {
        repository: "acme/webhooks".into(),
        pull_request: 42,
        api: None,
    }
}

#[test]
fn esc_saves_the_exact_text_bound_to_the_pull_request_and_head() {
    let mut app = sample();
    let fp = app.selected_finding().map(|f| f.key.as_str().to_string());
    compose(&mut app, 0, "  Fixed in «retry.rs»,\tsee L41  ");
    update(&mut app, key(KeyCode::Enter));
    typed(&mut app, "second line ");
    let effects = update(&mut app, key(KeyCode::Esc));
    let [draft] = saved(&effects).try_into().expect("one SaveDraft");
    assert_eq!(draft.evidence, "  Fixed in «retry.rs»,\tsee L41  \nsecond line ");
    assert_eq!(draft.origin, origin());
    assert_eq!(draft.reviewed_sha.as_deref(), Some(fixture::SHA));
    assert_eq!(draft.fingerprints, fp.into_iter().collect::<Vec<_>>());
    assert_eq!(draft.status.as_deref(), Some(S::ALL[0].as_str()));
    assert_eq!(draft.id, draft_id(&origin(), Some(fixture::SHA), &draft.fingerprints));
    assert!(deleted(&effects).is_empty());
    assert_eq!(app.ui.mode, Mode::Normal);
    let kept = app.decide.drafts.values().next().and_then(|c| c.saved_as.clone());
    assert_eq!(kept, Some(draft.id));
}

#[test]
fn a_screen_on_another_github_api_keeps_its_drafts_apart() {
    let mut app = sample();
    app.decide.api = Some("https://ghe.example/api/v3".into());
    compose(&mut app, 0, "Checked on the Enterprise server.");
    let effects = update(&mut app, key(KeyCode::Esc));
    let [draft] = saved(&effects).try_into().expect("one SaveDraft");
    let DraftOrigin::PullRequest { api, .. } = &draft.origin else {
        panic!("{:?}", draft.origin);
    };
    assert_eq!(api.as_deref(), Some("https://ghe.example/api/v3"));
    assert_ne!(draft.id, draft_id(&origin(), Some(fixture::SHA), &draft.fingerprints));
}

#[test]
fn quit_and_preview_save_too() {
    let mut app = sample();
    compose(&mut app, 1, "Checked by hand.");
    let on_preview = preview(&mut app);
    assert_eq!(saved(&on_preview)[0].evidence, "Checked by hand.");
    update(&mut app, key(KeyCode::Esc));
    let on_quit = update(&mut app, Msg::Action(Action::Quit));
    assert_eq!(saved(&on_quit)[0].evidence, "Checked by hand.");
    assert!(matches!(app.ui.mode, Mode::Ask(_)));
}

#[test]
fn confirming_hands_the_draft_to_the_send_which_removes_it_once_kept() {
    let mut app = sample();
    compose(&mut app, 1, "Fixed by the retry rewrite.");
    let id = saved(&preview(&mut app))[0].id.clone();
    let effects = typed(&mut app, "y");
    let Some(Effect::Submit { drafts, .. }) = effects.first() else {
        panic!("no submit: {effects:?}");
    };
    assert_eq!(drafts, &vec![id]);
    // Not removed beside the send: until the outbox holds the decision, the
    // draft file is the only copy of the evidence on disk.
    assert!(deleted(&effects).is_empty(), "{effects:?}");
    assert!(saved(&effects).is_empty());
}

#[test]
fn an_emptied_draft_is_deleted_not_saved() {
    let mut app = sample();
    typed(&mut app, "d");
    let effects = update(&mut app, key(KeyCode::Esc));
    assert!(saved(&effects).is_empty());
    assert_eq!(deleted(&effects).len(), 1, "{effects:?}");
    assert!(app.decide.drafts.is_empty());
}

#[test]
fn the_demo_keeps_nothing_on_disk() {
    let mut app = fixture::app_on(crate::tui::demo_document(), (120, 40));
    typed(&mut app, "d");
    assert!(crate::tui::drafts::startup(&app).is_empty());
    assert!(saved(&update(&mut app, key(KeyCode::Esc))).is_empty());
}

fn stored(app: &App, row: usize, sha: &str, evidence: &str) -> (usize, StoredDraft) {
    let i = app.doc.prepared.ranked[row];
    let fingerprints = vec![app.doc.findings()[i].key.as_str().to_string()];
    let draft = StoredDraft {
        id: draft_id(&origin(), Some(sha), &fingerprints),
        kind: DraftKind::Decision,
        origin: origin(),
        reviewed_sha: Some(sha.into()),
        fingerprints,
        status: Some("fixed".into()),
        evidence: evidence.into(),
        updated_at: Some("2025-01-01T00:00:00Z".into()),
    };
    (i, draft)
}

#[test]
fn restored_drafts_come_back_with_their_mark_and_text() {
    let mut app = sample();
    assert_eq!(crate::tui::drafts::startup(&app), vec![Effect::LoadDrafts]);
    let (i, current) = stored(&app, 0, fixture::SHA, "typed\nbefore the crash");
    let (_, elsewhere) = {
        let (j, mut d) = stored(&app, 1, fixture::SHA, "other pr");
        d.origin = DraftOrigin::PullRequest {
            repository: "acme/other".into(),
            pull_request: 42,
            api: None,
        };
        (j, d)
    };
    let (_, missing) = {
        let (j, mut d) = stored(&app, 2, fixture::SHA, "gone");
        d.fingerprints = vec!["defect:not:here".into()];
        (j, d)
    };
    let msg = Msg::DraftsLoaded {
        drafts: vec![current.clone(), elsewhere, missing],
        unreadable: 1,
    };
    assert!(update(&mut app, msg).is_empty());
    assert_eq!(app.submit[i], SubmitState::Draft);
    assert_eq!(app.decide.drafts.len(), 1);
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(
        flash.contains("Restored 1 draft") && flash.contains("could not be read"),
        "{flash}"
    );
    typed(&mut app, "d");
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Evidence));
    assert_eq!(evidence(&app), "typed\nbefore the crash");
    let c = app.decide.composer.as_ref().expect("composer");
    assert_eq!(c.choice, Some(Choice::ReviewGate(S::Fixed)));
    assert!(c.stale_sha.is_none() && c.note.is_none());
    let effects = update(&mut app, key(KeyCode::Esc));
    assert_eq!(saved(&effects)[0].id, current.id, "same file, no copy");
    assert!(deleted(&effects).is_empty());
}

#[test]
fn a_draft_for_another_head_is_restored_stale_and_kept_under_its_head() {
    let mut app = sample();
    let old = "0123456789abcdef0123456789abcdef01234567";
    let (i, draft) = stored(&app, 0, old, "written on the old head");
    update(
        &mut app,
        Msg::DraftsLoaded {
            drafts: vec![draft.clone()],
            unreadable: 0,
        },
    );
    assert_eq!(app.submit[i], SubmitState::Draft);
    typed(&mut app, "d");
    let c = app.decide.composer.as_ref().expect("composer");
    assert_eq!(c.stale_sha.as_deref(), Some(old));
    assert!(
        c.note
            .as_deref()
            .is_some_and(|n| n.contains("Stale draft") && n.contains("0123456789ab"))
    );
    let effects = update(&mut app, key(KeyCode::Esc));
    assert_eq!(saved(&effects)[0].reviewed_sha.as_deref(), Some(old));
    assert_eq!(saved(&effects)[0].id, draft.id);
    typed(&mut app, "d");
    preview(&mut app);
    assert!(matches!(app.ui.mode, Mode::Compose(Stage::Confirm { yes: false, .. })));
    let effects = typed(&mut app, "y");
    let items = submitted(&effects);
    assert_eq!(items[0].draft.reviewed_sha, fixture::SHA, "bound to the loaded head");
    let Some(Effect::Submit { drafts, .. }) = effects.first() else {
        panic!("no submit: {effects:?}");
    };
    assert!(
        drafts.contains(&draft.id),
        "the stale draft goes once the decision is kept"
    );
}

#[test]
fn a_restore_never_replaces_a_draft_made_meanwhile() {
    let mut app = sample();
    compose(&mut app, 0, "newer text");
    update(&mut app, key(KeyCode::Esc));
    let (_, draft) = stored(&app, 0, fixture::SHA, "older text");
    update(
        &mut app,
        Msg::DraftsLoaded {
            drafts: vec![draft],
            unreadable: 0,
        },
    );
    typed(&mut app, "d");
    assert_eq!(evidence(&app), "newer text");
}

fn timers(effects: &[Effect]) -> Vec<u64> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::DraftTimer { generation } => Some(*generation),
            _ => None,
        })
        .collect()
}

#[test]
fn typing_arms_the_save_timer_and_only_the_latest_timer_saves() {
    let mut app = sample();
    compose(&mut app, 0, "Fixed in retry.rs");
    let first = timers(&typed(&mut app, "a"));
    let second = timers(&typed(&mut app, "b"));
    assert_eq!(first.len(), 1);
    assert_eq!(second, [first[0] + 1], "each edit is a new generation");
    assert!(timers(&update(&mut app, Msg::Tick)).is_empty(), "no edit, no timer");
    assert!(
        saved(&update(&mut app, Msg::DraftIdle(first[0]))).is_empty(),
        "a later edit came"
    );
    let kept = saved(&update(&mut app, Msg::DraftIdle(second[0])));
    let [draft] = kept.try_into().expect("one SaveDraft");
    assert!(draft.evidence.ends_with("ab"), "{:?}", draft.evidence);
    assert!(matches!(app.ui.mode, Mode::Compose(_)), "the composer stays open");
}

#[test]
fn terminate_keeps_the_open_composer_and_every_draft_then_quits() {
    let mut app = sample();
    compose(&mut app, 0, "first finding evidence");
    update(&mut app, key(KeyCode::Esc));
    update(&mut app, key(KeyCode::Char('j')));
    compose(&mut app, 0, "second, still typing");
    let effects = update(&mut app, Msg::Terminate);
    let mut texts: Vec<String> = saved(&effects).into_iter().map(|d| d.evidence).collect();
    texts.sort();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts[0].contains("first finding evidence") && texts[1].contains("second, still typing"));
    assert!(app.ui.quit);
}

#[test]
fn inserted_permalinks_and_templates_are_sanitised() {
    let mut set = fixture::sample_set();
    for f in &mut set.findings {
        for e in &mut f.evidence {
            e.path = "src/x\u{1b}[201~\r.rs".into();
        }
        f.path = Some("src/x\u{1b}[201~\r.rs".into());
    }
    let mut app = fixture::app(set, (120, 40));
    compose(&mut app, 0, "");
    let ctrl = |c: char| Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    update(&mut app, ctrl('l'));
    update(&mut app, ctrl('t'));
    let text = app
        .decide
        .composer
        .as_ref()
        .map(|c| c.editor.text())
        .unwrap_or_default();
    assert!(text.contains("src/x␛[201~⏎.rs@"), "{text:?}");
    assert!(
        !text.chars().any(|c| crate::sanitize::is_forbidden(c) && c != '\n'),
        "{text:?}"
    );
}
