//! Acting on a finding's GitHub review thread from the screen: `t` offers
//! reply, resolve and reopen; on a `resolved_externally` finding it offers
//! the two honest remedies instead (reopen the thread, or record a decision).
//! Every action is confirmed first, and the confirmation defaults to No
//! (Enter and Esc cancel; only `y` sends).
//!
//! The action goes to the runner as [`Effect::ThreadAction`]: it is kept on
//! disk (`outbox/threads/`) before the first request, the thread is found by
//! fingerprint in GitHub's own thread list, and a reply is looked for by its
//! body before it is posted, so trying again after a failure never posts it
//! twice. The action is bound to the shown result's head.

use super::action::Action;
use super::app::{App, Level, Mode};
use super::decision_state::Question;
use super::effect::Effect;
pub use super::message::ThreadActed;
use super::update::flash;
use crate::github::thread_action::{MAX_REPLY_BYTES, ThreadOutcome, ThreadRequest, ThreadVerb};
use crate::model::finding::{ThreadStatus, ThreadTransition};
use crate::model::review::Scope;
use crate::sanitize::clean_line;
use std::collections::BTreeMap;

/// The thread action being composed, confirmed or sent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ThreadUi {
    /// The replies typed, one per thread, by the fingerprint of the finding
    /// whose reply input they were typed in (one line each; kept until
    /// sent, so Esc and `t r` resume them, and on disk:
    /// [`super::reply_draft`]). Words typed for one thread never show up
    /// in another's input.
    pub replies: BTreeMap<String, String>,
    /// The replies as last written to disk, by fingerprint (what
    /// [`super::reply_draft::save`] compares with to write only changes).
    pub replies_saved: BTreeMap<String, String>,
    /// The action waiting for its confirmation.
    pub pending: Option<ThreadRequest>,
    /// The action being sent, if one is: (its generation, the action).
    pub sending: Option<(u64, ThreadRequest)>,
    /// The reply whose last attempt failed and is kept in the outbox: a
    /// reply sent next on the same thread rewrites it and replaces it.
    /// (Not set from the outbox: an earlier session's kept reply is not
    /// taken as one a new reply rewrites; the user has not seen its words
    /// here, so it is never dropped unseen. The outbox overlay lists it.)
    pub kept: Option<ThreadRequest>,
}

/// `t`: the thread menu (or the remedies offer) for the selected finding.
pub fn open(app: &mut App) {
    let Some(finding) = app.selected() else {
        flash(app, Level::Warning, "No finding selected.");
        return;
    };
    if let Err(why) = target(app, finding) {
        flash(app, Level::Warning, format!("No thread action: {why}."));
        return;
    }
    let transition = thread_of(app, finding).map(|t| t.1);
    app.ui.mode = if transition == Some(ThreadTransition::ResolvedExternally) {
        Mode::Ask(Question::ThreadRemedies { finding })
    } else {
        Mode::Ask(Question::ThreadMenu { finding })
    };
}

/// The thread's status and transition, for a ReviewGate finding.
fn thread_of(app: &App, finding: usize) -> Option<(ThreadStatus, ThreadTransition)> {
    let rg = app.doc.findings().get(finding)?.reviewgate()?;
    Some((rg.thread.status, rg.thread.transition))
}

/// Why no thread action may be sent now, whatever its thread: a
/// read-only result, an action on its way, a head that moved on.
pub fn send_blocked(app: &App) -> Option<String> {
    if let Some(why) = app.doc.read_only_reason() {
        return Some(why.to_owned());
    }
    if app.live.thread.sending.is_some() {
        return Some("a thread action is being sent; wait for its outcome".into());
    }
    let head = app.live.stale_head.as_ref()?;
    let short: String = head.chars().take(12).collect();
    Some(format!(
        "the head moved to {}; load the current result (R)",
        clean_line(&short)
    ))
}

/// The repository, pull request and fingerprint an action on `finding` targets.
fn target(app: &App, finding: usize) -> Result<(String, u64, String, Option<String>), String> {
    if let Some(why) = send_blocked(app) {
        return Err(why);
    }
    let set = app.doc.set.as_ref().ok_or("no review is loaded")?;
    let Scope::PullRequest {
        repository,
        pull_request_number,
    } = &set.scope
    else {
        return Err("this result is not about a pull request".into());
    };
    match thread_of(app, finding) {
        None => return Err("River findings have no GitHub thread".into()),
        Some((ThreadStatus::NotPublished, _)) => return Err("ReviewGate posted no thread for this finding".into()),
        Some(_) => {}
    }
    let fingerprint = app.doc.findings()[finding].key.as_str().to_owned();
    Ok((
        repository.clone(),
        *pull_request_number,
        fingerprint,
        set.reviewed_sha.clone(),
    ))
}

