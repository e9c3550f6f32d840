//! Strict JSON reading (REVIEWGATE-RULES §1) and canonical writing (§8).
//!
//! [`read_strict`] accepts exactly RFC 8259 JSON with ReviewGate's extra
//! rules: UTF-8 only (P1), no byte-order mark (P2), one value with only
//! space/tab/LF/CR around it (P3), no duplicate member names at any depth (P4),
//! the strict number grammar (P5), no raw control characters or lone surrogate
//! escapes in strings (P6), doubles converted exactly as ReviewGate converts
//! them (P9), bounded nesting (P15) and a size limit. Every failure is one
//! [`Problem`] naming the rule, the JSON pointer and the line and column.
//!
//! The reader writes a compact [`Doc`] (see [`doc`]), which is what review
//! documents are checked and decoded on; [`read_strict`] turns it into a
//! `serde_json::Value` for the small documents read by hand (configuration,
//! outbox entries, API answers).

pub mod canonical;
pub mod doc;
mod number;
mod reader;
mod scan;

#[cfg(test)]
mod doc_tests;
#[cfg(test)]
mod number_tests;
#[cfg(test)]
mod tests;

use super::problem::{Problem, push_pointer};
use reader::{Fail, Read, Reader};
pub(crate) use scan::{find_string_special, skip_ws};
use serde_json::Value;
use std::borrow::Cow;

pub use doc::{Doc, DocNode, Kind, Strings};

pub use canonical::{CanonicalError, canonical_len_within, to_canonical_vec, try_to_canonical_vec};

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

/// A value's JSON type as messages name it ("a string", "null", ...).
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads one strict JSON document into a `serde_json::Value`.
///
/// Numbers become exactly the value serde_json's default parser gives (no
/// `float_roundtrip`): plain integers stay u64/i64, everything else is the
/// double that ReviewGate computes. Object members are kept in a map, so a
/// duplicate name is the only way to lose one, and that is an error (P4).
pub fn read_strict(bytes: &[u8], limits: &ReadLimits) -> Result<Value, Problem> {
    read_doc(bytes, limits).map(|doc| doc.root().to_value())
}

/// Reads one strict JSON document (the rules of [`read_strict`]) into a
/// [`Doc`] that lends its strings out of `bytes`.
pub fn read_doc<'s>(bytes: &'s [u8], limits: &ReadLimits) -> Result<Doc<'s>, Problem> {
    let text = checked_text(bytes, limits)?;
    read_text(Cow::Borrowed(text), limits, false)
        .map(|(doc, _)| doc)
        .map_err(|(problem, _)| problem)
}

/// [`read_doc`] of bytes the document then owns as its text (no copy).
///
/// On failure the text comes back with the problem (when it was UTF-8), so a
/// caller can read it again another way (see [`read_as_javascript`]).
pub fn read_doc_owned(bytes: Vec<u8>, limits: &ReadLimits) -> Result<Doc<'static>, (Problem, Option<String>)> {
    checked_len(bytes.len(), limits).map_err(|p| (p, None))?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let offset = err.utf8_error().valid_up_to();
            return Err((utf8_problem(err.as_bytes(), offset), None));
        }
    };
    if text.starts_with('\u{FEFF}') {
        return Err((bom_problem(), Some(text)));
    }
    read_text(Cow::Owned(text), limits, false)
        .map(|(doc, _)| doc)
        .map_err(|(problem, text)| (problem, Some(text.into_owned())))
}

/// The size (rule `size`), UTF-8 (P1) and byte-order mark (P2) rules, which
/// apply before any JSON is read.
fn checked_text<'s>(bytes: &'s [u8], limits: &ReadLimits) -> Result<&'s str, Problem> {
    checked_len(bytes.len(), limits)?;
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => return Err(utf8_problem(bytes, err.valid_up_to())),
    };
    if text.starts_with('\u{FEFF}') {
        return Err(bom_problem());
    }
    Ok(text)
}

/// The size rule. Whatever a caller's limit, a document's tape addresses
/// at most [`doc::MAX_TEXT_BYTES`] of text, so no larger limit applies.
fn checked_len(len: usize, limits: &ReadLimits) -> Result<(), Problem> {
    let max = limits.max_bytes.min(doc::MAX_TEXT_BYTES);
    if len > max {
        // Callers read at most one byte past the limit, so the true size
        // may be larger than what is at hand.
        let message = format!("the input is over {max} bytes; at most {max} bytes are accepted");
        return Err(Problem::new("size", "", message));
    }
    Ok(())
}

fn bom_problem() -> Problem {
    Problem::new(
        "P2",
        "",
        "the input starts with a byte-order mark (U+FEFF), which is not allowed (line 1, column 1)",
    )
}

/// Reads checked text into a document (and, in JavaScript mode, the
/// infinities found); on failure the problem and the text come back.
type TextRead<'s> = Result<(Doc<'s>, Vec<Infinite>), (Problem, Cow<'s, str>)>;

fn read_text<'s>(text: Cow<'s, str>, limits: &ReadLimits, javascript: bool) -> TextRead<'s> {
    let depth = limits.max_depth.clamp(1, MAX_SUPPORTED_DEPTH);
    let reader = if javascript {
        Reader::javascript(&text, depth)
    } else {
        Reader::new(&text, depth)
    };
    match reader.document() {
        Ok(Read {
            tape,
            escaped,
            infinite,
        }) => Ok((
            Doc {
                text,
                tape,
                escaped: Cow::Owned(escaped),
            },
            infinite,
        )),
        Err(fail) => {
            let problem = fail_problem(&text, *fail);
            Err((problem, text))
        }
    }
}

/// A number literal beyond a double's range, read in JavaScript mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Infinite {
    /// The JSON pointer of the number.
    pub pointer: String,
    /// `-Infinity` rather than `Infinity`.
    pub negative: bool,
}

/// [`read_doc`] with two differences, for formats read by JavaScript (River
/// Review): a number literal beyond a double's range is not a P9 failure but
/// the infinity `JSON.parse` makes of it, and a lone surrogate escape is not
/// a P6 failure but U+FFFD (what River's UTF-8 output and fingerprint hash
/// make of the surrogate `JSON.parse` keeps). The document holds `±f64::MAX`
/// for an infinity as a placeholder (a `serde_json::Value` made of it cannot
/// hold an infinity), and each such number's pointer is returned beside it,
/// so a reader can judge it as the infinity it is. Every other rule is the
/// same.
///
/// `text` has passed the UTF-8 and byte-order-mark rules (it is what
/// [`read_doc_owned`] gives back, or a borrowed text).
pub fn read_as_javascript<'s>(text: Cow<'s, str>, limits: &ReadLimits) -> Result<(Doc<'s>, Vec<Infinite>), Problem> {
    checked_len(text.len(), limits)?;
    read_text(text, limits, true).map_err(|(problem, _)| problem)
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
