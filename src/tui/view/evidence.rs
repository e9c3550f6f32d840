//! The evidence panel: each excerpt with its place and reason, its
//! (highlighted or plain) text, what the local checkout says about it, and
//! whether the checkout's HEAD is the reviewed commit.
//!
//! Drawn from an [`EvidenceView`] the App prepares; nothing here reads
//! files, runs git or highlights. Every piece of text goes through the
//! sanitiser again as it becomes a span (free for clean text), so even a
//! carelessly built `EvidenceView` cannot put a control character on screen.
//!
//! Per excerpt: `path:line  side`, the reason, the quoted excerpt behind a
//! heavy bar (`┃`), the verdict of the local check (`✓` matches, `↪` moved,
//! `✗` not found, `!` not checked, `…` pending), then the checkout's lines
//! behind a light bar (`│`) with the matched lines marked `▶` and emphasised.

use crate::checkout::{ExcerptMatch, HeadMatch, LocalEvidence, Revision, short};
use crate::model::finding::{Evidence, Side};
use crate::sanitize::{DEFAULT_TAB_WIDTH, clean, clean_lines};
use crate::tui::highlight::{HighlightJob, Highlighter, StyledLine, plain_lines};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use std::borrow::Cow;
use std::ops::RangeInclusive;

/// Everything the evidence panel shows for one finding.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EvidenceView {
    /// How the checkout's HEAD relates to the reviewed commit.
    pub head: HeadLine,
    /// One entry per evidence excerpt, in file order.
    pub items: Vec<ExcerptView>,
    /// Free-text evidence without a place (River's `evidence` strings).
    pub stated: Vec<String>,
    /// Lines scrolled off the top.
    pub scroll: u16,
    /// The panel has the keyboard focus.
    pub focused: bool,
    /// Colours allowed (false under `NO_COLOR`: glyphs and attributes only).
    pub color: bool,
}

/// The checkout HEAD line at the top of the panel.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum HeadLine {
    /// No local checkout was found or given.
    #[default]
    NoCheckout,
    /// A checkout exists but the review names no reviewed commit (River).
    NoReviewedSha,
    /// HEAD is still being read.
    Pending,
    /// HEAD is the reviewed commit.
    Same,
    /// HEAD is another commit.
    Different { head: String, reviewed: String },
    /// HEAD could not be read (or the reviewed id is malformed).
    Unknown { reviewed: String },
}

impl HeadLine {
    /// The line for a [`HeadMatch`] against the (untrusted) reviewed id.
    pub fn from_match(found: &HeadMatch, reviewed: &str) -> HeadLine {
        match found {
            HeadMatch::Same => HeadLine::Same,
            HeadMatch::Different { head } => HeadLine::Different {
                head: head.clone(),
                reviewed: reviewed.to_string(),
            },
            HeadMatch::Unknown => HeadLine::Unknown {
                reviewed: reviewed.to_string(),
            },
        }
    }

    /// The sentence shown, with its glyph.
    pub fn text(&self) -> String {
        let id = |s: &str| clean(short(s), DEFAULT_TAB_WIDTH).into_owned();
        match self {
            HeadLine::NoCheckout => "· no local checkout".to_string(),
            HeadLine::NoReviewedSha => "· local checkout; the review names no reviewed commit".to_string(),
            HeadLine::Pending => "… reading the checkout HEAD".to_string(),
            HeadLine::Same => "✓ checkout HEAD is the reviewed commit".to_string(),
            HeadLine::Different { head, reviewed } => {
                format!("! checkout HEAD {} differs from reviewed {}", id(head), id(reviewed))
            }
            HeadLine::Unknown { reviewed } => {
                format!("? checkout HEAD unknown (reviewed {})", id(reviewed))
            }
        }
    }
}

/// One evidence excerpt as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct ExcerptView {
    pub path: String,
    pub side: Side,
    pub line: u32,
    /// The reason, one entry per line.
    pub reason: Vec<String>,
    /// The excerpt lines, highlighted when ready, else plain.
    pub excerpt: Vec<StyledLine>,
    /// What the local checkout says.
    pub local: LocalView,
}

/// The local-checkout part of one excerpt.
#[derive(Debug, Clone, PartialEq)]
pub enum LocalView {
    /// No checkout to compare with (the head line says so).
    NoCheckout,
    /// The file is still being read.
    Pending,
    /// The file could not be read; the reason is shown.
    Unavailable(String),
    /// The file was read and the excerpt looked for.
    Checked(CheckedView),
}

