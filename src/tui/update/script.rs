//! Helpers for message scripts: keys in, state and effects out.

use super::*;
use crate::tui::app::App;
use crate::tui::effect::SubmitItem;
use crate::tui::fixture;

pub fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

pub fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

pub fn typed(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars().flat_map(|c| update(app, key(KeyCode::Char(c)))).collect()
}

pub fn sample() -> App {
    fixture::app(fixture::sample_set(), (120, 40))
}

pub fn evidence(app: &App) -> String {
    app.decide.composer.as_ref().map(|c| c.evidence()).unwrap_or_default()
}

/// Opens the composer on the selection, picks the status at `row`, and
/// replaces the template with `text`.
pub fn compose(app: &mut App, row: usize, text: &str) {
    typed(app, "d");
    for _ in 0..row {
        typed(app, "j");
    }
    update(app, key(KeyCode::Enter));
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text("");
    }
    typed(app, text);
}

/// The effects other than keeping drafts on disk (a preview saves the draft first).
pub fn without_saves(effects: Vec<Effect>) -> Vec<Effect> {
    effects
        .into_iter()
        .filter(|e| !matches!(e, Effect::SaveDraft { .. } | Effect::DraftTimer { .. }))
        .collect()
}

pub fn submitted(effects: &[Effect]) -> Vec<SubmitItem> {
    effects
        .iter()
        .flat_map(|e| match e {
            Effect::Submit { items, .. } => items.clone(),
            _ => Vec::new(),
        })
        .collect()
}

/// Opens the preview (`ctrl-s`) and answers the actor lookup it starts, as
/// the runtime does, so that Yes can be taken.
pub fn preview(app: &mut App) -> Vec<Effect> {
    let effects = update(app, ctrl('s'));
    if effects.contains(&Effect::LookupActor) {
        update(app, Msg::Actor(Ok("reviewer".to_string())));
    }
    effects
}

/// A failed send that says `words` (a River write that could not find its
/// repository says exactly its reason).
pub fn failure(words: &str) -> crate::tui::message::failure::SendFailure {
    crate::tui::message::failure::SendFailure::River(crate::tui::message::failure::Shared::new(
        crate::river_store::StoreError::RepoRoot(words.into()),
    ))
}

/// The drafts a message asked to keep on disk.
pub fn saved(effects: &[Effect]) -> Vec<crate::outbox::drafts::StoredDraft> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::SaveDraft { draft } => Some(draft.clone()),
            _ => None,
        })
        .collect()
}

/// The draft files a message asked to remove.
pub fn deleted(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::DeleteDraft { id } => Some(id.clone()),
            _ => None,
        })
        .collect()
}
