//! Composer drafts on disk (pure: the runtime reads and writes the files).
//!
//! A draft is saved when the composer is left (Esc, quit) and on every
//! preview, removed once its decision is confirmed or it is emptied, and
//! restored when the same review is opened again. A draft written for
//! another head of the pull request comes back marked stale: the composer
//! says so, and it stays stored under that head until the user confirms it
//! against the loaded result.
//!
//! Two screens on one review never write each other's files: the one that
//! could not claim the review keeps its drafts under ids of its own
//! ([`screen_id`]) and removes no file but its own (and, once a decision
//! is confirmed, every file of that decision). When the review is opened
//! again, drafts of the same findings are joined into one, newest first,
//! so no text typed in either is lost.

use super::app::{App, Level, SubmitState};
use super::composer::Composer;
use super::composer::choice::System;
use super::composer::editor::Editor;
use super::decide;
use super::effect::Effect;
use super::update::flash;
use crate::model::review::Scope;
use crate::outbox::drafts::{DraftKind, DraftOrigin, StoredDraft, draft_id, screen_id};
use crate::sanitize::clean_line;

/// Where this review's drafts belong: its pull request, else its result
/// file; `None` when nothing can be decided here (demo, invalid, stdin).
pub fn origin(app: &App) -> Option<DraftOrigin> {
    decide::blocked(app, decide::system_of(app)).is_none().then_some(())?;
    match &app.doc.set.as_ref()?.scope {
        Scope::PullRequest {
            repository,
            pull_request_number,
        } => Some(DraftOrigin::PullRequest {
            repository: repository.clone(),
            pull_request: *pull_request_number,
            api: app.decide.api.clone(),
        }),
        Scope::Local => app.decide.result_path.clone().map(|path| DraftOrigin::File { path }),
    }
}

/// The name of this screen's own draft files, when another screen holds
/// the review (see [`crate::tui::decision_state::Decisions::open_elsewhere`]).
pub fn screen(app: &App) -> Option<&str> {
    app.decide.open_elsewhere.as_deref()
}

/// True when this screen holds its review (no other screen had it open).
fn holds_review(app: &App) -> bool {
    app.decide.open_elsewhere.is_none()
}

/// The effect that reads the kept drafts once the screen is up.
pub fn startup(app: &App) -> Vec<Effect> {
    origin(app).map(|_| Effect::LoadDrafts).into_iter().collect()
}

fn loaded_sha(app: &App) -> Option<String> {
    app.doc.set.as_ref().and_then(|s| s.reviewed_sha.clone())
}

fn fingerprints(app: &App, c: &Composer) -> Option<Vec<String>> {
    c.targets
        .iter()
        .map(|&i| app.doc.findings().get(i).map(|f| f.key.as_str().to_string()))
        .collect()
}

/// The draft file `c` is kept in, as it is now.
fn stored(app: &App, c: &Composer) -> Option<StoredDraft> {
    let origin = origin(app)?;
    let fingerprints = fingerprints(app, c)?;
    let reviewed_sha = c.stale_sha.clone().or_else(|| loaded_sha(app));
    Some(StoredDraft {
        id: screen_id(draft_id(&origin, reviewed_sha.as_deref(), &fingerprints), screen(app)),
        kind: DraftKind::Decision,
        origin,
        reviewed_sha,
        fingerprints,
        status: c.choice.map(|ch| ch.name().to_string()),
        evidence: c.evidence(),
        updated_at: None,
    })
}

/// Keeps `c` on disk (an emptied draft is removed instead). Records the id
/// in `c`; the files it was kept in before (when that differs) are removed
/// by a screen that holds the review, and otherwise remembered in `c`.
pub fn save(app: &App, c: &mut Composer) -> Vec<Effect> {
    let Some(draft) = stored(app, c) else {
        return Vec::new();
    };
    if !c.has_content() {
        return forget(app, c);
    }
    let old = c.saved_as.replace(draft.id.clone());
    c.also_in.extend(old.filter(|o| *o != draft.id));
    c.also_in.retain(|o| *o != draft.id);
    let mut effects = vec![Effect::SaveDraft { draft }];
    if holds_review(app) {
        effects.extend(c.also_in.drain(..).map(|id| Effect::DeleteDraft { id }));
    }
    effects
}

/// Removes the files `c` is or was kept in (emptied): every one, by a
/// screen that holds the review; else only this screen's own.
pub fn forget(app: &App, c: &mut Composer) -> Vec<Effect> {
    let mut ids = kept_ids(app, c);
    if !holds_review(app) {
        let own = stored(app, c).map(|d| d.id);
        ids.retain(|id| Some(id) == own.as_ref());
    }
    ids.into_iter().map(|id| Effect::DeleteDraft { id }).collect()
}

/// Every file `c` is or was kept in (taken out of `c`). A confirmed
/// decision hands these to its send, which removes them once it is kept.
pub fn kept_ids(app: &App, c: &mut Composer) -> Vec<String> {
    let mut ids: Vec<String> = c.saved_as.take().into_iter().chain(c.also_in.drain(..)).collect();
    if let Some(d) = stored(app, c)
        && !ids.contains(&d.id)
    {
        ids.push(d.id);
    }
    ids
}

