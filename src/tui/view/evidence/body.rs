//! The panel's lines before wrapping: the head line, each excerpt with its
//! verdict and code, and the evidence stated without a place.

use super::model::{EvidenceView, ExcerptView, HeadLine, LocalView};
use super::styles::{Styles, span};
use crate::checkout::{ExcerptMatch, Revision};
use crate::model::finding::Side;
use crate::sanitize::{DEFAULT_TAB_WIDTH, clean, clean_lines};
use crate::tui::highlight::StyledLine;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use std::borrow::Cow;

/// The style of the head line.
fn head_style(head: &HeadLine, s: &Styles) -> Style {
    match head {
        HeadLine::Same => s.good(),
        HeadLine::Different { .. } | HeadLine::Unknown { .. } => s.warn(),
        _ => s.dim(),
    }
}

/// Where the file was read from, in words.
fn revision_words(revision: &Revision, side: Side) -> String {
    match (revision, side) {
        (Revision::Commit(_), Side::Old) => format!("{revision} (parent of the reviewed commit)"),
        _ => revision.to_string(),
    }
}

/// The verdict line of the local check, if there is one.
fn verdict<'a>(item: &ExcerptView, s: &Styles) -> Option<Line<'a>> {
    let (text, style) = match &item.local {
        LocalView::NoCheckout => return None,
        LocalView::Pending => ("… reading the local file".to_string(), s.dim()),
        LocalView::Unavailable(why) => (format!("! not checked: {}", clean(why, DEFAULT_TAB_WIDTH)), s.warn()),
        LocalView::Checked(c) => {
            let place = revision_words(&c.revision, item.side);
            match c.found {
                ExcerptMatch::AtLine(n) => (format!("✓ excerpt matches {place} at line {n}"), s.good()),
                ExcerptMatch::Moved { from, to } => (
                    format!("↪ excerpt moved: found at line {to} of {place}, not at line {from}"),
                    s.warn(),
                ),
                ExcerptMatch::NotFound => (
                    format!("✗ excerpt not found in {place} (white space ignored); stated line marked"),
                    s.bad(),
                ),
            }
        }
    };
    Some(Line::from(vec![Span::raw("  "), Span::styled(text, style)]))
}

/// Gutter bar of the quoted excerpt (heavy) and of checkout context (light).
const QUOTE_BAR: &str = " ┃ ";
const CONTEXT_BAR: &str = " │ ";

/// Code lines behind a gutter; `number(i)` gives the gutter text of line i
/// and whether it is emphasised.
fn code_lines<'a>(
    lines: &'a [StyledLine],
    bar: &'static str,
    number: impl Fn(usize) -> (String, bool),
    s: &Styles,
) -> Vec<Line<'a>> {
    lines
        .iter()
        .enumerate()
        .map(|(i, spans)| {
            let (gutter, marked) = number(i);
            let gutter_style = if marked { s.marked() } else { s.dim() };
            let mut out = vec![Span::styled(gutter, gutter_style), Span::styled(bar, s.dim())];
            for (style, text) in spans {
                let style = if marked {
                    style.add_modifier(Modifier::BOLD)
                } else {
                    *style
                };
                out.push(span(text, style));
            }
            Line::from(out)
        })
        .collect()
}

/// The lines of one excerpt.
fn item_lines<'a>(item: &'a ExcerptView, s: &Styles) -> Vec<Line<'a>> {
    let mut out = vec![Line::from(vec![
        span(&item.path, s.path()),
        Span::styled(format!(":{}", item.line), s.path()),
        Span::styled(format!("  {} side", item.side.as_str()), s.dim()),
    ])];
    for reason in &item.reason {
        out.push(Line::from(vec![
            Span::raw("  "),
            span(reason, Style::new().add_modifier(Modifier::ITALIC)),
        ]));
    }
    let width = item.line.to_string().len().max(4);
    out.extend(code_lines(
        &item.excerpt,
        QUOTE_BAR,
        |i| {
            (
                if i == 0 {
                    format!("  {:>width$}", item.line)
                } else {
                    format!("  {:>width$}", "")
                },
                false,
            )
        },
        s,
    ));
    out.extend(verdict(item, s));
    if let LocalView::Checked(c) = &item.local {
        let last = c.first_line + c.lines.len().saturating_sub(1);
        let width = last.to_string().len().max(4);
        out.extend(code_lines(
            &c.lines,
            CONTEXT_BAR,
            |i| {
                let n = c.first_line + i;
                let marked = c.marked.contains(&n);
                (format!("{}{n:>width$}", if marked { "▶ " } else { "  " }), marked)
            },
            s,
        ));
    }
    out
}

/// Every line of the panel, before wrapping.
pub fn lines(data: &EvidenceView) -> Vec<Line<'_>> {
    let s = Styles { color: data.color };
    let mut out = vec![Line::styled(data.head.text(), head_style(&data.head, &s))];
    if data.items.is_empty() && data.stated.is_empty() {
        out.push(Line::styled("No evidence excerpts for this finding.", s.dim()));
    }
    for item in &data.items {
        out.push(Line::default());
        out.extend(item_lines(item, &s));
    }
    if !data.stated.is_empty() {
        out.push(Line::default());
        out.push(Line::styled("Evidence as stated (no place given):", s.dim()));
        for text in &data.stated {
            for line in clean_lines(text, DEFAULT_TAB_WIDTH) {
                out.push(Line::from(vec![Span::raw("  "), Span::raw(Cow::Owned(line))]));
            }
        }
    }
    out
}

/// Number of panel lines before wrapping (for scroll limits).
pub fn line_count(data: &EvidenceView) -> usize {
    lines(data).len()
}
