//! Syntax highlighting of evidence text, kept off the render path.
//!
//! syntect (Oniguruma regexes) with two-face's extra syntaxes. Loading the
//! definitions takes a few milliseconds; the first highlight of a language
//! compiles its regexes (milliseconds to tens of milliseconds). So:
//! - the runtime creates one `Arc<Highlighter>` and one [`queue::Queue`]
//!   fed with every excerpt of the loaded review; a background thread
//!   highlights each block once, the selected finding's first and the
//!   visible ones next ([`queue::Lane`]), caches it, and hands each
//!   finished block to a callback (the runtime sends it to the screen);
//! - each finished [`Block`] reaches the screen in a message; `update`
//!   files it in the App's [`Highlights`], and the evidence panel and the
//!   diff view take blocks from there only. A block not arrived yet is shown
//!   as the plain sanitised text. The screen never reads this module's
//!   cache (it is the highlighting thread's, behind a lock).
//!
//! Text is sanitised (tabs expanded, controls made visible) before it is
//! highlighted, so no control character can reach a span. Colours come from
//! the theme's foreground and font style only (no backgrounds, so the
//! screen's own background stays). With [`ThemeChoice::Plain`] (`NO_COLOR`)
//! every span is unstyled and syntect is never loaded.

pub use block::{Block, HighlightJob, HighlightKey, Highlighted, Highlights, StyledLine, plain_lines};

use crate::sanitize::{DEFAULT_TAB_WIDTH, clean};
use block::{MAX_ENTRIES, syntax_token};
use ratatui::style::{Color, Modifier, Style};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use syntect::easy::HighlightLines;
use syntect::highlighting::{self as sh, Theme};
use syntect::parsing::{SyntaxReference, SyntaxSet};
use two_face::theme::{EmbeddedLazyThemeSet, EmbeddedThemeName};

/// Blocks with a line longer than this (in bytes) are left unstyled.
pub const MAX_LINE_BYTES: usize = 2_000;

/// Blocks with more lines than this are left unstyled.
pub const MAX_LINES: usize = 400;

/// Which colours highlighting uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThemeChoice {
    /// No styling at all (`NO_COLOR`, or a plain theme).
    Plain,
    /// The terminal's own 8/16-colour palette (two-face's `ansi` theme).
    Ansi,
    /// A two-face theme by name (e.g. `Nord`, `base16-ocean.dark`);
    /// an unknown name falls back to [`ThemeChoice::Ansi`].
    Named(String),
}

impl ThemeChoice {
    /// The default for a terminal: plain when `no_color`, else ANSI colours.
    pub fn for_terminal(no_color: bool) -> ThemeChoice {
        if no_color {
            ThemeChoice::Plain
        } else {
            ThemeChoice::Ansi
        }
    }
}

/// Syntax highlighter with the highlighting thread's cache of finished
/// blocks (so a block asked for again is not highlighted again). Only the
/// highlighting side reads this cache; the screen keeps its own
/// [`Highlights`], filled by messages.
pub struct Highlighter {
    theme: Option<Theme>,
    syntaxes: OnceLock<SyntaxSet>,
    cache: Mutex<HashMap<HighlightKey, Highlighted>>,
}

impl std::fmt::Debug for Highlighter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Highlighter")
            .field("styled", &self.theme.is_some())
            .field("loaded", &self.syntaxes.get().is_some())
            .finish()
    }
}

