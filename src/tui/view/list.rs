//! The finding list: only the rows in the window are built, from strings
//! prepared at load, so a frame costs the same at 10 or 10,000 findings.

use crate::model::finding::ThreadTransition;
use crate::tui::action::Action;
use crate::tui::app::{App, Mode, Pane, SubmitState};
use crate::tui::decision_state::SPINNER;
use crate::tui::drift::Drift;
use crate::tui::filter::View;
use crate::tui::keymap::KeyMode;
use crate::tui::layout::{self, Areas};
use crate::tui::prepared::{Row, ThreadMark};
use crate::tui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Widest `path:line` column before the path is shortened from the left.
const LOCATION_COLS: usize = 34;

/// Draws the list pane.
pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.settings.theme;
    let block = super::pane_block(title(app), app, Pane::List);
    let inner = Areas::inner(area);
    let b = &app.browse;
    let findings = app.doc.findings();
    let mut lines: Vec<Line> = Vec::new();
    if b.visible.is_empty() {
        lines.push(Line::styled(empty_message(app), theme.dim));
    }
    let rows = usize::from(inner.height) / layout::row_height(app);
    for (pos, &i) in b.visible.iter().enumerate().skip(b.offset).take(rows.max(1)) {
        let (Some(row), Some(finding)) = (app.doc.prepared.rows.get(i), findings.get(i)) else {
            continue;
        };
        let marked = b.marks.get(i).copied().unwrap_or(false);
        let mut decision = decision_mark(app.submit.get(i), app.decide.spinner, theme);
        if matches!(app.submit.get(i), None | Some(SubmitState::Idle)) {
            decision = recorded_mark(crate::tui::recorded::row_mark(app, i), theme).unwrap_or(decision);
        }
        let mut line = row_line(row, marked, decision, theme);
        if pos == b.cursor {
            line.spans[0] = Span::styled("▶", theme.selected);
            line = line.style(theme.selected);
        }
        lines.push(line);
        if let Some(d) = Drift::of(finding).filter(|_| b.view == View::Drift) {
            lines.push(advice_line(d, row, theme));
        } else if b.view == View::Drift
            && crate::tui::recorded::row_mark(app, i) == Some(crate::tui::recorded::RowMark::Unauthorised)
        {
            lines.push(Line::from(vec![
                Span::raw("   "),
                Span::styled("↳ ◇ recorded decision not applied here: see detail", theme.warning),
            ]));
        }
    }
    if b.view == View::Drift {
        let room = usize::from(inner.height).saturating_sub(lines.len());
        lines.extend(super::orphans::lines(app, room));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn title(app: &App) -> Line<'static> {
    let theme = &app.settings.theme;
    let b = &app.browse;
    let total = app.doc.findings().len();
    let position = if b.visible.is_empty() { 0 } else { b.cursor + 1 };
    let mut spans = vec![
        Span::styled(format!(" {} ", b.view.title()), theme.heading),
        Span::raw(format!("{position}/{} of {total} ", b.visible.len())),
    ];
    let filters = b.filters.summary();
    if !filters.is_empty() {
        spans.push(Span::styled(format!("· {filters} "), theme.accent));
    }
    if !b.query.is_empty() || app.ui.mode == Mode::Search {
        let cursor = if app.ui.mode == Mode::Search { "▏" } else { "" };
        spans.push(Span::styled(
            format!("/{}{cursor} ", crate::sanitize::clean_line(&b.query)),
            theme.accent,
        ));
    }
    Line::from(spans)
}

fn empty_message(app: &App) -> String {
    let key = |action| {
        app.keymap()
            .keys_for(KeyMode::Normal, action)
            .first()
            .map(ToString::to_string)
            .unwrap_or_else(|| "?".into())
    };
    let b = &app.browse;
    if app.doc.findings().is_empty() {
        return " No findings in this review.".to_string();
    }
    if !b.filters.is_empty() || !b.query.is_empty() {
        return format!(
            " No finding matches the filters or search ({} clears them).",
            key(Action::ClearFilters)
        );
    }
    match b.view {
        View::Repair => format!(
            " Nothing in the repair set. Press {} to see all findings.",
            key(Action::ViewAll)
        ),
        View::Drift if !app.live.orphans.is_empty() => {
            " No finding drifts from its thread; threads of no finding are listed below.".to_string()
        }
        View::Drift => " No thread drift: every thread agrees with its finding.".to_string(),
        View::All => " No findings.".to_string(),
    }
}

fn thread_style(row: &Row, theme: &Theme) -> Style {
    match row.thread {
        ThreadMark::Transition(ThreadTransition::ResolvedExternally) => theme.warning,
        ThreadMark::Transition(ThreadTransition::Reopened | ThreadTransition::Unknown) => theme.severity[2],
        _ if row.outdated => theme.severity[2],
        _ => theme.dim,
    }
}

