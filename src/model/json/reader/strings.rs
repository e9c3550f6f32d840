//! Reading strings onto the tape: plain ones lent from the input, escaped
//! ones decoded into the side buffer.

use super::fail::{control_fail, fail, lone_surrogate};
use super::{Reader, Res};
use crate::model::json::doc::{Tok, put};
use crate::model::json::scan::find_string_special;

impl<'a> Reader<'a> {
    /// Reads a string starting at the opening quote onto the tape; leaves
    /// `pos` after the closing one. Escaped strings are decoded into the side
    /// buffer.
    /// The token is also returned (small enough to come back in registers).
    pub(super) fn string(&mut self) -> Res<Tok> {
        let start = self.pos + 1;
        let i = find_string_special(self.bytes, start);
        match self.bytes.get(i) {
            Some(b'"') => {
                // Both ends are ASCII quotes in text already checked to be
                // UTF-8, so the slice is always on character boundaries.
                self.pos = i + 1;
                let tok = Tok::Raw {
                    at: start as u32,
                    len: (i - start) as u32,
                };
                put(&mut self.tape, tok);
                Ok(tok)
            }
            Some(b'\\') => {
                let at = self.escaped.len();
                let head = self.slice(start, i)?;
                self.escaped.push_str(head);
                self.pos = i;
                self.string_escaped()?;
                let tok = Tok::Esc {
                    at: at as u32,
                    len: (self.escaped.len() - at) as u32,
                };
                put(&mut self.tape, tok);
                Ok(tok)
            }
            Some(&b) => Err(control_fail(i, b)),
            None => Err(fail("P3", i, "the input ends inside a string (truncated)")),
        }
    }

    /// Continues a string at a backslash, decoding escapes into the side buffer.
    pub(super) fn string_escaped(&mut self) -> Res<()> {
        loop {
            // `pos` is at a backslash.
            let c = self.escape()?;
            self.escaped.push(c);
            let start = self.pos;
            let i = find_string_special(self.bytes, start);
            match self.bytes.get(i) {
                Some(b'"') => {
                    let tail = self.slice(start, i)?;
                    self.escaped.push_str(tail);
                    self.pos = i + 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    let part = self.slice(start, i)?;
                    self.escaped.push_str(part);
                    self.pos = i;
                }
                Some(&b) => return Err(control_fail(i, b)),
                None => return Err(fail("P3", i, "the input ends inside a string (truncated)")),
            }
        }
    }

    /// Decodes one escape at `pos` (a backslash) and moves past it.
    pub(super) fn escape(&mut self) -> Res<char> {
        let at = self.pos;
        let Some(&kind) = self.bytes.get(at + 1) else {
            return Err(fail("P3", at + 1, "the input ends inside a string escape (truncated)"));
        };
        self.pos = at + 2;
        let c = match kind {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(at),
            _ => {
                let found = self.describe_at(at + 1);
                return Err(fail(
                    "P6",
                    at,
                    format!("invalid escape sequence: backslash followed by {found}"),
                ));
            }
        };
        Ok(c)
    }

    /// Decodes `\uXXXX` (and a following low surrogate when XXXX is a high one).
    ///
    /// A lone surrogate fails (P6), except in JavaScript mode, where it is
    /// U+FFFD: `JSON.parse` keeps it in the string, and River Review writes
    /// and hashes it as UTF-8, which makes it U+FFFD (River's titles are cut
    /// at 80 UTF-16 units, so it writes such a surrogate itself when the cut
    /// falls inside an emoji). An escape after a lone high surrogate is read
    /// on its own.
    pub(super) fn unicode_escape(&mut self, at: usize) -> Res<char> {
        let high = self.hex4()?;
        let lone = |reader: &Self| {
            if reader.js.is_some() {
                Ok(char::REPLACEMENT_CHARACTER)
            } else {
                Err(lone_surrogate(at, high))
            }
        };
        match high {
            0xD800..=0xDBFF => {
                let after_high = self.pos;
                if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
                    return lone(self);
                }
                self.pos += 2;
                let low = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    self.pos = after_high;
                    return lone(self);
                }
                let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                char::from_u32(code).ok_or_else(|| lone_surrogate(at, high))
            }
            0xDC00..=0xDFFF => lone(self),
            _ => char::from_u32(high).ok_or_else(|| lone_surrogate(at, high)),
        }
    }

    /// Reads four hex digits at `pos` (after `\u`).
    pub(super) fn hex4(&mut self) -> Res<u32> {
        let mut value = 0u32;
        for k in 0..4 {
            let i = self.pos + k;
            let digit = match self.bytes.get(i) {
                Some(&b) => (b as char).to_digit(16),
                None => return Err(fail("P3", i, "the input ends inside a \\u escape (truncated)")),
            };
            match digit {
                Some(d) => value = value * 16 + d,
                None => {
                    let found = self.describe_at(i);
                    return Err(fail(
                        "P6",
                        i,
                        format!("invalid \\u escape: expected a hex digit, found {found}"),
                    ));
                }
            }
        }
        self.pos += 4;
        Ok(value)
    }

    /// A text slice between two ASCII delimiters (always on char boundaries).
    pub(super) fn slice(&self, start: usize, end: usize) -> Res<&'a str> {
        self.text
            .get(start..end)
            .ok_or_else(|| fail("P1", start, "string is not valid UTF-8"))
    }
}
