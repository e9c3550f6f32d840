//! Evidence panel tests: what is shown for each local outcome, styles with
//! and without colour, and hostile text never reaching a cell.

use super::*;
use crate::checkout::{ExcerptMatch, HeadMatch, LocalEvidence, Revision};
use crate::model::finding::{Evidence, Side};
use crate::sanitize::is_forbidden;
use crate::tui::highlight::{Highlighter, Highlights, ThemeChoice};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};
use std::ops::RangeInclusive;

const HEAD: &str = "abc1234aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const REVIEWED: &str = "def5678bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

fn evidence(path: &str, line: u32, excerpt: &str, reason: &str) -> Evidence {
    Evidence {
        path: path.to_string(),
        side: Side::New,
        line,
        excerpt: excerpt.to_string(),
        reason: reason.to_string(),
    }
}

fn local(found: ExcerptMatch, first_line: usize, lines: &[&str], marked: RangeInclusive<usize>) -> LocalEvidence {
    LocalEvidence {
        revision: Revision::WorkingTree,
        found,
        first_line,
        lines: lines.iter().map(|s| s.to_string()).collect(),
        marked,
    }
}

fn draw(data: &EvidenceView, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("backend");
    terminal.draw(|frame| render(frame, frame.area(), data)).expect("draw");
    terminal.backend().buffer().clone()
}

fn rows(buffer: &Buffer) -> Vec<String> {
    let area = buffer.area;
    (0..area.height)
        .map(|y| (0..area.width).map(|x| buffer[(x, y)].symbol()).collect::<String>())
        .collect()
}

/// The row holding `needle`, with its index.
fn find_row(buffer: &Buffer, needle: &str) -> (u16, String) {
    let all = rows(buffer);
    let at = all
        .iter()
        .position(|r| r.contains(needle))
        .unwrap_or_else(|| panic!("{needle:?} in {all:#?}"));
    (at as u16, all[at].clone())
}

fn sample_view(color: bool) -> EvidenceView {
    let ev = evidence("src/retry.rs", 3, "if attempts > max {", "the loop never ends");
    let checked = local(
        ExcerptMatch::AtLine(3),
        1,
        &["fn retry() {", "    loop {", "    if attempts > max {", "    }"],
        3..=3,
    );
    let moved_ev = evidence("src/b.rs", 10, "call()", "moved");
    let moved = local(
        ExcerptMatch::Moved { from: 10, to: 12 },
        11,
        &["x", "call()", "y"],
        12..=12,
    );
    let missing_ev = evidence("src/c.rs", 5, "gone()", "deleted");
    let missing = local(ExcerptMatch::NotFound, 4, &["a", "b", "c"], 5..=5);
    EvidenceView {
        head: HeadLine::from_match(&HeadMatch::Different { head: HEAD.to_string() }, REVIEWED),
        items: vec![
            ExcerptView::new(&ev, LocalView::checked(&ev.path, &checked, None), None),
            ExcerptView::new(&moved_ev, LocalView::checked(&moved_ev.path, &moved, None), None),
            ExcerptView::new(&missing_ev, LocalView::checked(&missing_ev.path, &missing, None), None),
        ],
        stated: Vec::new(),
        scroll: 0,
        focused: true,
        color,
        window: Default::default(),
    }
}

#[test]
fn head_lines_say_how_the_checkout_relates() {
    assert_eq!(HeadLine::Same.text(), "✓ checkout HEAD is the reviewed commit");
    assert_eq!(
        HeadLine::from_match(&HeadMatch::Different { head: HEAD.to_string() }, REVIEWED).text(),
        "! checkout HEAD abc1234 differs from reviewed def5678"
    );
    assert_eq!(HeadLine::NoCheckout.text(), "· no local checkout");
    assert_eq!(
        HeadLine::from_match(&HeadMatch::Unknown, "def5678").text(),
        "? checkout HEAD unknown (reviewed def5678)"
    );
}

#[test]
fn each_outcome_is_shown_in_words_and_glyphs() {
    let buffer = draw(&sample_view(true), 90, 40);
    let text = rows(&buffer).join("\n");
    for needle in [
        " Evidence (3) ",
        "! checkout HEAD abc1234 differs from reviewed def5678",
        "src/retry.rs:3  new side",
        "the loop never ends",
        "✓ excerpt matches at line 3 · from the working tree \u{2014} may differ from what was",
        "↪ excerpt moved: found at line 12, not at line 10 · from the working tree",
        "✗ excerpt not found (white space ignored); stated line marked",
        "▶    3 │     if attempts > max {",
        "     3 ┃ if attempts > max {",
        "     2 │     loop {",
        "▶   12 │ call()",
    ] {
        assert!(text.contains(needle), "{needle:?} missing in\n{text}");
    }
}

#[test]
fn outcomes_are_coloured_and_marked_lines_emphasised() {
    let buffer = draw(&sample_view(true), 90, 40);
    let (y, row) = find_row(&buffer, "✓ excerpt matches");
    let x = row.chars().position(|c| c == '✓').expect("glyph") as u16;
    assert_eq!(buffer[(x, y)].fg, Color::Green);
    let (y, row) = find_row(&buffer, "✗ excerpt not found");
    let x = row.chars().position(|c| c == '✗').expect("glyph") as u16;
    assert_eq!(buffer[(x, y)].fg, Color::Red);
    let (y, row) = find_row(&buffer, "▶    3");
    let x = row.chars().position(|c| c == '▶').expect("marker") as u16;
    assert!(buffer[(x, y)].modifier.contains(Modifier::REVERSED));
    let plain = draw(&sample_view(false), 90, 40);
    assert!(
        plain.content().iter().all(|c| c.fg == Color::Reset),
        "NO_COLOR: no foreground colours"
    );
}