/// The decision column of a row and the label it shows instead of the file's.
#[derive(Debug, Clone, Copy)]
pub struct DecisionMark {
    pub glyph: &'static str,
    pub style: Style,
    /// After recording: ReviewGate's canonical state (or River's `suppr`).
    pub label: Option<&'static str>,
}

/// The decision column of a finding: ✎ draft, spinner while sending,
/// ✓ recorded, ✗ rejected, ⟳ failed (retry).
pub fn decision_mark(state: Option<&SubmitState>, spinner: usize, theme: &Theme) -> DecisionMark {
    let mark = |glyph, style| DecisionMark {
        glyph,
        style,
        label: None,
    };
    match state {
        None | Some(SubmitState::Idle) => mark(" ", Style::new()),
        Some(SubmitState::Draft) => mark("✎", theme.accent),
        Some(SubmitState::Pending { .. }) => mark(SPINNER[spinner % SPINNER.len()], theme.accent),
        Some(SubmitState::Recorded(r)) => DecisionMark {
            glyph: "✓",
            style: theme.heading,
            label: r.shown_as,
        },
        Some(SubmitState::Rejected { .. }) => mark("✗", theme.error),
        Some(SubmitState::Failed { .. }) => mark("⟳", theme.warning),
    }
}

/// The decision column for a decision the pull request already holds:
/// ◆ recorded, awaiting the next review; ◇ recorded but not applied on
/// this head (unauthorised, or for an older head). The disposition column
/// keeps the result's canonical disposition.
pub fn recorded_mark(mark: Option<crate::tui::recorded::RowMark>, theme: &Theme) -> Option<DecisionMark> {
    use crate::tui::recorded::RowMark;
    let (glyph, style) = match mark? {
        RowMark::Awaiting => ("◆", theme.accent),
        RowMark::Unauthorised => ("◇", theme.warning),
    };
    Some(DecisionMark {
        glyph,
        style,
        label: None,
    })
}

/// One list row: selection, mark, decision, rank, blocking, disposition, thread, class, place, headline.
pub fn row_line<'a>(row: &'a Row, marked: bool, decision: DecisionMark, theme: &Theme) -> Line<'a> {
    let pad = |s: &str, n: usize| format!("{s:<n$} ");
    Line::from(vec![
        Span::raw(" "),
        if marked {
            Span::styled("*", theme.mark)
        } else {
            Span::raw(" ")
        },
        Span::styled(decision.glyph, decision.style),
        Span::raw(" "),
        Span::styled(row.rank.as_str(), theme.severity(row.rank)),
        if row.blocking {
            Span::styled("■", theme.blocking)
        } else {
            Span::raw(" ")
        },
        Span::raw(" "),
        Span::raw(pad(decision.label.unwrap_or(row.disposition), 6)),
        Span::styled(row.thread.glyph(), thread_style(row, theme)),
        Span::styled(if row.outdated { "~ " } else { "  " }, thread_style(row, theme)),
        Span::styled(pad(row.class, 8), theme.dim),
        Span::styled(
            pad(
                &shorten_left(&row.location, LOCATION_COLS),
                LOCATION_COLS.min(row.location.width()),
            ),
            theme.label,
        ),
        Span::raw(row.headline.as_str()),
    ])
}

fn advice_line<'a>(d: Drift, row: &'a Row, theme: &Theme) -> Line<'a> {
    let style = if d == Drift::ResolvedExternally {
        theme.warning
    } else {
        theme.dim
    };
    let mut spans = vec![Span::raw("   "), Span::styled("↳ ", style)];
    if let Some(people) = &row.thread_people {
        spans.push(Span::styled(people.as_str(), theme.label));
        spans.push(Span::styled(" · ", theme.dim));
    }
    spans.push(Span::styled(d.advice(), style));
    Line::from(spans)
}

/// Keeps the end of `s` within `cols` columns, with a leading `…` when cut.
fn shorten_left(s: &str, cols: usize) -> String {
    if s.width() <= cols {
        return s.to_string();
    }
    let mut kept = Vec::new();
    let mut used = 1;
    for c in s.chars().rev() {
        let w = c.width().unwrap_or(0);
        if used + w > cols {
            break;
        }
        used += w;
        kept.push(c);
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_locations_keep_their_end() {
        let s = shorten_left("a/very/long/path/to/some/deeply/nested/file.rs:120", 20);
        assert_eq!(s.width(), 20);
        assert!(s.starts_with('…') && s.ends_with("file.rs:120"));
        assert_eq!(shorten_left("short.rs:1", 20), "short.rs:1");
    }
}
