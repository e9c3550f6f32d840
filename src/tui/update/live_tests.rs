//! Message scripts for the outbox offer and the `--pr` refresh.

use super::*;
use crate::github::draft::Draft;
use crate::model::finding::SubmittedDisposition as S;
use crate::model::threads::ThreadObservation;
use crate::outbox::Entry;
use crate::tui::app::{App, Document, Source, SubmitState};
use crate::tui::fixture;

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars().flat_map(|c| update(app, key(KeyCode::Char(c)))).collect()
}

fn sample() -> App {
    fixture::app(fixture::sample_set(), (120, 40))
}

fn entry(app: &App, finding: usize, sha: Option<&str>, repo: Option<&str>) -> Entry {
    let set = app.doc.set.as_ref().expect("set");
    let fp = set.findings[finding].key.as_str();
    let mut draft = Draft::for_finding(set, fp, S::Fixed, "Fixed in the retry rewrite.").expect("draft");
    if let Some(sha) = sha {
        draft.reviewed_sha = sha.into();
    }
    if let Some(repo) = repo {
        draft.repository = repo.into();
    }
    Entry::new(draft, None)
}

fn offered(app: &mut App) -> (Entry, Entry) {
    let current = entry(app, 0, None, None);
    let stale = entry(app, 1, Some(&"0".repeat(40)), None);
    let unrelated = entry(app, 2, None, Some("other/repo"));
    update(
        app,
        Msg::OutboxLoaded {
            entries: vec![unrelated, stale.clone(), current.clone()],
            unreadable: 0,
        },
    );
    (current, stale)
}

#[test]
fn startup_reads_the_outbox_only_for_a_submittable_review() {
    assert_eq!(crate::tui::offer::startup(&sample()), vec![Effect::LoadOutbox]);
    let demo = fixture::app_on(crate::tui::demo_document(), (120, 40));
    assert!(crate::tui::offer::startup(&demo).is_empty());
    let river = fixture::app(fixture::river_set(), (120, 40));
    assert!(crate::tui::offer::startup(&river).is_empty());
}

#[test]
fn kept_decisions_for_this_pull_request_are_offered_current_first() {
    let mut app = sample();
    let (current, stale) = offered(&mut app);
    assert_eq!(app.ui.mode, Mode::Outbox { cursor: 0 });
    let ids: Vec<&str> = app.decide.offer.entries.iter().map(|o| o.entry.id.as_str()).collect();
    assert_eq!(
        ids,
        [current.id.as_str(), stale.id.as_str()],
        "unrelated entries are not offered"
    );
    let effects = typed(&mut app, "r");
    let Some(Effect::Submit { items, .. }) = effects.first() else {
        panic!("{effects:?}")
    };
    assert_eq!(items[0].draft, current.draft);
    assert!(matches!(app.submit[0], SubmitState::Pending { .. }));
    assert_eq!(
        app.ui.mode,
        Mode::Outbox { cursor: 0 },
        "the stale one is still offered"
    );
}

#[test]
fn a_stale_entry_cannot_be_retried_only_rebound_after_confirming() {
    let mut app = sample();
    let (_, stale) = offered(&mut app);
    typed(&mut app, "j");
    assert!(typed(&mut app, "r").is_empty());
    assert!(app.ui.flash.as_ref().is_some_and(|f| f.text.contains("another head")));
    let effects = typed(&mut app, "b");
    assert_eq!(app.ui.mode, Mode::Compose(Stage::Confirm { scroll: 0, yes: false }));
    assert_eq!(super::script::without_saves(effects), vec![Effect::LookupActor]);
    let c = app.decide.composer.as_ref().expect("composer");
    assert_eq!(c.replaces.as_deref(), Some(stale.id.as_str()));
    assert!(c.note.as_deref().is_some_and(|n| n.contains("000000000000")));
    update(&mut app, Msg::Actor(Ok("reviewer".to_string())));
    let effects = typed(&mut app, "y");
    let Some(Effect::Submit { items, .. }) = effects.first() else {
        panic!("{effects:?}")
    };
    assert_eq!(items[0].draft.reviewed_sha, fixture::SHA, "bound to the loaded head");
    assert_eq!(items[0].replaces.as_deref(), Some(stale.id.as_str()));
}

#[test]
fn dropping_takes_two_presses() {
    let mut app = sample();
    let (current, _) = offered(&mut app);
    assert!(typed(&mut app, "d").is_empty());
    assert_eq!(app.decide.offer.entries.len(), 2);
    let effects = typed(&mut app, "d");
    assert_eq!(
        effects,
        vec![Effect::DropOutbox {
            id: current.id,
            kind: crate::tui::effect::KeptKind::Decision
        }]
    );
    assert_eq!(app.decide.offer.entries.len(), 1);
    update(&mut app, key(KeyCode::Esc));
    assert_eq!(app.ui.mode, Mode::Normal, "esc keeps the rest");
}

