//! After `R`, the screen shows no decision as recorded that GitHub no
//! longer holds for the head on screen, and the outbox overlay opened
//! before the refresh acts on the findings of the new result.

#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use triage::model::ledger::{Ledger, LedgerScope, LedgerState};
#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/screen.rs"]
mod screen;
use screen::keys;
use triage::tui::app::{App, Document, SubmitState};
use triage::tui::live::RefreshOutcome;
use triage::tui::message::Receipt;
use triage::tui::recorded::LedgerView;
use triage::tui::update::{Msg, SubmitOutcome, update};

fn empty_ledger(head: &str) -> Ledger {
    Ledger {
        scope: LedgerScope {
            repository: "acme/webhooks".into(),
            pull_request: 42,
            head: head.into(),
        },
        pull_url: "https://github.com/acme/webhooks/pull/42".into(),
        entries: Vec::new(),
    }
}

/// Loads the (empty) ledger, then decides finding 0 and GitHub records it.
fn recorded_app() -> (App, usize) {
    let mut app = fixture::app(fixture::sample_set(), (160, 40));
    let effects = triage::tui::recorded::load(&mut app);
    let Some(triage::tui::effect::Effect::LoadLedger { generation, .. }) = effects.first() else {
        panic!("{effects:?}")
    };
    let state = LedgerState::Known(empty_ledger(fixture::SHA));
    update(
        &mut app,
        Msg::LedgerLoaded {
            generation: *generation,
            state,
        },
    );
    keys(&mut app, "d");
    update(&mut app, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text("");
    }
    update(&mut app, Msg::Paste("Verified on the head.".into()));
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    update(&mut app, Msg::Actor(Ok("octo-reviewer".into())));
    keys(&mut app, "y");
    let (finding, generation) = (0..app.submit.len())
        .find_map(|i| match app.submit[i] {
            SubmitState::Pending { generation } => Some((i, generation)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("nothing pending"));
    let receipt = Receipt {
        summary: "fixed recorded by octo-reviewer".into(),
        link: Some("https://github.com/acme/webhooks/pull/42#issuecomment-99".into()),
        shown_as: Some("fixed"),
        suppressed: false,
    };
    update(
        &mut app,
        Msg::SubmitFinished {
            finding,
            generation,
            outcome: SubmitOutcome::Recorded(receipt),
        },
    );
    assert!(matches!(app.submit[finding], SubmitState::Recorded(_)));
    assert!(triage::tui::progress::decided(&app, finding));
    (app, finding)
}

/// Delivers a refresh outcome `Loaded` with `set`, then the ledger re-read
/// (as GitHub now holds it: `ledger`).
fn refresh_with(app: &mut App, set: triage::model::review::ReviewSet, ledger: Ledger) {
    app.live.pr = true;
    app.live.refreshing = Some(900);
    let doc = Document::new(app.doc.source.clone(), app.doc.format, Some(set), Vec::new());
    let effects = update(
        app,
        Msg::Refreshed {
            generation: 900,
            outcome: RefreshOutcome::Loaded {
                doc: Box::new(doc),
                threads_unavailable: None,
                orphans: Vec::new(),
            },
        },
    );
    let generation = effects
        .iter()
        .find_map(|e| match e {
            triage::tui::effect::Effect::LoadLedger { generation, .. } => Some(*generation),
            _ => None,
        })
        .unwrap_or_else(|| panic!("the refresh re-reads the ledger: {effects:?}"));
    update(
        app,
        Msg::LedgerLoaded {
            generation,
            state: LedgerState::Known(ledger),
        },
    );
    assert!(matches!(app.live.ledger, LedgerView::Known(_)));
}

/// The head moved (a push) and `R` loads the new head's result: the decision
/// this session recorded was for the OLD head and authorises nothing on the
/// new one (INTEROP §4: "A disposition for an old SHA authorises nothing on
/// a new head"), yet the finding still shows ✓ recorded and counts as decided.
#[test]
fn a_decision_recorded_for_the_old_head_is_not_shown_recorded_on_the_new_head() {
    let (mut app, finding) = recorded_app();
    let mut set = app.doc.set.clone().unwrap();
    let new_head = "1".repeat(40);
    set.reviewed_sha = Some(new_head.clone());
    // GitHub: the comment exists but is for the old head (the ledger on the
    // new head classifies it Stale); here simply nothing for the new head.
    refresh_with(&mut app, set, empty_ledger(&new_head));
    assert!(
        !matches!(app.submit[finding], SubmitState::Recorded(_)),
        "after R loaded the result of a NEW head, finding {finding} still shows the old head's decision as recorded: {:?}",
        app.submit[finding]
    );
    assert!(
        !triage::tui::progress::decided(&app, finding),
        "finding {finding} counts as decided on the new head: `n` skips it and the undecided filter hides it"
    );
}

/// Same head; the decision comment was deleted on GitHub (the ledger read
/// again after `R` no longer holds it): the screen still shows it recorded.
#[test]
fn a_decision_deleted_on_github_is_not_shown_recorded_after_a_refresh() {
    let (mut app, finding) = recorded_app();
    let set = app.doc.set.clone().unwrap();
    refresh_with(&mut app, set, empty_ledger(fixture::SHA));
    assert!(
        !triage::tui::progress::decided(&app, finding),
        "GitHub holds no decision for finding {finding} after R, but the screen counts it decided ({:?})",
        app.submit[finding]
    );
    let said = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(said.contains("no longer on the pull request"), "{said}");
}

/// A decision recorded while the ledger was being read may be missing from
/// that answer without being gone: it stays recorded.
#[test]
fn a_decision_recorded_while_the_ledger_was_read_stays_recorded() {
    let mut app = fixture::app(fixture::sample_set(), (160, 40));
    let effects = triage::tui::recorded::load(&mut app);
    let Some(triage::tui::effect::Effect::LoadLedger { generation, .. }) = effects.first() else {
        panic!("{effects:?}")
    };
    let generation = *generation;
    app.submit[0] = SubmitState::Recorded(Receipt {
        summary: "fixed recorded by octo-reviewer".into(),
        link: None,
        shown_as: Some("fixed"),
        suppressed: false,
    });
    let state = LedgerState::Known(empty_ledger(fixture::SHA));
    update(&mut app, Msg::LedgerLoaded { generation, state });
    assert!(matches!(app.submit[0], SubmitState::Recorded(_)), "{:?}", app.submit[0]);
}

/// `R` is pressed, then `O` (the outbox is a local read and answers before
/// GitHub does): the overlay offers a kept decision for finding F, bound to
/// F's index in the document on screen. The refresh then lands with the
/// same head's result in another order (a re-run at the same head); the
/// overlay stays open with the old index, and `r` sends the decision with
/// its outcome reported on ANOTHER finding (✓ on the wrong row, F left
/// undecided).
#[test]
fn an_outbox_entry_offered_before_a_refresh_is_sent_for_its_own_finding() {
    use triage::github::draft::Draft;
    use triage::model::finding::SubmittedDisposition;
    use triage::outbox::Entry;
    let mut app = fixture::app(fixture::sample_set(), (160, 40));
    app.live.pr = true;
    keys(&mut app, "R");
    let generation = app.live.refreshing.unwrap();
    let set = app.doc.set.clone().unwrap();
    let fp = set.findings[0].key.as_str().to_owned();
    let draft = Draft::for_finding(&set, &fp, SubmittedDisposition::Fixed, "Fixed by the retry rewrite.").unwrap();
    let entry = Entry::new(draft, Some("review.json".into()));
    update(
        &mut app,
        Msg::OutboxLoaded {
            entries: vec![entry],
            unreadable: 0,
        },
    );
    assert!(
        matches!(app.ui.mode, triage::tui::app::Mode::Outbox { .. }),
        "{:?}",
        app.ui.mode
    );
    let mut reordered = set.clone();
    reordered.findings.reverse();
    let doc = Document::new(app.doc.source.clone(), app.doc.format, Some(reordered), Vec::new());
    update(
        &mut app,
        Msg::Refreshed {
            generation,
            outcome: RefreshOutcome::Loaded {
                doc: Box::new(doc),
                threads_unavailable: None,
                orphans: Vec::new(),
            },
        },
    );
    let effects = keys(&mut app, "r");
    let items = effects
        .iter()
        .find_map(|e| match e {
            triage::tui::effect::Effect::Submit { items, .. } => Some(items.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("r sent nothing: {effects:?} mode {:?}", app.ui.mode));
    let now_at = app.doc.position_of(&fp).unwrap();
    let reported_on = app.doc.findings()[items[0].finding].key.as_str().to_owned();
    assert_eq!(
        items[0].finding, now_at,
        "the decision for {fp} is reported on finding {} ({reported_on}); {fp} is now finding {now_at}",
        items[0].finding
    );
}
