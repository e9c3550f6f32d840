//! The data the evidence panel is drawn from: the checkout HEAD line and,
//! per excerpt, its place, reason, text and local-checkout outcome.

use crate::checkout::{ExcerptMatch, HeadMatch, Revision, short};
use crate::model::finding::Side;
use crate::sanitize::{DEFAULT_TAB_WIDTH, clean};
use crate::tui::highlight::StyledLine;
use std::ops::RangeInclusive;

/// Everything the evidence panel shows for one finding.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EvidenceView {
    /// How the checkout's HEAD relates to the reviewed commit.
    pub head: HeadLine,
    /// One entry per evidence excerpt, in file order.
    pub items: Vec<ExcerptView>,
    /// Free-text evidence without a place (River's `evidence` strings).
    pub stated: Vec<String>,
    /// Lines scrolled off the top.
    pub scroll: u16,
    /// The panel has the keyboard focus.
    pub focused: bool,
    /// Colours allowed (false under `NO_COLOR`: glyphs and attributes only).
    pub color: bool,
    /// Which part of the whole panel `items` and `stated` are.
    pub window: Window,
}

/// The part of the whole panel an [`EvidenceView`] holds: the screen builds
/// only the blocks that meet the visible lines, so the cost of a frame does
/// not grow with the number or size of evidence items. The default (a view
/// built by hand) holds the whole panel.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Window {
    /// The head line (and the "no evidence" line) are scrolled past and not built.
    pub skip_head: bool,
    /// The "evidence as stated" heading is not built.
    pub skip_stated_heading: bool,
    /// Lines of the whole panel before wrapping (`None`: the built lines are all).
    pub total_lines: Option<usize>,
    /// Evidence items of the finding (`None`: `items.len()`).
    pub total_items: Option<usize>,
}

/// The checkout HEAD line at the top of the panel.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum HeadLine {
    /// No local checkout was found or given.
    #[default]
    NoCheckout,
    /// A checkout exists but the review names no reviewed commit (River).
    NoReviewedSha,
    /// HEAD is still being read.
    Pending,
    /// HEAD is the reviewed commit.
    Same,
    /// HEAD is another commit.
    Different { head: String, reviewed: String },
    /// HEAD could not be read (or the reviewed id is malformed).
    Unknown { reviewed: String },
}

impl HeadLine {
    /// The line for a [`HeadMatch`] against the (untrusted) reviewed id.
    pub fn from_match(found: &HeadMatch, reviewed: &str) -> HeadLine {
        match found {
            HeadMatch::Same => HeadLine::Same,
            HeadMatch::Different { head } => HeadLine::Different {
                head: head.clone(),
                reviewed: reviewed.to_string(),
            },
            HeadMatch::Unknown => HeadLine::Unknown {
                reviewed: reviewed.to_string(),
            },
        }
    }

    /// The sentence shown, with its glyph.
    pub fn text(&self) -> String {
        let id = |s: &str| clean(short(s), DEFAULT_TAB_WIDTH).into_owned();
        match self {
            HeadLine::NoCheckout => "· no local checkout".to_string(),
            HeadLine::NoReviewedSha => "· local checkout; the review names no reviewed commit".to_string(),
            HeadLine::Pending => "… reading the checkout HEAD".to_string(),
            HeadLine::Same => "✓ checkout HEAD is the reviewed commit".to_string(),
            HeadLine::Different { head, reviewed } => {
                format!("! checkout HEAD {} differs from reviewed {}", id(head), id(reviewed))
            }
            HeadLine::Unknown { reviewed } => {
                format!("? checkout HEAD unknown (reviewed {})", id(reviewed))
            }
        }
    }
}

/// One evidence excerpt as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct ExcerptView {
    pub path: String,
    pub side: Side,
    pub line: u32,
    /// The reason, one entry per line.
    pub reason: Vec<String>,
    /// The excerpt lines, highlighted when ready, else plain.
    pub excerpt: Vec<StyledLine>,
    /// What the local checkout says.
    pub local: LocalView,
}

/// The local-checkout part of one excerpt.
#[derive(Debug, Clone, PartialEq)]
pub enum LocalView {
    /// No checkout to compare with (the head line says so).
    NoCheckout,
    /// The file is still being read.
    Pending,
    /// The file could not be read; the reason is shown.
    Unavailable(String),
    /// The file was read and the excerpt looked for.
    Checked(CheckedView),
}

/// An excerpt checked against the checkout.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedView {
    pub found: ExcerptMatch,
    pub revision: Revision,
    /// Number of the first context line (1-based).
    pub first_line: usize,
    /// Context lines, highlighted when ready, else plain.
    pub lines: Vec<StyledLine>,
    /// Lines to emphasise (the matched block, or the stated line).
    pub marked: RangeInclusive<usize>,
}
