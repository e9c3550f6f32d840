//! Styled, already-sanitised text lines and word wrapping by display width.
//!
//! Panes build [`TextLine`]s from model text once (through the sanitiser) and
//! wrap them to the pane width in `update`; drawing only slices the result.

use crate::sanitize::{DEFAULT_TAB_WIDTH, clean_lines};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The role of a piece of text; the view maps it to a theme style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Plain,
    Heading,
    Label,
    Dim,
    Warning,
    Error,
    Code,
    Accent,
    /// Severity-coloured text (index 0..4 = P0..P4).
    Severity(u8),
}

/// One display line: spans of sanitised text with their tone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TextLine {
    pub spans: Vec<(Tone, String)>,
}

impl TextLine {
    /// An empty line.
    pub fn blank() -> TextLine {
        TextLine::default()
    }

    /// A line of one span. `text` must already be sanitised.
    pub fn one(tone: Tone, text: impl Into<String>) -> TextLine {
        TextLine {
            spans: vec![(tone, text.into())],
        }
    }

    /// Appends a span. `text` must already be sanitised.
    pub fn push(mut self, tone: Tone, text: impl Into<String>) -> TextLine {
        self.spans.push((tone, text.into()));
        self
    }

    /// The plain text (tests and search).
    pub fn plain(&self) -> String {
        self.spans.iter().map(|(_, t)| t.as_str()).collect()
    }
}

/// Splits untrusted multi-line text into sanitised display lines (LF, CR LF
/// and lone CR end a line; tabs expand).
pub fn lines_of(text: &str) -> Vec<String> {
    clean_lines(text, DEFAULT_TAB_WIDTH)
}

/// Wraps lines to `width` columns, breaking at spaces where possible and
/// inside words otherwise. Continuation lines keep the first span's tone.
pub fn wrap(lines: &[TextLine], width: u16) -> Vec<TextLine> {
    let width = usize::from(width.max(1));
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        wrap_line(line, width, &mut out);
    }
    out
}

fn wrap_line(line: &TextLine, width: usize, out: &mut Vec<TextLine>) {
    // Continuation lines keep the line's leading indentation (up to half the width).
    let indent = line
        .spans
        .first()
        .map_or(0, |(_, t)| t.len() - t.trim_start_matches(' ').len())
        .min(width / 2);
    let mut current = TextLine::blank();
    let mut used = 0usize;
    for (tone, text) in &line.spans {
        let mut piece = String::new();
        let mut last_space: Option<usize> = None;
        for c in text.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > width && used > 0 {
                // Break at the last space of this span when there is one.
                let carry = match last_space {
                    Some(at) => {
                        let rest = piece.split_off(at);
                        rest.trim_start_matches(' ').to_string()
                    }
                    None => String::new(),
                };
                if !piece.is_empty() {
                    current.spans.push((*tone, std::mem::take(&mut piece)));
                }
                out.push(std::mem::take(&mut current));
                if indent > 0 {
                    current.spans.push((Tone::Plain, " ".repeat(indent)));
                }
                used = indent + carry.chars().map(|c| c.width().unwrap_or(0)).sum::<usize>();
                piece = carry;
                last_space = None;
            }
            if c == ' ' {
                last_space = Some(piece.len());
            }
            piece.push(c);
            used += w;
        }
        if !piece.is_empty() {
            current.spans.push((*tone, piece));
        }
    }
    out.push(current);
}

/// At most `max` cells of `s`, ending in `…` when cut.
pub fn truncate_end(s: &str, max: usize) -> String {
    if s.width() <= max {
        return s.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > max {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthStr;

    fn texts(lines: &[TextLine]) -> Vec<String> {
        lines.iter().map(TextLine::plain).collect()
    }

    #[test]
    fn wraps_at_spaces() {
        let line = TextLine::one(Tone::Plain, "the quick brown fox jumps");
        assert_eq!(texts(&wrap(&[line], 10)), ["the quick", "brown fox", "jumps"]);
    }

    #[test]
    fn breaks_long_words_and_keeps_tones() {
        let line = TextLine::one(Tone::Label, "claim: ").push(Tone::Plain, "abcdefghijkl");
        let wrapped = wrap(&[line], 8);
        assert!(wrapped.iter().all(|l| l.plain().width() <= 8), "{:?}", texts(&wrapped));
        assert_eq!(
            wrapped.iter().map(TextLine::plain).collect::<String>().replace(' ', ""),
            "claim:abcdefghijkl"
        );
        assert_eq!(wrapped[0].spans[0].0, Tone::Label);
    }

    #[test]
    fn wide_characters_count_double() {
        let line = TextLine::one(Tone::Plain, "日本語の文章です");
        let wrapped = wrap(&[line], 6);
        assert!(wrapped.iter().all(|l| l.plain().width() <= 6));
        assert_eq!(wrapped.len(), 3);
    }

    #[test]
    fn continuation_lines_keep_the_indent() {
        let line = TextLine::one(Tone::Plain, "  one two three four");
        assert_eq!(texts(&wrap(&[line], 10)), ["  one two", "  three", "  four"]);
    }

    #[test]
    fn empty_lines_survive() {
        assert_eq!(wrap(&[TextLine::blank()], 5).len(), 1);
    }

    #[test]
    fn lines_of_splits_at_every_line_end() {
        assert_eq!(lines_of("a\r\nb\nc\rd"), ["a", "b", "c", "d"]);
    }
}
