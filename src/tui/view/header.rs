//! The header: what was reviewed, the verdict, and the counts.

use crate::model::finding::Severity;
use crate::model::review::{ReviewSet, ReviewStatus, Scope, Stated};
use crate::sanitize::clean_line;
use crate::tui::app::{App, Source};
use crate::tui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

const SEP: &str = " │ ";

/// Draws the header lines.
pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.settings.theme;
    let mut lines = vec![identity(app, theme), counts(app, theme)];
    if let Some(river) = river(app, theme) {
        lines.push(river);
    }
    frame.render_widget(Paragraph::new(lines), area);
}

fn short_sha(sha: &str) -> String {
    clean_line(&sha.chars().take(12).collect::<String>())
}

fn scope_text(scope: &Scope) -> String {
    match scope {
        Scope::Local => "local".to_string(),
        Scope::PullRequest {
            repository,
            pull_request_number,
        } => {
            format!("{}#{pull_request_number}", clean_line(repository))
        }
    }
}

fn status_span(set: &ReviewSet, theme: &Theme) -> Span<'static> {
    let score = set.score.map(|s| format!(" score {s}/5")).unwrap_or_default();
    match set.status {
        ReviewStatus::ReviewError => Span::styled(" REVIEW ERROR: did not complete, not a pass ", theme.error),
        ReviewStatus::Error => Span::styled(" RUN ERROR: did not complete, not a pass ", theme.error),
        ReviewStatus::Passed => Span::styled(format!("passed{score}"), theme.heading),
        ReviewStatus::NeedsChanges => Span::styled(format!("needs_changes{score}"), theme.severity[1]),
        other => Span::raw(format!("{}{score}", other.as_str())),
    }
}

fn identity<'a>(app: &'a App, theme: &Theme) -> Line<'a> {
    let doc = &app.doc;
    let mut spans = vec![Span::styled("triage ", theme.heading)];
    if doc.source == Source::Demo {
        spans.push(Span::styled(" DEMO ", theme.accent.add_modifier(Modifier::REVERSED)));
        spans.push(Span::raw(" "));
    }
    if !doc.is_valid() {
        spans.push(Span::styled(" INVALID: read-only ", theme.error));
        spans.push(Span::styled(SEP, theme.dim));
    }
    if let Some(set) = &doc.set {
        spans.push(status_span(set, theme));
        spans.push(Span::styled(SEP, theme.dim));
        spans.push(Span::raw(scope_text(&set.scope)));
        if let Some(sha) = &set.reviewed_sha {
            spans.push(Span::raw(format!(" @ {}", short_sha(sha))));
        }
        spans.push(Span::styled(SEP, theme.dim));
    }
    spans.push(Span::raw(doc.format.map_or("unknown format", |f| f.label())));
    match &doc.source {
        Source::File(name) => spans.push(Span::styled(format!("  {name}"), theme.dim)),
        Source::Stdin => spans.push(Span::styled("  (stdin)", theme.dim)),
        Source::Demo => {}
    }
    Line::from(spans)
}

fn counts<'a>(app: &'a App, theme: &Theme) -> Line<'a> {
    let c = &app.doc.prepared.counts;
    let mut spans = progress(app, theme);
    ledger(app, theme, &mut spans);
    for sev in Severity::ALL {
        let n = c.per_rank[sev as usize];
        let style = if n > 0 { theme.severity(sev) } else { theme.dim };
        spans.push(Span::styled(format!("{} {n} ", sev.as_str()), style));
    }
    for (k, (label, n)) in c.per_disposition.iter().enumerate() {
        if k == 0 {
            spans.push(Span::styled(SEP.trim_start(), theme.dim));
        }
        spans.push(Span::raw(format!("{label} {n} ")));
    }
    spans.push(Span::styled(SEP.trim_start(), theme.dim));
    spans.push(Span::raw(format!("repair {} · blocking {}", c.repair, c.blocking)));
    let marked = app.mark_count();
    if marked > 0 {
        spans.push(Span::styled(format!(" · marked {marked}"), theme.mark));
    }
    Line::from(spans)
}

/// What the pull request already holds, beside the progress it counts in:
/// `◆N awaiting` (recorded, awaiting the next review), `◇N unapplied`, or
/// why it is not known.
fn ledger(app: &App, theme: &Theme, spans: &mut Vec<Span<'static>>) {
    let before = spans.len();
    match &app.live.ledger {
        crate::tui::recorded::LedgerView::Known(_) => {
            let (awaiting, unapplied) = crate::tui::recorded::counts(app);
            if awaiting > 0 {
                spans.push(Span::styled(format!("◆{awaiting} awaiting"), theme.accent));
            }
            if unapplied > 0 {
                let gap = if awaiting > 0 { " " } else { "" };
                spans.push(Span::styled(format!("{gap}◇{unapplied} unapplied"), theme.warning));
            }
        }
        crate::tui::recorded::LedgerView::Unknown(_) => {
            spans.push(Span::styled("decisions unknown", theme.warning));
        }
        crate::tui::recorded::LedgerView::Loading { .. } => {
            spans.push(Span::styled("reading decisions…", theme.dim));
        }
        crate::tui::recorded::LedgerView::NotApplicable => {}
    }
    if spans.len() > before {
        spans.push(Span::styled(SEP, theme.dim));
    }
}

/// Progress through the current view: `decided 1/4 · 3 left │ ` (nothing when the view is empty).
fn progress(app: &App, theme: &Theme) -> Vec<Span<'static>> {
    let p = crate::tui::progress::of_view(app);
    if p.total == 0 {
        return Vec::new();
    }
    let style = if p.remaining() == 0 {
        theme.heading
    } else {
        theme.accent
    };
    let left = match p.remaining() {
        0 => "all decided".to_string(),
        n => format!("{n} left"),
    };
    vec![
        Span::styled(format!("decided {}/{} · {left}", p.decided, p.total), style),
        Span::styled(SEP, theme.dim),
    ]
}

fn stated(label: &str, value: &Option<Stated<String>>, theme: &Theme, spans: &mut Vec<Span<'static>>) {
    if let Some(v) = value {
        spans.push(Span::raw(format!("{label} {}", clean_line(v.value()))));
        if v.is_derived() {
            spans.push(Span::styled(" (derived)", theme.dim.add_modifier(Modifier::ITALIC)));
        }
        spans.push(Span::styled(SEP, theme.dim));
    }
}

fn river(app: &App, theme: &Theme) -> Option<Line<'static>> {
    let info = app.doc.set.as_ref()?.river.as_ref()?;
    let mut spans = Vec::new();
    stated("decision", &info.decision, theme, &mut spans);
    stated("loop", &info.loop_signal, theme, &mut spans);
    if let Some(phase) = &info.phase {
        spans.push(Span::raw(format!("phase {}", clean_line(phase))));
        spans.push(Span::styled(SEP, theme.dim));
    }
    if let Some(score) = info.overall_score {
        spans.push(Span::raw(format!("overall {score}/100")));
    }
    if spans.last().is_some_and(|s| s.content == SEP) {
        spans.pop();
    }
    Some(Line::from(spans).style(Style::new()))
}
