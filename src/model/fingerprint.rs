//! Finding fingerprints: ReviewGate's semantic (F1, F2) and code (F4)
//! fingerprints, River Review's 16-hex fingerprint, and the percent-encoding
//! of ReviewGate's thread markers.
//!
//! Inputs are the producer's raw strings; nothing is trimmed or normalized
//! before these functions see it.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use sha2::{Digest, Sha256};

/// F2: each character replaced by its full Unicode lowercase mapping, then
/// ASCII letters and digits kept and every run of anything else turned into
/// one `.` (never leading, never trailing).
pub fn norm(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_norm(s, &mut out);
    out
}

/// Appends [`norm`] of `s` to `out` (what `out` held before is left alone:
/// a `.` is never put first nor last of the appended part).
///
/// A run of other characters is remembered and becomes one `.` only when a
/// kept character follows it, so nothing is pushed to be popped again.
fn push_norm(s: &str, out: &mut String) {
    let start = out.len();
    let mut run = false;
    let mut keep = |c: char, out: &mut String| {
        if c.is_ascii_alphanumeric() {
            if run && out.len() > start {
                out.push('.');
            }
            run = false;
            out.push(c);
        } else {
            run = true;
        }
    };
    for c in s.chars() {
        if c.is_ascii() {
            keep(c.to_ascii_lowercase(), out);
        } else {
            // Only U+0130 (-> "i" + U+0307) and U+212A (-> "k") reach ASCII.
            c.to_lowercase().for_each(|l| keep(l, out));
        }
    }
}

/// The key F1 hashes: the grounding's `semantic_key` when grounding is
/// present and that key is non-blank (T1), otherwise the finding's `title`.
pub fn semantic_key<'a>(grounding_key: Option<&'a str>, title: &'a str) -> &'a str {
    match grounding_key {
        Some(key) if super::text::is_non_blank(key) => key,
        _ => title,
    }
}

/// F1: `classification:norm(file or "pr"):norm(key)`. `None` for the file
/// means null/absent; an empty file stays empty. The caller picks `key` (see
/// [`semantic_key`]).
pub fn semantic_fingerprint(classification: &str, file: Option<&str>, key: &str) -> String {
    let file = file.unwrap_or("pr");
    let mut out = String::with_capacity(classification.len() + file.len() + key.len() + 2);
    out.push_str(classification);
    out.push(':');
    push_norm(file, &mut out);
    out.push(':');
    push_norm(key, &mut out);
    out
}

/// One grounding evidence item or related test, as F4 reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeItem<'a> {
    /// The item's `path`.
    pub path: &'a str,
    /// The item's `side` (`new` or `old`) as written.
    pub side: &'a str,
    /// The item's `excerpt`.
    pub excerpt: &'a str,
}

/// The parts of a finding's grounding that F4 hashes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CodeGrounding<'a> {
    /// `grounding.causal_path`.
    pub causal_path: &'a str,
    /// `grounding.evidence` followed by `grounding.related_tests` (order
    /// does not matter: F4 sorts them).
    pub items: Vec<CodeItem<'a>>,
}

/// F4: lowercase hex SHA-256 of `file-or-"pr"` LF, then (with grounding)
/// `causal_path` LF and each item's `path LF side LF excerpt`, sorted by UTF-8
/// bytes with duplicates kept, each followed by LF.
pub fn code_fingerprint(file: Option<&str>, grounding: Option<CodeGrounding<'_>>) -> String {
    let mut hasher = Sha256::new();
    hasher.update(file.unwrap_or("pr").as_bytes());
    hasher.update(b"\n");
    if let Some(grounding) = grounding {
        hasher.update(grounding.causal_path.as_bytes());
        hasher.update(b"\n");
        // The items are ordered as their `path LF side LF excerpt` lines
        // would sort (byte order, which for UTF-8 is code-point order) and
        // hashed part by part, so no line is built.
        let mut items = grounding.items;
        if items.len() > 1 {
            items.sort_unstable_by(|a, b| line_bytes(a).cmp(line_bytes(b)));
        }
        for item in &items {
            for part in [item.path, "\n", item.side, "\n", item.excerpt, "\n"] {
                hasher.update(part.as_bytes());
            }
        }
    }
    hex(&hasher.finalize())
}

