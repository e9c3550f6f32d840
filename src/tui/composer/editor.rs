//! The evidence editor: a ratatui-textarea buffer for the editing itself
//! (cursor, words, undo), and its display rows built here instead of by the
//! text area's widget, because the widget draws what was typed or pasted as
//! it is. The text is kept exactly as entered; only the rows are sanitised.

use crate::sanitize::{clean_line, is_forbidden};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, Input, Key, TextArea};
use unicode_width::UnicodeWidthChar;

/// The editing buffer and the first display row shown.
#[derive(Debug, Clone)]
pub struct Editor {
    area: TextArea<'static>,
    /// First display row in view (kept in view of the cursor by `update`).
    pub top: usize,
}

impl Default for Editor {
    fn default() -> Self {
        Editor::new("")
    }
}

impl Editor {
    /// An editor holding `text`, cursor at the end.
    pub fn new(text: &str) -> Editor {
        let mut area = TextArea::default();
        area.insert_str(normalize_breaks(text));
        Editor { area, top: 0 }
    }

    /// The text exactly as entered (lines joined with `\n`).
    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    /// The lines of the text.
    pub fn lines(&self) -> &[String] {
        self.area.lines()
    }

    /// True when nothing has been entered.
    pub fn is_empty(&self) -> bool {
        self.area.is_empty()
    }

    /// Replaces the whole text (cursor at the end; undo can bring the old text back).
    pub fn set_text(&mut self, text: &str) {
        self.area.select_all();
        self.area.cut();
        self.area.insert_str(normalize_breaks(text));
    }

    /// Inserts text at the cursor (pasted text included: line breaks of any
    /// kind become new lines; everything else is kept as it is).
    pub fn insert(&mut self, text: &str) {
        self.area.insert_str(normalize_breaks(text));
    }

    /// Inserts `text` at the cursor as a word of its own: a space goes first
    /// when the text before the cursor on its line does not end in whitespace
    /// (a permalink or template typed after `see` becomes `see <link>`).
    pub fn insert_word(&mut self, text: &str) {
        let (row, col) = self.cursor();
        let before = self
            .area
            .lines()
            .get(row)
            .and_then(|line| col.checked_sub(1).and_then(|i| line.chars().nth(i)));
        if before.is_some_and(|c| !c.is_whitespace()) {
            self.area.insert_char(' ');
        }
        self.insert(text);
    }

    /// Applies a key the key table did not claim; true when the text changed.
    pub fn key(&mut self, key: &KeyEvent) -> bool {
        match to_input(key) {
            Some(input) => self.area.input(input),
            None => false,
        }
    }

    /// Cursor as (line, character) in the text.
    pub fn cursor(&self) -> (usize, usize) {
        let c = self.area.cursor();
        (c.0, c.1)
    }

    /// Moves the cursor to the end of the text.
    pub fn to_end(&mut self) {
        self.area.move_cursor(CursorMove::Bottom);
        self.area.move_cursor(CursorMove::End);
    }

    /// The sanitised, wrapped display rows for `width` columns.
    pub fn rows(&self, width: u16) -> Rows {
        rows(self.area.lines(), self.cursor(), usize::from(width.max(1)))
    }

    /// Scrolls so the cursor row is within `height` rows of `width` columns,
    /// and no further than the last row needs: when the box grows (a larger
    /// window, fewer wrapped rows) the rows above come back into view, so a
    /// text that fits is shown whole.
    pub fn keep_cursor_visible(&mut self, width: u16, height: u16) {
        let rows = self.rows(width);
        let row = rows.cursor.row;
        let height = usize::from(height.max(1));
        // The cursor may sit on a row after the last text row (an empty last line).
        let total = rows.rows.len().max(row + 1);
        self.top = self.top.min(total.saturating_sub(height));
        if row < self.top {
            self.top = row;
        } else if row >= self.top + height {
            self.top = row + 1 - height;
        }
    }
}

