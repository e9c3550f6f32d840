//! Highlighted blocks as plain data: the key a block is found under, the job
//! that asks for it, the finished block, and [`Highlights`], the screen's own
//! map of finished blocks.
//!
//! The highlighting thread makes each [`Block`] once and sends it to the
//! screen in a message (`Msg::Highlighted`); `update` files it in the
//! [`Highlights`] held by the App, and `update` and the view read only that
//! map. Nothing here locks, highlights or loads syntaxes.

use ratatui::style::Style;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

/// One display line: sanitised text pieces with their style.
pub type StyledLine = Vec<(Style, String)>;

/// A finished block, shared between the highlighting thread and the screen.
pub type Highlighted = Arc<Block>;

/// Blocks kept before a map starts over (the screen's and the thread's).
pub const MAX_ENTRIES: usize = 50_000;

/// Identifies a highlighted block: a hash of the syntax token (the file
/// name) and the lines. A hit is confirmed against the block's own input,
/// so a hash collision can never show another block's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HighlightKey(u64);

impl HighlightKey {
    /// The key of the block `lines` of `path` (cheap: one hash).
    pub fn of(path: &str, lines: &[String]) -> HighlightKey {
        key_of(&syntax_token(path), lines)
    }
}

/// One block to highlight in the background.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HighlightJob {
    /// The file path the text comes from (chooses the syntax; never opened).
    pub path: String,
    /// Raw (unsanitised) lines.
    pub lines: Vec<String>,
}

/// A highlighted block: what it was made from, and its styled lines.
#[derive(Debug, PartialEq)]
pub struct Block {
    key: HighlightKey,
    token: String,
    input: Vec<String>,
    /// The sanitised lines with their styles, one per input line.
    pub lines: Vec<StyledLine>,
}

impl Block {
    /// The block of `lines` of `path`, styled as `styled`.
    pub fn new(path: &str, lines: &[String], styled: Vec<StyledLine>) -> Block {
        let token = syntax_token(path);
        Block {
            key: key_of(&token, lines),
            token,
            input: lines.to_vec(),
            lines: styled,
        }
    }

    /// The key the block is found under.
    pub fn key(&self) -> HighlightKey {
        self.key
    }

    /// True when this block was made from `lines` of a file named like `path`.
    pub fn is_for(&self, path: &str, lines: &[String]) -> bool {
        self.token == syntax_token(path) && self.input == lines
    }
}

/// The lookup token of a path: its file name, lower-cased.
pub(super) fn syntax_token(path: &str) -> String {
    path.rsplit(['/', '\\']).next().unwrap_or(path).to_lowercase()
}

/// The key of a block.
fn key_of(token: &str, lines: &[String]) -> HighlightKey {
    let mut hasher = DefaultHasher::new();
    token.hash(&mut hasher);
    lines.hash(&mut hasher);
    HighlightKey(hasher.finish())
}

/// Each line as one unstyled span.
pub fn plain_lines(clean: &[String]) -> Vec<StyledLine> {
    clean.iter().map(|l| vec![(Style::default(), l.clone())]).collect()
}

/// The finished blocks the screen has been sent, by key.
#[derive(Debug, Clone, Default)]
pub struct Highlights {
    /// Highlighting runs: blocks are asked for and arrive in messages
    /// (false: nothing is asked for, and text stays plain).
    pub on: bool,
    /// Blocks carry colours (false under `NO_COLOR`: blocks are plain, so
    /// nothing on screen waits for one).
    pub styled: bool,
    blocks: HashMap<HighlightKey, Highlighted>,
}

impl Highlights {
    /// Highlighting on, with colours when `styled`.
    pub fn new(styled: bool) -> Highlights {
        Highlights {
            on: true,
            styled,
            blocks: HashMap::new(),
        }
    }

    /// The finished block of `lines` of `path`, if it has arrived.
    pub fn get(&self, path: &str, lines: &[String]) -> Option<&Highlighted> {
        self.blocks
            .get(&HighlightKey::of(path, lines))
            .filter(|b| b.is_for(path, lines))
    }

    /// Files a block that arrived (a full map starts over first).
    pub fn insert(&mut self, block: Highlighted) {
        if self.blocks.len() >= MAX_ENTRIES && !self.blocks.contains_key(&block.key) {
            self.blocks.clear();
        }
        self.blocks.insert(block.key, block);
    }

    /// The key to wait for when `lines` of `path` are shown plain until their
    /// colours arrive (`None`: ready, or nothing to wait for).
    pub fn awaited(&self, path: &str, lines: &[String]) -> Option<HighlightKey> {
        (self.on && self.styled && self.get(path, lines).is_none()).then(|| HighlightKey::of(path, lines))
    }

    /// Blocks held.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// True when no block has arrived.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_block_is_found_only_for_the_same_text_and_file_name() {
        let lines = owned(&["let x = 1;"]);
        let mut map = Highlights::new(true);
        assert_eq!(map.awaited("a.rs", &lines), Some(HighlightKey::of("a.rs", &lines)));
        map.insert(Arc::new(Block::new("a.rs", &lines, plain_lines(&lines))));
        assert!(
            map.get("dir/A.RS", &lines).is_some(),
            "same file name, any case or directory"
        );
        assert!(map.get("a.py", &lines).is_none());
        assert!(map.get("a.rs", &owned(&["let x = 2;"])).is_none());
        assert_eq!(map.awaited("a.rs", &lines), None, "ready: nothing to wait for");
        let plain = Highlights::new(false);
        assert_eq!(plain.awaited("a.rs", &lines), None, "plain blocks are not waited for");
    }
}
