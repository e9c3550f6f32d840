//! The loaded review as the screen holds it: where it came from, its model,
//! its problems and the rows prepared from it once. Plain data (a leaf of
//! the screen: it names only [`super::prepared`]), so messages can carry it.

use super::prepared::Prepared;
use crate::model::finding::Finding;
use crate::model::problem::Problem;
use crate::model::review::{Format, ReviewSet};

/// Where the review came from (shown in the header).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The bundled demo (labelled DEMO; nothing can be submitted).
    Demo,
    /// A file, by its (sanitised) display name.
    File(String),
    /// Standard input.
    Stdin,
}

/// The loaded review and everything derived from it once.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub source: Source,
    /// The detected (or forced) format; `None` when it could not be told.
    pub format: Option<Format>,
    /// The model, when the file could be read into one.
    pub set: Option<ReviewSet>,
    /// Validation problems; any problem makes the document read-only.
    pub problems: Vec<Problem>,
    /// Sanitised rows, rank order and counts.
    pub prepared: Prepared,
}

impl Document {
    /// Prepares a loaded review for display.
    pub fn new(source: Source, format: Option<Format>, set: Option<ReviewSet>, problems: Vec<Problem>) -> Document {
        let prepared = Prepared::new(set.as_ref());
        Document {
            source,
            format: format.or(set.as_ref().map(|s| s.format)),
            set,
            problems,
            prepared,
        }
    }

    /// The findings, in file order (empty when nothing could be read).
    pub fn findings(&self) -> &[Finding] {
        self.set.as_ref().map_or(&[], |s| &s.findings)
    }

    /// The index of the finding whose key is `fingerprint`, if loaded (a
    /// linear search: for outbox entries and drafts, not the render path).
    pub fn position_of(&self, fingerprint: &str) -> Option<usize> {
        self.findings().iter().position(|f| f.key.as_str() == fingerprint)
    }

    /// The display row of finding `i` (built the first time it is asked for).
    pub fn row(&self, i: usize) -> Option<&super::prepared::Row> {
        self.prepared.rows.get(self.findings(), i)
    }

    /// True when the file passed every check (it may still hold no review,
    /// e.g. a disposition payload).
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty() && self.format.is_some()
    }

    /// Why nothing may be submitted from this document, if so.
    pub fn read_only_reason(&self) -> Option<&'static str> {
        if !self.is_valid() {
            Some("the file failed validation")
        } else if self.set.is_none() {
            Some("the file holds no review findings")
        } else if self.source == Source::Demo {
            Some("this is the bundled demo")
        } else {
            None
        }
    }
}