/// CR LF and lone CR become LF (a terminal pastes line breaks as CR).
pub fn normalize_breaks(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// A key event as the text area's input (none for keys it has no use for;
/// paging is left out: it needs the text area's own widget to know the height).
fn to_input(key: &KeyEvent) -> Option<Input> {
    let code = match key.code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Enter => Key::Enter,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Tab => Key::Tab,
        KeyCode::Delete => Key::Delete,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::F(n) => Key::F(n),
        _ => return None,
    };
    Some(Input {
        key: code,
        ctrl: key.modifiers.contains(KeyModifiers::CONTROL),
        alt: key.modifiers.contains(KeyModifiers::ALT),
        shift: key.modifiers.contains(KeyModifiers::SHIFT),
    })
}

/// Where the cursor is drawn: display row and the byte range of its cell in that row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CursorCell {
    pub row: usize,
    /// Byte offsets of the cell under the cursor (`start == end`: after the end of the row).
    pub start: usize,
    pub end: usize,
}

/// Display rows of the text: sanitised, wrapped by display width.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rows {
    pub rows: Vec<String>,
    pub cursor: CursorCell,
}

/// What one character shows as (forbidden ones as visible placeholders).
fn shown(c: char) -> (String, usize) {
    if c == '\t' {
        return ("    ".to_string(), 4);
    }
    if is_forbidden(c) {
        let text = clean_line(&c.to_string());
        let width = text.chars().map(|c| c.width().unwrap_or(0)).sum();
        return (text, width);
    }
    (c.to_string(), c.width().unwrap_or(0))
}

/// Where the rows of one line of `cells` begin: at a word boundary (after
/// the last whitespace that fits) when the row holds one, else mid-word, as
/// a word longer than the row cannot be kept whole.
fn row_starts(cells: &[(String, usize, bool)], width: usize) -> Vec<usize> {
    let mut starts = vec![0];
    let (mut row_start, mut used, mut after_space) = (0, 0, None);
    for (i, (_, w, space)) in cells.iter().enumerate() {
        if used + w > width && used > 0 {
            let at = after_space.filter(|&a| a > row_start && a <= i).unwrap_or(i);
            starts.push(at);
            row_start = at;
            used = cells[at..i].iter().map(|c| c.1).sum();
            after_space = None;
        }
        used += w;
        if *space {
            after_space = Some(i + 1);
        }
    }
    starts
}

