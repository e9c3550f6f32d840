//! Kept thread actions in the outbox overlay: this pull request's replies,
//! resolves and reopens whose last attempt failed, listed after the kept
//! decisions, to send again (`r`) or drop (`d` twice).
//!
//! What the overlay lists is what `outbox/threads/` holds: the list is read
//! from disk with the decisions (on start and with `O`) and again after
//! every thread action, never patched by guesswork. An action bound to
//! another head than the loaded one is not sent from here (GitHub would
//! refuse it and it would be dropped unseen): drop it, or act again with `t`.

use super::app::{App, Level, Mode};
use super::decision_state::KeptThread;
use super::effect::{Effect, KeptKind};
use super::offer::keep_in_rows;
use super::update::flash;
use crate::github::thread_action::ThreadRequest;
use crate::model::review::Scope;
use crate::outbox::thread_actions::ThreadEntry;
use crate::sanitize::clean_line;

/// Whether a kept thread action is bound to the loaded head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Binding {
    /// Bound to the loaded head, or to no head (kept by `triage thread` without `--head`).
    Current,
    /// Bound to another head of the pull request: (its head, the loaded one).
    OtherHead { made_for: String, loaded: String },
}

/// How `entry` stands against the loaded result.
pub fn binding(app: &App, entry: &ThreadEntry) -> Binding {
    let loaded = app.doc.set.as_ref().and_then(|s| s.reviewed_sha.as_deref());
    match (entry.request.expected_head.as_deref(), loaded) {
        (Some(made_for), Some(loaded)) if made_for != loaded => Binding::OtherHead {
            made_for: made_for.to_owned(),
            loaded: loaded.to_owned(),
        },
        _ => Binding::Current,
    }
}

/// True when the action is about the loaded result's pull request.
fn ours(app: &App, request: &ThreadRequest) -> bool {
    matches!(
        app.doc.set.as_ref().map(|s| &s.scope),
        Some(Scope::PullRequest { repository, pull_request_number })
            if request.repository == *repository && request.pull_request == *pull_request_number
    )
}

/// The kept thread actions were read from disk: keep this pull request's
/// (an open overlay keeps its place, and closes when nothing is left).
pub fn loaded(app: &mut App, entries: Vec<ThreadEntry>) {
    let ours: Vec<KeptThread> = entries
        .into_iter()
        .filter(|e| ours(app, &e.request))
        .map(|entry| KeptThread {
            finding: app.doc.position_of(&entry.request.fingerprint),
            entry,
        })
        .collect();
    app.decide.offer.threads = ours;
    if let Mode::Outbox { cursor } = app.ui.mode {
        keep_in_rows(app, cursor);
    }
}

/// Why the kept action `entry` cannot be sent from the screen now, if so.
fn retry_blocked(app: &App, entry: &ThreadEntry) -> Option<String> {
    if let Some(why) = super::thread_act::send_blocked(app) {
        return Some(why);
    }
    match binding(app, entry) {
        Binding::OtherHead { made_for, .. } => {
            let short: String = made_for.chars().take(12).collect();
            Some(format!(
                "it was made for head {}, not the loaded one: drop it (d), or act on the thread again (t)",
                clean_line(&short)
            ))
        }
        Binding::Current => None,
    }
}

/// `r` on thread row `index`: sends the kept action again (it stays on the
/// overlay until the store is read again after the outcome).
pub fn retry(app: &mut App, index: usize) -> Vec<Effect> {
    let Some(KeptThread { entry, .. }) = app.decide.offer.threads.get(index) else {
        return Vec::new();
    };
    if let Some(why) = retry_blocked(app, entry) {
        flash(app, Level::Warning, format!("Cannot retry: {why}."));
        return Vec::new();
    }
    let request = entry.request.clone();
    let generation = app.next_generation;
    app.next_generation += 1;
    flash(
        app,
        Level::Info,
        format!("Sending the kept {} again…", request.verb.name()),
    );
    app.live.thread.sending = Some((generation, request.clone()));
    vec![Effect::ThreadAction {
        generation,
        request,
        replaces: None,
    }]
}

/// True while `entry` is the thread action on its way to GitHub.
pub fn is_sending(app: &App, entry: &ThreadEntry) -> bool {
    app.live
        .thread
        .sending
        .as_ref()
        .is_some_and(|(_, request)| *request == entry.request)
}

/// `d` on thread row `index`: the first press arms, the second drops.
pub fn drop(app: &mut App, index: usize) -> Vec<Effect> {
    let Some(KeptThread { entry, .. }) = app.decide.offer.threads.get(index) else {
        return Vec::new();
    };
    let id = entry.id.clone();
    if is_sending(app, entry) {
        flash(
            app,
            Level::Warning,
            "Cannot drop it: it is being sent; wait for its outcome.",
        );
        return Vec::new();
    }
    if !super::offer::second_press(
        app,
        &id,
        "Press d again to drop this thread action for good (it is not sent).",
    ) {
        return Vec::new();
    }
    app.decide.offer.threads.remove(index);
    keep_in_rows(app, app.decide.offer.entries.len() + index);
    vec![Effect::DropOutbox {
        id,
        kind: KeptKind::ThreadAction,
    }]
}
