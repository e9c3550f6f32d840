//! Reading failures: the rule, the byte offset and the message of each, and
//! the JSON pointer tokens gathered while an error unwinds.

use super::Reader;
use crate::model::json::number::NumberError;

/// One reading failure, before it becomes a `Problem`.
#[derive(Debug)]
pub(crate) struct Fail {
    /// Rule id (`P3`, `P4` ...).
    pub rule: &'static str,
    /// Byte offset of the fault.
    pub at: usize,
    /// What is wrong (without location).
    pub message: String,
    /// Pointer tokens from the innermost outwards.
    pub tokens_rev: Vec<String>,
}

pub(super) fn fail(rule: &'static str, at: usize, message: impl Into<String>) -> Box<Fail> {
    Box::new(Fail {
        rule,
        at,
        message: message.into(),
        tokens_rev: Vec::new(),
    })
}

/// Adds the member name or index of the frame an error passes through.
pub(super) fn within(mut err: Box<Fail>, token: String) -> Box<Fail> {
    err.tokens_rev.push(token);
    err
}

impl Reader<'_> {
    pub(super) fn structure_error(&self, what: &str) -> Box<Fail> {
        fail("P3", self.pos, format!("{what}, found {}", self.describe_at(self.pos)))
    }

    pub(super) fn after_value_error(&self, what: &str) -> Box<Fail> {
        fail("P3", self.pos, format!("{what}: found {}", self.describe_at(self.pos)))
    }

    pub(super) fn eof(&self, place: &str) -> Box<Fail> {
        fail("P3", self.pos, format!("the input ends {place} (truncated)"))
    }

    /// Describes the character at a byte offset for messages (escaped, never raw).
    pub(super) fn describe_at(&self, at: usize) -> String {
        match self.text.get(at..).and_then(|rest| rest.chars().next()) {
            Some(c) => format!("{:?}", c),
            None => "the end of the input".to_string(),
        }
    }
}

pub(super) fn control_fail(at: usize, b: u8) -> Box<Fail> {
    fail(
        "P6",
        at,
        format!("raw control character U+{b:04X} inside a string (it must be escaped)"),
    )
}

pub(super) fn lone_surrogate(at: usize, unit: u32) -> Box<Fail> {
    fail(
        "P6",
        at,
        format!("lone surrogate escape \\u{unit:04X}: a surrogate must be part of a high-low pair"),
    )
}

pub(super) fn number_fail(err: NumberError, bytes: &[u8], start: usize) -> Box<Fail> {
    match err {
        NumberError::Grammar { at, what } => fail("P5", at, format!("invalid number: {what}")),
        NumberError::Eof { at } => fail("P3", at, "the input ends inside a number (truncated)"),
        NumberError::OutOfRange { .. } => {
            let end = bytes[start..]
                .iter()
                .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'));
            let literal = &bytes[start..end.map_or(bytes.len(), |e| start + e)];
            let shown: String = String::from_utf8_lossy(&literal[..literal.len().min(40)]).into_owned();
            fail("P9", start, format!("number {shown} is out of range for a double"))
        }
    }
}
