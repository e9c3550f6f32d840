//! The composer as data: its regions on screen, its header lines and the
//! preview wrapped to its width. `update` uses these to scroll the preview
//! and to keep the editor's cursor in view; the composer's drawing uses the
//! same facts, so both agree on every line.

use super::choice::{Choice, System, is_high};
use super::{Composer, Stage};
use crate::model::finding::RiverSeverity;
use crate::tui::app::App;
use crate::tui::layout::{self, Areas};
use crate::tui::text::{TextLine, Tone, wrap};
use ratatui::layout::{Constraint, Layout, Rect};

/// The composer's regions.
pub struct Regions {
    /// The overlay with its border.
    pub outer: Rect,
    /// The findings named, the River warning, the status chosen.
    pub header: Rect,
    /// The status list, the editor or the preview.
    pub body: Rect,
    /// The byte counter or the question.
    pub footer: Rect,
}

/// Where the parts of the composer go at `stage`.
pub fn regions(app: &App, stage: Stage) -> Regions {
    let outer = layout::overlay(app);
    let inner = Areas::inner(outer);
    let header_h = u16::try_from(header(app, stage, inner.width).len()).unwrap_or(u16::MAX);
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(header_h.min(inner.height / 3)),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    Regions {
        outer,
        header,
        body,
        footer,
    }
}

/// The preview wrapped to the composer's width.
pub fn preview_lines(app: &App) -> Vec<TextLine> {
    let width = regions(app, Stage::Confirm { scroll: 0, yes: false }).body.width;
    wrap(&super::preview::lines(app), width)
}

/// Where the evidence text goes (inside the editor's border).
pub fn editor_area(app: &App) -> Rect {
    Areas::inner(regions(app, Stage::Evidence).body)
}

/// The most severe River severity among the targets.
pub fn river_severity(app: &App, c: &Composer) -> Option<RiverSeverity> {
    c.targets
        .iter()
        .filter_map(|&i| app.doc.findings().get(i)?.river()?.severity)
        .min_by_key(|s| s.rank())
}

/// The header wrapped to `width`.
pub fn header(app: &App, stage: Stage, width: u16) -> Vec<TextLine> {
    wrap(&header_lines(app, stage), width)
}

/// The header before wrapping.
pub fn header_lines(app: &App, stage: Stage) -> Vec<TextLine> {
    let Some(c) = &app.decide.composer else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(note) = &c.note {
        out.push(TextLine::one(Tone::Warning, note.clone()));
    }
    match c.targets.as_slice() {
        [one] => {
            if let Some(row) = app.doc.row(*one) {
                out.push(
                    TextLine::one(Tone::Severity(row.rank as u8), format!("{} ", row.rank.as_str()))
                        .push(Tone::Label, format!("{}  ", row.location))
                        .push(Tone::Plain, row.headline.clone()),
                );
            }
        }
        many => out.push(TextLine::one(
            Tone::Heading,
            format!(
                "{} marked findings: one decision, recorded for each in turn",
                many.len()
            ),
        )),
    }
    let severity = river_severity(app, c);
    if c.system == System::River && is_high(severity) {
        let sev = severity.map_or("", |s| s.as_str());
        out.push(TextLine::one(
            Tone::Warning,
            format!(
                " This finding is {sev}: River Review suppresses major and critical findings only with accepted_risk; any other status writes feedback only. "
            ),
        ));
    }
    if let (Some(choice), false) = (c.choice, matches!(stage, Stage::Status { .. })) {
        out.push(
            TextLine::one(Tone::Label, "status: ")
                .push(Tone::Accent, choice.name())
                .push(
                    Tone::Dim,
                    format!(" · {} · {}", choice.guidance(), choice.effect(severity)),
                ),
        );
        if let Choice::River(status) = choice {
            out.extend(super::river_gate::lines(
                &super::river_gate::gate_warnings(app, c, status),
                false,
            ));
        }
    }
    out
}
