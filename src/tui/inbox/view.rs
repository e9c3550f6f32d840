//! Draws the inbox screen from its state (read-only): a header (repository,
//! counts, view, search, rate limit, read state, the read's notes), the ranked rows, and a
//! footer with the selected row's reason or the key hints; `?` lays the
//! help over it. Every GitHub text passes [`crate::sanitize::clean_line`].

use super::state::{InboxState, KEYS, Loading, Mode};
use crate::inbox::{ReviewState, Row};
use crate::sanitize::clean_line;
use crate::tui::text::truncate_end as cut;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use unicode_width::UnicodeWidthStr;

/// Column titles and widths (the title takes the rest).
const COLUMNS: [(&str, usize); 10] = [
    ("PR", 6),
    ("STATE", 13),
    ("SCORE", 5),
    ("REPAIR", 6),
    ("UNDEC", 5),
    ("DRIFT", 9),
    ("HUMAN", 5),
    ("AWAIT", 5),
    ("AGE", 4),
    ("AUTHOR", 14),
];

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, state: &InboxState) {
    let area = frame.area();
    if area.height < 3 || area.width < 20 {
        return;
    }
    let line = |y: u16| Rect::new(area.x, area.y + y, area.width, 1);
    frame.render_widget(Paragraph::new(header(state)), line(0));
    let titles: Vec<String> = COLUMNS.iter().map(|(t, _)| (*t).to_owned()).collect();
    frame.render_widget(
        Paragraph::new(row_text(&titles, "TITLE", area.width, false))
            .style(Style::default().add_modifier(Modifier::BOLD)),
        line(1),
    );
    let rows = state.visible();
    let page = usize::from(area.height.saturating_sub(3));
    let cursor = state.cursor();
    let offset = cursor.map_or(0, |c| (c + 1).saturating_sub(page));
    for (i, row) in rows.iter().enumerate().skip(offset).take(page) {
        let y = 2 + (i - offset) as u16;
        let mut style = state_style(row);
        if Some(i) == cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let text = row_text(&row.cells(), &clean_line(&row.title), area.width, Some(i) == cursor);
        frame.render_widget(Paragraph::new(text).style(style), line(y));
    }
    if rows.is_empty() {
        frame.render_widget(Paragraph::new(empty_text(state)), line(2));
    }
    let selected = cursor.and_then(|c| rows.get(c).copied());
    frame.render_widget(Paragraph::new(footer(state, selected)), line(area.height - 1));
    if state.mode == Mode::Help {
        help(frame, area);
    }
}

fn empty_text(state: &InboxState) -> &'static str {
    match (&state.loading, &state.inbox) {
        (Loading::Reading, None) => "  reading the open pull requests…",
        (Loading::Failed(_), None) => "  the inbox could not be read (R tries again)",
        _ => "  no open pull request matches (Esc clears the search, v changes the view)",
    }
}

fn header(state: &InboxState) -> Line<'static> {
    let mut parts = vec![format!("Inbox {}", clean_line(&state.title))];
    if let Some(inbox) = &state.inbox {
        parts.push(format!("{} shown of {} open", state.visible().len(), inbox.total_open));
        if let Some(left) = inbox.rate_remaining {
            parts.push(format!("rate limit {left} left"));
        }
    }
    parts.push(format!("view: {}", state.view.label()));
    if !state.search.is_empty() {
        parts.push(format!("search: {}", clean_line(&state.search)));
    }
    match &state.loading {
        Loading::Reading => parts.push("reading…".to_owned()),
        Loading::Failed(_) => parts.push("read failed".to_owned()),
        Loading::Done => {}
    }
    // The read's notes (a cut listing, a pull request whose read stopped):
    // without them a partial inbox would look complete. The first is shown,
    // the others counted (`triage inbox --format table` prints them all).
    if let Some(first) = state.inbox.as_ref().and_then(|i| i.notes.first()) {
        let count = state.inbox.as_ref().map_or(0, |i| i.notes.len());
        parts.push(match count {
            1 => format!("note: {}", clean_line(first)),
            n => format!("notes ({n}): {}", clean_line(first)),
        });
    }
    Line::from(Span::styled(
        format!(" {}", parts.join(" · ")),
        Style::default().add_modifier(Modifier::BOLD),
    ))
}

fn footer(state: &InboxState, selected: Option<&Row>) -> Line<'static> {
    if state.mode == Mode::Search {
        return Line::from(format!(
            " /{}▏ (Enter keeps it, Esc clears it)",
            clean_line(&state.search)
        ));
    }
    if let Some(flash) = &state.flash {
        return Line::from(format!(" {}", clean_line(flash)));
    }
    if let Loading::Failed(why) = &state.loading {
        return Line::from(format!(" {}", clean_line(why)));
    }
    if let Some(number) = selected
        .map(|r| r.number)
        .filter(|n| state.loading == Loading::Reading && state.rereading == Some(*n))
    {
        return Line::from(format!(
            " #{number}: reading its row again (decisions recorded in its screen show when the read ends)"
        ));
    }
    if let Some(reason) = selected.and_then(|r| r.reason.as_deref()) {
        return Line::from(format!(
            " #{}: {}",
            selected.map_or(0, |r| r.number),
            clean_line(reason)
        ));
    }
    if let Some((number, newer)) = selected.and_then(|r| Some((r.number, r.newer_run_text()?))) {
        return Line::from(format!(" #{number}: {newer}"));
    }
    Line::from(" Enter open · / search · v view · R refresh · ? help · q quit")
}

fn help(frame: &mut Frame, area: Rect) {
    let width = area.width.min(84);
    let height = (KEYS.len() as u16 + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let lines: Vec<Line> = KEYS
        .iter()
        .map(|(key, what)| Line::from(format!(" {key:<10} {what}")))
        .collect();
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Inbox keys (Esc closes) "),
        ),
        rect,
    );
}

fn state_style(row: &Row) -> Style {
    use ratatui::style::Color;
    match (row.tier(), row.state) {
        (0, _) => Style::default().fg(Color::Yellow),
        (_, ReviewState::ReviewError | ReviewState::Unknown) => Style::default().fg(Color::Red),
        (_, ReviewState::Passed) => Style::default().fg(Color::Green),
        _ => Style::default(),
    }
}

fn row_text(cells: &[String], title: &str, width: u16, selected: bool) -> String {
    let mut out = String::from(if selected { "›" } else { " " });
    for (cell, (_, w)) in cells.iter().zip(COLUMNS) {
        let cut = cut(cell, w);
        out.push_str(&cut);
        out.extend(std::iter::repeat_n(' ', w + 1 - cut.width()));
    }
    let room = usize::from(width).saturating_sub(out.width());
    out.push_str(&cut(title, room));
    out
}