/// An answer to a thread question.
pub fn answer(app: &mut App, q: Question, action: Action) -> Vec<Effect> {
    match (q, action) {
        (Question::ThreadMenu { finding }, Action::ThreadReply) => app.ui.mode = Mode::ThreadReply { finding },
        (Question::ThreadMenu { finding }, Action::ThreadResolve) => ask_confirm(app, finding, ThreadVerb::Resolve),
        (Question::ThreadMenu { finding } | Question::ThreadRemedies { finding }, Action::ThreadReopen) => {
            ask_confirm(app, finding, ThreadVerb::Unresolve);
        }
        (Question::ThreadRemedies { .. }, Action::ThreadDecide) => {
            app.ui.mode = Mode::Normal;
            return super::composer::flow::open(app);
        }
        (Question::ThreadConfirm { .. }, Action::AnswerYes) => return send(app),
        (_, Action::AnswerNo | Action::Back | Action::Accept) => {
            app.live.thread.pending = None;
            app.ui.mode = Mode::Normal;
        }
        _ => {}
    }
    Vec::new()
}

/// Enter in the reply input: the reply is checked and confirmed.
pub fn reply_entered(app: &mut App, finding: usize) {
    let body = reply_of(app, finding).trim().to_owned();
    if body.is_empty() {
        flash(app, Level::Warning, "The reply is empty; type it, or Esc to cancel.");
        return;
    }
    ask_confirm(app, finding, ThreadVerb::Reply { body });
}

fn ask_confirm(app: &mut App, finding: usize, verb: ThreadVerb) {
    match target(app, finding) {
        Ok((repository, pull_request, fingerprint, expected_head)) => {
            let request = ThreadRequest {
                repository,
                pull_request,
                fingerprint,
                expected_head,
                verb,
            };
            if let Err(problem) = request.check() {
                flash(app, Level::Warning, format!("Not sent: {problem}."));
                return;
            }
            app.live.thread.pending = Some(request);
            app.ui.mode = Mode::Ask(Question::ThreadConfirm { finding });
        }
        Err(why) => {
            app.ui.mode = Mode::Normal;
            flash(app, Level::Warning, format!("No thread action: {why}."));
        }
    }
}

fn send(app: &mut App) -> Vec<Effect> {
    app.ui.mode = Mode::Normal;
    let Some(request) = app.live.thread.pending.take() else {
        return Vec::new();
    };
    let generation = app.next_generation;
    app.next_generation += 1;
    flash(app, Level::Info, format!("Sending the {}…", request.verb.name()));
    let replaces = app.live.thread.kept.clone().filter(|kept| rewrites(&request, kept));
    app.live.thread.sending = Some((generation, request.clone()));
    vec![Effect::ThreadAction {
        generation,
        request,
        replaces,
    }]
}

/// True when `new` is another reply on the thread of the failed reply `kept`.
fn rewrites(new: &ThreadRequest, kept: &ThreadRequest) -> bool {
    matches!(
        (&new.verb, &kept.verb),
        (ThreadVerb::Reply { body: a }, ThreadVerb::Reply { body: b }) if a != b
    ) && new.repository == kept.repository
        && new.pull_request == kept.pull_request
        && new.fingerprint == kept.fingerprint
}

/// A thread action finished: report it; when something changed on GitHub,
/// read the threads again (with `--pr`) so the lane shows the new state.
pub fn acted(app: &mut App, generation: u64, outcome: ThreadActed) -> Vec<Effect> {
    let sent = match app.live.thread.sending.take() {
        Some((sending, sent)) if sending == generation => sent,
        other => {
            app.live.thread.sending = other;
            return Vec::new();
        }
    };
    let said = clean_line(&outcome.to_string());
    let mut forgotten = Vec::new();
    let kept_line = || format!("Thread: {said}; kept: try again (t) or run `triage thread retry`");
    // A failed reply stays kept; the next reply on its thread replaces it.
    // Once an answer came, the kept reply this one rewrote (or was) is gone.
    let (level, line, reread) = match &outcome {
        ThreadActed::Answered {
            outcome: ThreadOutcome::Done(_),
            ..
        } => {
            // The thread's typed reply is cleared only when it is what was
            // posted (a resolve, or a kept reply sent again, leaves it be).
            let typed = app.live.thread.replies.get(&sent.fingerprint).map(|t| t.trim());
            if matches!(&sent.verb, ThreadVerb::Reply { body } if Some(body.as_str()) == typed) {
                forgotten = super::reply_draft::forget(app, &sent.fingerprint);
            }
            (Level::Info, format!("Thread: {said}."), true)
        }
        ThreadActed::Answered {
            outcome: ThreadOutcome::Refused(_),
            ..
        } => (Level::Warning, format!("Thread: refused: {said}"), false),
        // The action may have landed before the failure (a lost answer):
        // the threads are read again so the screen shows what GitHub holds.
        ThreadActed::Answered {
            outcome: ThreadOutcome::Failed { .. },
            ..
        } => (Level::Warning, kept_line(), true),
        // Another process settled it: what it did is read from GitHub.
        ThreadActed::Gone => (Level::Info, format!("Thread: {said}."), true),
        ThreadActed::Busy => (
            Level::Warning,
            format!("Thread: {said}; it stays kept until that attempt ends."),
            false,
        ),
        _ => (Level::Warning, kept_line(), false),
    };
    if let ThreadActed::Answered { outcome: answer, .. } = &outcome {
        let thread = &mut app.live.thread;
        if matches!(answer, ThreadOutcome::Failed { .. }) && matches!(sent.verb, ThreadVerb::Reply { .. }) {
            thread.kept = Some(sent);
        } else if thread
            .kept
            .as_ref()
            .is_some_and(|kept| *kept == sent || rewrites(&sent, kept))
        {
            thread.kept = None;
        }
    }
    flash(app, level, line);
    if !(reread && app.live.pr) {
        return forgotten;
    }
    // The outcome stays on the status line while the threads are read.
    let note = app.ui.flash.clone();
    let effects = super::live::refresh(app);
    app.ui.flash = note;
    forgotten.into_iter().chain(effects).collect()
}