#[test]
fn refresh_only_with_pr_and_a_moved_head_makes_the_result_stale() {
    let mut app = sample();
    assert!(typed(&mut app, "R").is_empty());
    app.live.pr = true;
    let effects = typed(&mut app, "R");
    let Some(Effect::Refresh {
        generation,
        reviewed_sha,
    }) = effects.first().cloned()
    else {
        panic!("{effects:?}")
    };
    assert_eq!(reviewed_sha.as_deref(), Some(fixture::SHA));
    assert!(crate::tui::view::status::busy(&app).is_some());
    update(
        &mut app,
        Msg::Refreshed {
            generation: generation + 7,
            outcome: live::RefreshOutcome::Failed {
                reason: crate::tui::message::failure::RefreshError::NoClient(
                    crate::tui::message::failure::ClientError::Setup(crate::github::TokenError::Missing.into()),
                ),
            },
        },
    );
    assert_eq!(app.live.refreshing, Some(generation), "another generation is ignored");
    let head = "1".repeat(40);
    let outcome = live::RefreshOutcome::HeadMoved {
        head: head.clone(),
        reason: no_run(&head),
    };
    update(&mut app, Msg::Refreshed { generation, outcome });
    assert_eq!(app.live.stale_head, Some(head));
    assert!(crate::tui::decide::send_blocked(&app).is_some_and(|w| w.contains("R")));
}

#[test]
fn a_refresh_keeps_selection_marks_and_drafts_by_fingerprint() {
    let mut app = sample();
    app.live.pr = true;
    typed(&mut app, "2j ");
    let selected_key = app.selected_finding().map(|f| f.key.clone());
    let marked_key = app.doc.findings()[app.browse.marks.iter().position(|m| *m).unwrap_or(0)]
        .key
        .clone();
    typed(&mut app, "k");
    typed(&mut app, "d");
    update(&mut app, key(KeyCode::Enter));
    typed(&mut app, "!");
    update(&mut app, key(KeyCode::Esc));
    let draft_text = app.decide.drafts.values().next().map(|c| c.evidence());
    typed(&mut app, "j");
    let selected_key = app.selected_finding().map(|f| f.key.clone()).or(selected_key);
    // The new result lists the findings in reverse order.
    let mut set = fixture::sample_set();
    set.findings.reverse();
    for (n, f) in set.findings.iter_mut().enumerate() {
        f.index = n;
    }
    let doc = Document::new(Source::File("new.json".into()), Some(set.format), Some(set), Vec::new());
    let Some(Effect::Refresh { generation, .. }) = typed(&mut app, "R").first().cloned() else {
        panic!("no refresh")
    };
    let outcome = live::RefreshOutcome::Loaded {
        doc: Box::new(doc),
        threads_unavailable: Some("GraphQL refused".into()),
        orphans: Vec::new(),
    };
    update(&mut app, Msg::Refreshed { generation, outcome });
    assert_eq!(app.selected_finding().map(|f| f.key.clone()), selected_key);
    let marked: Vec<_> = app
        .doc
        .findings()
        .iter()
        .zip(&app.browse.marks)
        .filter(|(_, m)| **m)
        .map(|(f, _)| f.key.clone())
        .collect();
    assert_eq!(marked, vec![marked_key]);
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(
        flash.contains("threads could not be read") && !flash.contains("current"),
        "the line never says threads are current when they are unknown: {flash}"
    );
    let (targets, c) = app.decide.drafts.iter().next().expect("draft kept");
    assert_eq!(Some(c.evidence()), draft_text);
    assert_eq!(app.submit[targets[0]], SubmitState::Draft);
    assert_eq!(app.live.threads_unavailable.as_deref(), Some("GraphQL refused"));
}

#[test]
fn unreadable_threads_make_every_finding_unknown() {
    let mut app = sample();
    app.live.pr = true;
    let Some(Effect::Refresh { generation, .. }) = typed(&mut app, "R").first().cloned() else {
        panic!("no refresh")
    };
    let observation = ThreadObservation::Unavailable {
        reason: "rate limited until 12:00".into(),
    };
    let outcome = live::RefreshOutcome::Threads {
        observation,
        warning: no_run("the head"),
    };
    update(&mut app, Msg::Refreshed { generation, outcome });
    assert!(
        app.doc
            .findings()
            .iter()
            .filter_map(|f| f.reviewgate())
            .all(|r| r.thread.transition == crate::model::finding::ThreadTransition::Unknown)
    );
    assert!(
        (0..app.doc.findings().len()).all(|i| app.doc.row(i).is_some_and(|r| r.thread.glyph() == "?")),
        "rows rebuilt"
    );
    assert_eq!(
        app.live.threads_unavailable.as_deref(),
        Some("rate limited until 12:00")
    );
}

/// Why no result for `head` was fetched: no completed run of the workflow.
fn no_run(head: &str) -> crate::tui::message::failure::Shared<crate::github::fetch::FetchError> {
    crate::tui::message::failure::Shared::new(crate::github::fetch::FetchError::NoRun {
        workflow: "reviewgate.yml".into(),
        head: head.into(),
    })
}

/// A kept decision whose last attempt left its comment on GitHub (posted
/// and attested, the read-back failed: ReviewGate replays it) is not
/// dropped with the words "it is recorded nowhere": the warning names the
/// comment, as `triage outbox drop` does.
#[test]
fn dropping_a_decision_whose_comment_is_on_github_says_so() {
    let mut app = sample();
    let mut left = entry(&app, 0, None, None);
    left.attempts = 1;
    left.last_outcome = Some(crate::outbox::LastOutcome {
        kind: crate::outbox::OutcomeKind::Failed,
        message: "could not read back comment 9001: GitHub did not answer within 10 s".into(),
        comment_id: Some(9001),
        stale_head: false,
    });
    update(
        &mut app,
        Msg::OutboxLoaded {
            entries: vec![left],
            unreadable: 0,
        },
    );
    assert_eq!(app.ui.mode, Mode::Outbox { cursor: 0 });
    typed(&mut app, "d");
    let warning = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(
        !warning.contains("recorded nowhere") && warning.contains("comment 9001 of an earlier attempt"),
        "the drop warning: {warning:?}"
    );
}
