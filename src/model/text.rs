//! Text tests the validation rules share: blankness (T1) and lengths (T2).
//!
//! "Blank" is a test only: values are never trimmed or normalized before they
//! are compared or hashed.

/// True for the 25 Unicode `White_Space` code points (T1): U+0009–U+000D,
/// U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F,
/// U+205F and U+3000.
///
/// U+180E, U+200B–U+200D, U+2060, U+FEFF, U+0000 and U+001C–U+001F are not
/// white space here (JavaScript's `trim` and Python's `strip` disagree).
pub fn is_white_space(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'..='\u{000D}'
            | '\u{0020}'
            | '\u{0085}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
    )
}

/// True when `s` is empty or made only of [`is_white_space`] characters (T1).
pub fn is_blank(s: &str) -> bool {
    // Most values start with a printable ASCII character: answered at once.
    if let Some(&b) = s.as_bytes().first()
        && b.is_ascii()
        && !matches!(b, b'\t'..=b'\r' | b' ')
    {
        return false;
    }
    s.chars().all(is_white_space)
}

/// The opposite of [`is_blank`]: at least one character that is not white space.
pub fn is_non_blank(s: &str) -> bool {
    !is_blank(s)
}

/// Length in Unicode scalar values ("chars" in the rules, T2), not UTF-16 units.
pub fn char_len(s: &str) -> usize {
    if s.is_ascii() { s.len() } else { s.chars().count() }
}

/// Length in UTF-8 bytes ("bytes" in the rules, T2) of the decoded string.
pub fn byte_len(s: &str) -> usize {
    s.len()
}

/// True when `s` has at most `max` chars (T2), without counting past the limit.
pub fn chars_at_most(s: &str, max: usize) -> bool {
    s.len() <= max || s.chars().nth(max).is_none()
}

/// A full commit SHA as GitHub writes it: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits.
pub fn is_commit_sha(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every White_Space code point of Unicode, listed from the property table.
    const WHITE_SPACE: [u32; 25] = [
        0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
        0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
    ];

    #[test]
    fn exactly_the_25_white_space_code_points() {
        let found: Vec<u32> = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_white_space(c))
            .map(u32::from)
            .collect();
        assert_eq!(found, WHITE_SPACE.to_vec());
        // Agrees with the standard library's White_Space table.
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(is_white_space(c), c.is_whitespace(), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn blank_strings() {
        for s in [
            "",
            " ",
            "\t\n\r",
            "\u{00A0}",
            "\u{0085}",
            "\u{3000}",
            "\u{2028}\u{2029}",
            " \u{202F} ",
        ] {
            assert!(is_blank(s), "{s:?} should be blank");
        }
    }

    #[test]
    fn strings_that_are_not_blank() {
        for s in [
            "x",
            " x ",
            "\u{180E}",
            "\u{200B}",
            "\u{200C}",
            "\u{200D}",
            "\u{2060}",
            "\u{FEFF}",
            "\u{0000}",
            "\u{001C}",
            "\u{001F}",
            " \u{200B} ",
        ] {
            assert!(is_non_blank(s), "{s:?} should not be blank");
        }
    }

    #[test]
    fn lengths_count_chars_and_bytes() {
        assert_eq!(char_len("abc"), 3);
        assert_eq!(char_len("é😀"), 2);
        assert_eq!(byte_len("é😀"), 6);
        assert!(chars_at_most("😀😀", 2));
        assert!(!chars_at_most("😀😀😀", 2));
        assert!(chars_at_most("", 0));
    }
}
