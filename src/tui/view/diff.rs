//! The diff view (`D`): the pull request's hunk around each evidence line,
//! drawn from the rows [`crate::tui::diff`] prepared (sanitised, maybe
//! highlighted). Removed lines carry `-` and the old number, added lines `+`
//! and the new number; evidence lines are marked `▶` and emphasised. A line
//! wider than the view wraps under its code column (`↪` in the gutter), so
//! nothing is cut.

use crate::checkout::diff::LineKind;
use crate::tui::app::App;
use crate::tui::diff::{DiffView, Row, RowKind};
use crate::tui::layout::Areas;
use ratatui::Frame;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

fn number(n: Option<u32>) -> String {
    n.map_or_else(|| "     ".to_string(), |n| format!("{n:>5}"))
}

/// Columns of a code line's gutter and sign (`▶  old   new + `).
const GUTTER_COLS: usize = 15;

/// One row as screen lines `width` columns wide: a code line wraps under its
/// code column; `color` allows colours (not under `NO_COLOR`).
fn lines_of<'a>(row: &'a Row, app: &App, color: bool, width: usize) -> Vec<Line<'a>> {
    let whole = line(row, app, color);
    if !matches!(row.kind, RowKind::Line { .. }) || whole.width() <= width || width <= GUTTER_COLS + 4 {
        return vec![whole];
    }
    let mut spans = whole.spans.into_iter();
    let head: Vec<Span<'a>> = spans.by_ref().take(2).collect();
    let room = width - GUTTER_COLS;
    let mut out: Vec<Vec<Span<'a>>> = vec![head];
    let mut used = 0;
    for span in spans {
        let mut piece = String::new();
        for c in span.content.chars() {
            let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            if used + w > room {
                if let Some(last) = out.last_mut() {
                    last.push(Span::styled(std::mem::take(&mut piece), span.style));
                }
                let cont = format!("{:>width$} ", "↪", width = GUTTER_COLS - 1);
                out.push(vec![Span::styled(cont, app.settings.theme.dim)]);
                used = 0;
            }
            used += w;
            piece.push(c);
        }
        if let Some(last) = out.last_mut() {
            last.push(Span::styled(piece, span.style));
        }
    }
    out.into_iter().map(Line::from).collect()
}

/// One row as a line; `color` allows colours (not under `NO_COLOR`).
fn line<'a>(row: &'a Row, app: &App, color: bool) -> Line<'a> {
    let theme = &app.settings.theme;
    let fg = |c: Color| if color { Style::new().fg(c) } else { Style::new() };
    let text = || row.text.iter().map(|(style, t)| Span::styled(t.as_str(), *style));
    match &row.kind {
        RowKind::Heading => Line::from(
            text()
                .map(|s| s.style(fg(Color::Cyan).add_modifier(Modifier::BOLD)))
                .collect::<Vec<_>>(),
        ),
        RowKind::Note => Line::from(text().map(|s| s.style(theme.dim)).collect::<Vec<_>>()),
        RowKind::Section => Line::from(text().map(|s| s.style(fg(Color::Magenta))).collect::<Vec<_>>()),
        RowKind::Blank => Line::default(),
        RowKind::Line { kind, old, new, marked } => {
            let (sign, sign_style) = match kind {
                LineKind::Added => ("+", fg(Color::Green).add_modifier(Modifier::BOLD)),
                LineKind::Removed => ("-", fg(Color::Red).add_modifier(Modifier::BOLD)),
                LineKind::Context => (" ", Style::new()),
            };
            let mark = if *marked { "▶" } else { " " };
            let gutter = format!("{mark}{} {} ", number(*old), number(*new));
            let gutter_style = if *marked {
                Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED)
            } else {
                theme.dim
            };
            let mut spans = vec![
                Span::styled(gutter, gutter_style),
                Span::styled(format!("{sign} "), sign_style),
            ];
            let code = text().map(|s| {
                if *marked {
                    s.patch_style(Style::new().add_modifier(Modifier::BOLD))
                } else {
                    s
                }
            });
            spans.extend(code);
            Line::from(spans)
        }
    }
}

/// Draws the view from `scroll` on.
pub fn render(frame: &mut Frame, app: &App, scroll: usize) {
    let area = crate::tui::layout::diff_area(app);
    let theme = &app.settings.theme;
    let title = match &app.diff {
        DiffView::Loading { .. } => " Change around the evidence (reading…) ",
        _ => " Change around the evidence (D) ",
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus)
        .title(Span::styled(title, theme.heading))
        .title_bottom(Span::styled(" j/k PgUp/PgDn scroll · Esc close ", theme.dim));
    let inner = Areas::inner(area);
    let lines: Vec<Line> = match &app.diff {
        DiffView::Loading { .. } => vec![Line::styled("… reading the change", theme.dim)],
        DiffView::Closed => Vec::new(),
        DiffView::Shown { rows, .. } => rows
            .iter()
            .skip(scroll)
            .take(usize::from(inner.height))
            .flat_map(|r| lines_of(r, app, app.settings.color, usize::from(inner.width)))
            .take(usize::from(inner.height))
            .collect(),
    };
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    #[test]
    fn a_long_line_wraps_under_its_code_instead_of_being_cut() {
        let mut app = fixture::app(fixture::sample_set(), (60, 12));
        let long = format!("let total = {}end_marker;", "amount + ".repeat(12));
        let row = |kind, text: &str| Row {
            kind,
            text: vec![(Style::new(), text.to_string())],
        };
        let rows = vec![
            row(RowKind::Heading, "src/pay.rs (new side)"),
            row(
                RowKind::Line {
                    kind: LineKind::Added,
                    old: None,
                    new: Some(7),
                    marked: true,
                },
                &long,
            ),
            row(
                RowKind::Line {
                    kind: LineKind::Context,
                    old: Some(8),
                    new: Some(8),
                    marked: false,
                },
                "short",
            ),
        ];
        app.diff = DiffView::Shown {
            finding: 0,
            report: Err(crate::tui::message::failure::DiffError::NoPull { local: None }),
            rows,
            waiting: Default::default(),
        };
        let mut term = Terminal::new(TestBackend::new(60, 12)).unwrap_or_else(|e| panic!("{e}"));
        term.draw(|f| render(f, &app, 0)).unwrap_or_else(|e| panic!("{e}"));
        let text = term.backend().to_string();
        let flat: String = text
            .lines()
            .map(|l| {
                l.trim_matches('"')
                    .trim_matches('│')
                    .trim_start_matches(|c: char| c.is_ascii_digit() || " ▶+↪".contains(c))
            })
            .collect();
        assert!(flat.replace(' ', "").contains(&long.replace(' ', "")), "{text}");
        assert!(text.contains('↪'), "{text}");
        assert!(text.lines().filter(|l| l.contains('↪')).count() >= 2, "{text}");
        assert!(text.contains("short"), "{text}");
    }
}