#[test]
fn pending_unavailable_and_no_checkout() {
    let ev = evidence("a.rs", 1, "x", "r");
    let err = crate::checkout::CheckoutError::OldSideUnavailable(crate::checkout::OldUnavailable::NoReviewedSha);
    let data = EvidenceView {
        items: vec![
            ExcerptView::new(&ev, LocalView::Pending, None),
            ExcerptView::new(&ev, LocalView::unavailable(&err), None),
            ExcerptView::new(&ev, LocalView::NoCheckout, None),
        ],
        ..EvidenceView::default()
    };
    let text = rows(&draw(&data, 90, 30)).join("\n");
    assert!(text.contains("· no local checkout"));
    assert!(text.contains("… reading the file"));
    assert!(text.contains("! not checked: old side not available: the review names no reviewed commit"));
    let empty = rows(&draw(&EvidenceView::default(), 60, 6)).join("\n");
    assert!(empty.contains("No evidence excerpts for this finding."));
}

#[test]
fn highlighting_is_used_once_cached() {
    let h = Highlighter::new(ThemeChoice::Ansi);
    let mut arrived = Highlights::new(true);
    let ev = evidence("src/main.rs", 1, "fn main() { let s = \"x\"; }", "r");
    let before = ExcerptView::new(&ev, LocalView::NoCheckout, Some(&arrived));
    assert!(before.excerpt.iter().flatten().all(|(s, _)| *s == Style::default()));
    let job = excerpt_job(&ev);
    arrived.insert(h.highlight(&job.path, &job.lines));
    let after = ExcerptView::new(&ev, LocalView::NoCheckout, Some(&arrived));
    let styles: std::collections::HashSet<Style> = after.excerpt.iter().flatten().map(|(s, _)| *s).collect();
    assert!(styles.len() > 1, "{styles:?}");
    let text: String = after.excerpt.iter().flatten().map(|(_, t)| t.as_str()).collect();
    assert_eq!(text, ev.excerpt);
}

#[test]
fn hostile_text_never_reaches_a_cell() {
    let ev = evidence(
        "src/\u{1b}[2Jevil\u{202e}.rs",
        2,
        "let x = \"\u{202e}\";\u{7}\r\n\tnext()\u{2066}",
        "because\u{1b}]0;pwn\u{7}\nsecond\u{200b} line\u{85}",
    );
    let raw_context = local(
        ExcerptMatch::AtLine(2),
        1,
        &["a\u{1b}[31m", "let x = \"\u{202e}\";\u{7}", "\u{2067}b\t"],
        2..=2,
    );
    let h = Highlighter::new(ThemeChoice::Ansi);
    let mut arrived = Highlights::new(true);
    for job in [excerpt_job(&ev), context_job(&ev.path, &raw_context)] {
        arrived.insert(h.highlight(&job.path, &job.lines));
    }
    let err = crate::checkout::CheckoutError::Git("fatal\u{1b}[5m \u{202e}".to_string());
    let data = EvidenceView {
        head: HeadLine::Different {
            head: "\u{1b}[1mabc".to_string(),
            reviewed: "\u{202e}def5678".to_string(),
        },
        items: vec![
            ExcerptView::new(
                &ev,
                LocalView::checked(&ev.path, &raw_context, Some(&arrived)),
                Some(&arrived),
            ),
            ExcerptView::new(&ev, LocalView::unavailable(&err), None),
            // Built by hand from raw text: the view still cleans it.
            ExcerptView {
                path: "raw\u{1b}path".to_string(),
                side: Side::Old,
                line: 1,
                reason: vec!["raw\u{202e}reason".to_string()],
                excerpt: vec![vec![(Style::default(), "raw\u{7}\u{2069}".to_string())]],
                local: LocalView::Unavailable("raw\u{9b}why".to_string()),
            },
        ],
        stated: vec!["stated\u{1b}]52;c;x\u{7}\nline\u{2028}two".to_string()],
        scroll: 0,
        focused: false,
        color: true,
        window: Default::default(),
    };
    let buffer = draw(&data, 120, 60);
    for cell in buffer.content() {
        assert!(!cell.symbol().chars().any(is_forbidden), "cell {:?}", cell.symbol());
    }
    let text = rows(&buffer).join("\n");
    assert!(text.contains("src/␛[2Jevil⟨U+202E⟩.rs:2"), "{text}");
    assert!(text.contains("raw␛path"));
    assert!(text.contains("stated␛]52;c;x␇"));
}

#[test]
fn scroll_moves_the_text_up() {
    let mut data = sample_view(false);
    let full = rows(&draw(&data, 90, 40));
    data.scroll = 2;
    let scrolled = rows(&draw(&data, 90, 40));
    // Row 1 is the first text row inside the border.
    assert_eq!(scrolled[1], full[3]);
    assert_eq!(line_count(&data), lines(&data).len());
    assert!(line_count(&data) > 20);
}