impl Highlighter {
    /// A highlighter with the chosen colours. Cheap: nothing is loaded
    /// until the first highlight.
    pub fn new(choice: ThemeChoice) -> Highlighter {
        let theme = match choice {
            ThemeChoice::Plain => None,
            ThemeChoice::Ansi => Some(embedded(EmbeddedThemeName::Ansi)),
            ThemeChoice::Named(name) => Some(named_theme(&name).unwrap_or_else(|| embedded(EmbeddedThemeName::Ansi))),
        };
        Highlighter {
            theme,
            syntaxes: OnceLock::new(),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// True when spans carry styles (not [`ThemeChoice::Plain`]).
    pub fn is_styled(&self) -> bool {
        self.theme.is_some()
    }

    fn syntax_set(&self) -> &SyntaxSet {
        self.syntaxes.get_or_init(two_face::syntax::extra_newlines)
    }

    /// The syntax for a file path (by file name, then extension). Loads the
    /// definitions on first use: call it from the runtime or a worker.
    fn syntax(&self, path: &str) -> &SyntaxReference {
        let set = self.syntax_set();
        let token = syntax_token(path);
        let by_name = set.find_syntax_by_extension(&token);
        let by_ext = || {
            token
                .rsplit_once('.')
                .and_then(|(_, ext)| set.find_syntax_by_extension(ext))
        };
        by_name.or_else(by_ext).unwrap_or_else(|| set.find_syntax_plain_text())
    }

    /// The name of the syntax used for `path` (`Plain Text` when unknown).
    /// Loads the definitions on first use (a few ms): not for the view.
    pub fn syntax_for_path(&self, path: &str) -> &str {
        &self.syntax(path).name
    }

    /// The key of the block `lines` of `path` (cheap: one hash).
    pub fn key(&self, path: &str, lines: &[String]) -> HighlightKey {
        HighlightKey::of(path, lines)
    }

    /// The finished block if this cache holds it. Never highlights and never
    /// waits for highlighting (the lock is only held for lookups and inserts).
    fn cached(&self, path: &str, lines: &[String]) -> Option<Highlighted> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let block = cache.get(&HighlightKey::of(path, lines))?;
        block.is_for(path, lines).then(|| Arc::clone(block))
    }

    /// Highlights a block now (or returns it from the cache) and caches it.
    /// Blocks the caller for the highlighting: use from a worker thread.
    pub fn highlight(&self, path: &str, lines: &[String]) -> Highlighted {
        if let Some(done) = self.cached(path, lines) {
            return done;
        }
        let block = Arc::new(Block::new(path, lines, self.render(path, lines)));
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= MAX_ENTRIES {
            cache.clear();
        }
        cache.insert(block.key(), Arc::clone(&block));
        block
    }

    /// Sanitises and highlights `lines`; unstyled when plain, too large, or
    /// when syntect fails.
    fn render(&self, path: &str, lines: &[String]) -> Vec<StyledLine> {
        let clean: Vec<String> = lines.iter().map(|l| clean(l, DEFAULT_TAB_WIDTH).into_owned()).collect();
        let too_big = clean.len() > MAX_LINES || clean.iter().any(|l| l.len() > MAX_LINE_BYTES);
        match &self.theme {
            Some(theme) if !too_big => self.styled(path, theme, &clean).unwrap_or_else(|| plain_lines(&clean)),
            _ => plain_lines(&clean),
        }
    }

    /// Runs syntect over sanitised lines; `None` on a syntect error.
    fn styled(&self, path: &str, theme: &Theme, clean: &[String]) -> Option<Vec<StyledLine>> {
        let syntax = self.syntax(path);
        if syntax.name == self.syntax_set().find_syntax_plain_text().name {
            return Some(plain_lines(clean));
        }
        let mut state = HighlightLines::new(syntax, theme);
        let mut out = Vec::with_capacity(clean.len());
        for line in clean {
            let with_newline = format!("{line}\n");
            let pieces = state.highlight_line(&with_newline, self.syntax_set()).ok()?;
            out.push(to_spans(&pieces));
        }
        Some(out)
    }
}

/// Converts syntect pieces to spans: the trailing newline dropped, empty
/// pieces skipped, neighbours of equal style merged.
fn to_spans(pieces: &[(sh::Style, &str)]) -> StyledLine {
    let mut out: StyledLine = Vec::new();
    for (style, text) in pieces {
        let text = text.strip_suffix('\n').unwrap_or(text);
        if text.is_empty() {
            continue;
        }
        let style = convert_style(*style);
        match out.last_mut() {
            Some((last, acc)) if *last == style => acc.push_str(text),
            _ => out.push((style, text.to_string())),
        }
    }
    out
}

/// A syntect style as a ratatui style: foreground and font style only.
pub fn convert_style(style: sh::Style) -> Style {
    let mut out = Style::default();
    if let Some(fg) = convert_color(style.foreground) {
        out = out.fg(fg);
    }
    let font = style.font_style;
    for (flag, modifier) in [
        (sh::FontStyle::BOLD, Modifier::BOLD),
        (sh::FontStyle::ITALIC, Modifier::ITALIC),
        (sh::FontStyle::UNDERLINE, Modifier::UNDERLINED),
    ] {
        if font.contains(flag) {
            out = out.add_modifier(modifier);
        }
    }
    out
}

/// A theme colour as a terminal colour. Terminal themes (two-face `ansi`,
/// `base16`) encode a palette index in red with alpha 0, and "the
/// terminal's default" with alpha 1; other colours are RGB.
pub fn convert_color(c: sh::Color) -> Option<Color> {
    match c.a {
        0 => Some(match c.r {
            0 => Color::Black,
            1 => Color::Red,
            2 => Color::Green,
            3 => Color::Yellow,
            4 => Color::Blue,
            5 => Color::Magenta,
            6 => Color::Cyan,
            7 => Color::Gray,
            n => Color::Indexed(n),
        }),
        1 => None,
        _ => Some(Color::Rgb(c.r, c.g, c.b)),
    }
}

fn embedded(name: EmbeddedThemeName) -> Theme {
    two_face::theme::extra().get(name).clone()
}

/// A two-face theme by name, ignoring ASCII case.
fn named_theme(name: &str) -> Option<Theme> {
    EmbeddedLazyThemeSet::theme_names()
        .iter()
        .find(|t| t.as_name().eq_ignore_ascii_case(name))
        .map(|t| embedded(*t))
}

mod block;
pub mod queue;
pub mod rest;

#[cfg(test)]
mod tests;
