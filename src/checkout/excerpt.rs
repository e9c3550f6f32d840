//! Finding an evidence excerpt in a file's lines, and the context around it.
//!
//! The formats define an excerpt as the exact full source line, ignoring
//! only leading, trailing and repeated white space. So a file line and an
//! excerpt line match when their words are equal, a word being a maximal run
//! of characters that are not white space (Unicode `White_Space`, see
//! [`is_white_space`]). In other words: both are trimmed, and every run of
//! white space (spaces, tabs, a stray CR ...) counts as one space. Nothing
//! else is normalised: case, quotes and punctuation must be equal.
//!
//! A multi-line excerpt (lines split at LF, a CR before it dropped) matches
//! consecutive file lines, each pair compared as above; blank lines at its
//! start and end are ignored, and the stated line is where its first
//! non-blank line should be.

use crate::model::text::{is_blank, is_white_space};

/// Where an excerpt was found in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExcerptMatch {
    /// At the stated (1-based) line.
    AtLine(usize),
    /// Not at the stated line `from`, but at line `to` (the nearest match;
    /// on a tie, the earlier one).
    Moved { from: usize, to: usize },
    /// Nowhere in the file.
    NotFound,
}

/// Consecutive file lines around a place, with the number of the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextWindow<'a> {
    /// The 1-based number of `lines[0]`.
    pub first_line: usize,
    pub lines: &'a [String],
}

/// The words of a line: what is left when white space is ignored.
fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_white_space).filter(|w| !w.is_empty())
}

/// True when two lines are equal ignoring leading, trailing and repeated
/// white space.
pub fn same_text(a: &str, b: &str) -> bool {
    words(a).eq(words(b))
}

/// The lines of an excerpt that take part in matching: split at LF (a CR
/// before it dropped), blank lines at both ends removed.
pub fn excerpt_lines(excerpt: &str) -> Vec<&str> {
    let lines: Vec<&str> = excerpt.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let first = lines.iter().position(|l| !is_blank(l));
    let last = lines.iter().rposition(|l| !is_blank(l));
    match (first, last) {
        (Some(first), Some(last)) => lines[first..=last].to_vec(),
        _ => Vec::new(),
    }
}

/// Finds `excerpt` in `file_lines`, preferring the stated 1-based `line`,
/// else the match nearest to it.
pub fn locate_excerpt(file_lines: &[String], excerpt: &str, line: usize) -> ExcerptMatch {
    let want = excerpt_lines(excerpt);
    if want.is_empty() || want.len() > file_lines.len() {
        return ExcerptMatch::NotFound;
    }
    let matches_at = |start: usize| want.iter().zip(&file_lines[start..]).all(|(w, f)| same_text(f, w));
    let last_start = file_lines.len() - want.len();
    let stated = line.saturating_sub(1);
    if line >= 1 && stated <= last_start && matches_at(stated) {
        return ExcerptMatch::AtLine(line);
    }
    let center = stated.min(last_start);
    let reach = center.max(last_start - center);
    for d in 0..=reach {
        let below = center.checked_sub(d);
        let above = Some(center + d).filter(|&s| d > 0 && s <= last_start);
        if let Some(start) = [below, above].into_iter().flatten().find(|&s| matches_at(s)) {
            return ExcerptMatch::Moved {
                from: line,
                to: start + 1,
            };
        }
    }
    ExcerptMatch::NotFound
}

/// The lines from `n` before the block of `len` lines starting at 1-based
/// `start` to `n` after it, clamped to the file. A start past the end
/// shows the end of the file.
pub fn context_block(file_lines: &[String], start: usize, len: usize, n: usize) -> ContextWindow<'_> {
    let Some(last) = file_lines.len().checked_sub(1) else {
        return ContextWindow {
            first_line: 1,
            lines: &[],
        };
    };
    let begin = start.saturating_sub(1).min(last);
    let end = begin.saturating_add(len.max(1)).min(file_lines.len());
    let from = begin.saturating_sub(n);
    let to = end.saturating_add(n).min(file_lines.len());
    ContextWindow {
        first_line: from + 1,
        lines: &file_lines[from..to],
    }
}

/// The lines from `n` before 1-based `line` to `n` after it.
pub fn context(file_lines: &[String], line: usize, n: usize) -> ContextWindow<'_> {
    context_block(file_lines, line, 1, n)
}
