//! `update(&mut App, Msg) -> Vec<Effect>`: the only place state changes.
//!
//! No I/O, no clock, no waiting: terminal events, sizes and the outcomes of
//! effects all arrive as messages.

use super::action::Action;
use super::app::{App, Flash, Level, Mode, Pane};
use super::composer::{self, Stage};
use super::effect::Effect;
use super::filter::View;
use super::keymap::{KeyMode, KeySpec};
use super::{ask, decide, input, live, offer, overlay};
use super::{link, nav};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

pub use super::message::{Msg, SubmitOutcome};

/// Applies one message; returns the effects the runtime must run.
pub fn update(app: &mut App, msg: Msg) -> Vec<Effect> {
    let before = super::autosave::marks(app);
    let effects = match msg {
        Msg::Key(key) => on_key(app, key),
        Msg::Action(action) => act(app, action),
        Msg::Mouse(mouse) => {
            nav::mouse(app, mouse);
            Vec::new()
        }
        Msg::Paste(text) if app.ui.mode == Mode::Compose(Stage::Evidence) => {
            composer::flow::paste(app, &text);
            Vec::new()
        }
        Msg::Paste(text) => {
            input::paste_line(app, &text);
            Vec::new()
        }
        Msg::Resize(w, h) => {
            app.ui.size = (w, h);
            Vec::new()
        }
        Msg::Resumed(w, h) => {
            app.ui.size = (w, h);
            app.detail.key = None;
            Vec::new()
        }
        Msg::Notice(notice) => {
            app.ui.flash = Some(Flash {
                level: notice.level(),
                text: notice.to_string(),
            });
            Vec::new()
        }
        Msg::LinkNotOpened { url, tried } => super::opener::not_opened(app, url, &tried),
        Msg::SubmitFinished {
            finding,
            generation,
            outcome,
        } => {
            let conflict = matches!(outcome, SubmitOutcome::Conflict { .. });
            let recorded = matches!(outcome, SubmitOutcome::Recorded(_));
            decide::finished(app, finding, generation, outcome);
            if conflict {
                super::ask::offer_supersede(app, finding);
            }
            let ledger_shown = app.live.ledger != super::recorded::LedgerView::NotApplicable;
            if recorded && ledger_shown && app.decide.batch.is_none() {
                super::recorded::load(app)
            } else {
                Vec::new()
            }
        }
        Msg::Head(head) => {
            app.evidence.head = head;
            app.evidence.dirty = true;
            Vec::new()
        }
        Msg::EvidenceLoaded { finding, items } => {
            let items = match app.doc.findings().get(finding) {
                Some(f) => super::river_evidence::within_span(f, items),
                None => items,
            };
            app.evidence.local.insert(finding, items);
            app.evidence.dirty |= app.selected() == Some(finding);
            Vec::new()
        }
        Msg::EvidenceSuperseded { finding } => {
            app.evidence.requested.remove(&finding);
            Vec::new()
        }
        Msg::JobFailed { job, failure } => {
            flash(
                app,
                Level::Error,
                format!("A background task failed ({job}): {failure}"),
            );
            Vec::new()
        }
        Msg::Highlighted(block) => {
            let key = block.key();
            app.evidence.highlights.insert(block);
            app.evidence.highlighted(key);
            super::diff::highlighted(app, key);
            Vec::new()
        }
        Msg::DiffLoaded { generation, report } => {
            super::diff::loaded(app, generation, report);
            Vec::new()
        }
        Msg::DraftIdle(generation) => super::autosave::idle(app, generation),
        Msg::Terminate => super::autosave::terminate(app),
        other => background(app, other),
    };
    composer::flow::sync(app);
    let timer = super::autosave::after(app, before);
    effects.into_iter().chain(timer).chain(nav::sync(app)).collect()
}

/// Messages from the decision, outbox and refresh work.
fn background(app: &mut App, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Tick => {
            app.decide.spinner = app.decide.spinner.wrapping_add(1);
            super::search::tick(app);
        }
        Msg::Actor(result) => decide::actor(app, result),
        Msg::RiverTarget(result) => decide::river_target(app, result),
        Msg::EditedEvidence(result) => composer::flow::edited(app, result),
        Msg::OutboxLoaded { entries, unreadable } => offer::loaded(app, entries, unreadable),
        Msg::ThreadsKept(entries) => super::kept_threads::loaded(app, entries),
        Msg::Refreshed { generation, outcome } => {
            let current = app.live.refreshing == Some(generation);
            live::refreshed(app, generation, outcome);
            // The head (or the result) may have changed: read the ledger again.
            if current && app.live.ledger != super::recorded::LedgerView::NotApplicable {
                return super::recorded::load(app);
            }
        }
        Msg::Undone { finding, result } => ask::undone(app, finding, result),
        Msg::DraftsLoaded { drafts, unreadable } => return super::drafts::loaded(app, drafts, unreadable),
        Msg::ThreadActed { generation, outcome } => return super::thread_act::acted(app, generation, outcome),
        Msg::LedgerLoaded { generation, state } => super::recorded::loaded(app, generation, state),
        _ => {}
    }
    Vec::new()
}

