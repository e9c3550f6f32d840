//! Building excerpt views from evidence and the checkout, and the highlight
//! jobs whose cached results those views use.

use super::model::{CheckedView, ExcerptView, LocalView};
use crate::checkout::LocalEvidence;
use crate::model::finding::Evidence;
use crate::sanitize::{DEFAULT_TAB_WIDTH, clean, clean_lines};
use crate::tui::highlight::{HighlightJob, Highlighter, StyledLine, plain_lines};

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

/// The cached highlighting of `lines`, else the plain sanitised lines.
fn styled_or_plain(path: &str, lines: &[String], highlighter: Option<&Highlighter>) -> Vec<StyledLine> {
    if let Some(done) = highlighter.and_then(|h| h.cached(path, lines)) {
        return done.as_ref().clone();
    }
    let clean: Vec<String> = lines.iter().map(|l| clean(l, DEFAULT_TAB_WIDTH).into_owned()).collect();
    plain_lines(&clean)
}

impl ExcerptView {
    /// Builds the view of one evidence item; uses highlighting only if it
    /// is already cached (never waits).
    pub fn new(evidence: &Evidence, local: LocalView, highlighter: Option<&Highlighter>) -> ExcerptView {
        let raw = excerpt_raw_lines(&evidence.excerpt);
        ExcerptView {
            path: clean(&evidence.path, DEFAULT_TAB_WIDTH).into_owned(),
            side: evidence.side,
            line: evidence.line,
            reason: clean_lines(&evidence.reason, DEFAULT_TAB_WIDTH),
            excerpt: styled_or_plain(&evidence.path, &raw, highlighter),
            local,
        }
    }
}

impl LocalView {
    /// The view of a checked excerpt; uses cached highlighting if ready.
    pub fn checked(path: &str, local: &LocalEvidence, highlighter: Option<&Highlighter>) -> LocalView {
        LocalView::Checked(CheckedView {
            found: local.found,
            revision: local.revision.clone(),
            first_line: local.first_line,
            lines: styled_or_plain(path, &local.lines, highlighter),
            marked: local.marked.clone(),
        })
    }

    /// The view of a read that failed (any error with a message).
    pub fn unavailable(err: &impl std::fmt::Display) -> LocalView {
        LocalView::Unavailable(clean(&err.to_string(), DEFAULT_TAB_WIDTH).into_owned())
    }
}
