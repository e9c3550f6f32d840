//! The finding list: only the rows in the window are drawn, from rows
//! prepared once per finding (the first time one is on screen), so a frame
//! costs the same at 10 or 100,000 findings.

use crate::model::finding::ThreadTransition;
use crate::tui::action::Action;
use crate::tui::app::{App, Mode, Pane, SubmitState};
use crate::tui::decision_state::SPINNER;
use crate::tui::drift::Drift;
use crate::tui::filter::View;
use crate::tui::fuzzy::Query;
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

/// Columns of a row before the location: selection, mark, decision, rank,
/// blocking, disposition, thread, class (see [`row_line`]).
const PREFIX_COLS: usize = 27;
/// The confidence column (`0.93 `).
const CONFIDENCE_COLS: usize = 5;
/// The location column never gets narrower than this (when the row has room).
const MIN_LOCATION_COLS: usize = 16;

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
    let window = || b.visible.iter().enumerate().skip(b.offset).take(rows.max(1));
    let mut query = b.search.active().then(|| Query::display(&b.query)).flatten();
    // One location width for the rows on screen, so the columns line up.
    let cols = window()
        .filter_map(|(_, &i)| app.doc.row(i))
        .map(|r| location_cols(&r.location, usize::from(inner.width)))
        .max()
        .unwrap_or(0);
    for (pos, &i) in window() {
        let (Some(row), Some(finding)) = (app.doc.row(i), findings.get(i)) else {
            continue;
        };
        let marked = b.marks.get(i).copied().unwrap_or(false);
        let mut decision = decision_mark(app.submit.get(i), app.decide.spinner, theme);
        if matches!(app.submit.get(i), None | Some(SubmitState::Idle)) {
            decision = recorded_mark(crate::tui::recorded::row_mark(app, i), theme).unwrap_or(decision);
        }
        let mut line = row_line(row, marked, decision, theme, cols);
        if let Some(q) = query.as_mut() {
            mark_matches(&mut line, q);
        }
        if pos == b.cursor {
            line.spans[0] = Span::styled("▶", theme.selected);
            line = line.style(theme.selected);
        }
        lines.push(line);
        if let Some(d) = Drift::of(finding).filter(|_| b.view == View::Drift) {
            lines.push(advice_line(d, row, theme));
        } else if b.view == View::Drift
            && crate::tui::recorded::row_mark(app, i) == Some(crate::model::ledger::Standing::Unauthorised)
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
    if b.sort != crate::tui::sort::Sort::Severity {
        spans.push(Span::styled(format!("· by {} ", b.sort.label()), theme.accent));
    }
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
    if b.search.active() && app.ui.mode != Mode::Search {
        let key = |a| {
            app.keymap()
                .keys_for(KeyMode::Normal, a)
                .first()
                .map(ToString::to_string)
        };
        if let (Some(n), Some(p)) = (key(Action::NextUndecided), key(Action::PrevUndecided)) {
            spans.push(Span::styled(format!("{n}/{p}: next/previous match "), theme.dim));
        }
    }
    if let Some((done, total)) = b.search.progress() {
        spans.push(Span::styled(
            format!("searching {}% ", done * 100 / total.max(1)),
            theme.dim,
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
pub fn recorded_mark(mark: Option<crate::model::ledger::Standing>, theme: &Theme) -> Option<DecisionMark> {
    use crate::model::ledger::Standing;
    let (glyph, style) = match mark? {
        Standing::Awaiting => ("◆", theme.accent),
        Standing::Unauthorised => ("◇", theme.warning),
    };
    Some(DecisionMark {
        glyph,
        style,
        label: None,
    })
}

/// The width of the location column in a row `width` columns wide: the
/// whole `path:line` when it fits in half of what is left after the
/// fixed columns, else half (at least [`MIN_LOCATION_COLS`]), widened
/// to keep the file name and `:line` whole (`…/name.rs:12`) in up to three
/// quarters of the room; the title gets the rest. The rows on screen share
/// the widest of their columns, so one very long file name cannot take the
/// title from all of them: a name wider than that keeps its end.
pub fn location_cols(location: &str, width: usize) -> usize {
    let room = width.saturating_sub(PREFIX_COLS + CONFIDENCE_COLS + 1);
    let share = (room / 2).max(MIN_LOCATION_COLS.min(room));
    let file = location.rsplit('/').next().map_or(0, |f| f.width() + 2);
    location.width().min(share.max(file.min(room - room / 4))).min(room)
}

/// One list row: selection, mark, decision, rank, blocking, disposition,
/// thread, class, `path:line` in `cols` columns (shortened from the middle;
/// see [`location_cols`]), confidence, headline.
pub fn row_line<'a>(row: &'a Row, marked: bool, decision: DecisionMark, theme: &Theme, cols: usize) -> Line<'a> {
    let pad = |s: &str, n: usize| format!("{} ", pad_to(s, n));
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
        Span::styled(pad(&shorten_middle(&row.location, cols), cols), theme.label),
        Span::styled(pad(&row.confidence, CONFIDENCE_COLS - 1), theme.dim),
        Span::raw(row.headline.as_str()),
    ])
}

