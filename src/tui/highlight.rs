//! Syntax highlighting of evidence text, kept off the render path.
//!
//! syntect (Oniguruma regexes) with two-face's extra syntaxes. Loading the
//! definitions takes a few milliseconds; the first highlight of a language
//! compiles its regexes (milliseconds to tens of milliseconds). So:
//! - the runtime creates one `Arc<Highlighter>` and one [`queue::Queue`]
//!   fed with every excerpt of the loaded review; a background thread
//!   highlights each block once, the selected finding's first and the
//!   visible ones next ([`queue::Lane`]), caches it, and reports each
//!   finished block through a callback (the runtime turns it into a message
//!   so the screen redraws);
//! - the view only calls [`Highlighter::cached`], which never highlights
//!   and never loads anything: when a block is not ready it gets `None` and
//!   shows the plain sanitised text.
//!
//! Text is sanitised (tabs expanded, controls made visible) before it is
//! highlighted, so no control character can reach a span. Colours come from
//! the theme's foreground and font style only (no backgrounds, so the
//! screen's own background stays). With [`ThemeChoice::Plain`] (`NO_COLOR`)
//! every span is unstyled and syntect is never loaded.

use crate::sanitize::{DEFAULT_TAB_WIDTH, clean};
use ratatui::style::{Color, Modifier, Style};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};
use syntect::easy::HighlightLines;
use syntect::highlighting::{self as sh, Theme};
use syntect::parsing::{SyntaxReference, SyntaxSet};
use two_face::theme::{EmbeddedLazyThemeSet, EmbeddedThemeName};

/// One display line: sanitised text pieces with their style.
pub type StyledLine = Vec<(Style, String)>;

/// A highlighted block of lines, shared between the cache and its readers.
pub type Highlighted = Arc<Vec<StyledLine>>;

/// Blocks with a line longer than this (in bytes) are left unstyled.
pub const MAX_LINE_BYTES: usize = 2_000;

/// Blocks with more lines than this are left unstyled.
pub const MAX_LINES: usize = 400;

/// Cached blocks kept before the cache starts over.
const MAX_ENTRIES: usize = 50_000;

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

/// Identifies a highlighted block: a hash of the syntax token (the file
/// name) and the lines. Cache hits are confirmed against the stored text,
/// so a hash collision can never show another block's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HighlightKey(u64);

/// One block to highlight in the background.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HighlightJob {
    /// The file path the text comes from (chooses the syntax; never opened).
    pub path: String,
    /// Raw (unsanitised) lines.
    pub lines: Vec<String>,
}

/// A cache entry: the input it was made from, and the result.
struct Entry {
    token: String,
    input: Vec<String>,
    output: Highlighted,
}

/// Syntax highlighter with a thread-safe cache of highlighted blocks.
pub struct Highlighter {
    theme: Option<Theme>,
    syntaxes: OnceLock<SyntaxSet>,
    cache: Mutex<HashMap<HighlightKey, Entry>>,
}

impl std::fmt::Debug for Highlighter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Highlighter")
            .field("styled", &self.theme.is_some())
            .field("loaded", &self.syntaxes.get().is_some())
            .finish()
    }
}

/// The lookup token of a path: its file name, lower-cased.
fn syntax_token(path: &str) -> String {
    path.rsplit(['/', '\\']).next().unwrap_or(path).to_lowercase()
}

/// The cache key of a block.
fn key_of(token: &str, lines: &[String]) -> HighlightKey {
    let mut hasher = DefaultHasher::new();
    token.hash(&mut hasher);
    lines.hash(&mut hasher);
    HighlightKey(hasher.finish())
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
        key_of(&syntax_token(path), lines)
    }

    /// The highlighted block if it is ready. Never highlights, never loads
    /// and never waits for highlighting (the cache lock is only held for
    /// lookups and inserts): safe on the render path.
    pub fn cached(&self, path: &str, lines: &[String]) -> Option<Highlighted> {
        let token = syntax_token(path);
        let key = key_of(&token, lines);
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let entry = cache.get(&key)?;
        (entry.token == token && entry.input == lines).then(|| Arc::clone(&entry.output))
    }

    /// Highlights a block now (or returns it from the cache) and caches it.
    /// Blocks the caller for the highlighting: use from a worker thread.
    pub fn highlight(&self, path: &str, lines: &[String]) -> Highlighted {
        if let Some(done) = self.cached(path, lines) {
            return done;
        }
        let output = Arc::new(self.render(path, lines));
        let token = syntax_token(path);
        let key = key_of(&token, lines);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= MAX_ENTRIES {
            cache.clear();
        }
        let entry = Entry {
            token,
            input: lines.to_vec(),
            output: Arc::clone(&output),
        };
        cache.insert(key, entry);
        output
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

/// Each line as one unstyled span.
pub fn plain_lines(clean: &[String]) -> Vec<StyledLine> {
    clean.iter().map(|l| vec![(Style::default(), l.clone())]).collect()
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

pub mod queue;

#[cfg(test)]
mod tests;
