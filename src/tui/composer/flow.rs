//! What keys do in the composer, stage by stage (pure: called from `update`).
//!
//! Status → Evidence → Confirm (defaults to No) → sent by [`crate::tui::decide`].
//! Esc at any stage puts the composer aside as a draft; reopening on the
//! same findings restores it.

use super::choice::{Choice, System};
use super::{Composer, Stage};
use crate::sanitize::clean_line;
use crate::tui::action::Action;
use crate::tui::app::{App, Level, Mode, SubmitState};
use crate::tui::decide;
use crate::tui::decision_state::{Actor, SentDecision};
use crate::tui::effect::Effect;
use crate::tui::update::flash;
use ratatui::crossterm::event::KeyEvent;

/// `d`: opens the composer on the marked findings, else on the selected one.
pub fn open(app: &mut App) -> Vec<Effect> {
    let system = decide::system_of(app);
    if let Some(why) = decide::blocked(app, system) {
        flash(app, Level::Warning, format!("Cannot decide here: {why}."));
        return Vec::new();
    }
    let targets = targets(app);
    if targets.is_empty() {
        flash(app, Level::Warning, "No finding selected.");
        return Vec::new();
    }
    if targets
        .iter()
        .any(|&i| matches!(app.submit.get(i), Some(SubmitState::Pending { .. })))
    {
        flash(
            app,
            Level::Warning,
            "A decision for this finding is being sent; wait for its outcome.",
        );
        return Vec::new();
    }
    let composer = match app.decide.drafts.remove(&targets) {
        Some(draft) => draft,
        None => from_last_sent(app, &targets).unwrap_or_else(|| Composer::new(targets, system)),
    };
    show(app, composer);
    decide::want_river_target(app)
}

/// Puts a composer on screen at the stage its content calls for.
pub fn show(app: &mut App, composer: Composer) {
    let stage = match composer.choice {
        None => Stage::Status { cursor: 0 },
        Some(_) => Stage::Evidence,
    };
    app.decide.composer = Some(composer);
    app.ui.mode = Mode::Compose(stage);
}

/// Marked findings in rank order, else the selected one.
fn targets(app: &App) -> Vec<usize> {
    let marked: Vec<usize> = app
        .doc
        .prepared
        .ranked
        .iter()
        .copied()
        .filter(|&i| app.browse.marks.get(i).copied().unwrap_or(false))
        .collect();
    if !marked.is_empty() {
        return marked;
    }
    app.selected().into_iter().collect()
}

/// A composer holding the decision last sent for one finding (to edit and send again).
fn from_last_sent(app: &App, targets: &[usize]) -> Option<Composer> {
    let [one] = targets else { return None };
    if matches!(app.submit.get(*one), Some(SubmitState::Recorded(_))) {
        return None;
    }
    let (choice, evidence, system) = match app.decide.sent.get(one)? {
        SentDecision::ReviewGate(d) => (Choice::ReviewGate(d.status), d.evidence.clone(), System::ReviewGate),
        SentDecision::River(r) => (Choice::River(r.status), r.evidence.clone(), System::River),
    };
    let mut c = Composer::new(vec![*one], system);
    c.choice = Some(choice);
    c.editor = super::editor::Editor::new(&evidence);
    Some(c)
}

/// Closes the composer, keeping what was written as a draft (in memory
/// and on disk; an emptied draft is removed from disk).
pub fn put_aside(app: &mut App) -> Vec<Effect> {
    app.ui.mode = Mode::Normal;
    let Some(mut composer) = app.decide.composer.take() else {
        return Vec::new();
    };
    let effects = crate::tui::drafts::save(app, &mut composer);
    if !composer.has_content() {
        return effects;
    }
    for &i in &composer.targets {
        if let Some(state) = app.submit.get_mut(i)
            && matches!(state, SubmitState::Idle | SubmitState::Draft)
        {
            *state = SubmitState::Draft;
        }
    }
    let n = composer.targets.len();
    app.decide.drafts.insert(composer.targets.clone(), composer);
    app.detail.key = None;
    let what = if n == 1 {
        "this finding".to_string()
    } else {
        format!("these {n} findings")
    };
    flash(app, Level::Info, format!("Draft kept: press d on {what} to continue."));
    effects
}

