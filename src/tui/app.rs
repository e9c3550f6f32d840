//! The screen's whole state. `update` changes it; the view only reads it.

use super::composer::Stage;
use super::decision_state::{Decisions, Question, Receipt};
use super::evidence_state::EvidenceState;
use super::filter::{self, Filters, Selection, View};
use super::keymap::{KeyMode, Keymap};
use super::live::Live;
use super::prepared::Prepared;
use super::text::TextLine;
use super::theme::Theme;
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

/// What keys currently do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Browsing.
    #[default]
    Normal,
    /// Typing the `/` search query (the list follows each keystroke).
    Search,
    /// The filter menu, with the highlighted item.
    Filter { cursor: usize },
    /// Typing the path filter (from the filter menu).
    PathInput { cursor: usize },
    /// The key help overlay, scrolled.
    Help { scroll: usize },
    /// Every validation problem and angle error, scrolled.
    Problems { scroll: usize },
    /// The decision composer at a stage (its text is in `Decisions::composer`).
    Compose(Stage),
    /// The outbox overlay, with the highlighted entry.
    Outbox { cursor: usize },
    /// A question with one-key answers.
    Ask(Question),
    /// Typing a reply to the thread of this finding.
    ThreadReply { finding: usize },
    /// The pull request's change around the evidence (`D`), scrolled.
    Diff { scroll: usize },
}

impl Mode {
    /// The key table this mode uses.
    pub fn key_mode(self) -> KeyMode {
        match self {
            Mode::Normal => KeyMode::Normal,
            Mode::Search | Mode::PathInput { .. } | Mode::ThreadReply { .. } => KeyMode::Input,
            Mode::Filter { .. } => KeyMode::Filter,
            Mode::Help { .. } | Mode::Problems { .. } | Mode::Diff { .. } => KeyMode::Overlay,
            Mode::Compose(Stage::Status { .. }) => KeyMode::StatusPicker,
            Mode::Compose(Stage::Evidence) => KeyMode::Editor,
            Mode::Compose(Stage::Confirm { .. }) => KeyMode::Confirm,
            Mode::Outbox { .. } => KeyMode::Outbox,
            Mode::Ask(_) => KeyMode::Ask,
        }
    }
}

/// A pane that can have the focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pane {
    #[default]
    List,
    Detail,
    Evidence,
}

impl Pane {
    /// Tab order.
    pub fn next(self) -> Pane {
        match self {
            Pane::List => Pane::Detail,
            Pane::Detail => Pane::Evidence,
            Pane::Evidence => Pane::List,
        }
    }

    /// Shift-Tab order.
    pub fn prev(self) -> Pane {
        match self {
            Pane::List => Pane::Evidence,
            Pane::Detail => Pane::List,
            Pane::Evidence => Pane::Detail,
        }
    }
}

/// The decision workflow of one finding (the composer fills it in).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SubmitState {
    /// Nothing started.
    #[default]
    Idle,
    /// A decision is being written (its text is kept in `Decisions::drafts`).
    Draft,
    /// Sent; waiting for the outcome of this generation.
    Pending { generation: u64 },
    /// Recorded where the review system reads it.
    Recorded(Receipt),
    /// The protocol refused it (stale head, permission ...).
    Rejected { reason: String },
    /// The network or service failed; kept for retry.
    Failed { reason: String },
}

/// Which findings are listed and which is selected.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Browse {
    pub view: View,
    pub filters: Filters,
    /// The search query as typed.
    pub query: String,
    /// Finding indices shown, in order (recomputed when the inputs change).
    pub visible: Vec<usize>,
    /// Position of the selection in `visible`.
    pub cursor: usize,
    /// First visible position drawn at the top of the list.
    pub offset: usize,
    /// Marked findings, by finding index.
    pub marks: Vec<bool>,
    /// The view's findings before the undecided filter (what progress counts).
    pub in_view: Vec<usize>,
    /// The ranked search behind the query.
    pub search: super::search::Search,
    /// The list's order.
    pub sort: super::sort::Sort,
}

/// Kind of a status-bar message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warning,
    Error,
}

/// A one-line message in the status bar until the next key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flash {
    pub level: Level,
    pub text: String,
}

