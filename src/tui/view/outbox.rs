//! The outbox overlay: decisions kept on disk for this pull request, each
//! with its status, fingerprint, attempts, last outcome and whether it is
//! stale (made for another head); then the kept thread actions, each with
//! its verb, fingerprint, attempts, last outcome, binding and reply text.

use crate::github::thread_action::ThreadVerb;
use crate::outbox::Staleness;
use crate::sanitize::clean_line;
use crate::tui::app::App;
use crate::tui::decision_state::{KeptThread, Offered};
use crate::tui::kept_threads::{self, Binding};
use crate::tui::layout::{self, Areas};
use crate::tui::text::{TextLine, Tone};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

fn short(sha: &str) -> String {
    clean_line(&sha.chars().take(12).collect::<String>())
}

/// The second line of a kept entry: id, when it was kept, attempts, and
/// how the last one ended.
fn kept_line(id: &str, created_at: &str, attempts: u32, last: Option<&str>) -> TextLine {
    let last = last.map(|l| format!(" · last: {}", clean_line(l))).unwrap_or_default();
    TextLine::one(
        Tone::Dim,
        format!(
            "    id {} · kept {} · {attempts} attempt(s){last}",
            clean_line(id),
            clean_line(created_at),
        ),
    )
}

/// The lines of one entry (the first carries the selection marker).
pub fn entry_lines(o: &Offered, selected: bool) -> Vec<TextLine> {
    let e = &o.entry;
    let marker = if selected { "▶ " } else { "  " };
    let state = match &o.staleness {
        Staleness::Current => TextLine::one(Tone::Accent, format!("{marker}current ")),
        Staleness::OtherHead { draft_sha, current_sha } => TextLine::one(
            Tone::Warning,
            format!(
                "{marker}STALE: made for {}, loaded {} ",
                short(draft_sha),
                short(current_sha)
            ),
        ),
        Staleness::Unrelated => TextLine::one(Tone::Dim, format!("{marker}other pull request ")),
    };
    let mut first = state
        .push(Tone::Label, format!(" {} ", e.draft.status.as_str()))
        .push(Tone::Plain, clean_line(&e.draft.fingerprint));
    if o.finding.is_none() {
        first = first.push(Tone::Warning, " (not in this result)");
    }
    let mut out = vec![first];
    let last = e.last_outcome.as_ref().map(|l| l.message.as_str());
    out.push(kept_line(&e.id, &e.created_at, e.attempts, last));
    let evidence = e.draft.evidence.lines().next().unwrap_or("");
    out.push(TextLine::one(Tone::Plain, format!("    {}", clean_line(evidence))));
    out
}

/// The lines of one kept thread action (the first carries the marker).
pub fn thread_lines(app: &App, kept: &KeptThread, selected: bool) -> Vec<TextLine> {
    let e = &kept.entry;
    let marker = if selected { "▶ " } else { "  " };
    let state = match (kept_threads::is_sending(app, e), kept_threads::binding(app, e)) {
        (true, _) => TextLine::one(Tone::Accent, format!("{marker}sending… ")),
        (false, Binding::Current) => TextLine::one(Tone::Accent, format!("{marker}current ")),
        (false, Binding::OtherHead { made_for, loaded }) => TextLine::one(
            Tone::Warning,
            format!(
                "{marker}STALE: made for {}, loaded {} ",
                short(&made_for),
                short(&loaded)
            ),
        ),
    };
    let mut first = state
        .push(Tone::Label, format!(" thread {} ", e.request.verb.name()))
        .push(Tone::Plain, clean_line(&e.request.fingerprint));
    if kept.finding.is_none() {
        first = first.push(Tone::Warning, " (not in this result)");
    }
    let second = kept_line(&e.id, &e.created_at, e.attempts, e.last_outcome.as_deref());
    let third = match &e.request.verb {
        ThreadVerb::Reply { body } => TextLine::one(
            Tone::Plain,
            format!("    {}", clean_line(body.lines().next().unwrap_or(""))),
        ),
        ThreadVerb::Resolve => TextLine::one(Tone::Dim, "    resolve the thread on GitHub"),
        ThreadVerb::Unresolve => TextLine::one(Tone::Dim, "    reopen (unresolve) the thread on GitHub"),
    };
    vec![first, second, third]
}

/// A prepared line as an owned ratatui line.
fn owned_line(line: TextLine, theme: &crate::tui::theme::Theme) -> Line<'static> {
    Line::from(
        line.spans
            .into_iter()
            .map(|(tone, text)| Span::styled(text, super::tone_style(theme, tone)))
            .collect::<Vec<_>>(),
    )
}

/// Draws the overlay with `cursor` highlighted.
pub fn render(frame: &mut Frame, app: &App, cursor: usize) {
    let theme = &app.settings.theme;
    let area = layout::overlay(app);
    let inner = Areas::inner(area);
    let [body, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(inner);
    let per = 3;
    let shown = (usize::from(body.height) / per).max(1);
    let offset = cursor.saturating_sub(shown - 1);
    let offer = &app.decide.offer;
    let rows = offer.rows();
    let mut lines: Vec<Line> = Vec::new();
    for n in (offset..rows).take(shown) {
        let row = match n.checked_sub(offer.entries.len()) {
            None => entry_lines(&offer.entries[n], n == cursor),
            Some(t) => thread_lines(app, &offer.threads[t], n == cursor),
        };
        for (k, l) in row.into_iter().enumerate() {
            let line = owned_line(l, theme);
            lines.push(if n == cursor && k == 0 {
                line.style(theme.selected)
            } else {
                line
            });
        }
    }
    let foot = Line::styled(
        "Kept entries stay on disk until sent or dropped; esc keeps them all (keys: status bar).",
        theme.dim,
    );
    let title = Span::styled(
        format!(
            " Outbox: {} kept decision(s), {} thread action(s) for this pull request ",
            offer.entries.len(),
            offer.threads.len()
        ),
        theme.heading,
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus)
        .title(title);
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines), body);
    frame.render_widget(Paragraph::new(foot), footer);
}