/// An action while the composer is on screen.
pub fn act(app: &mut App, stage: Stage, action: Action) -> Vec<Effect> {
    match (stage, action) {
        (_, Action::Back) if !matches!(stage, Stage::Confirm { .. }) => return put_aside(app),
        (Stage::Status { cursor }, Action::Accept) => pick(app, cursor),
        (Stage::Status { cursor }, movement) => move_cursor(app, cursor, movement),
        (Stage::Evidence, Action::ChangeStatus) => {
            app.ui.mode = Mode::Compose(Stage::Status {
                cursor: current_choice(app),
            })
        }
        (Stage::Evidence, Action::InsertTemplate) => insert_template(app),
        (Stage::Evidence, Action::InsertPermalink) => insert_permalink(app),
        (Stage::Evidence, Action::ExternalEditor) => {
            if let Some(c) = &app.decide.composer {
                return vec![Effect::EditEvidence { text: c.evidence() }];
            }
        }
        (Stage::Evidence, Action::Preview) => return preview(app),
        (Stage::Confirm { .. }, Action::AnswerYes | Action::ToggleAnswer)
            if super::preview::yes_blocked(app).is_some() =>
        {
            let why = super::preview::yes_blocked(app).unwrap_or_default();
            flash(app, Level::Warning, format!("Yes is unavailable: {why}."));
        }
        (Stage::Confirm { .. }, Action::AnswerYes) => return decide::confirm(app),
        (Stage::Confirm { yes: true, .. }, Action::Accept) if super::preview::yes_blocked(app).is_none() => {
            return decide::confirm(app);
        }
        (Stage::Confirm { .. }, Action::AnswerNo | Action::Back | Action::Accept) => {
            app.ui.mode = Mode::Compose(Stage::Evidence);
            flash(app, Level::Info, "Not sent. The draft is still here.");
        }
        (Stage::Confirm { .. }, Action::CycleFingerprint) if is_river(app) => {
            if let Err(why) = super::river_options::cycle_algo(app) {
                flash(app, Level::Warning, why);
            }
        }
        (Stage::Confirm { .. }, Action::CycleExpiry) if is_river(app) => super::river_options::cycle_expiry(app),
        (Stage::Confirm { scroll, yes }, Action::ToggleAnswer) => {
            app.ui.mode = Mode::Compose(Stage::Confirm { scroll, yes: !yes })
        }
        (Stage::Confirm { scroll, yes }, movement) => {
            let len = super::present::preview_lines(app).len();
            let scroll = crate::tui::nav::step(scroll, len, movement, 10);
            app.ui.mode = Mode::Compose(Stage::Confirm { scroll, yes });
        }
        _ => {}
    }
    Vec::new()
}

fn current_choice(app: &App) -> usize {
    let Some(c) = &app.decide.composer else {
        return 0;
    };
    c.system
        .choices()
        .iter()
        .position(|x| Some(*x) == c.choice)
        .unwrap_or(0)
}

fn move_cursor(app: &mut App, cursor: usize, action: Action) {
    let Some(c) = &app.decide.composer else {
        return;
    };
    let n = c.system.choices().len();
    let cursor = crate::tui::nav::step(cursor, n, action, n);
    app.ui.mode = Mode::Compose(Stage::Status { cursor });
}

fn pick(app: &mut App, cursor: usize) {
    let link = first_link(app);
    let Some(c) = app.decide.composer.as_mut() else {
        return;
    };
    let Some(choice) = c.system.choices().get(cursor).copied() else {
        return;
    };
    c.pick(choice, link.as_deref());
    c.editor.to_end();
    app.ui.mode = Mode::Compose(Stage::Evidence);
}

fn insert_template(app: &mut App) {
    let link = first_link(app);
    let Some(c) = app.decide.composer.as_mut() else {
        return;
    };
    let Some(choice) = c.choice else {
        flash(app, Level::Warning, "Choose a status first (shift-tab).");
        return;
    };
    if c.editor.is_empty() {
        c.pick(choice, link.as_deref());
    } else {
        c.editor.insert_word(&choice.template(link.as_deref()));
    }
}

