//! What may go to the clipboard. OSC 52 carries the text base64-encoded, so
//! it cannot break out of the sequence, but whatever is copied is later
//! pasted: an ESC ends a bracketed paste (`\e[201~`) and a CR runs a shell
//! command. So text with control, C1 or bidi characters is refused, with the
//! reason; it is never copied raw and never silently altered (a cleaned
//! fingerprint would be another fingerprint).

use crate::sanitize::is_forbidden;

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

#[cfg(test)]
mod tests {
    use super::*;

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
