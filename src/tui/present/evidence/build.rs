//! Building excerpt views from evidence and the checkout, and the highlight
//! jobs whose cached results those views use.

use super::model::{CheckedView, ExcerptView, LocalView};
use crate::checkout::LocalEvidence;
use crate::model::finding::Evidence;
use crate::sanitize::{DEFAULT_TAB_WIDTH, clean};
use crate::tui::highlight::{HighlightJob, Highlights, StyledLine, plain_lines};

/// The raw lines of an excerpt as highlighted: split at LF, a CR before
/// it dropped.
pub fn excerpt_raw_lines(excerpt: &str) -> Vec<String> {
    excerpt.lines().map(str::to_string).collect()
}

/// The highlight job of an excerpt (the runtime queues it; the view finds
/// the result under the same key).
pub fn excerpt_job(evidence: &Evidence) -> HighlightJob {
    HighlightJob {
        path: evidence.path.clone(),
        lines: excerpt_raw_lines(&evidence.excerpt),
    }
}

/// The highlight job of the context read from the checkout.
pub fn context_job(path: &str, local: &LocalEvidence) -> HighlightJob {
    HighlightJob {
        path: path.to_string(),
        lines: local.lines.clone(),
    }
}

/// The longest line of evidence shown, in characters; the rest of a longer
/// line is replaced by a note of how much was left out, so one field of
/// megabytes costs a frame no more than a screenful.
pub const MAX_LINE_CHARS: usize = 4096;

/// `line` cut to [`MAX_LINE_CHARS`] characters, saying how many were left out.
pub fn cap_line(line: String) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        None => line,
        Some((at, _)) => {
            let rest = line[at..].chars().count();
            format!("{} … ({rest} more characters not shown)", &line[..at])
        }
    }
}

/// The most lines of one field (reason, excerpt, stated text) shown; a
/// longer field shows these and a note of how many lines were left out.
pub const MAX_FIELD_LINES: usize = 1000;

/// Lines shown for a field of `n` lines (the note counts as one).
pub fn shown_lines(n: usize) -> usize {
    if n > MAX_FIELD_LINES { MAX_FIELD_LINES + 1 } else { n }
}

/// The clean display lines of untrusted text, as [`clean_lines`] splits
/// them, but at most [`MAX_FIELD_LINES`] of them, each capped by
/// [`cap_line`], then the note of what was left out. Only the lines shown
/// are cleaned, so a field of megabytes costs what a screenful costs.
pub fn field_lines(text: &str) -> Vec<String> {
    let total = split_count(text);
    let mut out = Vec::with_capacity(shown_lines(total));
    let mut rest = text;
    while out.len() < MAX_FIELD_LINES.min(total) {
        let (line, tail) = match rest.find(['\n', '\r']) {
            None => (rest, ""),
            Some(at) => {
                let skip = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
                (&rest[..at], &rest[at + skip..])
            }
        };
        out.push(cap_line(clean(line, DEFAULT_TAB_WIDTH).into_owned()));
        rest = tail;
    }
    if total > MAX_FIELD_LINES {
        out.push(format!("… ({} more lines not shown)", total - MAX_FIELD_LINES));
    }
    out
}

/// The lines an excerpt shows (see [`field_lines`]); split like
/// [`excerpt_raw_lines`].
pub fn excerpt_shown_lines(excerpt: &str) -> usize {
    shown_lines(excerpt.lines().count())
}

/// The highlighted block of `lines` if it has arrived, else the plain
/// sanitised lines (each capped by [`cap_line`]; the highlighter leaves such
/// long lines plain).
fn styled_or_plain(path: &str, lines: &[String], highlights: Option<&Highlights>) -> Vec<StyledLine> {
    if let Some(done) = highlights.and_then(|h| h.get(path, lines)) {
        return done.lines.clone();
    }
    let clean: Vec<String> = lines
        .iter()
        .map(|l| cap_line(clean(l, DEFAULT_TAB_WIDTH).into_owned()))
        .collect();
    plain_lines(&clean)
}

impl ExcerptView {
    /// Builds the view of one evidence item; uses highlighting only if the
    /// block has arrived (never waits).
    /// An excerpt of more than [`MAX_FIELD_LINES`] lines is shown plain and cut.
    pub fn new(evidence: &Evidence, local: LocalView, highlights: Option<&Highlights>) -> ExcerptView {
        let count = evidence.excerpt.lines().count();
        let excerpt = if count > MAX_FIELD_LINES {
            let mut lines: Vec<String> = evidence
                .excerpt
                .lines()
                .take(MAX_FIELD_LINES)
                .map(|l| cap_line(clean(l, DEFAULT_TAB_WIDTH).into_owned()))
                .collect();
            lines.push(format!("… ({} more lines not shown)", count - MAX_FIELD_LINES));
            plain_lines(&lines)
        } else {
            styled_or_plain(&evidence.path, &excerpt_raw_lines(&evidence.excerpt), highlights)
        };
        ExcerptView {
            path: cap_line(clean(&evidence.path, DEFAULT_TAB_WIDTH).into_owned()),
            side: evidence.side,
            line: evidence.line,
            reason: field_lines(&evidence.reason),
            excerpt,
            local,
        }
    }
}

impl LocalView {
    /// The view of a checked excerpt; uses the highlighted block if it arrived.
    pub fn checked(path: &str, local: &LocalEvidence, highlights: Option<&Highlights>) -> LocalView {
        LocalView::Checked(CheckedView {
            found: local.found,
            revision: local.revision.clone(),
            first_line: local.first_line,
            lines: styled_or_plain(path, &local.lines, highlights),
            marked: local.marked.clone(),
        })
    }

    /// The view of a read that failed (any error with a message).
    pub fn unavailable(err: &impl std::fmt::Display) -> LocalView {
        LocalView::Unavailable(clean(&err.to_string(), DEFAULT_TAB_WIDTH).into_owned())
    }
}

/// Lines [`clean_lines`] makes of `text`, without making them.
pub fn split_count(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    let bytes = text.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                n += 1;
                i += 1;
            }
            b'\n' | b'\r' => n += 1,
            _ => {}
        }
        i += 1;
    }
    let ends_with_break = matches!(bytes[bytes.len() - 1], b'\n' | b'\r');
    n + usize::from(!ends_with_break)
}