fn on_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    if key.kind == KeyEventKind::Release {
        return Vec::new();
    }
    app.ui.flash = None;
    let mode = app.key_mode();
    let action = KeySpec::from_event(&key).and_then(|spec| app.keymap().lookup(mode, &spec));
    match action {
        Some(action) => act(app, action),
        None if mode == KeyMode::Editor => {
            composer::flow::key(app, &key);
            Vec::new()
        }
        None => {
            let typed = match key.code {
                KeyCode::Char(c) if !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) => Some(c),
                _ => None,
            };
            if let (KeyMode::Input, Some(c)) = (mode, typed) {
                input::insert(app, c);
            }
            Vec::new()
        }
    }
}

/// Performs one action in the current mode.
pub fn act(app: &mut App, action: Action) -> Vec<Effect> {
    match (app.ui.mode, action) {
        (_, Action::Quit) => return ask::quit(app),
        (_, Action::Suspend) => return suspend(app),
        (Mode::Compose(stage), action) => return composer::flow::act(app, stage, action),
        (Mode::Outbox { cursor }, action) => return offer::act(app, cursor, action),
        (Mode::Ask(question), action) => return ask::answer(app, question, action),
        _ => {}
    }
    let taken = match app.ui.mode {
        Mode::Help(open) => overlay::help::update(app, open, action),
        Mode::Problems(open) => overlay::problems::update(app, open, action),
        Mode::Filter(menu) => overlay::filter_menu::update(app, menu, action),
        _ => None,
    };
    if let Some(effects) = taken {
        return effects;
    }
    match action {
        Action::Quit => return ask::quit(app),
        Action::Back => return back(app),
        Action::Help => overlay::help::toggle(app),
        Action::ShowProblems => overlay::problems::open(app),
        Action::Down | Action::Up | Action::PageDown | Action::PageUp | Action::Top | Action::Bottom => {
            nav::movement(app, action)
        }
        Action::FocusNext => nav::focus(app, app.ui.focus.next()),
        Action::FocusPrev => nav::focus(app, app.ui.focus.prev()),
        Action::OpenDetail => nav::focus(app, Pane::Detail),
        Action::ViewRepair => set_view(app, View::Repair),
        Action::ViewAll => set_view(app, View::All),
        Action::ViewDrift => set_view(app, View::Drift),
        Action::NextView => set_view(app, app.browse.view.next()),
        Action::CycleSort => super::sort::cycle(app),
        Action::OpenFilters => overlay::filter_menu::open(app),
        Action::ClearFilters => {
            app.browse.filters = Default::default();
            app.browse.query.clear();
            app.refilter();
        }
        Action::StartSearch => app.ui.mode = Mode::Search,
        Action::NextUndecided => super::search::next(app, true),
        Action::PrevUndecided => super::search::next(app, false),
        Action::Zoom => app.ui.zoom = !app.ui.zoom,
        Action::ShrinkList => return resize_split(app, -1),
        Action::GrowList => return resize_split(app, 1),
        Action::ToggleMark => toggle_mark(app),
        Action::MarkAllVisible => mark_all(app),
        Action::OpenInBrowser => return open_in_browser(app),
        Action::OpenInEditor => return open_in_editor(app),
        Action::CopyFingerprint => return copy_fingerprint(app),
        Action::Accept => input::accept(app),
        Action::DeleteBack => input::delete_back(app),
        Action::ClearInput => input::clear_input(app),
        Action::Decide => return composer::flow::open(app),
        Action::Retry => return decide::retry(app),
        Action::UndoDecision => ask::undo(app),
        Action::Refresh => return live::refresh(app),
        Action::Escalate => ask::escalate(app),
        Action::ShowOutbox => return offer::show(app),
        Action::ThreadActions => super::thread_act::open(app),
        Action::ShowDiff => return super::diff::open(app),
        _ => {}
    }
    Vec::new()
}

/// Shows a one-line message in the status bar until the next key.
pub fn flash(app: &mut App, level: Level, text: impl Into<String>) {
    app.ui.flash = Some(Flash {
        level,
        text: text.into(),
    });
}

fn back(app: &mut App) -> Vec<Effect> {
    match app.ui.mode {
        Mode::Normal if !app.browse.query.is_empty() => {
            app.browse.query.clear();
            app.refilter();
        }
        Mode::Normal if app.ui.focus != Pane::List => app.ui.focus = Pane::List,
        // At the top of the list Esc has nowhere to go back to; quitting is `q`'s job.
        Mode::Normal => {}
        Mode::Search => {
            app.browse.query.clear();
            app.refilter();
            app.ui.mode = Mode::Normal;
        }
        Mode::PathInput(menu) => overlay::filter_menu::leave_path(app, menu),
        Mode::ThreadReply { .. } => app.ui.mode = Mode::Normal,
        Mode::Filter(_) | Mode::Help(_) | Mode::Problems(_) => app.ui.mode = Mode::Normal,
        Mode::Diff { .. } => super::diff::close(app),
        Mode::Compose(_) | Mode::Outbox { .. } | Mode::Ask(_) => app.ui.mode = Mode::Normal,
    }
    Vec::new()
}

