//! Tests of the display sanitiser: exact placeholders, properties over
//! arbitrary text, and rendering through ratatui into buffer cells.

use super::*;
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::text::{Line, Text};
use ratatui::widgets::{Paragraph, Wrap};

/// The bidi and format controls the display must never pass through.
const FORMAT_CONTROLS: &[char] = &[
    '\u{202A}',
    '\u{202B}',
    '\u{202C}',
    '\u{202D}',
    '\u{202E}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{200E}',
    '\u{200F}',
    '\u{061C}',
    '\u{2028}',
    '\u{2029}',
    '\u{FEFF}',
    '\u{00AD}',
    '\u{200B}',
    '\u{200C}',
    '\u{200D}',
    '\u{2060}',
    '\u{2061}',
    '\u{2062}',
    '\u{2063}',
    '\u{2064}',
    '\u{180E}',
    '\u{E0001}',
    '\u{E0041}',
    '\u{E007F}',
    '\u{FFF9}',
];

/// An independent statement of the forbidden classes: std's `is_control`
/// (general category Cc) plus the listed format controls.
fn oracle_forbidden(c: char) -> bool {
    c.is_control() || FORMAT_CONTROLS.contains(&c)
}

/// Hostile samples: terminal escapes, Trojan Source reordering, smuggling.
const HOSTILE: &[&str] = &[
    "\u{1b}[31mred\u{1b}[0m",
    "\u{1b}]0;pwned\u{07}title",
    "\u{1b}]52;c;ZWNobyBoaQ==\u{1b}\\",
    "\u{9b}2J csi-c1",
    "access = \"user\u{202E} \u{2066}// admin\u{2069} \u{2066}\"",
    "tab\there\r\nnext\rlone cr",
    "nul\u{0}bel\u{7}bs\u{8}del\u{7f}",
    "zw\u{200b}sp\u{200d}j\u{feff}bom\u{ad}shy",
    "tags\u{E0001}\u{E0068}\u{E0069}\u{E007F}",
    "\u{2028}ls\u{2029}ps\u{85}nel",
];

#[test]
fn c0_controls_become_control_pictures() {
    assert_eq!(clean_line("a\u{1b}b"), "a\u{241b}b");
    assert_eq!(clean_line("\u{0}"), "\u{2400}");
    assert_eq!(clean_line("\u{7}\u{8}\u{1f}"), "\u{2407}\u{2408}\u{241f}");
    assert_eq!(clean_line("\u{7f}"), "\u{2421}");
}

#[test]
fn escape_sequences_stay_visible_but_inert() {
    assert_eq!(clean_line("\u{1b}[31mred\u{1b}[0m"), "␛[31mred␛[0m");
    assert_eq!(clean_line("\u{1b}]0;title\u{7}"), "␛]0;title␇");
    assert_eq!(clean_line("\u{9b}2J"), "⟨U+009B⟩2J");
}

#[test]
fn format_controls_and_c1_become_code_points() {
    assert_eq!(clean_line("a\u{202e}b"), "a⟨U+202E⟩b");
    assert_eq!(clean_line("\u{2066}x\u{2069}"), "⟨U+2066⟩x⟨U+2069⟩");
    assert_eq!(clean_line("\u{85}"), "⟨U+0085⟩");
    assert_eq!(clean_line("\u{feff}"), "⟨U+FEFF⟩");
    assert_eq!(clean_line("\u{E0041}"), "⟨U+E0041⟩");
    assert_eq!(clean_line("\u{2028}"), "⟨U+2028⟩");
}

#[test]
fn zero_width_joiner_is_shown_even_in_emoji() {
    assert_eq!(clean_line("👨\u{200d}👩"), "👨⟨U+200D⟩👩");
    // Variation selectors and combining marks are not controls.
    assert_eq!(clean_line("❤\u{fe0f} e\u{301}"), "❤\u{fe0f} e\u{301}");
}

#[test]
fn newlines_in_one_line_become_marks() {
    assert_eq!(clean_line("a\nb\r\nc\rd"), "a⏎b⏎c⏎d");
    assert_eq!(clean_line("\r\r\n"), "⏎⏎");
}

#[test]
fn tabs_expand_to_the_next_stop() {
    assert_eq!(clean("\tx", 4), "    x");
    assert_eq!(clean("ab\tx", 4), "ab  x");
    assert_eq!(clean("abcd\tx", 4), "abcd    x");
    assert_eq!(clean("a\tb\tc", 8), "a       b       c");
    // Wide characters count two columns.
    assert_eq!(clean("日\tx", 4), "日  x");
    // A zero width counts as one.
    assert_eq!(clean("a\tb", 0), "a b");
    // Placeholders take their visible width.
    assert_eq!(clean("\u{1b}\tx", 4), "␛   x");
}

#[test]
fn clean_text_is_borrowed() {
    assert!(matches!(clean("plain ascii text", 4), Cow::Borrowed(_)));
    assert!(matches!(clean("ünïcödé 日本 👍", 4), Cow::Borrowed(_)));
    assert!(matches!(clean("a\tb", 4), Cow::Owned(_)));
    assert!(!needs_cleaning("fine → ⏎ ␛ ⟨U+202E⟩"));
    assert!(needs_cleaning("x\u{202e}"));
}

