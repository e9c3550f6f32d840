//! Questions with one-key answers: quitting while drafts exist only on the
//! screen, where an escalation packet goes, and revoking a River suppression.

use super::action::Action;
use super::app::{App, Level, Mode, SubmitState};
use super::composer::choice::System;
use super::decide;
use super::decision_state::Question;
use super::effect::Effect;
use super::escalate;
use super::update::flash;
use crate::sanitize::clean_line;

/// Quit: at once when nothing would be lost, else ask (a second quit key
/// quits). An open composer is put aside (and kept on disk) first, and a
/// typed thread reply is kept on disk.
pub fn quit(app: &mut App) -> Vec<Effect> {
    let mut effects = if matches!(app.ui.mode, Mode::Compose(_)) {
        super::composer::flow::put_aside(app)
    } else {
        Vec::new()
    };
    effects.extend(super::reply_draft::save(app));
    let drafts = app.decide.unsent_drafts();
    let sending = app.decide.batch.map_or(0, |b| b.total - b.done());
    let thread = usize::from(app.live.thread.sending.is_some());
    if drafts + sending + thread == 0 || app.ui.mode == Mode::Ask(Question::Quit) {
        app.ui.quit = true;
    } else {
        app.ui.mode = Mode::Ask(Question::Quit);
    }
    effects
}

/// The question's text (sanitised where it quotes anything).
pub fn text(app: &App, q: Question) -> Vec<String> {
    match q {
        Question::ThreadMenu { .. } | Question::ThreadRemedies { .. } | Question::ThreadConfirm { .. } => {
            super::thread_act::text(app, q)
        }
        Question::Quit => {
            let drafts = app.decide.unsent_drafts();
            let sending = app.decide.batch.map_or(0, |b| b.total - b.done());
            let mut lines = Vec::new();
            if drafts > 0 {
                let fate = if super::drafts::origin(app).is_some() {
                    "not sent: kept on disk and restored when this review is opened again"
                } else if drafts == 1 {
                    "exists only on this screen and will be lost"
                } else {
                    "exist only on this screen and will be lost"
                };
                lines.push(format!("{drafts} draft{} {fate}.", if drafts == 1 { "" } else { "s" }));
            }
            if sending > 0 {
                lines.push(format!(
                    "{sending} decision{} still being sent; they stay in the outbox and are offered next time.",
                    if sending == 1 { " is" } else { "s are" }
                ));
            }
            if let Some((_, request)) = &app.live.thread.sending {
                lines.push(format!(
                    "A thread {} is still being sent; it stays in the outbox and is offered next time.",
                    request.verb.name()
                ));
            }
            lines.push("Quit anyway? y = quit, n / esc = stay".into());
            lines
        }
        Question::Escalate => {
            let name = app
                .decide
                .packet
                .as_ref()
                .map(|p| p.file_name.clone())
                .unwrap_or_default();
            let bytes = app.decide.packet.as_ref().map_or(0, |p| p.text.len());
            vec![
                format!("Escalation packet ready ({bytes} bytes of Markdown)."),
                format!("c = copy to the clipboard (OSC 52) · f = write ./{name} · esc = cancel"),
            ]
        }
        Question::Supersede { finding } => {
            let fp = fingerprint_shown(app, finding);
            let why = match app.submit.get(finding) {
                Some(SubmitState::Rejected { reason }) => clean_line(&reason.to_string()),
                _ => String::new(),
            };
            vec![
                format!("A different decision is recorded for {fp} on this head."),
                why,
                "Record yours over it? ReviewGate's next review applies the newest one.".into(),
                "y = supersede it · n / esc / enter = keep it (default)".into(),
            ]
        }
        Question::Undo { finding } => {
            let fp = fingerprint_shown(app, finding);
            vec![
                format!("Revoke the River suppression of {fp}?"),
                "A resurface entry is appended and the suppression marked inactive. y = revoke, n / esc = keep".into(),
            ]
        }
    }
}

/// The fingerprint of finding `finding`, sanitised for a question's line
/// (empty when there is no such finding).
fn fingerprint_shown(app: &App, finding: usize) -> String {
    app.doc
        .findings()
        .get(finding)
        .map(|f| clean_line(f.key.as_str()))
        .unwrap_or_default()
}

/// The first line of the thread reply input.
pub fn reply_prompt() -> &'static str {
    "Type the reply (one line; Enter reviews it before anything is sent, Esc cancels):"
}

/// A send was refused because a different decision is recorded on this
/// head: ask whether to record this one over it (default No). Asked only
/// from the list; otherwise the reason stays on the row and `r` asks again.
pub fn offer_supersede(app: &mut App, finding: usize) {
    if app.ui.mode == Mode::Normal {
        app.ui.mode = Mode::Ask(Question::Supersede { finding });
    }
}

