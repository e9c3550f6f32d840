//! The evidence panel as data: the [`EvidenceView`] of the selected
//! finding (built by `update` through [`crate::tui::evidence_state`], drawn
//! by `view::evidence`), the line counts scrolling needs, and the highlight
//! jobs whose results the views use.

mod build;
mod model;

pub use build::{
    MAX_FIELD_LINES, MAX_LINE_CHARS, cap_line, context_job, excerpt_job, excerpt_raw_lines, excerpt_shown_lines,
    field_lines, shown_lines, split_count,
};
pub use model::{CheckedView, EvidenceView, ExcerptView, HeadLine, LocalView, Window};