/// The text of a thread question (everything quoted is sanitised).
pub fn text(app: &App, q: Question) -> Vec<String> {
    let fp = |finding: usize| {
        app.doc
            .findings()
            .get(finding)
            .map(|f| clean_line(f.key.as_str()))
            .unwrap_or_default()
    };
    match q {
        Question::ThreadMenu { finding } => {
            let state = match thread_of(app, finding).map(|t| t.0) {
                Some(ThreadStatus::Resolved) => "resolved",
                Some(ThreadStatus::Open) => "open",
                _ => "in an unknown state",
            };
            let mut lines = vec![format!("The GitHub thread of {} is {state}.", fp(finding))];
            if !reply_of(app, finding).trim().is_empty() {
                lines.push("A reply you typed for this thread waits in its input (r resumes it).".into());
            }
            lines.push("r = reply · s = resolve · o = reopen (unresolve) · esc = cancel".into());
            lines
        }
        Question::ThreadRemedies { finding } => vec![
            format!(
                "GitHub shows the thread of {} resolved, but the finding is still open here.",
                fp(finding)
            ),
            "A resolved thread is not a fix. The two honest remedies:".into(),
            "o = reopen the thread on GitHub · d = record a decision (with evidence) · esc = cancel".into(),
        ],
        Question::ThreadConfirm { finding } => confirm_text(app, &fp(finding)),
        _ => Vec::new(),
    }
}

fn confirm_text(app: &App, fp: &str) -> Vec<String> {
    let Some(r) = &app.live.thread.pending else {
        return Vec::new();
    };
    let place = format!("{}#{}", clean_line(&r.repository), r.pull_request);
    let mut lines = match &r.verb {
        ThreadVerb::Reply { body } => {
            let shown: String = clean_line(body).chars().take(300).collect();
            vec![format!("Reply in the thread of {fp} on {place}:"), format!("  {shown}")]
        }
        ThreadVerb::Resolve => vec![format!("Resolve the thread of {fp} on {place}?")],
        ThreadVerb::Unresolve => vec![format!("Reopen (unresolve) the thread of {fp} on {place}?")],
    };
    lines.push("y = send · n / enter / esc = cancel (the default is No)".into());
    lines
}

/// The reply typed for `finding`'s thread ("" when none is).
pub fn reply_of(app: &App, finding: usize) -> &str {
    app.doc
        .findings()
        .get(finding)
        .and_then(|f| app.live.thread.replies.get(f.key.as_str()))
        .map_or("", String::as_str)
}

/// The reply being typed for `finding`'s thread, to edit.
pub fn reply_mut(app: &mut App, finding: usize) -> Option<&mut String> {
    let fingerprint = app.doc.findings().get(finding)?.key.as_str();
    Some(app.live.thread.replies.entry(fingerprint.to_owned()).or_default())
}

/// The reply input's line: the text typed so far, sanitised, with its size.
pub fn reply_line(app: &App, finding: usize) -> String {
    let text = reply_of(app, finding);
    format!("{}▏  ({}/{MAX_REPLY_BYTES} bytes)", clean_line(text), text.len())
}

/// Types into `finding`'s reply (bounded: characters past the limit are not taken).
pub fn insert(app: &mut App, finding: usize, c: char) {
    if let Some(reply) = reply_mut(app, finding)
        && reply.len() + c.len_utf8() <= MAX_REPLY_BYTES
        && !c.is_control()
    {
        reply.push(c);
    }
}
