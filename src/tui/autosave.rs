//! Drafts written without being asked: a moment after typing stops, and
//! when the process is told to end (SIGHUP from a dropped SSH session,
//! SIGTERM, SIGINT or SIGQUIT from another process). Pure like `update`: the runtime's timer and signal watcher
//! deliver [`Msg::DraftIdle`](super::update::Msg::DraftIdle) and
//! [`Msg::Terminate`](super::update::Msg::Terminate); nothing here reads a
//! clock.
//!
//! Every change of the open composer's text or status bumps
//! `Decisions::edits` and asks for a [`Effect::DraftTimer`] of that
//! generation; when it fires and no later edit came, the draft is saved.
//! A `kill -9` therefore loses at most the last [`IDLE`] of typing.

use super::app::App;
use super::effect::Effect;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::time::Duration;

/// Quiet time after the last edit before the draft is written.
pub const IDLE: Duration = Duration::from_millis(700);

/// A digest of what the open composer would save (`None`: no composer).
pub fn mark(app: &App) -> Option<u64> {
    let c = app.decide.composer.as_ref()?;
    let mut h = DefaultHasher::new();
    c.targets.hash(&mut h);
    c.choice.map(|ch| ch.name()).hash(&mut h);
    c.editor.lines().hash(&mut h);
    Some(h.finish())
}

/// What the autosave compares before and after a message: the open
/// composer's digest and the thread reply's.
pub fn marks(app: &App) -> (Option<u64>, u64) {
    (mark(app), super::reply_draft::mark(app))
}

/// After a message: when the open composer's content or the thread reply
/// changed since `before`, a new edit generation and its timer (opening a
/// composer is not an edit).
pub fn after(app: &mut App, before: (Option<u64>, u64)) -> Option<Effect> {
    let (composer, reply) = before;
    let now = mark(app);
    let composer_edited = composer.is_some() && now.is_some() && now != composer;
    if !composer_edited && super::reply_draft::mark(app) == reply {
        return None;
    }
    app.decide.edits += 1;
    Some(Effect::DraftTimer {
        generation: app.decide.edits,
    })
}

/// The timer of `generation` fired: saves the open draft if nothing was
/// typed since.
pub fn idle(app: &mut App, generation: u64) -> Vec<Effect> {
    if generation != app.decide.edits {
        return Vec::new();
    }
    let mut effects = super::reply_draft::save(app);
    if let Some(mut c) = app.decide.composer.take() {
        effects.extend(super::drafts::save(app, &mut c));
        app.decide.composer = Some(c);
    }
    effects
}

/// The process was told to end: saves the thread reply, the open composer
/// and every draft put aside, then quits (the runtime restores the terminal on the way out).
pub fn terminate(app: &mut App) -> Vec<Effect> {
    let mut effects = super::reply_draft::save(app);
    if let Some(mut c) = app.decide.composer.take() {
        effects.extend(super::drafts::save(app, &mut c));
        app.decide.composer = Some(c);
    }
    let keys: Vec<Vec<usize>> = app.decide.drafts.keys().cloned().collect();
    for key in keys {
        if let Some(mut c) = app.decide.drafts.remove(&key) {
            effects.extend(super::drafts::save(app, &mut c));
            app.decide.drafts.insert(key, c);
        }
    }
    app.ui.quit = true;
    effects
}
