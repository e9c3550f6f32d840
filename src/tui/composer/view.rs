//! Drawing the composer overlay (reads state only): a header naming the
//! findings, then the status list, the evidence editor with its byte
//! counter, or the preview with the Yes/No question. Key hints are in the
//! status bar (generated from the key table).

use super::choice::{Choice, System};
use super::present::{header, preview_lines, regions, river_severity};
use super::{Budget, Composer, Stage};
use crate::model::finding::RiverSeverity;
use crate::tui::app::App;
use crate::tui::layout::Areas;
use crate::tui::text::Tone;
use crate::tui::view::{to_line, tone_style};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// Draws the composer at `stage`.
pub fn render(frame: &mut Frame, app: &App, stage: Stage) {
    let Some(c) = &app.decide.composer else {
        return;
    };
    let theme = &app.settings.theme;
    let r = regions(app, stage);
    let title = match c.system {
        System::ReviewGate => " Decide (recorded on GitHub for ReviewGate) ",
        System::River => " Decide (recorded in River Review's files) ",
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus)
        .title(Span::styled(title, theme.heading));
    frame.render_widget(Clear, r.outer);
    frame.render_widget(block, r.outer);
    let head_lines = header(app, stage, r.header.width);
    let head: Vec<Line> = head_lines.iter().map(|l| to_line(l, theme)).collect();
    frame.render_widget(Paragraph::new(head), r.header);
    match stage {
        Stage::Status { cursor } => statuses(frame, app, c, cursor, r.body),
        Stage::Evidence => editor(frame, app, c, r.body),
        Stage::Confirm { scroll, .. } => {
            let lines = preview_lines(app);
            let block = Block::default()
                .borders(Borders::TOP)
                .title(Span::styled(" Preview ", theme.heading));
            let shown: Vec<Line> = lines
                .iter()
                .skip(scroll)
                .take(usize::from(r.body.height.saturating_sub(1)))
                .map(|l| to_line(l, theme))
                .collect();
            frame.render_widget(Paragraph::new(shown).block(block), r.body);
        }
    }
    footer(frame, app, c, stage, r.footer);
}

fn statuses(frame: &mut Frame, app: &App, c: &Composer, cursor: usize, area: Rect) {
    let theme = &app.settings.theme;
    let severity = river_severity(app, c);
    let mut lines = vec![Line::styled("Choose the status:", theme.heading)];
    for (n, choice) in c.system.choices().into_iter().enumerate() {
        let chosen = Some(choice) == c.choice;
        let marker = if n == cursor { "▶ " } else { "  " };
        let mut first = Line::from(vec![
            Span::raw(marker),
            Span::styled(format!("{:<24}", choice.name()), theme.accent),
            Span::raw(choice.guidance()),
            Span::styled(if chosen { "  (current)" } else { "" }, theme.dim),
        ]);
        if n == cursor {
            first = first.style(theme.selected);
        }
        lines.push(first);
        lines.push(Line::styled(
            format!("    {}", effect_note(choice, severity)),
            theme.dim,
        ));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

fn effect_note(choice: Choice, severity: Option<RiverSeverity>) -> String {
    format!("→ {}", choice.effect(severity))
}

fn editor(frame: &mut Frame, app: &App, c: &Composer, area: Rect) {
    let theme = &app.settings.theme;
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus)
        .title(Span::styled(" Evidence ", theme.heading));
    let inner = Areas::inner(area);
    let rows = c.editor.rows(inner.width);
    let cursor_style = Style::new().add_modifier(Modifier::REVERSED);
    let lines: Vec<Line> = rows
        .rows
        .iter()
        .enumerate()
        .skip(c.editor.top)
        .take(usize::from(inner.height))
        .map(|(n, row)| {
            if n != rows.cursor.row {
                return Line::raw(row.as_str());
            }
            let (start, end) = (rows.cursor.start.min(row.len()), rows.cursor.end.min(row.len()));
            let at = if start == end { " " } else { &row[start..end] };
            Line::from(vec![
                Span::raw(&row[..start]),
                Span::styled(at, cursor_style),
                Span::raw(&row[end..]),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn footer(frame: &mut Frame, app: &App, c: &Composer, stage: Stage, area: Rect) {
    let theme = &app.settings.theme;
    let line = match stage {
        Stage::Status { .. } => Line::styled(
            "Enter chooses; its template fills the evidence unless you have written text (keys: status bar, ? help).",
            theme.dim,
        ),
        Stage::Evidence => {
            let budget = c.budget();
            let style = match budget {
                Budget::Fits { .. } => theme.accent,
                _ => theme.error,
            };
            Line::from(Span::styled(budget.text(), style))
        }
        Stage::Confirm { yes, .. } => question(app, c, yes),
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn question(app: &App, c: &Composer, yes: bool) -> Line<'static> {
    let theme = &app.settings.theme;
    let n = c.targets.len();
    let what = match (c.system, n) {
        (System::ReviewGate, 1) => "Record this decision on GitHub?".to_string(),
        (System::ReviewGate, n) => format!("Record these {n} decisions on GitHub?"),
        (System::River, 1) => "Write this decision to River Review's files?".to_string(),
        (System::River, n) => format!("Write these {n} decisions to River Review's files?"),
    };
    let chosen = theme.selected.add_modifier(Modifier::REVERSED);
    if super::preview::yes_blocked(app).is_some() {
        // The full reason is in the preview's actor line and, after `y`, the status line.
        let why = match app.decide.actor {
            crate::tui::decision_state::Actor::Unavailable(_) => "Yes is unavailable: actor unknown (see the preview).",
            _ => "Yes waits for your GitHub login…",
        };
        return Line::from(vec![
            Span::styled(what, tone_style(theme, Tone::Heading)),
            Span::raw("  "),
            Span::styled("[ No ]", chosen),
            Span::raw(" "),
            Span::styled("[ Yes ]", theme.dim.add_modifier(Modifier::CROSSED_OUT)),
            Span::styled(format!("  {why}"), theme.warning),
        ]);
    }
    let (no, yes_style) = if yes {
        (Style::new(), chosen)
    } else {
        (chosen, Style::new())
    };
    Line::from(vec![
        Span::styled(what, tone_style(theme, Tone::Heading)),
        Span::raw("  "),
        Span::styled("[ No ]", no),
        Span::raw(" "),
        Span::styled("[ Yes ]", yes_style),
        Span::styled("  (Enter takes the highlighted answer)", theme.dim),
    ])
}