#[test]
fn clean_lines_splits_every_line_break() {
    assert_eq!(clean_lines("a\nb\r\nc\rd", 4), ["a", "b", "c", "d"]);
    assert_eq!(clean_lines("", 4), Vec::<String>::new());
    assert_eq!(clean_lines("a\n", 4), ["a"]);
    assert_eq!(clean_lines("a\n\n", 4), ["a", ""]);
    assert_eq!(clean_lines("\n", 4), [""]);
    assert_eq!(clean_lines("\r\n\r", 4), ["", ""]);
    assert_eq!(clean_lines("x\ty\n\tz\u{1b}", 2), ["x y", "  z␛"]);
}

#[test]
fn forbidden_set_covers_controls_and_listed_format_characters() {
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        if oracle_forbidden(c) {
            assert!(is_forbidden(c), "U+{:04X} must be forbidden", u32::from(c));
        }
    }
    for c in [
        'a', ' ', '~', '\u{a0}', 'é', '日', '👍', '\u{fe0f}', '\u{301}', '⏎', '␛', '⟨', '⟩',
    ] {
        assert!(!is_forbidden(c), "U+{:04X} must be allowed", u32::from(c));
    }
}

/// Strings biased towards the characters that matter.
fn hostile_text() -> impl Strategy<Value = String> {
    let interesting = prop_oneof![
        prop::sample::select(FORMAT_CONTROLS.to_vec()),
        (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap_or('x')),
        (0x7Fu32..0xA0).prop_map(|c| char::from_u32(c).unwrap_or('x')),
        Just('\t'),
        Just('\r'),
        Just('\n'),
    ];
    let any_char = prop_oneof![3 => any::<char>(), 2 => interesting, 2 => prop::char::range('a', 'z')];
    prop::collection::vec(any_char, 0..80).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #[test]
    fn output_never_holds_a_forbidden_char(s in hostile_text(), tab in 0usize..9) {
        let line = clean(&s, tab);
        prop_assert!(!line.chars().any(oracle_forbidden), "{:?}", line);
        prop_assert!(!line.chars().any(is_forbidden), "{:?}", line);
        for l in clean_lines(&s, tab) {
            prop_assert!(!l.chars().any(is_forbidden), "{:?}", l);
        }
    }

    #[test]
    fn cleaning_is_idempotent(s in hostile_text()) {
        let once = clean_line(&s);
        let twice = clean(&once, DEFAULT_TAB_WIDTH);
        prop_assert!(matches!(twice, Cow::Borrowed(_)));
        prop_assert_eq!(twice.as_ref(), once.as_str());
    }

    #[test]
    fn clean_text_is_identity(s in any::<String>()) {
        let clean_input: String = s.chars().filter(|&c| !is_forbidden(c)).collect();
        prop_assert_eq!(clean_line(&clean_input), clean_input.clone());
        let lines = clean_lines(&clean_input, 4);
        if clean_input.is_empty() {
            prop_assert!(lines.is_empty());
        } else {
            prop_assert_eq!(lines, vec![clean_input]);
        }
    }

    #[test]
    fn lines_match_line_breaks(parts in prop::collection::vec("[a-z \t]{0,6}", 1..6), brk in prop::sample::select(vec!["\n", "\r\n", "\r"])) {
        let joined = parts.join(brk);
        let lines = clean_lines(&joined, 4);
        // Like `str::lines`: a final break does not start another line.
        let last_empty = parts.last().is_some_and(|p| p.is_empty());
        let expected_len = if joined.is_empty() { 0 } else { parts.len() - usize::from(last_empty) };
        prop_assert_eq!(lines.len(), expected_len);
        for (line, part) in lines.iter().zip(&parts) {
            prop_assert_eq!(line, &clean(part, 4).into_owned());
        }
    }
}

/// Renders `text` through a wrapping Paragraph and returns every cell symbol.
fn rendered_symbols(text: Text<'_>) -> Vec<String> {
    let backend = TestBackend::new(60, 30);
    let mut terminal = Terminal::new(backend).expect("test backend");
    terminal
        .draw(|frame| {
            let area = frame.area();
            frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), area);
        })
        .expect("draw");
    terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|cell| cell.symbol().to_string())
        .collect()
}

#[test]
fn no_forbidden_char_reaches_a_cell() {
    let lines: Vec<Line> = HOSTILE.iter().flat_map(|s| clean_lines(s, 4)).map(Line::from).collect();
    let symbols = rendered_symbols(Text::from(lines));
    for symbol in &symbols {
        assert!(!symbol.chars().any(oracle_forbidden), "cell {symbol:?}");
    }
    let screen: String = symbols.concat();
    assert!(screen.contains("␛[31mred"), "escape shown inert");
    assert!(screen.contains("⟨U+202E⟩"), "bidi override shown");
}

#[test]
fn raw_text_would_reach_a_cell() {
    // Shows the rendering test can fail: unsanitised bidi controls get through.
    let raw: Vec<Line> = HOSTILE.iter().map(|s| Line::from(*s)).collect();
    let symbols = rendered_symbols(Text::from(raw));
    assert!(symbols.iter().any(|s| s.chars().any(oracle_forbidden)));
}
