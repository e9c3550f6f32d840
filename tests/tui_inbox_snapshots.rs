//! Snapshots of the inbox screen at 120x40: the ranked rows with every
//! state, a search, a view, the help, an unknown row's reason, the frame
//! while the first read runs, the read's notes, and the Enter / return
//! round trip that keeps the place and reads the inbox again.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use triage::github::RepoName;
use triage::github::open_prs::OpenPr;
use triage::inbox::{Inbox, ReviewState, Row};
use triage::tui::inbox::state::{InboxEffect, InboxMsg, InboxState, update};
use triage::tui::inbox::view;

fn row(number: u64, state: ReviewState, age_days: u64) -> Row {
    let pr = OpenPr {
        number,
        title: format!(
            "Change number {number} with a title long enough to be cut somewhere near the edge of the screen"
        ),
        draft: false,
        author: Some(
            if number.is_multiple_of(2) {
                "alice"
            } else {
                "bob-the-builder-of-things"
            }
            .to_owned(),
        ),
        head_sha: "a".repeat(40),
        head_ref: format!("topic-{number}"),
        base_ref: "main".to_owned(),
        created_at: String::new(),
        updated_at: String::new(),
        labels: Vec::new(),
        labels_complete: true,
        threads: Vec::new(),
        threads_complete: true,
    };
    let mut r = Row::unread(&pr, age_days * 86_400 + 3600);
    r.state = state;
    if matches!(
        state,
        ReviewState::Passed | ReviewState::NeedsChanges | ReviewState::ReviewError
    ) {
        r.score = match state {
            ReviewState::Passed => Some(5),
            ReviewState::NeedsChanges => Some(3),
            _ => None,
        };
        r.findings = Some(4);
        r.repair_set = Some(if state == ReviewState::NeedsChanges { 2 } else { 0 });
        r.undecided = Some(1);
        r.awaiting = Some(0);
    }
    r
}

fn inbox() -> Inbox {
    let mut escalated = row(21, ReviewState::NeedsChanges, 30);
    escalated.drift.resolved_externally = 2;
    escalated.drift.reopened = 1;
    let mut human = row(23, ReviewState::NeedsChanges, 20);
    human.needs_human = 1;
    let mut unknown = row(25, ReviewState::Missing, 9);
    unknown.fail("the result artifact could not be downloaded: GitHub answered 500");
    let mut hostile = row(30, ReviewState::NeedsChanges, 2);
    hostile.title = "Title with \u{1b}[31mescape\u{1b}[0m and \u{202e}bidi".to_owned();
    let mut stale = row(18, ReviewState::Stale, 40);
    stale.reason = Some("only an older head has a review run".to_owned());
    let mut rows = vec![
        escalated,
        human,
        row(10, ReviewState::ReviewError, 50),
        unknown,
        row(9, ReviewState::NeedsChanges, 60),
        hostile,
        row(1, ReviewState::Passed, 90),
        row(12, ReviewState::Running, 45),
        row(15, ReviewState::Missing, 44),
        stale,
    ];
    triage::inbox::row::rank(&mut rows);
    Inbox {
        repo: RepoName::parse("octo/app").unwrap(),
        rows,
        listed: 10,
        total_open: 10,
        rate_remaining: Some(4870),
        stats: Default::default(),
        notes: Vec::new(),
    }
}

fn loaded() -> InboxState {
    let mut state = InboxState::new("octo/app", (120, 40));
    update(&mut state, InboxMsg::Loaded(Ok(inbox())));
    state
}

fn screen(state: &InboxState) -> String {
    let mut terminal = Terminal::new(TestBackend::new(state.size.0, state.size.1)).unwrap();
    terminal.draw(|f| view::draw(f, state)).unwrap();
    terminal.backend().to_string()
}

