//! Message scripts for kept thread actions in the outbox overlay: listed
//! for this pull request only, after the decisions; sent again, dropped
//! after two presses, never sent when bound to another head, and the list
//! replaced by what the store holds after each thread action.

use super::script::*;
use super::*;
use crate::github::thread_action::{ThreadDone, ThreadOutcome, ThreadRequest, ThreadVerb};
use crate::outbox::thread_actions::ThreadEntry;
use crate::tui::effect::KeptKind;
use crate::tui::thread_act::ThreadActed;

fn request(app: &App, verb: ThreadVerb, head: Option<&str>) -> ThreadRequest {
    let set = app.doc.set.as_ref().expect("set");
    let crate::model::review::Scope::PullRequest {
        repository,
        pull_request_number,
    } = &set.scope
    else {
        panic!("the sample is a pull-request result")
    };
    ThreadRequest {
        repository: repository.clone(),
        pull_request: *pull_request_number,
        fingerprint: set.findings[0].key.as_str().to_owned(),
        expected_head: head.map(str::to_owned).or_else(|| set.reviewed_sha.clone()),
        verb,
    }
}

fn entry(request: ThreadRequest) -> ThreadEntry {
    let mut entry = ThreadEntry::new(request);
    entry.attempts = 1;
    entry.last_outcome = Some("failed: could not reach GitHub".into());
    entry
}

/// The overlay on start, holding `kept` as the only kept entries.
fn offered(kept: Vec<ThreadEntry>) -> App {
    let mut app = sample();
    update(&mut app, Msg::ThreadsKept(kept));
    update(
        &mut app,
        Msg::OutboxLoaded {
            entries: Vec::new(),
            unreadable: 0,
        },
    );
    app
}

fn thread_action(effects: &[Effect]) -> Option<(u64, ThreadRequest, Option<ThreadRequest>)> {
    effects.iter().find_map(|e| match e {
        Effect::ThreadAction {
            generation,
            request,
            replaces,
        } => Some((*generation, request.clone(), replaces.clone())),
        _ => None,
    })
}

fn flash_text(app: &App) -> String {
    app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default()
}

#[test]
fn only_this_pull_requests_thread_actions_are_offered_on_start() {
    let app = sample();
    let ours = entry(request(&app, ThreadVerb::Resolve, None));
    let mut other_repo = request(&app, ThreadVerb::Resolve, None);
    other_repo.repository = "other/repo".into();
    let mut other_pr = request(&app, ThreadVerb::Resolve, None);
    other_pr.pull_request += 1;
    let app = offered(vec![ours.clone(), entry(other_repo), entry(other_pr)]);
    assert_eq!(app.decide.offer.threads.len(), 1);
    assert_eq!(app.decide.offer.threads[0].entry, ours);
    assert_eq!(app.decide.offer.threads[0].finding, Some(0));
    assert_eq!(app.ui.mode, Mode::Outbox { cursor: 0 }, "opened on start");
    assert_eq!(app.live.thread.kept, None, "an unseen reply is never rewritten");
}

#[test]
fn nothing_kept_opens_nothing_and_o_says_so() {
    let mut app = offered(Vec::new());
    assert_eq!(app.ui.mode, Mode::Normal);
    typed(&mut app, "O");
    update(
        &mut app,
        Msg::OutboxLoaded {
            entries: Vec::new(),
            unreadable: 0,
        },
    );
    assert!(
        flash_text(&app).contains("no decision and no thread action"),
        "{}",
        flash_text(&app)
    );
}

#[test]
fn r_sends_the_kept_action_again_and_the_store_listing_replaces_the_row() {
    let app = sample();
    let kept = entry(request(
        &app,
        ThreadVerb::Reply {
            body: "Fixed in abc.".into(),
        },
        None,
    ));
    let mut app = offered(vec![kept.clone()]);
    let effects = typed(&mut app, "r");
    let (generation, sent, replaces) = thread_action(&effects).expect("sent again");
    assert_eq!(sent, kept.request, "the kept words, unchanged");
    assert_eq!(replaces, None);
    assert!(app.live.thread.sending.is_some());
    assert_eq!(
        app.ui.mode,
        Mode::Outbox { cursor: 0 },
        "the row stays while it is sent"
    );
    // A second press while it is on its way sends nothing.
    assert!(thread_action(&typed(&mut app, "r")).is_none());
    assert!(flash_text(&app).contains("being sent"), "{}", flash_text(&app));
    // The job lists the store after the outcome: done, so nothing is kept.
    update(&mut app, Msg::ThreadsKept(Vec::new()));
    update(
        &mut app,
        Msg::ThreadActed {
            generation,
            outcome: ThreadActed::Answered {
                outcome: ThreadOutcome::Done(ThreadDone::Replied {
                    already: false,
                    url: None,
                }),
                settle: None,
            },
        },
    );
    assert!(app.decide.offer.threads.is_empty());
    assert_eq!(app.ui.mode, Mode::Normal, "the overlay closes when nothing is left");
    assert!(app.live.thread.sending.is_none());
}