/// The bytes of an item's F4 line `path LF side LF excerpt`, without building it.
fn line_bytes<'a>(item: &CodeItem<'a>) -> impl Iterator<Item = u8> + 'a {
    let parts = [item.path, "\n", item.side, "\n", item.excerpt];
    parts.into_iter().flat_map(str::bytes)
}

/// JavaScript's `\s`: white space and line terminators (includes U+FEFF,
/// excludes U+0085 and U+180E).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'..='\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

/// JavaScript's `String.prototype.trim`: `s` without leading and trailing
/// [`is_js_space`] characters (so U+FEFF goes and U+0085 stays, where
/// Rust's `str::trim` does the opposite).
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// How many UTF-16 code units River keeps of the normalized message.
const RIVER_MESSAGE_UNITS: usize = 60;

/// River Review's message normalization: JavaScript `toLowerCase()`, runs of
/// `\s` collapsed to one space, trimmed, cut to 60 UTF-16 units. A cut through
/// a surrogate pair leaves a lone half, which hashing turns into U+FFFD; the
/// result here already holds that U+FFFD.
pub fn river_message_key(message: &str) -> String {
    let lowered = message.to_lowercase();
    let mut collapsed = String::with_capacity(lowered.len());
    let mut pending_space = false;
    for c in lowered.chars() {
        if is_js_space(c) {
            pending_space = true;
            continue;
        }
        if pending_space && !collapsed.is_empty() {
            collapsed.push(' ');
        }
        pending_space = false;
        collapsed.push(c);
    }
    let mut out = String::with_capacity(collapsed.len().min(4 * RIVER_MESSAGE_UNITS));
    let mut units = 0;
    for c in collapsed.chars() {
        let width = c.len_utf16();
        if units + width > RIVER_MESSAGE_UNITS {
            if units < RIVER_MESSAGE_UNITS {
                // Only the high surrogate fits: JavaScript keeps it alone.
                out.push(char::REPLACEMENT_CHARACTER);
            }
            break;
        }
        units += width;
        out.push(c);
    }
    out
}

/// River Review's finding fingerprint: the first 16 hex digits of SHA-256 of
/// `ruleId::file::key`, where `ruleId` defaults to `unknown` (only when
/// absent), `file` to the empty string, and key is [`river_message_key`] of
/// the message, or of the title when the message is absent ("" when both are).
pub fn river_fingerprint(
    rule_id: Option<&str>,
    file: Option<&str>,
    message: Option<&str>,
    title: Option<&str>,
) -> String {
    let key = river_message_key(message.or(title).unwrap_or(""));
    let text = format!("{}::{}::{}", rule_id.unwrap_or("unknown"), file.unwrap_or(""), key);
    let digest = Sha256::digest(text.as_bytes());
    hex(&digest[..8])
}

/// The bytes a thread-marker value keeps raw (INTEROP §3): RFC 3986's
/// unreserved `A-Z a-z 0-9 - _ . ~`; every other byte is escaped.
pub const MARKER: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// Percent-encodes a thread-marker id or fingerprint (INTEROP §3): bytes
/// outside [`MARKER`]'s unreserved ones become `%XX` (uppercase hex).
pub fn marker_encode(s: &str) -> String {
    utf8_percent_encode(s, MARKER).to_string()
}

/// Why a marker value could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MarkerDecodeError {
    /// A `%` not followed by two hex digits.
    #[error("malformed percent escape at byte {0}")]
    BadEscape(usize),
    /// The decoded bytes are not UTF-8.
    #[error("decoded marker is not valid UTF-8")]
    NotUtf8,
}

/// Decodes [`marker_encode`] output. `%XX` escapes (either hex case) become
/// bytes; other characters pass through; the result must be UTF-8.
/// A malformed escape is an error here, where the crate's decoder would
/// pass it through unchanged, so it is looked for first.
pub fn marker_decode(s: &str) -> Result<String, MarkerDecodeError> {
    let bytes = s.as_bytes();
    let hex = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_hexdigit);
    if let Some(at) = (0..bytes.len()).find(|&i| bytes[i] == b'%' && !(hex(i + 1) && hex(i + 2))) {
        return Err(MarkerDecodeError::BadEscape(at));
    }
    let decoded = percent_decode_str(s).collect::<Vec<u8>>();
    String::from_utf8(decoded).map_err(|_| MarkerDecodeError::NotUtf8)
}

/// Lowercase hex of a byte string.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

#[cfg(test)]
#[path = "fingerprint_tests.rs"]
mod tests;