/// The permalink of the first target's evidence item `n`, if it has one.
fn link(app: &App, n: usize) -> Option<String> {
    let composer = app.decide.composer.as_ref()?;
    let f = app.doc.findings().get(*composer.targets.first()?)?;
    let sha = app.doc.set.as_ref().and_then(|s| s.reviewed_sha.as_deref());
    let (path, line) = match f.evidence.get(n) {
        Some(e) => (e.path.as_str(), Some(e.line)),
        None if n == 0 => (f.path.as_deref()?, f.line),
        None => return None,
    };
    let mut text = clean_line(path);
    if let Some(sha) = sha {
        text.push('@');
        text.push_str(&clean_line(sha));
    }
    if let Some(line) = line {
        text.push_str(&format!("#L{line}"));
    }
    Some(text)
}

fn first_link(app: &App) -> Option<String> {
    link(app, 0)
}

fn insert_permalink(app: &mut App) {
    let Some(n) = app.decide.composer.as_ref().map(|c| c.next_link) else {
        return;
    };
    let (text, next) = match link(app, n) {
        Some(t) => (t, n + 1),
        None => match link(app, 0) {
            Some(t) => (t, 1),
            None => {
                flash(app, Level::Warning, "This finding has no evidence location to link.");
                return;
            }
        },
    };
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.insert_word(&text);
        c.next_link = next;
    }
}

/// Keeps the draft on disk, checks the decision and shows the preview with
/// the answer on No.
pub fn preview(app: &mut App) -> Vec<Effect> {
    let mut saved = Vec::new();
    if let Some(mut c) = app.decide.composer.take() {
        saved = crate::tui::drafts::save(app, &mut c);
        app.decide.composer = Some(c);
    }
    let checked = check_and_show(app);
    saved.into_iter().chain(checked).collect()
}

fn check_and_show(app: &mut App) -> Vec<Effect> {
    let Some((not_ready, system)) = app.decide.composer.as_ref().map(|c| (c.not_ready(), c.system)) else {
        return Vec::new();
    };
    if let Some(why) = not_ready {
        flash(app, Level::Error, format!("Not ready: {why}."));
        return Vec::new();
    }
    let text = app
        .decide
        .composer
        .as_ref()
        .map(|c| c.editor.text())
        .unwrap_or_default();
    if let Some(placeholder) = crate::model::placeholder::unfilled(&text) {
        let why = format!("Not ready: the evidence still holds the template placeholder {placeholder}; replace it.");
        flash(app, Level::Error, why);
        return Vec::new();
    }
    if let Err(why) = decide::check(app) {
        flash(app, Level::Error, why);
        return Vec::new();
    }
    if let Some(why) = decide::send_blocked(app) {
        flash(
            app,
            Level::Warning,
            format!("The draft is kept, but cannot be sent: {why}."),
        );
        return Vec::new();
    }
    app.ui.mode = Mode::Compose(Stage::Confirm { scroll: 0, yes: false });
    let github = system == System::ReviewGate;
    if github && matches!(app.decide.actor, Actor::Unknown | Actor::Unavailable(_)) {
        app.decide.actor = Actor::LookingUp;
        return vec![Effect::LookupActor];
    }
    Vec::new()
}

/// A key the editor's key table did not claim: edits the text.
pub fn key(app: &mut App, key: &KeyEvent) {
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.key(key);
    }
}

/// Pasted text goes into the editor as it is (line breaks become new lines).
pub fn paste(app: &mut App, text: &str) {
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.insert(text);
    }
}

/// The text came back from $EDITOR.
pub fn edited(app: &mut App, result: Result<String, crate::tui::message::EditError>) {
    match (result, app.decide.composer.as_mut()) {
        (Ok(text), Some(c)) => {
            let text = text.strip_suffix('\n').unwrap_or(&text).to_string();
            c.editor.set_text(&text);
            flash(app, Level::Info, "Evidence taken from the editor.");
        }
        (Ok(_), None) => flash(
            app,
            Level::Warning,
            "The composer was closed; the edited text was not used.",
        ),
        (Err(why), _) => flash(app, Level::Warning, format!("The editor's text was not used: {why}")),
    }
}

/// Keeps the editor's cursor in view (after every message).
pub fn sync(app: &mut App) {
    if !matches!(app.ui.mode, Mode::Compose(Stage::Evidence)) {
        return;
    }
    let area = super::present::editor_area(app);
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.keep_cursor_visible(area.width, area.height);
    }
}

/// True when the open composer records a River decision.
fn is_river(app: &App) -> bool {
    app.decide
        .composer
        .as_ref()
        .is_some_and(|c| matches!(c.system, super::choice::System::River))
}
