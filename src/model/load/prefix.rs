//! Telling a capped format from the first bytes of a document, so that a
//! file whose format is told from its content is not read far past its
//! format's cap.
//!
//! Only the members that make [`super::detect`] choose a capped format are
//! looked for: a top-level `schema_version` or `submission` member (agent
//! result or disposition payload), or a positional array whose first element
//! is a `reviewgate-agent-…` string. Their presence decides the format no
//! matter what else the document holds, so seeing one in the prefix is
//! enough. The scan walks the top-level members only, skipping each value
//! without building it; it stops at the end of the prefix or at anything
//! that is not well-formed JSON, and then says nothing: the document is read
//! on and judged whole, exactly as before.

use super::super::json::{find_string_special, skip_ws};
use super::super::review::Format;

/// The capped format a document starting with `prefix` is certain to be
/// detected as, if the prefix shows it.
///
/// Only the agent result is capped (see [`super::max_bytes`]); a prefix
/// showing a disposition payload lets the document be read on. The label
/// is a best guess when the prefix is cut before a later `submission`
/// member: `{"schema_version": "reviewgate-agent-result/v1", ...
/// "submission": ...}` is a disposition payload, refused here by R1 instead
/// of by D2 after a full read; invalid either way.
pub(super) fn capped_format(prefix: &[u8]) -> Option<Format> {
    let i = skip_ws(prefix, 0);
    match prefix.get(i)? {
        b'{' => object_members(prefix, i + 1),
        b'[' => {
            let i = skip_ws(prefix, i + 1);
            let (first, _) = string_at(prefix, i)?;
            version_format(first)
        }
        _ => None,
    }
}

/// Walks the top-level members of an object whose `{` ends before `i`.
fn object_members(bytes: &[u8], mut i: usize) -> Option<Format> {
    let mut found = None;
    loop {
        i = skip_ws(bytes, i);
        let Some((name, after)) = string_at(bytes, i) else {
            return found;
        };
        i = skip_ws(bytes, after);
        if bytes.get(i) != Some(&b':') {
            return found;
        }
        i = skip_ws(bytes, i + 1);
        match name {
            b"submission" => return Some(Format::Disposition),
            b"schema_version" => {
                found = Some(
                    string_at(bytes, i)
                        .and_then(|(v, _)| version_format(v))
                        .unwrap_or(Format::AgentResult),
                );
            }
            _ => {}
        }
        i = match skip_value(bytes, i) {
            Some(next) => skip_ws(bytes, next),
            None => return found,
        };
        match bytes.get(i) {
            Some(b',') => i += 1,
            _ => return found,
        }
    }
}

/// The format a positional first element or a `schema_version` names.
fn version_format(version: &[u8]) -> Option<Format> {
    if version.starts_with(b"reviewgate-agent-dispositions") {
        Some(Format::Disposition)
    } else if version.starts_with(b"reviewgate-agent-result") {
        Some(Format::AgentResult)
    } else {
        None
    }
}

/// The raw (still escaped) contents of the string starting at `i`, and the
/// offset after its closing quote. A name written with escapes is compared
/// raw, so it is not recognised; the document is then read whole.
fn string_at(bytes: &[u8], i: usize) -> Option<(&[u8], usize)> {
    if bytes.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    loop {
        // Eight bytes at a time to the next quote, backslash or control byte.
        j = find_string_special(bytes, j);
        match bytes.get(j)? {
            b'"' => return Some((&bytes[i + 1..j], j + 1)),
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
}

/// The offset just after the value starting at `i`, or `None` when the
/// prefix ends inside it.
fn skip_value(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes.get(i)? {
        b'"' => string_at(bytes, i).map(|(_, after)| after),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match bytes.get(j)? {
                    b'"' => {
                        j = string_at(bytes, j)?.1;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let len = bytes[i..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))?;
            Some(i + len)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_formats_are_seen_in_a_prefix() {
        let cases: [(&[u8], Option<Format>); 10] = [
            (
                br#"{"schema_version": "reviewgate-agent-result/v1", "findings": [{"a"#,
                Some(Format::AgentResult),
            ),
            (
                br#" {"findings": [{"x": "]}\"", "y": [1, {}]}], "schema_version": 3, "pad": "xx"#,
                Some(Format::AgentResult),
            ),
            (
                br#"{"schema_version": "reviewgate-agent-dispositions/v1", "pad"#,
                Some(Format::Disposition),
            ),
            (
                br#"{"pad": {"submission": 1}, "submission": {"#,
                Some(Format::Disposition),
            ),
            (br#"["reviewgate-agent-result/v1", {"#, Some(Format::AgentResult)),
            (br#"["reviewgate-agent-dispositions/v1", "#, Some(Format::Disposition)),
            // Not shown (yet) by the prefix: read on.
            (
                br#"{"verdict": "pass", "findings": [{"schema_version": "reviewgate-agent-res"#,
                None,
            ),
            (br#"{"verdict": "pass", "note": "schema_version\" : "#, None),
            (br#"{"schema\u005fversion": "reviewgate-agent-result/v1""#, None),
            (br#"["other", "#, None),
        ];
        for (prefix, want) in cases {
            assert_eq!(capped_format(prefix), want, "{}", String::from_utf8_lossy(prefix));
        }
    }

    #[test]
    fn malformed_prefixes_say_nothing() {
        for prefix in [
            &b""[..],
            b"   ",
            b"{",
            b"{\"a\"",
            b"{\"a\" 1",
            b"{\"a\": 1 2}",
            b"nul",
            b"\"x",
            b"{]",
        ] {
            assert_eq!(capped_format(prefix), None, "{}", String::from_utf8_lossy(prefix));
        }
    }
}
