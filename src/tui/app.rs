//! The screen's whole state. `update` changes it; the view only reads it.

use super::composer::Stage;
use super::decision_state::{Decisions, Question, Receipt};
pub use super::doc::{Document, Source};
use super::evidence_state::EvidenceState;
use super::filter::{self, Filters, Selection, View};
use super::keymap::{KeyMode, Keymap};
use super::live::Live;
pub use super::message::Level;
use super::overlay::filter_menu::FilterMenu;
use super::overlay::help::Help;
use super::overlay::problems::Problems;
use super::text::TextLine;
use super::theme::Theme;
use crate::model::finding::Finding;

/// What keys currently do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Browsing.
    #[default]
    Normal,
    /// Typing the `/` search query (the list follows each keystroke).
    Search,
    /// The filter menu, with the highlighted item.
    Filter(FilterMenu),
    /// Typing the path filter (from the filter menu, kept for the way back).
    PathInput(FilterMenu),
    /// The key help overlay, scrolled.
    Help(Help),
    /// Every validation problem and angle error, scrolled.
    Problems(Problems),
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
            Mode::Search | Mode::PathInput(_) | Mode::ThreadReply { .. } => KeyMode::Input,
            Mode::Filter(_) => KeyMode::Filter,
            Mode::Help(_) | Mode::Problems(_) | Mode::Diff { .. } => KeyMode::Overlay,
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
    Rejected {
        reason: super::message::failure::SendFailure,
    },
    /// The network or service failed; kept for retry.
    Failed {
        reason: super::message::failure::SendFailure,
    },
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