/// Span positions in [`row_line`] of the location and the headline.
const LOCATION_SPAN: usize = 11;
const HEADLINE_SPAN: usize = 13;

/// Marks the characters of the query's words in the row's location and headline.
fn mark_matches(line: &mut Line<'_>, query: &mut Query) {
    if line.spans.len() != HEADLINE_SPAN + 1 {
        return;
    }
    let headline = line.spans.pop().map(|s| s.content.into_owned()).unwrap_or_default();
    let tail: Vec<Span> = line.spans.drain(LOCATION_SPAN..).collect();
    let mut tail = tail.into_iter();
    if let Some(location) = tail.next() {
        line.spans
            .extend(super::list_match::spans(query, &location.content, location.style));
    }
    line.spans.extend(tail);
    line.spans
        .extend(super::list_match::spans(query, &headline, Style::new()));
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

/// `s` padded with spaces to `cols` display columns (wide characters count two).
fn pad_to(s: &str, cols: usize) -> String {
    let fill = cols.saturating_sub(s.width());
    format!("{s}{}", " ".repeat(fill))
}

/// Fits `path:line` in `cols` display columns by cutting the middle of the
/// directories, so the file name and `:line` always stay
/// (`src/…/PaymentForm.tsx:41`); when even the file name is too wide, its
/// end (with `:line`) is kept after a `…`.
pub fn shorten_middle(s: &str, cols: usize) -> String {
    if s.width() <= cols {
        return s.to_string();
    }
    let Some(cut) = s.rfind('/') else {
        return shorten_left(s, cols);
    };
    let (dir, file) = s.split_at(cut);
    let Some(budget) = cols.checked_sub(file.width() + 1) else {
        // The directory is cut even when the bare name would fit: the `…` says so.
        return ellipsis_then_end(&file[1..], cols);
    };
    let mut head = String::new();
    let mut used = 0;
    for c in dir.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > budget {
            break;
        }
        used += w;
        head.push(c);
    }
    format!("{head}…{file}")
}

/// Keeps the end of `s` within `cols` columns, with a leading `…` when cut.
fn shorten_left(s: &str, cols: usize) -> String {
    if s.width() <= cols {
        return s.to_string();
    }
    ellipsis_then_end(s, cols)
}

/// `…` and then as much of the end of `s` as fits in `cols` columns in all.
fn ellipsis_then_end(s: &str, cols: usize) -> String {
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
    fn the_middle_goes_first_and_the_file_and_line_stay() {
        let deep = "a/very/long/path/to/some/deeply/nested/file.rs:120";
        let s = shorten_middle(deep, 24);
        assert_eq!(s, "a/very/long…/file.rs:120");
        assert!(s.width() <= 24);
        assert_eq!(shorten_middle("short.rs:1", 20), "short.rs:1");
        let wide = "app/支払い/返金処理/refunds.py:57";
        let s = shorten_middle(wide, 22);
        assert!(s.ends_with("/refunds.py:57") && s.width() <= 22, "{s}");
        let s = shorten_middle("dir/a_really_long_file_name_here.rs:9", 12);
        assert!(s.starts_with('…') && s.ends_with(".rs:9") && s.width() <= 12, "{s}");
        assert_eq!(pad_to("返金", 6).width(), 6);
    }

    #[test]
    fn the_title_gets_the_room_as_the_terminal_widens() {
        let loc = "services/payments/internal/checkout/web/src/PaymentForm.tsx:41";
        let at = |w| location_cols(loc, w);
        assert!(at(58) >= MIN_LOCATION_COLS.min(58 - PREFIX_COLS - CONFIDENCE_COLS - 1));
        assert!(at(98) < at(198));
        assert_eq!(at(198), loc.width().min((198 - 33) / 2));
        assert_eq!(location_cols("a.rs:1", 198), 6);
    }

    #[test]
    fn a_very_long_file_name_leaves_the_title_a_quarter() {
        let room = 70 - PREFIX_COLS - CONFIDENCE_COLS - 1;
        let name = format!("{}.py:17", "n".repeat(200));
        let cols = location_cols(&name, 70);
        assert_eq!(cols, room - room / 4);
        let shown = shorten_middle(&name, cols);
        assert!(
            shown.starts_with('…') && shown.ends_with("n.py:17") && shown.width() <= cols,
            "{shown}"
        );
        // A long directory keeps the file name in half the room.
        let deep = format!("app/{}/x.py:17", "d".repeat(200));
        let cols = location_cols(&deep, 70);
        assert_eq!(cols, room / 2);
        assert!(shorten_middle(&deep, cols).ends_with("…/x.py:17"));
    }

    #[test]
    fn long_locations_keep_their_end() {
        let s = shorten_left("a/very/long/path/to/some/deeply/nested/file.rs:120", 20);
        assert_eq!(s.width(), 20);
        assert!(s.starts_with('…') && s.ends_with("file.rs:120"));
        assert_eq!(shorten_left("short.rs:1", 20), "short.rs:1");
    }
}
