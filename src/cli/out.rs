//! Machine-readable output on stdout, the one door for JSON: to a pipe or a
//! file byte for byte; to a terminal with every control, C1 and bidi
//! character of the (untrusted) strings written as a `\u` escape, which a
//! JSON reader decodes to the same data, so nothing in a review file or a
//! GitHub answer can drive the terminal.

use std::borrow::Cow;
use std::fmt::Display;
use std::io::{IsTerminal, Write};

/// True when stdout is a terminal.
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// JSON text made safe for a terminal without changing its data: every
/// control, C1 and bidi character (only strings can hold one) is written as
/// `\uXXXX` (a surrogate pair above U+FFFF).
pub fn json_for_terminal(json: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if crate::sanitize::is_forbidden(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `json` as it is written to stdout: unchanged unless `terminal`.
pub fn json_for(json: &str, terminal: bool) -> Cow<'_, str> {
    if terminal && json.chars().any(crate::sanitize::is_forbidden) {
        Cow::Owned(json_for_terminal(json))
    } else {
        Cow::Borrowed(json)
    }
}

/// Writes `json` and a line feed to `out` (escaped when `terminal`).
pub fn write_json_line(out: &mut impl Write, json: &str, terminal: bool) -> std::io::Result<()> {
    out.write_all(json_for(json, terminal).as_bytes())?;
    out.write_all(b"\n")
}

/// Prints one JSON value (a `serde_json::Value` or its text) as a line on
/// stdout, escaped when stdout is a terminal.
pub fn print_json(json: impl Display) {
    let text = json.to_string();
    println!("{}", json_for(&text, stdout_is_terminal()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminal_gets_the_same_data_with_nothing_raw() {
        let value = serde_json::json!({ "id": "rg\u{202e}\u{9b}1", "claim": "a\u{1b}[31m b \u{2066}é" });
        let text = value.to_string();
        assert_eq!(json_for(&text, false), text, "a pipe gets the bytes as they are");
        let shown = json_for(&text, true);
        assert!(!shown.chars().any(crate::sanitize::is_forbidden), "{shown}");
        assert!(shown.contains(r"rg\u202e\u009b1") && shown.contains('é'), "{shown}");
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap_or_default();
        assert_eq!(back, value);
        let plain = r#"{"a":"plain"}"#;
        assert!(matches!(json_for(plain, true), Cow::Borrowed(_)));
    }
}