#[test]
fn an_action_bound_to_another_head_is_not_sent_from_the_overlay() {
    let app = sample();
    let stale = entry(request(&app, ThreadVerb::Resolve, Some(&"0".repeat(40))));
    let mut app = offered(vec![stale]);
    assert!(thread_action(&typed(&mut app, "r")).is_none());
    let said = flash_text(&app);
    assert!(said.contains("made for head 000000000000"), "{said}");
    assert!(app.live.thread.sending.is_none());
}

#[test]
fn d_drops_a_thread_action_after_two_presses_and_b_does_not_rebind_it() {
    let app = sample();
    let kept = entry(request(&app, ThreadVerb::Unresolve, None));
    let mut app = offered(vec![kept.clone()]);
    assert!(typed(&mut app, "b").is_empty());
    assert!(flash_text(&app).contains("not re-bound"), "{}", flash_text(&app));
    assert!(typed(&mut app, "d").is_empty(), "the first press only arms");
    assert_eq!(app.decide.offer.threads.len(), 1);
    let effects = typed(&mut app, "d");
    assert_eq!(
        effects,
        vec![Effect::DropOutbox {
            id: kept.id,
            kind: KeptKind::ThreadAction
        }]
    );
    assert!(app.decide.offer.threads.is_empty());
    assert_eq!(app.ui.mode, Mode::Normal);
}

#[test]
fn the_cursor_runs_over_decisions_then_thread_actions() {
    let mut app = sample();
    let set = app.doc.set.clone().expect("set");
    let fp = set.findings[0].key.as_str().to_owned();
    let draft = crate::github::draft::Draft::for_finding(
        &set,
        &fp,
        crate::model::finding::SubmittedDisposition::Fixed,
        "Fixed in the retry rewrite.",
    )
    .expect("draft");
    let decision = crate::outbox::Entry::new(draft, None);
    let kept = entry(request(&app, ThreadVerb::Resolve, None));
    update(&mut app, Msg::ThreadsKept(vec![kept.clone()]));
    update(
        &mut app,
        Msg::OutboxLoaded {
            entries: vec![decision],
            unreadable: 0,
        },
    );
    assert_eq!(app.decide.offer.threads.len(), 1, "kept across the decisions' listing");
    typed(&mut app, "j");
    assert_eq!(app.ui.mode, Mode::Outbox { cursor: 1 });
    let (_, sent, _) = thread_action(&typed(&mut app, "r")).expect("the thread row is sent");
    assert_eq!(sent, kept.request);
    // A listing with one row fewer while the overlay is open keeps the cursor in range.
    update(&mut app, Msg::ThreadsKept(Vec::new()));
    assert_eq!(app.ui.mode, Mode::Outbox { cursor: 0 });
}

/// A resolve that succeeds leaves a reply typed (and put aside) for
/// another thread: only the posted words are cleared.
#[test]
fn a_done_resolve_keeps_the_reply_typed_elsewhere() {
    let kept = entry(request(&sample(), ThreadVerb::Resolve, None));
    let mut app = offered(vec![kept]);
    let elsewhere = "defect:another.thread".to_owned();
    app.live
        .thread
        .replies
        .insert(elsewhere.clone(), "half-written answer".into());
    let (generation, _, _) = thread_action(&typed(&mut app, "r")).expect("sent");
    update(
        &mut app,
        Msg::ThreadActed {
            generation,
            outcome: ThreadActed::Answered {
                outcome: ThreadOutcome::Done(ThreadDone::Resolved { already: false }),
                settle: None,
            },
        },
    );
    assert_eq!(
        app.live.thread.replies.get(&elsewhere).map(String::as_str),
        Some("half-written answer")
    );
}
