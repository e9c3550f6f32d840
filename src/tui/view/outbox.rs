//! The outbox overlay: decisions kept on disk for this pull request, each
//! with its status, fingerprint, attempts, last outcome and whether it is
//! stale (made for another head).

use crate::outbox::Staleness;
use crate::sanitize::clean_line;
use crate::tui::app::App;
use crate::tui::decision_state::Offered;
use crate::tui::layout::{self, Areas};
use crate::tui::text::{TextLine, Tone};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

fn short(sha: &str) -> String {
    clean_line(&sha.chars().take(12).collect::<String>())
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
    let last = e
        .last_outcome
        .as_ref()
        .map(|l| format!(" · last: {}", clean_line(&l.message)))
        .unwrap_or_default();
    out.push(TextLine::one(
        Tone::Dim,
        format!(
            "    id {} · kept {} · {} attempt(s){last}",
            clean_line(&e.id),
            clean_line(&e.created_at),
            e.attempts
        ),
    ));
    let evidence = e.draft.evidence.lines().next().unwrap_or("");
    out.push(TextLine::one(Tone::Plain, format!("    {}", clean_line(evidence))));
    out
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
    let mut lines: Vec<Line> = Vec::new();
    for (n, o) in app.decide.offer.entries.iter().enumerate().skip(offset).take(shown) {
        for (k, l) in entry_lines(o, n == cursor).into_iter().enumerate() {
            let line = owned_line(l, theme);
            lines.push(if n == cursor && k == 0 {
                line.style(theme.selected)
            } else {
                line
            });
        }
    }
    let threads = app.live.thread.kept_count;
    let foot = if threads > 0 {
        Line::styled(
            format!("Also kept: {threads} thread action(s); `triage thread retry` sends them. Esc keeps everything."),
            theme.warning,
        )
    } else {
        Line::styled(
            "Kept decisions stay on disk until recorded or dropped; esc keeps them all (keys: status bar).",
            theme.dim,
        )
    };
    let n = app.decide.offer.entries.len();
    let title = Span::styled(
        format!(" Outbox: {n} kept decision(s) for this pull request "),
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
