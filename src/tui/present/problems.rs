//! The problems overlay: every validation problem, angle error, projection
//! problem and notice of the loaded file.

use super::banner::{angle_error_line, problem_line};
use crate::model::review::Projection;
use crate::tui::app::{App, Document};
use crate::tui::layout::{self, Areas};
use crate::tui::text::{TextLine, Tone, wrap};

fn section<'a, T: 'a>(
    out: &mut Vec<TextLine>,
    title: &str,
    items: impl ExactSizeIterator<Item = &'a T>,
    line: impl Fn(&T) -> TextLine,
) {
    if items.len() == 0 {
        return;
    }
    out.push(TextLine::one(Tone::Heading, format!("{title} ({})", items.len())));
    out.extend(items.map(line));
    out.push(TextLine::blank());
}

/// The overlay's lines wrapped to its inside (what is drawn and scrolled).
pub fn shown(app: &App) -> Vec<TextLine> {
    wrap(&lines(&app.doc), Areas::inner(layout::overlay(app)).width)
}

/// Every line of the overlay.
pub fn lines(doc: &Document) -> Vec<TextLine> {
    let mut out = Vec::new();
    section(
        &mut out,
        "Validation problems (the file is read-only)",
        doc.problems.iter(),
        problem_line,
    );
    if let Some(set) = &doc.set {
        section(
            &mut out,
            "Angle errors (the review did not complete)",
            set.angle_errors.iter(),
            angle_error_line,
        );
        if let Projection::Failed(problems) = &set.projection {
            section(&mut out, "No agent-result projection", problems.iter(), problem_line);
        }
        section(&mut out, "Notices", set.notices.iter(), problem_line);
    }
    if out.is_empty() {
        out.push(TextLine::one(Tone::Dim, "No problems, angle errors or notices."));
    }
    out
}
