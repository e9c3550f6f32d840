//! The outbox offer: decisions kept on disk for this pull request, shown on
//! start (and with `O`) to retry, drop or keep. A decision made for another
//! head of the pull request is stale: it can only be re-bound to the current
//! result after the user reads and confirms it again in the composer.
//!
//! The overlay's rows are the kept decisions, then the kept thread actions
//! ([`super::kept_threads`]); the cursor runs over both.

use super::action::Action;
use super::app::{App, Level, Mode, SubmitState};
use super::composer::Composer;
use super::composer::choice::{Choice, System};
use super::composer::editor::Editor;
use super::decide::{self, Items};
use super::decision_state::{Offer, Offered};
use super::effect::{Effect, KeptKind, SubmitItem};
use super::kept_threads;
use super::update::flash;
use crate::outbox::{Entry, Staleness};
use crate::sanitize::clean_line;

/// Effects to run once the screen is up: read the outbox when this review
/// can record decisions on GitHub.
pub fn startup(app: &App) -> Vec<Effect> {
    let github = decide::system_of(app) == System::ReviewGate;
    if github && decide::blocked(app, System::ReviewGate).is_none() {
        vec![Effect::LoadOutbox]
    } else {
        Vec::new()
    }
}

/// `O`: reads the outbox again and shows what it holds for this review.
pub fn show(app: &mut App) -> Vec<Effect> {
    if let Some(why) = decide::blocked(app, System::ReviewGate) {
        flash(app, Level::Info, format!("No outbox for this review: {why}."));
        return Vec::new();
    }
    app.decide.offer.asked = true;
    vec![Effect::LoadOutbox]
}

/// The outbox was read: keeps the entries about this pull request and offers them.
pub fn loaded(app: &mut App, entries: Vec<Entry>, unreadable: usize) {
    let Some(set) = app.doc.set.as_ref() else {
        return;
    };
    let mut offered: Vec<Offered> = entries
        .into_iter()
        .filter_map(|entry| {
            let staleness = entry.staleness(set);
            (staleness != Staleness::Unrelated).then_some((entry, staleness))
        })
        .map(|(entry, staleness)| Offered {
            finding: app.doc.position_of(&entry.draft.fingerprint),
            entry,
            staleness,
        })
        .collect();
    offered.sort_by(|a, b| {
        let stale = |o: &Offered| o.staleness != Staleness::Current;
        (stale(a), &a.entry.created_at).cmp(&(stale(b), &b.entry.created_at))
    });
    let asked = std::mem::take(&mut app.decide.offer.asked);
    let threads = std::mem::take(&mut app.decide.offer.threads);
    if unreadable > 0 {
        flash(
            app,
            Level::Warning,
            format!("{unreadable} outbox file(s) could not be read; see `triage outbox list`."),
        );
    }
    app.decide.offer = Offer {
        entries: offered,
        threads,
        armed_drop: None,
        asked: false,
    };
    if app.decide.offer.rows() == 0 {
        if asked {
            flash(
                app,
                Level::Info,
                "The outbox holds no decision and no thread action for this pull request.",
            );
        }
        return;
    }
    if matches!(app.ui.mode, Mode::Normal | Mode::Outbox { .. }) {
        app.ui.mode = Mode::Outbox { cursor: 0 };
    }
}

/// Joins the offered entries with the findings again after they were
/// replaced (a refresh): each row's finding is found by its fingerprint in
/// the new result, and a decision's staleness is judged against the new
/// head, so a retry from an overlay opened before the refresh reports on
/// the finding it is about and is refused when its head has gone.
pub fn rejoin(app: &mut App) {
    let Some(set) = app.doc.set.as_ref() else {
        return;
    };
    let offer = &mut app.decide.offer;
    offer.entries.retain_mut(|o| {
        o.staleness = o.entry.staleness(set);
        o.finding = app.doc.position_of(&o.entry.draft.fingerprint);
        o.staleness != Staleness::Unrelated
    });
    for kept in &mut offer.threads {
        kept.finding = app.doc.position_of(&kept.entry.request.fingerprint);
    }
    if let Mode::Outbox { cursor } = app.ui.mode {
        let rows = app.decide.offer.rows();
        app.ui.mode = if rows == 0 {
            Mode::Normal
        } else {
            Mode::Outbox {
                cursor: cursor.min(rows - 1),
            }
        };
    }
}

/// An action in the outbox overlay (rows past the decisions are thread actions).
pub fn act(app: &mut App, cursor: usize, action: Action) -> Vec<Effect> {
    let decisions = app.decide.offer.entries.len();
    let n = app.decide.offer.rows();
    if action != Action::DropEntry {
        app.decide.offer.armed_drop = None;
    }
    let thread = cursor.checked_sub(decisions);
    match (action, thread) {
        (Action::Back | Action::Accept, _) => app.ui.mode = Mode::Normal,
        (Action::RetryEntry, Some(index)) => return kept_threads::retry(app, index),
        (Action::DropEntry, Some(index)) => return kept_threads::drop(app, index),
        (Action::RebindEntry, Some(_)) => flash(
            app,
            Level::Info,
            "A thread action is not re-bound: drop it (d), or act on the thread again (t).",
        ),
        (Action::RetryEntry, None) => return retry(app, cursor),
        (Action::DropEntry, None) => return drop(app, cursor),
        (Action::RebindEntry, None) => return rebind(app, cursor),
        (movement, _) => {
            let cursor = super::nav::step(cursor, n, movement, 10);
            app.ui.mode = Mode::Outbox { cursor };
        }
    }
    Vec::new()
}

