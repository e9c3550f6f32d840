//! The screen with the pull request's ledger: rows, header counts and the
//! detail timeline of recorded decisions, an unreadable ledger, and the
//! question before superseding a recorded decision.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use triage::model::disposition::{DispositionPayload, comment_body, receipt_digest, status_context};
use triage::model::finding::SubmittedDisposition;
use triage::model::ledger::{
    Authorisation, CommentRecord, Ledger, LedgerScope, LedgerState, StatusRecord, classify, pick,
};
use triage::tui::app::{App, Mode, SubmitState};
use triage::tui::decision_state::Question;
use triage::tui::effect::Effect;
#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/screen.rs"]
mod screen;
use screen::{keys, screen};
use triage::model::ledger::Standing;
use triage::tui::message::failure::{ClientError, RefreshError, SendFailure};
use triage::tui::recorded::{self, LedgerView};
use triage::tui::update::{Msg, SubmitOutcome, update};

fn sample() -> App {
    fixture::app(fixture::sample_set(), (160, 40))
}

/// The ledger as the reader would classify it: finding 0 attested, finding
/// 1 by someone without write permission, finding 2 for an older head.
fn ledger_for(app: &App) -> Ledger {
    let set = app.doc.set.as_ref().unwrap_or_else(|| panic!("no set"));
    let head = set.reviewed_sha.clone().unwrap_or_default();
    let fp = |i: usize| set.findings[i].key.as_str().to_owned();
    let body = |i: usize, sha: &str, who: &str, status| {
        comment_body(&DispositionPayload::new(
            "acme/webhooks",
            42,
            sha,
            fp(i),
            status,
            "Checked on the head.",
            who,
        ))
    };
    let comments = vec![
        CommentRecord {
            id: 101,
            author: Some("octo-reviewer".into()),
            body: body(0, &head, "octo-reviewer", SubmittedDisposition::Fixed),
        },
        CommentRecord {
            id: 102,
            author: Some("drive-by".into()),
            body: body(1, &head, "drive-by", SubmittedDisposition::RejectedWithEvidence),
        },
        CommentRecord {
            id: 103,
            author: Some("octo-reviewer".into()),
            body: body(2, "0ld0ld0ld0ld", "octo-reviewer", SubmittedDisposition::Accepted),
        },
    ];
    let statuses = vec![StatusRecord {
        context: status_context(101),
        description: receipt_digest(&comments[0].body),
        creator: "octo-reviewer".into(),
        state: "success".into(),
    }];
    let scope = LedgerScope {
        repository: "acme/webhooks".into(),
        pull_request: 42,
        head,
    };
    let picked = pick(&comments);
    let auth = Authorisation {
        statuses: Ok(statuses),
        permissions: [
            ("drive-by".to_owned(), Ok(false)),
            ("octo-reviewer".to_owned(), Ok(true)),
        ]
        .into_iter()
        .collect(),
    };
    let entries = classify(&scope, &picked, &auth).unwrap_or_else(|e| panic!("{e}"));
    Ledger {
        scope,
        pull_url: "https://github.com/acme/webhooks/pull/42".into(),
        entries,
    }
}

fn loading(app: &mut App) -> u64 {
    match recorded::load(app).as_slice() {
        [Effect::LoadLedger { generation, target }] => {
            assert_eq!((target.repository.as_str(), target.pull_request), ("acme/webhooks", 42));
            *generation
        }
        other => panic!("{other:?}"),
    }
}

fn with_ledger() -> App {
    let mut app = sample();
    let generation = loading(&mut app);
    let state = LedgerState::Known(ledger_for(&app));
    update(&mut app, Msg::LedgerLoaded { generation, state });
    app
}

#[test]
fn a_stale_ledger_answer_is_dropped() {
    let mut app = sample();
    let old = loading(&mut app);
    let _new = loading(&mut app);
    let state = LedgerState::Known(ledger_for(&app));
    update(&mut app, Msg::LedgerLoaded { generation: old, state });
    assert!(matches!(app.live.ledger, LedgerView::Loading { .. }));
    let mut river = fixture::app(fixture::river_set(), (120, 40));
    assert!(recorded::load(&mut river).is_empty(), "a River result has no ledger");
}

