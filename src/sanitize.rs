//! Sanitising untrusted text for display: the one step between review-file
//! text (or anything else a model, GitHub or a user wrote) and any display.
//!
//! # What is replaced, and with what
//!
//! A character is *forbidden* on screen ([`is_forbidden`]) when it is:
//! - a C0 control (U+0000–U+001F, including TAB, LF and CR), DEL (U+007F) or
//!   a C1 control (U+0080–U+009F);
//! - a format control (general category Cf), which covers every bidi
//!   embedding, override and isolate (U+202A–U+202E, U+2066–U+2069), the
//!   marks U+200E, U+200F, U+061C, the zero-width characters U+200B–U+200D,
//!   U+2060–U+2064, U+FEFF, U+180E, the soft hyphen U+00AD and the tag
//!   characters U+E0001, U+E0020–U+E007F (which can smuggle invisible ASCII);
//! - the line and paragraph separators U+2028 and U+2029.
//!
//! Every forbidden character becomes a visible placeholder:
//! - TAB expands to spaces up to the next tab stop (display columns);
//! - a line break (LF, CR LF, or a lone CR) splits the text in
//!   [`clean_lines`]; in a single display line ([`clean`], [`clean_line`]) it
//!   becomes [`NEWLINE_MARK`] (`⏎`, one mark per break, CR LF counts once);
//! - any other C0 control becomes its Unicode control picture
//!   (U+2400 + code, e.g. ESC becomes `␛`), DEL becomes `␡`;
//! - everything else (C1, Cf, U+2028, U+2029) becomes `⟨U+XXXX⟩` with the
//!   code point in upper-case hex, at least four digits.
//!
//! An escape sequence therefore cannot act: `ESC [ 3 1 m` is shown as
//! `␛[31m`, an OSC title sequence as `␛]0;title␇`.
//!
//! Zero-width joiners are replaced too, also inside emoji sequences
//! (`👨‍👩‍👧` shows as `👨⟨U+200D⟩👩⟨U+200D⟩👧`): one rule for every format
//! control is easier to trust than an emoji grammar, and terminals disagree
//! on the width of joined emoji, which would misalign columns. Variation
//! selectors and combining marks are not controls and are kept.
//!
//! Cleaning is idempotent: the placeholders are themselves allowed, so
//! cleaning already-clean text returns it unchanged (and without copying).

use std::borrow::Cow;
use unicode_width::UnicodeWidthChar;

/// Tab stop width used by [`clean_line`].
pub const DEFAULT_TAB_WIDTH: usize = 4;

/// The mark shown for a line break inside one display line.
pub const NEWLINE_MARK: char = '\u{23CE}';

/// True for a format control (general category Cf, Unicode 16), plus the
/// unassigned U+2065 in the invisible-operator block.
fn is_format_control(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// True when `c` must never reach a display as itself (see the module docs).
pub fn is_forbidden(c: char) -> bool {
    if c.is_ascii() {
        return c < ' ' || c == '\u{7F}';
    }
    matches!(c, '\u{80}'..='\u{9F}' | '\u{2028}' | '\u{2029}') || is_format_control(c)
}

/// True when `s` holds at least one forbidden character (so [`clean`] would
/// change it).
pub fn needs_cleaning(s: &str) -> bool {
    if s.is_ascii() {
        s.bytes().any(|b| b < 0x20 || b == 0x7F)
    } else {
        s.chars().any(is_forbidden)
    }
}

/// Appends the visible placeholder of a forbidden, non-tab, non-newline
/// character and returns its display width.
fn push_placeholder(out: &mut String, c: char) -> usize {
    let code = u32::from(c);
    if code < 0x20 {
        // Control pictures: U+2400 + code is always a valid char here.
        out.push(char::from_u32(0x2400 + code).unwrap_or('\u{FFFD}'));
        1
    } else if code == 0x7F {
        out.push('\u{2421}');
        1
    } else {
        let text = format!("\u{27E8}U+{code:04X}\u{27E9}");
        out.push_str(&text);
        text.chars().count()
    }
}

/// Appends the spaces of one tab at display column `col`, returns the new column.
fn push_tab(out: &mut String, col: usize, tab_width: usize) -> usize {
    let width = tab_width.max(1);
    let pad = width - col % width;
    out.extend(std::iter::repeat_n(' ', pad));
    col + pad
}

/// Cleans `s` into one display line: tabs expand to stops every `tab_width`
/// columns (0 counts as 1), each line break becomes [`NEWLINE_MARK`], every
/// other forbidden character its placeholder. Borrows when nothing changes.
pub fn clean(s: &str, tab_width: usize) -> Cow<'_, str> {
    if !needs_cleaning(s) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut col = 0usize;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\t' => col = push_tab(&mut out, col, tab_width),
            '\n' | '\r' => {
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push(NEWLINE_MARK);
                col += 1;
            }
            c if is_forbidden(c) => col += push_placeholder(&mut out, c),
            c => {
                out.push(c);
                col += c.width().unwrap_or(0);
            }
        }
    }
    Cow::Owned(out)
}

/// One display line of untrusted text, tabs at [`DEFAULT_TAB_WIDTH`]
/// (see [`clean`]).
pub fn clean_line(s: &str) -> String {
    clean(s, DEFAULT_TAB_WIDTH).into_owned()
}

/// Splits untrusted text into display lines and cleans each one.
///
/// Lines end at LF, CR LF or a lone CR; like [`str::lines`], a final line
/// break does not start another line, so `""` gives no lines and `"a\n"`
/// gives `["a"]`. Tabs expand per line to stops every `tab_width` columns.
pub fn clean_lines(s: &str, tab_width: usize) -> Vec<String> {
    split_lines(s).map(|line| clean(line, tab_width).into_owned()).collect()
}

/// Splits at LF, CR LF and lone CR, without a trailing empty line.
fn split_lines(s: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(s).filter(|s| !s.is_empty());
    std::iter::from_fn(move || {
        let text = rest?;
        match text.find(['\n', '\r']) {
            None => {
                rest = None;
                Some(text)
            }
            Some(at) => {
                let skip = if text[at..].starts_with("\r\n") { 2 } else { 1 };
                let tail = &text[at + skip..];
                rest = Some(tail).filter(|t| !t.is_empty());
                Some(&text[..at])
            }
        }
    })
}

#[cfg(test)]
mod tests;