fn rows(lines: &[String], cursor: (usize, usize), width: usize) -> Rows {
    let mut out = Rows::default();
    for (n, line) in lines.iter().enumerate() {
        let cells: Vec<(String, usize, bool)> = line
            .chars()
            .map(|c| {
                let (text, w) = shown(c);
                (text, w, c.is_whitespace())
            })
            .collect();
        let starts = row_starts(&cells, width);
        for (r, &from) in starts.iter().enumerate() {
            let to = starts.get(r + 1).copied().unwrap_or(cells.len());
            let mut row = String::new();
            for (i, (text, _, _)) in cells.iter().enumerate().take(to).skip(from) {
                if (n, i) == cursor {
                    out.cursor = CursorCell {
                        row: out.rows.len(),
                        start: row.len(),
                        end: row.len() + text.len(),
                    };
                }
                row.push_str(text);
            }
            if to == cells.len() && (n, to) == cursor {
                let used: usize = cells[from..].iter().map(|c| c.1).sum();
                if used >= width {
                    out.rows.push(std::mem::take(&mut row));
                }
                out.cursor = CursorCell {
                    row: out.rows.len(),
                    start: row.len(),
                    end: row.len(),
                };
            }
            out.rows.push(row);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn typing_and_paste_keep_the_exact_text() {
        let mut e = Editor::default();
        for c in "héllo".chars() {
            e.key(&key(KeyCode::Char(c)));
        }
        e.key(&key(KeyCode::Enter));
        e.insert("a\u{1b}[31m\r\nb\rc\u{202e}");
        assert_eq!(e.text(), "héllo\na\u{1b}[31m\nb\nc\u{202e}");
        e.key(&key(KeyCode::Backspace));
        assert_eq!(e.text(), "héllo\na\u{1b}[31m\nb\nc");
    }

    #[test]
    fn rows_are_clean_and_wrapped() {
        let e = Editor::new("ab\u{1b}cd\u{202e}\tx");
        let r = e.rows(4);
        for row in &r.rows {
            assert!(!row.chars().any(is_forbidden), "{row:?}");
        }
        assert_eq!(r.rows[0], "ab␛c");
        assert!(r.rows.concat().contains("⟨U+202E⟩"));
        assert_eq!(r.cursor.row, r.rows.len() - 1, "cursor after the last character");
    }

    #[test]
    fn cursor_cell_follows_the_character() {
        let mut e = Editor::new("abc\ndef");
        e.key(&key(KeyCode::Up));
        e.key(&key(KeyCode::Home));
        e.key(&key(KeyCode::Right));
        let r = e.rows(10);
        assert_eq!(
            r.cursor,
            CursorCell {
                row: 0,
                start: 1,
                end: 2
            }
        );
        let full = Editor::new("abcd");
        let r = full.rows(4);
        assert_eq!(r.rows, ["abcd", ""]);
        assert_eq!(r.cursor.row, 1, "a full row moves the cursor to the next");
    }

    #[test]
    fn scrolling_follows_the_cursor() {
        let mut e = Editor::new(&"line\n".repeat(20));
        e.keep_cursor_visible(20, 5);
        assert_eq!(e.top, 16);
        for _ in 0..20 {
            e.key(&key(KeyCode::Up));
        }
        e.keep_cursor_visible(20, 5);
        assert_eq!(e.top, 0);
    }

    #[test]
    fn a_box_that_grows_shows_the_rows_above_again() {
        let mut e = Editor::new("the first line of the decision and then the second part");
        // A window shrunk to a few columns: the cursor row is far down.
        e.keep_cursor_visible(6, 1);
        let shrunk = e.top;
        assert!(shrunk > 0);
        // Back to a wide box: everything fits, so nothing is scrolled away.
        e.keep_cursor_visible(100, 20);
        assert_eq!(e.top, 0);
        // A box that still needs scrolling keeps the cursor's row in view.
        e.keep_cursor_visible(6, 1);
        e.keep_cursor_visible(6, 3);
        let rows = e.rows(6);
        assert_eq!(e.top, rows.rows.len().max(rows.cursor.row + 1) - 3);
    }

    #[test]
    fn rows_break_between_words() {
        let e = Editor::new("the quick brown fox");
        assert_eq!(e.rows(10).rows, ["the quick ", "brown fox"]);
        let long = Editor::new("a verylongwordhere b");
        assert_eq!(
            long.rows(6).rows,
            ["a ", "verylo", "ngword", "here b", ""],
            "a word longer than a row is cut (the cursor after a full row goes below)"
        );
        let mut mid = Editor::new("the quick brown");
        for _ in 0..3 {
            mid.key(&key(KeyCode::Left));
        }
        let r = mid.rows(10);
        assert_eq!(r.rows[1], "brown");
        assert_eq!(
            r.cursor,
            CursorCell {
                row: 1,
                start: 2,
                end: 3
            },
            "the cursor follows its word"
        );
    }

    #[test]
    fn a_word_is_separated_from_the_text_before_it() {
        let mut e = Editor::new("see");
        e.insert_word("link");
        assert_eq!(e.text(), "see link");
        e.insert_word("x");
        assert_eq!(e.text(), "see link x");
        let mut spaced = Editor::new("see ");
        spaced.insert_word("link");
        assert_eq!(spaced.text(), "see link", "no second space");
        let mut line_start = Editor::new("a\n");
        line_start.insert_word("link");
        assert_eq!(line_start.text(), "a\nlink", "nothing before it on its line");
    }

    #[test]
    fn set_text_replaces_and_undo_restores() {
        let mut e = Editor::new("mine");
        e.set_text("template");
        assert_eq!(e.text(), "template");
        e.key(&KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        e.key(&KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        assert_eq!(e.text(), "mine");
    }
}
