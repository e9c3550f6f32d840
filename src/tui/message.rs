//! The screen's vocabulary: every [`Msg`] that reaches `update`, every
//! [`Effect`] it asks for, and the payloads they carry.
//!
//! Plain data only, and a leaf of the screen: it names types of the model,
//! of the stores and of the few screen modules that are leaves themselves
//! (`action` with its key table `keymap`, `doc` for a loaded [`Document`]
//! with its `prepared` rows and `fuzzy` search index,
//! `highlight` for finished blocks and the jobs that ask for them,
//! `present::evidence` for the head line), and nothing of `app`, `update`,
//! the composer, the view, the runner or the jobs, so it can be read (and
//! matched on) without the rest of the screen. A job's failure crosses as
//! an enum of [`failure`] (the status bar's reports as a [`notice::Notice`])
//! holding the library's typed errors; `present::failure` and
//! `present::notice` turn them into words. The status-bar [`Level`], a
//! [`Receipt`], a checkout answer and River's choices of a decision
//! ([`RiverOptions`]) live here for that reason; `tests/screen_core.rs`
//! holds the module and those it names to that list.

use super::action::Action;
use super::doc::Document;
use super::highlight::{HighlightJob, Highlighted};
use super::present::evidence::HeadLine;
use crate::checkout::LocalEvidence;
use crate::checkout::PathProblem;
use crate::checkout::diff::Hunk;
use crate::github::draft::Draft;
use crate::github::fetch::FetchError;
use crate::github::thread_action::ThreadOutcome;
use crate::model::finding::{Evidence, Side};
use crate::model::threads::{OrphanThread, ThreadObservation};
use crate::outbox::drafts::StoredDraft;
use crate::outbox::{Entry, OutboxError};
use crate::river_store::{DecisionStatus, FindingFacts, StoreError};
use failure::{ActorError, DiffError, RefreshError, SendFailure, Shared};
use notice::Notice;
use ratatui::crossterm::event::{KeyEvent, MouseEvent};

pub mod failure;
pub mod notice;
mod river_options;
pub use river_options::{Expiry, RiverOptions};

/// Kind of a status-bar message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warning,
    Error,
}

/// Proof of a recorded decision, as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    /// One line: what was recorded where (may quote GitHub or paths: sanitised when shown).
    pub summary: String,
    /// Link to the recorded comment (ReviewGate).
    pub link: Option<String>,
    /// The row's label now: ReviewGate's canonical state after recording
    /// (`accepted` stays `open`), or River's `suppr` once suppressed.
    pub shown_as: Option<&'static str>,
    /// A River suppression was written (undo can revoke it).
    pub suppressed: bool,
}

/// The checkout's answer for one excerpt: context, or why there is none.
pub type LocalResult = Result<LocalEvidence, failure::EvidenceError>;

/// How a submission ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubmitOutcome {
    /// Recorded; the receipt to show.
    Recorded(Receipt),
    /// Refused by the protocol (permission, closed pull request ...);
    /// `stale_head` names the new head when the refusal was a moved head.
    Rejected {
        reason: SendFailure,
        stale_head: Option<String>,
    },
    /// The network or service failed (kept in the outbox for retry).
    Failed { reason: SendFailure },
    /// A different decision is already recorded for the finding on this
    /// head; nothing was posted (the screen asks whether to supersede it).
    Conflict { reason: SendFailure },
}