/// `text` with `other` joined below it, unless one already holds the other
/// (a draft and its later, longer version): the longer one then.
pub fn joined(text: &str, other: &str, separator: &str) -> String {
    let (a, b) = (text.trim(), other.trim());
    if a.contains(b) {
        text.to_owned()
    } else if b.contains(a) {
        other.to_owned()
    } else {
        format!("{}{separator}{}", text.trim_end(), other.trim_start())
    }
}

/// The line between the texts of drafts of the same findings (kept by two
/// screens, or written for two heads).
const JOINED: &str = "\n\n-- another kept draft of this finding --\n";

/// A composer for a kept draft, when every finding is in the loaded result.
fn restore_one(app: &App, system: System, d: StoredDraft) -> Option<Composer> {
    let targets: Vec<usize> = d
        .fingerprints
        .iter()
        .map(|fp| app.doc.position_of(fp))
        .collect::<Option<_>>()?;
    if targets.is_empty() {
        return None;
    }
    let mut c = Composer::new(targets, system);
    c.choice = system
        .choices()
        .into_iter()
        .find(|ch| Some(ch.name()) == d.status.as_deref());
    c.editor = Editor::new(&d.evidence);
    c.saved_as = Some(d.id);
    if d.reviewed_sha != loaded_sha(app) {
        let short = |s: Option<&str>| clean_line(&s.unwrap_or("none").chars().take(12).collect::<String>());
        c.note = Some(format!(
            "Stale draft: written for head {}, this result is for head {}. Read it again, then confirm.",
            short(d.reviewed_sha.as_deref()),
            short(loaded_sha(app).as_deref())
        ));
        c.stale_sha = d.reviewed_sha.or(Some(String::new()));
    }
    Some(c)
}

/// The kept drafts were read: restores the ones about this review. Drafts
/// of the same findings (kept by two screens) are joined into one, newest
/// first; a screen that holds the review keeps the joined text at once and
/// removes the other files.
pub fn loaded(app: &mut App, mut drafts: Vec<StoredDraft>, unreadable: usize) -> Vec<Effect> {
    let Some(origin) = origin(app) else { return Vec::new() };
    let system = decide::system_of(app);
    // Newest first: the base a later draft of the same findings joins.
    drafts.sort_by(|a, b| b.updated_at.cmp(&a.updated_at));
    let (replies, decisions): (Vec<StoredDraft>, Vec<StoredDraft>) = drafts
        .into_iter()
        .filter(|d| d.origin == origin)
        .partition(|d| d.kind == DraftKind::ThreadReply);
    let (reply, mut missing, mut effects) = super::reply_draft::restore(app, replies);
    let (mut restored, mut twice) = (Vec::new(), 0);
    for d in decisions {
        let Some(c) = restore_one(app, system, d) else {
            missing += 1;
            continue;
        };
        let open = app.decide.composer.as_ref().map(|o| &o.targets);
        if open == Some(&c.targets) {
            continue;
        }
        if let Some(base) = app.decide.drafts.get_mut(&c.targets) {
            // A draft made here meanwhile is never changed; only drafts
            // restored now (kept by two screens) are joined.
            if !restored.contains(&c.targets) {
                continue;
            }
            let text = joined(&base.evidence(), &c.evidence(), JOINED);
            base.editor = Editor::new(&text);
            base.also_in.extend(c.saved_as);
            twice += 1;
            continue;
        }
        for &i in &c.targets {
            if let Some(s) = app.submit.get_mut(i)
                && *s == SubmitState::Idle
            {
                *s = SubmitState::Draft;
            }
        }
        restored.push(c.targets.clone());
        app.decide.drafts.insert(c.targets.clone(), c);
    }
    if holds_review(app) {
        for targets in &restored {
            if let Some(mut c) = app.decide.drafts.remove(targets) {
                if !c.also_in.is_empty() {
                    effects.extend(save(app, &mut c));
                }
                app.decide.drafts.insert(targets.clone(), c);
            }
        }
    }
    app.detail.key = None;
    let mut parts: Vec<String> = reply.into_iter().collect();
    if !restored.is_empty() {
        parts.push(format!(
            "Restored {} draft(s) from disk (press d to continue).",
            restored.len()
        ));
    }
    if twice > 0 {
        parts.push(format!(
            "{twice} more draft(s) of the same findings (from another screen or another head) were joined into theirs; read them before confirming."
        ));
    }
    if missing > 0 {
        parts.push(format!("{missing} kept draft(s) are for findings not in this result."));
    }
    if unreadable > 0 {
        parts.push(format!("{unreadable} draft file(s) could not be read."));
    }
    if !parts.is_empty() {
        let level = if missing + unreadable + twice > 0 {
            Level::Warning
        } else {
            Level::Info
        };
        flash(app, level, parts.join(" "));
    }
    effects
}