/// Screen facts: mode, focus, scrolling, terminal size.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ui {
    pub mode: Mode,
    pub focus: Pane,
    /// In a narrow terminal only one of detail/evidence fits under the list.
    pub lower: Pane,
    pub detail_scroll: usize,
    pub evidence_scroll: usize,
    /// Terminal size (columns, rows), from Resize messages.
    pub size: (u16, u16),
    pub flash: Option<Flash>,
    pub quit: bool,
    /// `z`: the focused pane fills the body.
    pub zoom: bool,
    /// `<`/`>`: the list's share of the body moved by this many tenths from the default.
    pub split_shift: i8,
    /// The review is still being read or fetched (the loading frame is shown).
    pub loading: Option<super::startup::Loading>,
}

/// Wrapped detail text of the selected finding, rebuilt when the selection
/// or the pane width changes (never while drawing).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TextCache {
    /// (finding index, wrap width) the lines were built for.
    pub key: Option<(usize, u16)>,
    pub lines: Vec<TextLine>,
}

/// Keymap, theme and colour choice.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub keymap: Keymap,
    pub theme: Theme,
    /// Colours allowed (false under `NO_COLOR`).
    pub color: bool,
    /// The `<`/`>` split remembered from the last screen (see [`super::config`]).
    pub split_shift: i8,
}

/// The whole state.
#[derive(Debug, Clone)]
pub struct App {
    pub doc: Document,
    pub browse: Browse,
    pub ui: Ui,
    pub settings: Settings,
    /// Per finding (by index): the decision workflow.
    pub submit: Vec<SubmitState>,
    /// The generation the next submission gets (stale outcomes are dropped).
    pub next_generation: u64,
    pub detail: TextCache,
    pub evidence: EvidenceState,
    /// Composer, drafts, sent decisions, the batch in flight, the outbox offer.
    pub decide: Decisions,
    /// The pull request behind the result: refresh, stale head, thread state.
    pub live: Live,
    /// The pull request's change around the selected finding's evidence (`D`).
    pub diff: super::diff::DiffView,
}

impl App {
    /// A screen on a document, at a terminal size.
    pub fn new(doc: Document, settings: Settings, size: (u16, u16)) -> App {
        let n = doc.findings().len();
        let mut app = App {
            doc,
            browse: Browse {
                marks: vec![false; n],
                ..Browse::default()
            },
            ui: Ui { size, ..Ui::default() },
            settings,
            submit: vec![SubmitState::Idle; n],
            next_generation: 1,
            detail: TextCache::default(),
            evidence: EvidenceState::default(),
            decide: Decisions::default(),
            live: Live::default(),
            diff: Default::default(),
        };
        app.ui.lower = Pane::Detail;
        app.ui.split_shift = app.settings.split_shift;
        app.refilter();
        app
    }

    /// The finding index under the cursor.
    pub fn selected(&self) -> Option<usize> {
        self.browse.visible.get(self.browse.cursor).copied()
    }

    /// The finding under the cursor.
    pub fn selected_finding(&self) -> Option<&Finding> {
        self.selected().and_then(|i| self.doc.findings().get(i))
    }

    /// The key table of the current mode.
    pub fn key_mode(&self) -> KeyMode {
        self.ui.mode.key_mode()
    }

    /// Keymap of the screen.
    pub fn keymap(&self) -> &Keymap {
        &self.settings.keymap
    }

    /// Number of marked findings.
    pub fn mark_count(&self) -> usize {
        self.browse.marks.iter().filter(|m| **m).count()
    }

    /// Recomputes the visible list from view, filters and query, keeping the
    /// selected finding selected when it is still listed.
    pub fn refilter(&mut self) {
        let recorded_drift = super::recorded::drifting(self);
        let sel = Selection {
            view: self.browse.view,
            filters: &self.browse.filters,
            recorded_drift: &recorded_drift,
            sort: self.browse.sort,
        };
        let base = filter::visible(self.doc.findings(), &self.doc.prepared, sel);
        super::search::refilter(self, base);
    }

    /// Updates the visible list after the query changed by typing (see
    /// [`super::search`]: the view and facets are unchanged, a longer query
    /// narrows the previous matches).
    pub fn narrow_search(&mut self) {
        super::search::retype(self);
    }
}