/// Everything that can happen to the screen.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// A key was pressed (looked up in the current mode's table).
    Key(KeyEvent),
    /// An action requested directly, without a key.
    Action(Action),
    /// A mouse event (scroll, click).
    Mouse(MouseEvent),
    /// Text pasted into the terminal.
    Paste(String),
    /// The terminal now has this many columns and rows.
    Resize(u16, u16),
    /// An effect finished and has something to say in the status bar.
    Notice(Notice),
    /// No browser opened this link: it is shown whole and copied (OSC 52).
    /// `tried`: why each program tried did not, in order.
    LinkNotOpened {
        url: String,
        tried: Vec<failure::OpenFailure>,
    },
    /// A submission finished; stale generations are ignored.
    SubmitFinished {
        finding: usize,
        generation: u64,
        outcome: SubmitOutcome,
    },
    /// The checkout's HEAD was compared with the reviewed commit.
    Head(HeadLine),
    /// The checkout's answers for a finding's evidence items, in order.
    EvidenceLoaded { finding: usize, items: Vec<LocalResult> },
    /// A block finished highlighting (filed in the App's map of blocks).
    Highlighted(Highlighted),
    /// Time passed while background work runs (advances the spinner).
    Tick,
    /// The authenticated GitHub login, or why it could not be read.
    Actor(Result<String, ActorError>),
    /// Where River decisions go (absolute root, River's setting there), or why unknown.
    RiverTarget(Result<(std::path::PathBuf, crate::river_store::config::SuppressionSetting), Shared<StoreError>>),
    /// The evidence text came back from $EDITOR (or why not).
    EditedEvidence(Result<String, EditError>),
    /// The outbox was read: every entry, and how many files could not be read.
    OutboxLoaded { entries: Vec<Entry>, unreadable: usize },
    /// Every thread action kept after a failure, as listed on disk (read
    /// just before the outbox, and again after each thread action).
    ThreadsKept(Vec<crate::outbox::thread_actions::ThreadEntry>),
    /// A refresh of result and threads finished; stale generations are ignored.
    Refreshed { generation: u64, outcome: RefreshOutcome },
    /// A River suppression was revoked (what was written), or why not.
    Undone {
        finding: usize,
        result: Result<Revoked, Shared<StoreError>>,
    },
    /// The drafts kept on disk were read: every draft, and how many files could not be read.
    DraftsLoaded {
        drafts: Vec<StoredDraft>,
        unreadable: usize,
    },
    /// The program came back from a suspend (`fg`): the terminal now has this many columns and rows.
    Resumed(u16, u16),
    /// A thread action finished; stale generations are ignored.
    ThreadActed { generation: u64, outcome: ThreadActed },
    /// The pull request's decision ledger was read (or why not); stale generations are ignored.
    LedgerLoaded {
        generation: u64,
        state: crate::model::ledger::LedgerState,
    },
    /// Typing stopped: the save timer of this edit generation fired.
    DraftIdle(u64),
    /// SIGHUP, SIGTERM, SIGINT or SIGQUIT arrived: keep every draft, then quit.
    Terminate,
    /// The pull request's change around a finding's evidence (or why not); stale generations are ignored.
    DiffLoaded {
        generation: u64,
        report: Result<DiffReport, DiffError>,
    },
    /// The checkout read of this finding was dropped for a newer selection (selecting it again asks again).
    EvidenceSuperseded { finding: usize },
    /// A background job failed without an answer (it panicked); `job` says which.
    JobFailed { job: &'static str, failure: JobFailure },
    /// The loader reached this step (shown on the loading frame; empty: the result is ready).
    Progress(String),
    /// The terminal can no longer be read (the runtime ends the screen, keeping drafts).
    /// The reader's error (the system's words, said as the program ends).
    InputLost(Shared<std::io::Error>),
}

/// One ReviewGate decision to keep in the outbox and send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmitItem {
    /// The finding (index) the outcome is reported for.
    pub finding: usize,
    /// The checked decision, bound to the loaded result's pull request and head.
    pub draft: Draft,
    /// A stale outbox entry this decision re-binds: removed once the new one is kept.
    pub replaces: Option<String>,
    /// The user chose to record it over a different decision already recorded on this head.
    pub supersede: bool,
}

/// One River decision: the finding's facts, the status and the evidence as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RiverDecision {
    pub facts: FindingFacts,
    pub status: DecisionStatus,
    pub evidence: String,
    /// The suppression's fingerprint algorithm and expiry.
    pub options: RiverOptions,
}

/// One River decision to write, for a finding (index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RiverItem {
    pub finding: usize,
    pub decision: RiverDecision,
}

/// What an outbox entry keeps: a decision (`outbox/`) or a thread action
/// (`outbox/threads/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeptKind {
    Decision,
    ThreadAction,
}

impl KeptKind {
    /// The words for it in a sentence.
    pub fn noun(self) -> &'static str {
        match self {
            KeptKind::Decision => "decision",
            KeptKind::ThreadAction => "thread action",
        }
    }
}