/// `ctrl-z`: keeps an open composer's text on disk first (a stopped job may
/// be killed from the shell), then asks the runtime to leave the terminal and
/// stop the process; [`Msg::Resumed`] reports the return.
fn suspend(app: &mut App) -> Vec<Effect> {
    let mut effects = Vec::new();
    if let Some(mut composer) = app.decide.composer.take() {
        if composer.has_content() {
            effects = super::drafts::save(app, &mut composer);
        }
        app.decide.composer = Some(composer);
    }
    effects.push(Effect::Suspend);
    effects
}

/// `<`/`>`: moves the split a tenth (leaving a zoom first, so the change
/// shows) and asks for it to be remembered; a press past the limit changes
/// nothing, so the way back is one press. A shift beyond the limit at this
/// width (remembered at another) is first brought back to the limit.
fn resize_split(app: &mut App, by: i8) -> Vec<Effect> {
    app.ui.zoom = false;
    let before = super::layout::list_share(app);
    while app.ui.split_shift != 0 {
        let shift = app.ui.split_shift;
        app.ui.split_shift -= shift.signum();
        if super::layout::list_share(app) != before {
            app.ui.split_shift = shift;
            break;
        }
    }
    app.ui.split_shift = app.ui.split_shift.saturating_add(by);
    if super::layout::list_share(app) == before {
        app.ui.split_shift -= by;
        return Vec::new();
    }
    vec![Effect::SaveSplit(app.ui.split_shift)]
}

fn set_view(app: &mut App, view: View) {
    app.browse.view = view;
    app.refilter();
}

fn toggle_mark(app: &mut App) {
    let Some(i) = app.selected() else { return };
    if let Some(m) = app.browse.marks.get_mut(i) {
        *m = !*m;
    }
    nav::movement(app, Action::Down);
}

fn mark_all(app: &mut App) {
    let visible = &app.browse.visible;
    let marks = &mut app.browse.marks;
    let all = visible.iter().all(|&i| marks.get(i).copied().unwrap_or(false));
    for &i in visible {
        if let Some(m) = marks.get_mut(i) {
            *m = !all;
        }
    }
    let n = app.mark_count();
    flash(app, Level::Info, format!("{n} marked"));
}

fn open_in_browser(app: &mut App) -> Vec<Effect> {
    let (Some(set), Some(f)) = (app.doc.set.as_ref(), app.selected_finding()) else {
        flash(app, Level::Warning, "No finding selected.");
        return Vec::new();
    };
    match link::finding_url(set, f) {
        Ok(url) => {
            flash(app, Level::Info, format!("Opening {url}"));
            vec![Effect::OpenUrl(url)]
        }
        Err(e) => {
            flash(app, Level::Warning, format!("Cannot open on GitHub: {e}."));
            Vec::new()
        }
    }
}

fn open_in_editor(app: &mut App) -> Vec<Effect> {
    let Some(f) = app.selected_finding() else {
        flash(app, Level::Warning, "No finding selected.");
        return Vec::new();
    };
    // The evidence item scrolled to in the panel (its place, not the
    // finding's); the finding's own place without evidence items.
    let items = super::river_evidence::items(f);
    let counted = app.evidence.built_for == app.selected();
    let item = counted
        .then(|| app.evidence.item_at(app.ui.evidence_scroll, items.len()))
        .flatten()
        .or_else(|| (!items.is_empty()).then_some(0))
        .and_then(|n| items.get(n));
    let (path, line) = match item {
        Some(e) => (Some(e.path.as_str()), Some(e.line)),
        None => (f.path.as_deref(), f.line),
    };
    let target = path
        .ok_or(link::LinkError::NoPath)
        .and_then(|p| link::relative_segments(p).map(|_| p));
    match target {
        Ok(path) => vec![Effect::OpenEditor {
            path: path.to_string(),
            line,
        }],
        Err(e) => {
            flash(app, Level::Warning, format!("Cannot open an editor: {e}."));
            Vec::new()
        }
    }
}

fn copy_fingerprint(app: &mut App) -> Vec<Effect> {
    let Some(f) = app.selected_finding() else {
        flash(app, Level::Warning, "No finding selected.");
        return Vec::new();
    };
    let fp = f.key.as_str().to_string();
    if let Err(why) = super::clipboard::check("fingerprint", &fp, super::clipboard::Shape::Line) {
        flash(app, Level::Warning, why);
        return Vec::new();
    }
    flash(
        app,
        Level::Info,
        format!("Copied fingerprint {}", crate::sanitize::clean_line(&fp)),
    );
    vec![Effect::Copy(fp)]
}

#[cfg(test)]
mod decide_tests;
#[cfg(test)]
mod drafts_tests;
#[cfg(test)]
mod exit_tests;
#[cfg(test)]
mod huge_tests;
#[cfg(test)]
mod kept_threads_tests;
#[cfg(test)]
mod live_tests;
#[cfg(test)]
mod progress_tests;
#[cfg(test)]
mod reply_draft_tests;
#[cfg(test)]
mod script;
#[cfg(test)]
mod send_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod thread_tests;
#[cfg(test)]
mod two_screens_tests;
