//! How untrusted text enters the packet: neutralised, cut to a byte budget,
//! and wrapped in a fence it cannot close.

use std::fmt::Write as _;

pub(super) fn section(out: &mut String, title: &str, body: &str) {
    let _ = write!(out, "### {title}\n\n");
    fenced(out, body);
}

/// Appends `body` (untrusted) neutralised, inside a fence longer than any backtick run in it.
pub fn fenced(out: &mut String, body: &str) {
    let body = neutralise(body);
    let fence = "`".repeat(longest_backtick_run(&body).max(2) + 1);
    let _ = write!(out, "{fence}text\n{}", body);
    if !body.ends_with('\n') {
        out.push('\n');
    }
    let _ = write!(out, "{fence}\n\n");
}

fn longest_backtick_run(s: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Breaks mentions and HTML comment markers; replaces control and format characters.
pub fn neutralise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '@' => out.push('\u{FF20}'),
            '\n' | '\t' => out.push(c),
            c if is_hidden_control(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out.replace("<!--", "<! --").replace("-->", "-- >")
}

fn is_hidden_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// At most `max` bytes of `s`, cut at a character boundary, with a visible marker when cut.
pub fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_owned();
    }
    let mut end = max;
    while end > 0 && !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}[… {} bytes cut]", &s[..end], s.len() - end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neutralise_leaves_no_comment_markers() {
        for s in ["<!---->", "<<!--!--", "---->", "<!<!---->>", "a@b", "--><!--"] {
            let n = neutralise(s);
            assert!(
                !n.contains("<!--") && !n.contains("-->") && !n.contains('@'),
                "{s:?} -> {n:?}"
            );
        }
    }

    #[test]
    fn cut_respects_char_boundaries() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("ééé", 3), "é[… 4 bytes cut]");
        assert_eq!(cut("😀", 2), "[… 4 bytes cut]");
    }
}