/// Work with side effects, requested by `update`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Open this URL (built by [`super::link`] from validated facts) in the browser.
    OpenUrl(String),
    /// Suspend the screen and run $EDITOR on a checked relative path at a line.
    OpenEditor { path: String, line: Option<u32> },
    /// Put this text on the terminal's clipboard with OSC 52.
    Copy(String),
    /// Check a finding's excerpts against the checkout and highlight the context, off the render path.
    LoadEvidence {
        finding: usize,
        evidence: Vec<Evidence>,
        reviewed_sha: Option<String>,
        /// The pull request, when GitHub may serve the reviewed commit's files.
        pull: Option<PullRef>,
    },
    /// Keep every decision in the outbox, then send them one after another;
    /// each outcome comes back tagged with this generation.
    Submit {
        generation: u64,
        items: Vec<SubmitItem>,
        /// Kept drafts of these decisions: removed only once every decision
        /// is kept in the outbox, so the text is on disk at every moment.
        drafts: Vec<String>,
    },
    /// Write River decisions (feedback, suppression) one after another.
    RecordRiver {
        generation: u64,
        items: Vec<RiverItem>,
        /// Kept drafts of these decisions: removed only once every one is written.
        drafts: Vec<String>,
    },
    /// Revoke the River suppression of a finding.
    UndoRiver {
        finding: usize,
        fingerprint: String,
        /// The finding's line-anchored (v2) fingerprints, for v2 suppressions.
        v2: Vec<String>,
        artifact_root: Option<String>,
    },
    /// Find the repository River decisions go to and River's configuration there.
    ResolveRiverTarget { artifact_root: Option<String> },
    /// Leave the terminal, stop the process (SIGTSTP) and, once continued, re-enter and redraw.
    Suspend,
    /// Read the authenticated GitHub login (the actor of the comment preview).
    LookupActor,
    /// Suspend the screen and edit the evidence text in $EDITOR.
    EditEvidence { text: String },
    /// Read the outbox (entries for this review are offered).
    LoadOutbox,
    /// Remove an outbox entry the user dropped.
    DropOutbox { id: String, kind: KeptKind },
    /// Fetch the pull request's result and threads again.
    Refresh {
        generation: u64,
        reviewed_sha: Option<String>,
    },
    /// Write text to a new file in the current directory (atomically).
    WriteFile { name: String, text: String },
    /// Remember the `<`/`>` split in the config directory.
    SaveSplit(i8),
    /// Keep a composer draft on disk (atomically, replacing the file of the same id).
    SaveDraft { draft: StoredDraft },
    /// Remove a kept draft file (its decision was confirmed, or it was emptied).
    DeleteDraft { id: String },
    /// Read the drafts kept on disk (those of this review are restored).
    LoadDrafts,
    /// Keep a thread action on disk, then send it (the outcome comes back
    /// tagged with this generation).
    ThreadAction {
        generation: u64,
        request: crate::github::thread_action::ThreadRequest,
        /// A kept reply on the same thread that failed and that this one
        /// rewrites: dropped from the outbox once this one is kept.
        replaces: Option<crate::github::thread_action::ThreadRequest>,
    },
    /// Read the pull request's decision ledger; the answer carries this generation.
    LoadLedger { generation: u64, target: LedgerTarget },
    /// Read the pull request's change around a finding's evidence (local
    /// repository first, else GitHub); the answer carries this generation.
    LoadDiff { generation: u64, request: DiffRequest },
    /// Deliver `Msg::DraftIdle(generation)` once typing has been quiet for
    /// [`super::autosave::IDLE`] (a later timer replaces this one).
    DraftTimer { generation: u64 },
    /// Highlight these blocks before any other: the selected finding's
    /// excerpts, then those of the findings on screen (replacing the previous request).
    Highlight {
        selected: Vec<HighlightJob>,
        visible: Vec<HighlightJob>,
    },
}

/// How a refresh ended.
#[derive(Debug, Clone, PartialEq)]
pub enum RefreshOutcome {
    /// A validated result for the current head, live threads applied.
    Loaded {
        doc: Box<Document>,
        threads_unavailable: Option<String>,
        /// Threads of no finding in the new result.
        orphans: Vec<OrphanThread>,
    },
    /// The head moved to `head` and no result for it could be loaded (`reason`).
    HeadMoved { head: String, reason: Shared<FetchError> },
    /// Same head; the result could not be fetched again (`warning`), the threads were read.
    Threads {
        observation: ThreadObservation,
        warning: Shared<FetchError>,
    },
    /// Nothing could be read.
    Failed { reason: RefreshError },
}