/// An excerpt checked against the checkout.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedView {
    pub found: ExcerptMatch,
    pub revision: Revision,
    /// Number of the first context line (1-based).
    pub first_line: usize,
    /// Context lines, highlighted when ready, else plain.
    pub lines: Vec<StyledLine>,
    /// Lines to emphasise (the matched block, or the stated line).
    pub marked: RangeInclusive<usize>,
}

/// The raw lines of an excerpt as highlighted: split at LF, a CR before
/// it dropped.
pub fn excerpt_raw_lines(excerpt: &str) -> Vec<String> {
    excerpt.lines().map(str::to_string).collect()
}

/// The highlight job of an excerpt (the runtime queues it; the view finds
/// the result under the same key).
pub fn excerpt_job(evidence: &Evidence) -> HighlightJob {
    HighlightJob {
        path: evidence.path.clone(),
        lines: excerpt_raw_lines(&evidence.excerpt),
    }
}

/// The highlight job of the context read from the checkout.
pub fn context_job(path: &str, local: &LocalEvidence) -> HighlightJob {
    HighlightJob {
        path: path.to_string(),
        lines: local.lines.clone(),
    }
}

/// The cached highlighting of `lines`, else the plain sanitised lines.
fn styled_or_plain(path: &str, lines: &[String], highlighter: Option<&Highlighter>) -> Vec<StyledLine> {
    if let Some(done) = highlighter.and_then(|h| h.cached(path, lines)) {
        return done.as_ref().clone();
    }
    let clean: Vec<String> = lines.iter().map(|l| clean(l, DEFAULT_TAB_WIDTH).into_owned()).collect();
    plain_lines(&clean)
}

impl ExcerptView {
    /// Builds the view of one evidence item; uses highlighting only if it
    /// is already cached (never waits).
    pub fn new(evidence: &Evidence, local: LocalView, highlighter: Option<&Highlighter>) -> ExcerptView {
        let raw = excerpt_raw_lines(&evidence.excerpt);
        ExcerptView {
            path: clean(&evidence.path, DEFAULT_TAB_WIDTH).into_owned(),
            side: evidence.side,
            line: evidence.line,
            reason: clean_lines(&evidence.reason, DEFAULT_TAB_WIDTH),
            excerpt: styled_or_plain(&evidence.path, &raw, highlighter),
            local,
        }
    }
}

impl LocalView {
    /// The view of a checked excerpt; uses cached highlighting if ready.
    pub fn checked(path: &str, local: &LocalEvidence, highlighter: Option<&Highlighter>) -> LocalView {
        LocalView::Checked(CheckedView {
            found: local.found,
            revision: local.revision.clone(),
            first_line: local.first_line,
            lines: styled_or_plain(path, &local.lines, highlighter),
            marked: local.marked.clone(),
        })
    }

    /// The view of a read that failed (any error with a message).
    pub fn unavailable(err: &impl std::fmt::Display) -> LocalView {
        LocalView::Unavailable(clean(&err.to_string(), DEFAULT_TAB_WIDTH).into_owned())
    }
}

/// Styles of the panel; colours only when allowed.
struct Styles {
    color: bool,
}

impl Styles {
    fn fg(&self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }
    fn good(&self) -> Style {
        self.fg(Color::Green)
    }
    fn warn(&self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }
    fn bad(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
    fn dim(&self) -> Style {
        Style::new().add_modifier(Modifier::DIM)
    }
    fn path(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }
    fn marked(&self) -> Style {
        Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED)
    }
}

/// A span of (possibly untrusted) text, sanitised on the way.
fn span<'a>(text: &'a str, style: Style) -> Span<'a> {
    Span::styled(clean(text, DEFAULT_TAB_WIDTH), style)
}

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

/// Draws the panel into `area`: a bordered block, long lines wrapped.
pub fn render(frame: &mut Frame, area: Rect, data: &EvidenceView) {
    let s = Styles { color: data.color };
    let border = if data.focused {
        s.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    } else {
        s.dim()
    };
    let block = Block::bordered()
        .title(format!(" Evidence ({}) ", data.items.len()))
        .border_style(border);
    let paragraph = Paragraph::new(lines(data))
        .block(block)
        .wrap(Wrap { trim: false })
        .scroll((data.scroll, 0));
    frame.render_widget(paragraph, area);
}

#[cfg(test)]
mod tests;