/// `y` to the supersede question: the same decision again, superseding.
fn supersede(app: &mut App, finding: usize) -> Vec<Effect> {
    match app.decide.sent.get(&finding).cloned() {
        Some(super::decision_state::SentDecision::ReviewGate(draft)) => {
            let item = super::effect::SubmitItem {
                finding,
                draft,
                replaces: None,
                supersede: true,
            };
            decide::send(app, decide::Items::ReviewGate(vec![item]))
        }
        _ => {
            flash(
                app,
                Level::Warning,
                "The decision is not known in this session any more.",
            );
            Vec::new()
        }
    }
}

/// An answer to the question on screen.
pub fn answer(app: &mut App, q: Question, action: Action) -> Vec<Effect> {
    let yes = matches!(action, Action::AnswerYes);
    let cancel = matches!(action, Action::AnswerNo | Action::Back | Action::Accept);
    if matches!(
        q,
        Question::ThreadMenu { .. } | Question::ThreadRemedies { .. } | Question::ThreadConfirm { .. }
    ) {
        return super::thread_act::answer(app, q, action);
    }
    match q {
        Question::Quit if yes => app.ui.quit = true,
        Question::Undo { finding } if yes => {
            app.ui.mode = Mode::Normal;
            return undo_effect(app, finding);
        }
        Question::Supersede { finding } if yes => {
            app.ui.mode = Mode::Normal;
            return supersede(app, finding);
        }
        Question::Escalate if matches!(action, Action::ToClipboard | Action::ToFile) => {
            app.ui.mode = Mode::Normal;
            return deliver(app, action == Action::ToFile);
        }
        _ if cancel => {
            app.ui.mode = Mode::Normal;
            app.decide.packet = None;
        }
        _ => {}
    }
    Vec::new()
}

fn deliver(app: &mut App, to_file: bool) -> Vec<Effect> {
    let Some(packet) = app.decide.packet.take() else {
        return Vec::new();
    };
    if to_file {
        return vec![Effect::WriteFile {
            name: packet.file_name,
            text: packet.text,
        }];
    }
    if let Err(why) = super::clipboard::check("escalation packet", &packet.text, super::clipboard::Shape::Lines) {
        flash(app, Level::Warning, why);
        return Vec::new();
    }
    flash(
        app,
        Level::Info,
        format!(
            "Escalation packet copied to the clipboard (OSC 52, {} bytes).",
            packet.text.len()
        ),
    );
    vec![Effect::Copy(packet.text)]
}

/// `x`: prepares the selected finding's escalation packet and asks where it goes.
pub fn escalate(app: &mut App) {
    let Some(i) = app.selected() else {
        flash(app, Level::Warning, "No finding selected.");
        return;
    };
    match escalate::packet(app, i) {
        Ok(packet) => {
            app.decide.packet = Some(packet);
            app.ui.mode = Mode::Ask(Question::Escalate);
        }
        Err(why) => flash(app, Level::Warning, format!("No escalation: {why}.")),
    }
}

/// `u`: asks before revoking the selected River finding's suppression.
pub fn undo(app: &mut App) {
    if decide::system_of(app) != System::River {
        flash(
            app,
            Level::Info,
            "u revokes a River suppression; ReviewGate decisions are undone by a new decision.",
        );
        return;
    }
    if let Some(why) = decide::blocked(app, System::River) {
        flash(app, Level::Warning, format!("Cannot undo here: {why}."));
        return;
    }
    match app.selected() {
        Some(finding) => app.ui.mode = Mode::Ask(Question::Undo { finding }),
        None => flash(app, Level::Warning, "No finding selected."),
    }
}

fn undo_effect(app: &mut App, finding: usize) -> Vec<Effect> {
    let Some(f) = app.doc.findings().get(finding) else {
        return Vec::new();
    };
    let fingerprint = f.key.as_str().to_string();
    let v2 = app
        .doc
        .set
        .as_ref()
        .and_then(|s| crate::river_store::FindingFacts::from_set(s, &fingerprint).ok())
        .map(|facts| facts.v2_all)
        .unwrap_or_default();
    let artifact_root = app
        .doc
        .set
        .as_ref()
        .and_then(|s| s.river.as_ref())
        .and_then(|r| r.repo_root.clone());
    flash(app, Level::Info, "Revoking the suppression…");
    vec![Effect::UndoRiver {
        finding,
        fingerprint,
        v2,
        artifact_root,
    }]
}

/// The revocation finished.
pub fn undone(
    app: &mut App,
    finding: usize,
    result: Result<super::message::Revoked, super::message::failure::Shared<crate::river_store::StoreError>>,
) {
    match result {
        Ok(what) => {
            if let Some(SubmitState::Recorded(r)) = app.submit.get_mut(finding) {
                r.suppressed = false;
                r.shown_as = None;
                r.summary.push_str("; suppression revoked");
            }
            app.detail.key = None;
            flash(app, Level::Info, what.to_string());
        }
        Err(why) => flash(app, Level::Warning, format!("Nothing revoked: {why}")),
    }
}