/// How a thread action ended, as the screen reports it (worded in
/// [`super::present::failure`]). A client that cannot be had is GitHub's
/// failure too: the kept action is settled as failed with its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThreadActed {
    /// GitHub was asked: done (also "already so"), refused by its state
    /// (closed pull request, moved head, no permission ...), or failed (the
    /// action stays kept for another try); `settle` is the store's error
    /// while settling the kept action afterwards.
    Answered {
        outcome: ThreadOutcome,
        settle: Option<Shared<OutboxError>>,
    },
    /// Another triage process is sending this action right now: nothing
    /// was sent here (it stays kept until that attempt settles it).
    Busy,
    /// Another triage process settled it just before: nothing was sent.
    Gone,
    /// It was sent to another GitHub API before: nothing was sent to this
    /// one (it stays kept); the words say which.
    OtherApi(String),
    /// The store of kept thread actions could not be opened: nothing was sent.
    NoStore(Shared<OutboxError>),
    /// The action could not be kept: nothing was sent.
    NotKept(Shared<OutboxError>),
}

/// Which pull request and head to read the ledger of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerTarget {
    pub repository: String,
    pub pull_request: u64,
    pub head: String,
}

/// The pull request a review is about (for GitHub's copy of the change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullRef {
    /// `owner/name` as the review states it (checked before any request).
    pub repository: String,
    pub number: u64,
}

/// What the diff job is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffRequest {
    pub finding: usize,
    pub evidence: Vec<Evidence>,
    pub reviewed_sha: Option<String>,
    /// The pull request's base commit when the review states one (River's merge base).
    pub base_sha: Option<String>,
    pub pull: Option<PullRef>,
}

/// The job's answer for one evidence item. All text is sanitised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemChange {
    /// The hunk whose range on the evidence's side holds the line.
    Hunk(Hunk),
    /// The file changed, but not at this line (how many hunks it has).
    Unchanged { hunks: usize },
    /// The pull request does not change this file.
    NotInChange,
    /// A binary file: no lines to show.
    Binary,
    /// No patch for the file (GitHub leaves out binary files and very large diffs).
    NoPatch,
    /// The evidence path is refused before any lookup.
    RefusedPath(PathProblem),
}

/// One evidence item with its change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemDiff {
    /// The evidence path (sanitised).
    pub path: String,
    /// The path before a rename, when the file was renamed (sanitised).
    pub renamed_from: Option<String>,
    pub side: Side,
    /// The evidence lines on `side` (first and last, 1-based).
    pub lines: (u32, u32),
    /// The patch was cut at its size limit.
    pub truncated: bool,
    pub change: ItemChange,
}

/// What the job found: where the change came from, and one entry per item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffReport {
    /// Where the diff came from, in words (sanitised).
    pub origin: String,
    pub items: Vec<ItemDiff>,
}

/// Why the text edited in $EDITOR could not be used (worded in
/// [`super::present::failure`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// Neither $VISUAL nor $EDITOR names a program.
    NoEditor,
    /// The file to edit could not be made (the system's reason).
    TempFile(String),
    /// The editor ran, but the screen could not take the terminal back.
    Terminal(String),
    /// The editor ended with a failure status.
    Exited { program: String, status: String },
    /// The editor could not be started.
    CannotStart { program: String, reason: String },
    /// The edited file could not be read back.
    ReadBack(String),
    /// The edited file is not UTF-8 text.
    NotUtf8,
}

/// How a background job failed without an answer (worded in [`super::present::failure`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobFailure {
    /// It panicked with this (sanitised) message.
    Panicked(String),
    /// The runtime dropped it before it finished.
    Aborted(String),
    /// The lane that runs file writes has stopped.
    LaneStopped,
}

/// What revoking a River suppression wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revoked {
    /// The suppression ids revoked.
    pub ids: Vec<String>,
    /// The memory index the revocation was appended to.
    pub index_file: std::path::PathBuf,
}

impl std::fmt::Display for Revoked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Revoked suppression {} in {}",
            self.ids.join(", "),
            self.index_file.display()
        )
    }
}
