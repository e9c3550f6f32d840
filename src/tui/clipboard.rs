//! What may go to the clipboard. OSC 52 carries the text base64-encoded, so
//! it cannot break out of the sequence, but whatever is copied is later
//! pasted: an ESC ends a bracketed paste (`\e[201~`) and a CR runs a shell
//! command. So text with control, C1 or bidi characters is refused, with the
//! reason; it is never copied raw and never silently altered (a cleaned
//! fingerprint would be another fingerprint).
//!
//! The sequence itself is crossterm's (`CopyToClipboard`, the system
//! clipboard selection `c`, ended by ST).

use crate::sanitize::is_forbidden;
use crossterm::clipboard::CopyToClipboard;
use std::io::Write;

/// Whether line breaks and tabs are part of the text (an escalation packet)
/// or not (a fingerprint).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One line: every control character is refused.
    Line,
    /// Several lines: LF and TAB pass, every other control is refused.
    Lines,
}

/// `Ok` when `text` may be copied, else the sentence saying why not.
pub fn check(what: &str, text: &str, shape: Shape) -> Result<(), String> {
    let allowed = |c: char| shape == Shape::Lines && matches!(c, '\n' | '\t');
    match text.chars().find(|&c| is_forbidden(c) && !allowed(c)) {
        None => Ok(()),
        Some(c) => Err(format!(
            "Not copied: the {what} contains the control character U+{:04X}; pasted into a terminal it could end a \
             paste or run a command.",
            u32::from(c)
        )),
    }
}

/// Why text was not put on the clipboard.
#[derive(Debug)]
pub enum CopyError {
    /// [`check`] refused it: the sentence saying why.
    Refused(String),
    /// Writing the sequence to the terminal failed.
    Write(std::io::Error),
}

/// Puts `text` on the terminal's clipboard through `out` (the terminal),
/// after [`check`] with [`Shape::Lines`].
pub fn copy(out: &mut impl Write, text: &str) -> Result<(), CopyError> {
    check("text", text, Shape::Lines).map_err(CopyError::Refused)?;
    crossterm::execute!(out, CopyToClipboard::to_clipboard_from(text)).map_err(CopyError::Write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_carries_the_text_base64_encoded() {
        use base64::Engine;
        let mut out = Vec::new();
        copy(&mut out, "defect:a\n\tb é").expect("copied");
        let seq = String::from_utf8(out).expect("ascii");
        let body = seq
            .strip_prefix("\u{1b}]52;c;")
            .and_then(|s| s.strip_suffix("\u{1b}\\"));
        let decoded = body.and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok());
        assert_eq!(decoded.as_deref(), Some("defect:a\n\tb é".as_bytes()), "{seq:?}");
        let mut refused = Vec::new();
        let CopyError::Refused(why) = copy(&mut refused, "x\u{7}\u{1b}]0;y").expect_err("a BEL and an ESC are refused")
        else {
            panic!("refused, not failed")
        };
        assert!(why.contains("U+0007"), "{why}");
        assert!(refused.is_empty(), "nothing at all is written for refused text");
    }

    #[test]
    fn control_characters_are_refused_with_the_reason() {
        let hostile = "defect:src.cache.rs:x\u{1b}[201~touch /tmp/PWNED\r";
        let why = check("fingerprint", hostile, Shape::Line).unwrap_err();
        assert!(why.contains("U+001B") && why.contains("fingerprint"), "{why}");
        assert!(check("fingerprint", "a\u{9b}b", Shape::Line).is_err(), "C1");
        assert!(check("fingerprint", "a\u{202e}b", Shape::Line).is_err(), "bidi");
        assert!(check("fingerprint", "a\nb", Shape::Line).is_err());
        assert_eq!(check("packet", "a\n\tb", Shape::Lines), Ok(()));
        assert!(
            check("packet", "a\r\nb", Shape::Lines).is_err(),
            "CR runs a command when pasted"
        );
        assert_eq!(check("fingerprint", "defect:src.cache.rs:x", Shape::Line), Ok(()));
    }
}