/// Moves the cursor to finding `i`.
fn select(app: &mut App, i: usize) {
    let target = app
        .browse
        .visible
        .iter()
        .position(|&v| v == i)
        .unwrap_or_else(|| panic!("{i} not listed"));
    for _ in 0..target {
        keys(app, "j");
    }
}

#[test]
fn recorded_decisions_awaiting_the_next_review() {
    let mut app = with_ledger();
    assert_eq!(recorded::row_mark(&app, 0), Some(Standing::Awaiting));
    assert_eq!(recorded::row_mark(&app, 1), Some(Standing::Unauthorised));
    assert_eq!(recorded::row_mark(&app, 2), Some(Standing::Unauthorised));
    assert_eq!(recorded::counts(&app), (1, 2));
    keys(&mut app, "2");
    select(&mut app, 0);
    let text = screen(&app);
    assert!(text.contains("◆1 awaiting") && text.contains("◇2 unapplied"), "{text}");
    assert!(text.contains("recorded, awaiting the next"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn decisions_for_another_head_and_by_non_writers_are_explained() {
    let mut app = with_ledger();
    keys(&mut app, "2");
    select(&mut app, 1);
    let text = screen(&app);
    assert!(text.contains("not applied"), "{text}");
    assert!(text.contains("\"drive-by\" has no write permission"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn an_unreadable_ledger_is_unknown_not_empty() {
    let mut app = sample();
    let generation = loading(&mut app);
    let state = LedgerState::Unknown {
        reason: "the pull request's comments could not be read: GitHub did not answer within 10 s".into(),
    };
    update(&mut app, Msg::LedgerLoaded { generation, state });
    let text = screen(&app);
    assert!(text.contains("decisions unknown"), "{text}");
    assert!(
        text.contains("unknown: the pull request's comments could not be read"),
        "{text}"
    );
    assert!(!text.contains("nothing recorded"), "{text}");
    insta::assert_snapshot!(text);
}

/// Decides finding 0 in the composer and sends it; returns its generation.
fn decide_first(app: &mut App) -> (usize, u64) {
    keys(app, "d");
    update(app, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    // Replace the status's template (its placeholders would be refused).
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text("");
    }
    update(app, Msg::Paste("Verified on the head.".into()));
    update(app, Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)));
    // Yes waits for the GitHub login the preview looks up.
    update(app, Msg::Actor(Ok("octo-reviewer".into())));
    keys(app, "y");
    (0..app.submit.len())
        .find_map(|i| match app.submit[i] {
            SubmitState::Pending { generation } => Some((i, generation)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("nothing pending"))
}

#[test]
fn a_different_recorded_decision_is_superseded_only_when_asked() {
    let mut app = sample();
    let (finding, generation) = decide_first(&mut app);
    let reason = already_decided();
    update(
        &mut app,
        Msg::SubmitFinished {
            finding,
            generation,
            outcome: SubmitOutcome::Conflict { reason: reason.clone() },
        },
    );
    assert_eq!(app.ui.mode, Mode::Ask(Question::Supersede { finding }));
    let text = screen(&app);
    assert!(
        text.contains("Record yours over it?") && text.contains("keep it (default)"),
        "{text}"
    );
    insta::assert_snapshot!(text);

    // Enter (the default) keeps the recorded decision: nothing is sent.
    let effects = update(&mut app, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    assert!(
        effects.iter().all(|e| !matches!(e, Effect::Submit { .. })),
        "{effects:?}"
    );
    assert_eq!(app.ui.mode, Mode::Normal);

    // r asks again (on the finding: the cursor moved on to the next
    // undecided one after the confirmation); y sends the same decision,
    // superseding.
    keys(&mut app, "g");
    select(&mut app, finding);
    let effects = keys(&mut app, "r");
    let Some(Effect::Submit { items, generation, .. }) = effects.iter().find(|e| matches!(e, Effect::Submit { .. }))
    else {
        panic!("{effects:?}")
    };
    assert!(!items[0].supersede, "a plain retry does not supersede");
    let generation = *generation;
    update(
        &mut app,
        Msg::SubmitFinished {
            finding,
            generation,
            outcome: SubmitOutcome::Conflict { reason: reason.clone() },
        },
    );
    let effects = keys(&mut app, "y");
    let Some(Effect::Submit { items, .. }) = effects.iter().find(|e| matches!(e, Effect::Submit { .. })) else {
        panic!("{effects:?}")
    };
    assert!(items[0].supersede);
    assert_eq!(items[0].finding, finding);
}

#[test]
fn the_drift_lane_lists_decisions_not_applied_on_this_head() {
    let mut app = with_ledger();
    keys(&mut app, "3");
    assert!(
        app.browse.visible.contains(&1) && app.browse.visible.contains(&2),
        "{:?}",
        app.browse.visible
    );
    assert!(!app.browse.visible.contains(&0), "an applied decision is no drift");
    let text = screen(&app);
    assert!(
        text.contains("recorded decision not applied here: see detail"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn a_refresh_reads_the_ledger_again() {
    let mut app = with_ledger();
    app.live.refreshing = Some(900);
    let outcome = triage::tui::live::RefreshOutcome::Failed { reason: offline() };
    let effects = update(
        &mut app,
        Msg::Refreshed {
            generation: 900,
            outcome,
        },
    );
    assert!(
        effects.iter().any(|e| matches!(e, Effect::LoadLedger { .. })),
        "{effects:?}"
    );
    assert!(matches!(app.live.ledger, LedgerView::Loading { .. }));
    let stale = triage::tui::live::RefreshOutcome::Failed { reason: offline() };
    let effects = update(
        &mut app,
        Msg::Refreshed {
            generation: 1,
            outcome: stale,
        },
    );
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::LoadLedger { .. })),
        "a stale refresh changes nothing"
    );
}

#[test]
fn replaced_findings_keep_their_own_marks() {
    let mut app = with_ledger();
    let mut set = app.doc.set.clone().unwrap_or_else(|| panic!("no set"));
    set.findings.reverse();
    let last = set.findings.len() - 1;
    let doc = triage::tui::app::Document::new(app.doc.source.clone(), app.doc.format, Some(set), Vec::new());
    triage::tui::live::replace_document(&mut app, doc);
    assert!(
        matches!(app.live.ledger, LedgerView::Known(_)),
        "still shown until read again"
    );
    assert_eq!(
        recorded::row_mark(&app, last),
        Some(Standing::Awaiting),
        "finding 0 is now last"
    );
    assert_eq!(recorded::row_mark(&app, last - 1), Some(Standing::Unauthorised));
    assert_eq!(
        recorded::row_mark(&app, 0),
        None,
        "the finding now first has no decision"
    );
    assert_eq!(recorded::counts(&app), (1, 2));
}

/// GitHub's answer that fixed is already recorded on this head by octo-lead.
fn already_decided() -> SendFailure {
    let rejection = triage::decision::decide::Rejection::AlreadyDecided {
        comment_id: 77,
        url: "https://github.com/acme/webhooks/pull/42#issuecomment-77".into(),
        disposition: SubmittedDisposition::Fixed,
        actor: Some("octo-lead".into()),
    };
    SendFailure::Answered {
        id: "0123456789abcdef".into(),
        outcome: Box::new(triage::github::protocol::Outcome::Rejected {
            reason: rejection,
            comment_removed: false,
            comment_left: None,
        }),
        settle: None,
    }
}

/// A refresh without a GitHub token.
fn offline() -> RefreshError {
    RefreshError::NoClient(ClientError::Setup(triage::github::TokenError::Missing.into()))
}