/// Takes entry `cursor` off the overlay (closing it when empty).
fn take(app: &mut App, cursor: usize) -> Option<Offered> {
    if cursor >= app.decide.offer.entries.len() {
        return None;
    }
    let taken = app.decide.offer.entries.remove(cursor);
    keep_in_rows(app, cursor);
    Some(taken)
}

/// The overlay on row `cursor`, or its last row, or closed when it has none.
pub fn keep_in_rows(app: &mut App, cursor: usize) {
    app.ui.mode = match app.decide.offer.rows() {
        0 => Mode::Normal,
        n => Mode::Outbox {
            cursor: cursor.min(n - 1),
        },
    };
}

fn retry(app: &mut App, cursor: usize) -> Vec<Effect> {
    let Some(o) = app.decide.offer.entries.get(cursor) else {
        return Vec::new();
    };
    let why = match (&o.staleness, o.finding) {
        (Staleness::OtherHead { .. }, _) => Some("it was made for another head: b re-binds it to this result".into()),
        (_, None) => Some("its finding is not in the loaded result".into()),
        (_, Some(i)) if matches!(app.submit.get(i), Some(SubmitState::Pending { .. })) => {
            Some("a decision for its finding is being sent".into())
        }
        _ => decide::send_blocked(app),
    };
    if let Some(why) = why {
        flash(app, Level::Warning, format!("Cannot retry: {why}."));
        return Vec::new();
    }
    let Some(o) = take(app, cursor) else {
        return Vec::new();
    };
    let Some(finding) = o.finding else {
        return Vec::new();
    };
    let item = SubmitItem {
        finding,
        draft: o.entry.draft,
        replaces: None,
        supersede: false,
    };
    let mode = app.ui.mode;
    let effects = decide::send(app, Items::ReviewGate(vec![item]));
    app.ui.mode = mode;
    effects
}

fn drop(app: &mut App, cursor: usize) -> Vec<Effect> {
    let Some(entry) = app.decide.offer.entries.get(cursor).map(|o| &o.entry) else {
        return Vec::new();
    };
    let (id, warning) = (entry.id.clone(), drop_warning(entry));
    if !second_press(app, &id, &warning) {
        return Vec::new();
    }
    take(app, cursor);
    vec![Effect::DropOutbox {
        id,
        kind: KeptKind::Decision,
    }]
}

/// A drop press on entry `id`: true when it is the second in a row (the
/// drop goes ahead), else the press arms it and `warning` says so.
/// What dropping a kept decision leaves behind, said before the second press.
fn drop_warning(entry: &Entry) -> String {
    let (deletes, posted) = entry.left_on_pull_request();
    let mut left: Vec<String> = deletes
        .iter()
        .map(|c| format!("comment {c} may still be on the pull request (its clean-up delete never finished)"))
        .collect();
    if let Some(c) = posted {
        left.push(format!(
            "comment {c} of an earlier attempt may be on the pull request, and ReviewGate applies it"
        ));
    }
    if left.is_empty() {
        return "Press d again to drop this decision for good (it is recorded nowhere).".to_owned();
    }
    format!(
        "Press d again to drop this decision from the outbox: {}; delete it on GitHub to withdraw the decision.",
        left.join("; ")
    )
}

/// True on the second drop press for `id`; the first shows `warning`.
pub fn second_press(app: &mut App, id: &str, warning: &str) -> bool {
    if app.decide.offer.armed_drop.as_deref() == Some(id) {
        app.decide.offer.armed_drop = None;
        return true;
    }
    app.decide.offer.armed_drop = Some(id.to_owned());
    flash(app, Level::Warning, warning);
    false
}

fn rebind(app: &mut App, cursor: usize) -> Vec<Effect> {
    let Some(o) = app.decide.offer.entries.get(cursor) else {
        return Vec::new();
    };
    let Staleness::OtherHead { draft_sha, current_sha } = &o.staleness else {
        flash(
            app,
            Level::Info,
            "This decision is for the loaded head already: r sends it.",
        );
        return Vec::new();
    };
    let short = |s: &str| clean_line(&s.chars().take(12).collect::<String>());
    let note = format!(
        "Re-binding a decision made for head {} to the current head {}: read it again, then confirm.",
        short(draft_sha),
        short(current_sha)
    );
    let bound = app.doc.set.as_ref().map(|set| o.entry.rebind(set));
    let draft = match bound {
        Some(Ok(draft)) => draft,
        Some(Err(problems)) => {
            let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
            flash(
                app,
                Level::Warning,
                format!("Cannot re-bind: {}", clean_line(&text.join("; "))),
            );
            return Vec::new();
        }
        None => return Vec::new(),
    };
    let (Some(finding), id) = (o.finding, o.entry.id.clone()) else {
        return Vec::new();
    };
    let mut composer = Composer::new(vec![finding], System::ReviewGate);
    composer.choice = Some(Choice::ReviewGate(draft.status));
    composer.editor = Editor::new(&draft.evidence);
    composer.replaces = Some(id);
    composer.note = Some(note);
    take(app, cursor);
    super::composer::flow::show(app, composer);
    super::composer::flow::preview(app)
}
