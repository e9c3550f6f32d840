//! Strict JSON reading (REVIEWGATE-RULES §1) and canonical writing (§8).
//!
//! [`read_strict`] accepts exactly RFC 8259 JSON with ReviewGate's extra
//! rules: UTF-8 only (P1), no byte-order mark (P2), one value with only
//! space/tab/LF/CR around it (P3), no duplicate member names at any depth (P4),
//! the strict number grammar (P5), no raw control characters or lone surrogate
//! escapes in strings (P6), doubles converted exactly as ReviewGate converts
//! them (P9), bounded nesting (P15) and a size limit. Every failure is one
//! [`Problem`] naming the rule, the JSON pointer and the line and column.

pub mod canonical;
mod number;
mod reader;
mod scan;

#[cfg(test)]
mod number_tests;
#[cfg(test)]
mod tests;

use super::problem::{Problem, push_pointer};
use reader::{Fail, Reader};
pub(crate) use scan::skip_ws;
use serde_json::Value;

pub use canonical::{
    CanonicalError, CanonicalFormatter, canonical_len_within, to_canonical_vec, try_to_canonical_vec, write_canonical,
};

/// The deepest nesting limit honoured; larger requests are lowered to it so
/// that reading (and dropping the value) can never exhaust the stack.
pub const MAX_SUPPORTED_DEPTH: usize = 512;

/// Bounds applied while reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// The largest input accepted, in bytes (rule `size`).
    pub max_bytes: usize,
    /// The nesting level that is rejected (rule `P15`), counted the way
    /// serde_json and ReviewGate count it: with the default 128, containers
    /// may nest 127 deep and the 128th level is an error.
    pub max_depth: usize,
}

impl Default for ReadLimits {
    /// 256 MiB and ReviewGate's nesting limit of 128.
    fn default() -> Self {
        ReadLimits {
            max_bytes: 256 * 1024 * 1024,
            max_depth: 128,
        }
    }
}

/// Reads one strict JSON document into a `serde_json::Value`.
///
/// Numbers become exactly the value serde_json's default parser gives (no
/// `float_roundtrip`): plain integers stay u64/i64, everything else is the
/// double that ReviewGate computes. Object members are kept in a map, so a
/// duplicate name is the only way to lose one, and that is an error (P4).
pub fn read_strict(bytes: &[u8], limits: &ReadLimits) -> Result<Value, Problem> {
    if bytes.len() > limits.max_bytes {
        // Callers read at most one byte past the limit, so the true size
        // may be larger than what is at hand.
        let message = format!(
            "the input is over {} bytes; at most {} bytes are accepted",
            limits.max_bytes, limits.max_bytes
        );
        return Err(Problem::new("size", "", message));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => return Err(utf8_problem(bytes, err.valid_up_to())),
    };
    if text.starts_with('\u{FEFF}') {
        return Err(Problem::new(
            "P2",
            "",
            "the input starts with a byte-order mark (U+FEFF), which is not allowed (line 1, column 1)",
        ));
    }
    let depth = limits.max_depth.clamp(1, MAX_SUPPORTED_DEPTH);
    Reader::new(text, depth)
        .document()
        .map_err(|fail| fail_problem(text, *fail))
}

/// A number literal beyond a double's range, read in JavaScript-number mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Infinite {
    /// The JSON pointer of the number.
    pub pointer: String,
    /// `-Infinity` rather than `Infinity`.
    pub negative: bool,
}

/// [`read_strict`] with one difference, for formats read by JavaScript
/// (River Review): a number literal beyond a double's range is not a P9
/// failure but the infinity `JSON.parse` makes of it. The value holds
/// `±f64::MAX` there as a placeholder (a `serde_json::Value` cannot hold an
/// infinity), and each such number's pointer is returned beside it, so a
/// reader can judge it as the infinity it is. Every other rule is the same.
pub fn read_javascript_numbers(bytes: &[u8], limits: &ReadLimits) -> Result<(Value, Vec<Infinite>), Problem> {
    if bytes.len() > limits.max_bytes {
        return read_strict(bytes, limits).map(|v| (v, Vec::new()));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) if !text.starts_with('\u{FEFF}') => text,
        _ => return read_strict(bytes, limits).map(|v| (v, Vec::new())),
    };
    let depth = limits.max_depth.clamp(1, MAX_SUPPORTED_DEPTH);
    let mut reader = Reader::javascript_numbers(text, depth);
    let value = reader.document().map_err(|fail| fail_problem(text, *fail))?;
    Ok((value, reader.infinities()))
}

fn utf8_problem(bytes: &[u8], offset: usize) -> Problem {
    let valid = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
    let (line, column) = line_column(valid, offset);
    let message = format!(
        "the input is not valid UTF-8: invalid byte 0x{:02X} at byte offset {offset} (line {line}, column {column})",
        bytes.get(offset).copied().unwrap_or(0)
    );
    Problem::new("P1", "", message)
}

fn fail_problem(text: &str, fail: Fail) -> Problem {
    let (line, column) = line_column(text, fail.at);
    let path = fail
        .tokens_rev
        .iter()
        .rev()
        .fold(String::new(), |path, token| push_pointer(&path, token));
    Problem::new(
        fail.rule,
        path,
        format!("{} (line {line}, column {column})", fail.message),
    )
}

/// 1-based line and column (in characters) of a byte offset. Lines end at LF.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, 1 + before[line_start..].chars().count())
}
