//! The panel's lines before wrapping: the head line, each excerpt with its
//! verdict and code, and the evidence stated without a place.

use super::styles::{Styles, span};
use crate::checkout::{ExcerptMatch, Revision};
use crate::model::finding::Side;
use crate::sanitize::{DEFAULT_TAB_WIDTH, clean, clean_lines};
use crate::tui::highlight::StyledLine;
use crate::tui::present::evidence::{EvidenceView, ExcerptView, HeadLine, LocalView, split_count};
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

/// Where the context was read from, in words (the working tree is flagged
/// as possibly not what was reviewed).
fn revision_words(revision: &Revision, side: Side) -> String {
    match (revision, side) {
        (Revision::Commit(_), Side::Old) => format!("{} (parent of the reviewed commit)", revision.origin()),
        _ => revision.origin(),
    }
}

/// The verdict line of the local check, if there is one.
fn verdict<'a>(item: &ExcerptView, s: &Styles) -> Option<Line<'a>> {
    let (text, style) = match &item.local {
        LocalView::NoCheckout => return None,
        LocalView::Pending => ("… reading the file".to_string(), s.dim()),
        LocalView::Unavailable(why) => (format!("! not checked: {}", clean(why, DEFAULT_TAB_WIDTH)), s.warn()),
        LocalView::Checked(c) => {
            let place = revision_words(&c.revision, item.side);
            match c.found {
                ExcerptMatch::AtLine(n) => (format!("✓ excerpt matches at line {n} · {place}"), s.good()),
                ExcerptMatch::Moved { from, to } => (
                    format!("↪ excerpt moved: found at line {to}, not at line {from} · {place}"),
                    s.warn(),
                ),
                ExcerptMatch::NotFound => (
                    format!("✗ excerpt not found (white space ignored); stated line marked · {place}"),
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
/// (counted from the first line of the block, `first` being the index of
/// `lines[0]`) and whether it is emphasised.
fn code_lines<'a>(
    lines: &'a [StyledLine],
    first: usize,
    bar: &'static str,
    number: impl Fn(usize) -> (String, bool),
    s: &Styles,
) -> impl Iterator<Item = Line<'a>> {
    lines.iter().enumerate().map(move |(i, spans)| {
        let (gutter, marked) = number(first + i);
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
}

/// The lines of one excerpt, without the blank line before it.
pub fn item_line_count(item: &ExcerptView) -> usize {
    let verdict = usize::from(!matches!(item.local, LocalView::NoCheckout));
    let context = match &item.local {
        LocalView::Checked(c) => c.lines.len(),
        _ => 0,
    };
    1 + item.reason.len() + item.excerpt.len() + verdict + context
}

/// `part[range ∩ at..at+part.len()]`, relative to `part`, and the index of
/// its first element within `part`.
fn overlap<'a, T>(part: &'a [T], at: usize, range: &std::ops::Range<usize>) -> (&'a [T], usize) {
    let from = range.start.max(at).min(at + part.len()) - at;
    let to = range.end.max(at).min(at + part.len()) - at;
    (&part[from..to.max(from)], from)
}

/// The lines `range` (counted within the excerpt) of one excerpt.
fn item_lines<'a>(item: &'a ExcerptView, s: &Styles, range: std::ops::Range<usize>) -> Vec<Line<'a>> {
    let mut out = Vec::new();
    if range.contains(&0) {
        out.push(Line::from(vec![
            span(&item.path, s.path()),
            Span::styled(format!(":{}", item.line), s.path()),
            Span::styled(format!("  {} side", item.side.as_str()), s.dim()),
        ]));
    }
    let mut at = 1;
    let (reasons, _) = overlap(&item.reason, at, &range);
    for reason in reasons {
        out.push(Line::from(vec![
            Span::raw("  "),
            span(reason, Style::new().add_modifier(Modifier::ITALIC)),
        ]));
    }
    at += item.reason.len();
    let width = item.line.to_string().len().max(4);
    let (excerpt, first) = overlap(&item.excerpt, at, &range);
    let gutter = |i: usize| {
        let text = if i == 0 { item.line.to_string() } else { String::new() };
        (format!("  {text:>width$}"), false)
    };
    out.extend(code_lines(excerpt, first, QUOTE_BAR, gutter, s));
    at += item.excerpt.len();
    if let Some(line) = verdict(item, s) {
        if range.contains(&at) {
            out.push(line);
        }
        at += 1;
    }
    if let LocalView::Checked(c) = &item.local {
        let last = c.first_line + c.lines.len().saturating_sub(1);
        let width = last.to_string().len().max(4);
        let (context, first) = overlap(&c.lines, at, &range);
        let gutter = |i: usize| {
            let n = c.first_line + i;
            let marked = c.marked.contains(&n);
            (format!("{}{n:>width$}", if marked { "▶ " } else { "  " }), marked)
        };
        out.extend(code_lines(context, first, CONTEXT_BAR, gutter, s));
    }
    out
}

/// Lines of the head block (the head line, and the "no evidence" line).
fn head_count(data: &EvidenceView) -> usize {
    match data.window.skip_head {
        true => 0,
        false => 1 + usize::from(data.items.is_empty() && data.stated.is_empty()),
    }
}

/// Every line of the panel that `data` holds, before wrapping.
pub fn lines(data: &EvidenceView) -> Vec<Line<'_>> {
    visible_lines(data, 0, usize::MAX)
}

/// The `take` lines of `data` from its line `skip` on, before wrapping. Only
/// those lines are made, so the cost follows `take`, not the evidence.
pub fn visible_lines(data: &EvidenceView, skip: usize, take: usize) -> Vec<Line<'_>> {
    let s = Styles { color: data.color };
    let range = skip..skip.saturating_add(take);
    let mut out = Vec::new();
    let mut at = 0;
    if !data.window.skip_head {
        if range.contains(&0) {
            out.push(Line::styled(data.head.text(), head_style(&data.head, &s)));
        }
        if head_count(data) == 2 && range.contains(&1) {
            out.push(Line::styled("No evidence excerpts for this finding.", s.dim()));
        }
        at = head_count(data);
    }
    for item in &data.items {
        if at >= range.end {
            return out;
        }
        let count = 1 + item_line_count(item);
        if at + count > range.start {
            if range.contains(&at) {
                out.push(Line::default());
            }
            let within = range.start.saturating_sub(at + 1)..range.end.saturating_sub(at + 1);
            out.extend(item_lines(item, &s, within));
        }
        at += count;
    }
    if !data.stated.is_empty() && !data.window.skip_stated_heading {
        for line in [
            Line::default(),
            Line::styled("Evidence as stated (no place given):", s.dim()),
        ] {
            if range.contains(&at) {
                out.push(line);
            }
            at += 1;
        }
    }
    for text in &data.stated {
        for line in clean_lines(text, DEFAULT_TAB_WIDTH) {
            if at >= range.end {
                return out;
            }
            if range.contains(&at) {
                out.push(Line::from(vec![Span::raw("  "), Span::raw(Cow::Owned(line))]));
            }
            at += 1;
        }
    }
    out
}

/// Number of panel lines before wrapping (for scroll limits): of the whole
/// panel when `data` is a window of it.
pub fn line_count(data: &EvidenceView) -> usize {
    if let Some(total) = data.window.total_lines {
        return total;
    }
    let items: usize = data.items.iter().map(|i| 1 + item_line_count(i)).sum();
    let heading = if data.stated.is_empty() || data.window.skip_stated_heading {
        0
    } else {
        2
    };
    let stated: usize = data.stated.iter().map(|t| split_count(t)).sum();
    head_count(data) + items + heading + stated
}