fn key(state: &mut InboxState, code: KeyCode) -> Vec<InboxEffect> {
    update(state, InboxMsg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn type_text(state: &mut InboxState, text: &str) {
    for c in text.chars() {
        key(state, KeyCode::Char(c));
    }
}

#[test]
fn the_ranked_list() {
    let state = loaded();
    let text = screen(&state);
    assert!(!text.contains('\u{1b}') && !text.contains('\u{202e}'));
    insta::assert_snapshot!("inbox_list", text);
}

#[test]
fn an_unknown_row_shows_its_reason_when_selected() {
    let mut state = loaded();
    let at = state.visible().iter().position(|r| r.number == 25).unwrap();
    for _ in 0..at {
        key(&mut state, KeyCode::Char('j'));
    }
    assert_eq!(state.selected, Some(25));
    let text = screen(&state);
    assert!(
        text.contains("#25: the result artifact could not be downloaded"),
        "{text}"
    );
    insta::assert_snapshot!("inbox_unknown_selected", text);
}

#[test]
fn search_and_views_narrow_the_rows() {
    let mut state = loaded();
    key(&mut state, KeyCode::Char('/'));
    type_text(&mut state, "alice");
    insta::assert_snapshot!("inbox_search_typing", screen(&state));
    key(&mut state, KeyCode::Enter);
    assert!(state.visible().iter().all(|r| r.author.as_deref() == Some("alice")));
    key(&mut state, KeyCode::Esc);
    key(&mut state, KeyCode::Char('v'));
    let escalations: Vec<u64> = state.visible().iter().map(|r| r.number).collect();
    assert_eq!(escalations, vec![21, 23]);
    insta::assert_snapshot!("inbox_view_escalations", screen(&state));
}

#[test]
fn help_lists_the_keys() {
    let mut state = loaded();
    key(&mut state, KeyCode::Char('?'));
    insta::assert_snapshot!("inbox_help", screen(&state));
    key(&mut state, KeyCode::Esc);
    assert_eq!(screen(&state), screen(&loaded()));
}

#[test]
fn the_first_read_and_a_refresh() {
    let mut state = InboxState::new("octo/app", (120, 40));
    insta::assert_snapshot!("inbox_reading", screen(&state));
    update(
        &mut state,
        InboxMsg::Loaded(Err("could not reach GitHub: refused".to_owned())),
    );
    insta::assert_snapshot!("inbox_read_failed", screen(&state));
    assert_eq!(key(&mut state, KeyCode::Char('R')), vec![InboxEffect::Read]);
    assert_eq!(key(&mut state, KeyCode::Char('R')), Vec::new(), "one read at a time");
}

#[test]
fn enter_opens_the_pull_request_and_the_return_keeps_the_place() {
    let mut state = loaded();
    key(&mut state, KeyCode::Char('/'));
    type_text(&mut state, "change");
    key(&mut state, KeyCode::Enter);
    for _ in 0..3 {
        key(&mut state, KeyCode::Char('j'));
    }
    let before = screen(&state);
    let chosen = state.selected.unwrap();
    assert_eq!(key(&mut state, KeyCode::Enter), vec![InboxEffect::Open(chosen)]);
    update(&mut state, InboxMsg::Resize(120, 40));
    // Decisions may have been recorded there: the inbox is read again, and
    // the row says so until the read ends.
    assert_eq!(update(&mut state, InboxMsg::Returned(None)), vec![InboxEffect::Read]);
    let rereading = screen(&state);
    assert!(
        rereading.contains(&format!("#{chosen}: reading its row again")),
        "{rereading}"
    );
    insta::assert_snapshot!("inbox_rereading_after_return", rereading);
    assert_eq!(update(&mut state, InboxMsg::Loaded(Ok(inbox()))), Vec::new());
    assert_eq!(screen(&state), before, "the same place after the pull request's screen");
    // A pull request that could not open says why, until the next key.
    key(&mut state, KeyCode::Enter);
    update(
        &mut state,
        InboxMsg::Returned(Some(format!("#{chosen} did not open: no result for the head"))),
    );
    let failed = screen(&state);
    assert!(failed.contains("did not open: no result for the head"), "{failed}");
    insta::assert_snapshot!("inbox_open_failed", failed);
    key(&mut state, KeyCode::Char('k'));
    key(&mut state, KeyCode::Char('j'));
    assert_eq!(screen(&state), before);
    // A refresh that reorders the rows keeps the same pull request selected.
    let mut reordered = inbox();
    reordered.rows.reverse();
    update(&mut state, InboxMsg::Loaded(Ok(reordered)));
    assert_eq!(state.selected, Some(chosen));
    insta::assert_snapshot!("inbox_after_return", before);
}

#[test]
fn x_asks_for_the_escalation_packet_once_rows_are_read() {
    let mut state = InboxState::new("octo/app", (120, 40));
    assert_eq!(key(&mut state, KeyCode::Char('x')), Vec::new(), "nothing read yet");
    let mut state = loaded();
    assert_eq!(key(&mut state, KeyCode::Char('x')), vec![InboxEffect::WritePacket]);
    update(
        &mut state,
        InboxMsg::Said("escalation packet written to triage-escalations-octo-app.md (4 pull request(s))".into()),
    );
    assert!(screen(&state).contains("escalation packet written to triage-escalations-octo-app.md"));
}

#[test]
fn a_small_terminal_still_keeps_the_selection_in_sight() {
    let mut state = loaded();
    update(&mut state, InboxMsg::Resize(120, 8));
    key(&mut state, KeyCode::Char('G'));
    let text = screen(&state);
    let last = state.visible().last().unwrap().number;
    assert!(text.contains(&format!("#{last} ")), "{text}");
}

#[test]
fn coming_back_from_a_pull_request_while_a_read_runs_reads_again_after_it() {
    let mut state = loaded();
    assert_eq!(key(&mut state, KeyCode::Char('R')), vec![InboxEffect::Read]);
    assert_eq!(key(&mut state, KeyCode::Enter), vec![InboxEffect::Open(21)]);
    assert_eq!(
        update(&mut state, InboxMsg::Returned(None)),
        Vec::new(),
        "one read at a time"
    );
    assert_eq!(
        update(&mut state, InboxMsg::Loaded(Ok(inbox()))),
        vec![InboxEffect::Read],
        "the read under way began before the pull request's screen recorded anything"
    );
    assert!(screen(&state).contains("#21: reading its row again"));
    assert_eq!(update(&mut state, InboxMsg::Loaded(Ok(inbox()))), Vec::new());
    assert!(!screen(&state).contains("reading"));
}

#[test]
fn the_reads_notes_show_in_the_header() {
    let mut noted = inbox();
    noted.notes = vec![
        "a read \u{1b}[31mstopped: task 7 panicked".to_owned(),
        "1 pull request(s) GitHub listed could not be read (no number or head) and are not shown".to_owned(),
    ];
    let mut state = InboxState::new("octo/app", (120, 40));
    update(&mut state, InboxMsg::Loaded(Ok(noted)));
    let text = screen(&state);
    assert!(text.contains("notes (2): a read ␛[31mstopped"), "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");
    insta::assert_snapshot!("inbox_notes", text);
}
