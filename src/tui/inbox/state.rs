//! The inbox screen's state and its pure `update`: keys, a loaded inbox, a
//! resize and the return from a pull request's screen arrive as
//! [`InboxMsg`]; what the runtime must do comes back as [`InboxEffect`]s.
//!
//! The place (the selected pull request, the search, the view) is kept by
//! pull-request number, so it survives a refresh that reorders the rows and
//! a visit to a pull request's screen.

use crate::inbox::{Inbox, ReviewState, Row};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Which rows are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// Every open pull request.
    #[default]
    All,
    /// Escalations only: `resolved_externally` drift or a `needs_human` decision.
    Escalations,
    /// Heads with a result that needs work: `needs_changes`, `review_error`, `unknown`.
    NeedsWork,
    /// Heads without a usable result yet: `running`, `missing`, `stale`.
    Waiting,
}

impl View {
    /// The next view (`v` cycles through them).
    pub fn next(self) -> View {
        match self {
            View::All => View::Escalations,
            View::Escalations => View::NeedsWork,
            View::NeedsWork => View::Waiting,
            View::Waiting => View::All,
        }
    }

    /// The view's name in the header.
    pub fn label(self) -> &'static str {
        match self {
            View::All => "all",
            View::Escalations => "escalations",
            View::NeedsWork => "needs work",
            View::Waiting => "waiting for a review",
        }
    }

    /// True when `row` belongs to the view.
    pub fn keeps(self, row: &Row) -> bool {
        use ReviewState as S;
        match self {
            View::All => true,
            View::Escalations => row.tier() == 0,
            View::NeedsWork => matches!(row.state, S::NeedsChanges | S::ReviewError | S::Unknown),
            View::Waiting => matches!(row.state, S::Running | S::Missing | S::Stale),
        }
    }
}

/// What the keys do now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Moving through the list.
    #[default]
    List,
    /// Typing a search (title, author, branch, number).
    Search,
    /// The help overlay.
    Help,
}

/// Where the rows come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loading {
    /// A read is under way (`previous` rows stay shown meanwhile).
    Reading,
    /// The last read finished.
    Done,
    /// The last read failed: why (the previous rows, if any, stay shown).
    Failed(String),
}

/// Messages to [`update`].
#[derive(Debug, Clone)]
pub enum InboxMsg {
    /// A key was pressed.
    Key(KeyEvent),
    /// The terminal has this size.
    Resize(u16, u16),
    /// A read of the inbox finished.
    Loaded(Result<Inbox, String>),
    /// The pull request's screen ended; the inbox shows again (with why
    /// it could not open, if it could not; when it opened, the inbox is read
    /// again so that the decisions recorded there show).
    Returned(Option<String>),
    /// A sentence for the footer (where the escalation packet went).
    Said(String),
}

/// What the runtime does for [`update`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InboxEffect {
    /// Read the inbox (again).
    Read,
    /// Open this pull request's triage screen.
    Open(u64),
    /// Write the repository's escalation packet.
    WritePacket,
    /// End the screen.
    Quit,
}

/// The whole state of the inbox screen.
#[derive(Debug, Clone)]
pub struct InboxState {
    /// `OWNER/NAME` as the flags named it (shown until a read names it).
    pub title: String,
    pub inbox: Option<Inbox>,
    pub loading: Loading,
    pub view: View,
    pub mode: Mode,
    /// The search text (matched without case).
    pub search: String,
    /// The selected pull request's number.
    pub selected: Option<u64>,
    pub size: (u16, u16),
    /// A sentence for the footer until the next key (why a pull request did not open).
    pub flash: Option<String>,
    /// The pull request whose screen was just left: decisions may have been
    /// recorded there, so the inbox is read again and its row says so until
    /// that read ends.
    pub rereading: Option<u64>,
    /// A read is to start when the one under way ends (that one began
    /// before the pull request's screen recorded anything).
    pub read_again: bool,
    pub quit: bool,
}

impl InboxState {
    /// A screen about to read `title`'s inbox.
    pub fn new(title: impl Into<String>, size: (u16, u16)) -> InboxState {
        InboxState {
            title: title.into(),
            inbox: None,
            loading: Loading::Reading,
            view: View::default(),
            mode: Mode::default(),
            search: String::new(),
            selected: None,
            size,
            flash: None,
            rereading: None,
            read_again: false,
            quit: false,
        }
    }

    /// The rows shown: the view's, matching the search, ranked.
    pub fn visible(&self) -> Vec<&Row> {
        let needle = self.search.to_lowercase();
        let Some(inbox) = &self.inbox else { return Vec::new() };
        inbox
            .rows
            .iter()
            .filter(|r| self.view.keeps(r))
            .filter(|r| needle.is_empty() || matches(r, &needle))
            .collect()
    }

    /// The selected row's position among [`InboxState::visible`].
    pub fn cursor(&self) -> Option<usize> {
        let rows = self.visible();
        let at = self.selected.and_then(|n| rows.iter().position(|r| r.number == n));
        at.or(if rows.is_empty() { None } else { Some(0) })
    }

    /// Rows that fit the list (the frame less header, column titles and footer).
    pub fn page(&self) -> usize {
        usize::from(self.size.1.saturating_sub(4)).max(1)
    }

    fn select_at(&mut self, index: usize) {
        let number = self.visible().get(index).map(|r| r.number);
        if number.is_some() {
            self.selected = number;
        }
    }

    fn step(&mut self, delta: isize) {
        let len = self.visible().len();
        if len == 0 {
            return;
        }
        let at = self.cursor().unwrap_or(0) as isize + delta;
        self.select_at(at.clamp(0, len as isize - 1) as usize);
    }

    /// Keeps a selection that the view or search hid on the first row shown.
    fn settle(&mut self) {
        if let Some(at) = self.cursor() {
            self.select_at(at);
        }
    }
}

/// True when the search text matches the row (number, title, author, branches, state).
fn matches(row: &Row, needle: &str) -> bool {
    let number = format!("#{}", row.number);
    [
        number.as_str(),
        &row.title,
        row.author.as_deref().unwrap_or(""),
        &row.head_ref,
        &row.base_ref,
        row.state.as_str(),
    ]
    .iter()
    .any(|field| field.to_lowercase().contains(needle))
}

/// The one place the screen's state changes.
pub fn update(state: &mut InboxState, msg: InboxMsg) -> Vec<InboxEffect> {
    match msg {
        InboxMsg::Key(key) if key.kind != KeyEventKind::Release => on_key(state, key),
        InboxMsg::Key(_) => Vec::new(),
        InboxMsg::Resize(w, h) => {
            state.size = (w, h);
            Vec::new()
        }
        InboxMsg::Loaded(Ok(inbox)) => {
            state.title = inbox.repo.to_string();
            state.inbox = Some(inbox);
            state.loading = Loading::Done;
            state.settle();
            read_ended(state)
        }
        InboxMsg::Loaded(Err(why)) => {
            state.loading = Loading::Failed(why);
            read_ended(state)
        }
        InboxMsg::Said(text) => {
            state.flash = Some(text);
            Vec::new()
        }
        InboxMsg::Returned(Some(failed)) => {
            state.flash = Some(failed);
            Vec::new()
        }
        InboxMsg::Returned(None) => {
            state.flash = None;
            state.rereading = state.selected;
            if state.loading == Loading::Reading {
                state.read_again = true;
                return Vec::new();
            }
            state.loading = Loading::Reading;
            vec![InboxEffect::Read]
        }
    }
}

/// A read ended: the one asked for meanwhile starts, else the row read
/// again after its pull request's screen is current.
fn read_ended(state: &mut InboxState) -> Vec<InboxEffect> {
    if std::mem::take(&mut state.read_again) {
        state.loading = Loading::Reading;
        return vec![InboxEffect::Read];
    }
    state.rereading = None;
    Vec::new()
}

fn on_key(state: &mut InboxState, key: KeyEvent) -> Vec<InboxEffect> {
    state.flash = None;
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        state.quit = true;
        return vec![InboxEffect::Quit];
    }
    match state.mode {
        Mode::Help => {
            if matches!(key.code, KeyCode::Esc | KeyCode::Char('?' | 'q')) {
                state.mode = Mode::List;
            }
            Vec::new()
        }
        Mode::Search => {
            match key.code {
                KeyCode::Esc => {
                    state.search.clear();
                    state.mode = Mode::List;
                }
                KeyCode::Enter => state.mode = Mode::List,
                KeyCode::Backspace => {
                    state.search.pop();
                }
                KeyCode::Char(c) if !c.is_control() && state.search.chars().count() < 100 => state.search.push(c),
                _ => {}
            }
            state.settle();
            Vec::new()
        }
        Mode::List => list_key(state, key.code),
    }
}

fn list_key(state: &mut InboxState, code: KeyCode) -> Vec<InboxEffect> {
    let page = state.page() as isize;
    match code {
        KeyCode::Char('q') => {
            state.quit = true;
            return vec![InboxEffect::Quit];
        }
        KeyCode::Char('j') | KeyCode::Down => state.step(1),
        KeyCode::Char('k') | KeyCode::Up => state.step(-1),
        KeyCode::PageDown => state.step(page),
        KeyCode::PageUp => state.step(-page),
        KeyCode::Char('g') | KeyCode::Home => state.select_at(0),
        KeyCode::Char('G') | KeyCode::End => {
            let last = state.visible().len().saturating_sub(1);
            state.select_at(last);
        }
        KeyCode::Char('/') => {
            state.mode = Mode::Search;
            state.search.clear();
        }
        KeyCode::Esc => {
            state.search.clear();
            state.settle();
        }
        KeyCode::Char('v') => {
            state.view = state.view.next();
            state.settle();
        }
        KeyCode::Char('?') => state.mode = Mode::Help,
        KeyCode::Char('x') if state.inbox.is_some() => return vec![InboxEffect::WritePacket],
        KeyCode::Char('R') if state.loading != Loading::Reading => {
            state.loading = Loading::Reading;
            return vec![InboxEffect::Read];
        }
        KeyCode::Enter => {
            let at = state.cursor();
            if let Some(row) = at.and_then(|i| state.visible().get(i).map(|r| r.number)) {
                state.selected = Some(row);
                return vec![InboxEffect::Open(row)];
            }
        }
        _ => {}
    }
    Vec::new()
}

/// The keys of the list, for the help overlay and the footer (one table).
pub const KEYS: [(&str, &str); 11] = [
    ("j/k ↓/↑", "move"),
    ("g/G", "first / last"),
    ("PgDn/PgUp", "page"),
    ("Enter", "open the pull request's triage screen (Esc there comes back)"),
    ("/", "search number, title, author, branch, state"),
    ("Esc", "clear the search"),
    ("v", "next view: all, escalations, needs work, waiting"),
    ("x", "write the repository's escalation packet (Markdown file)"),
    ("R", "refresh (revalidates the cache: unchanged answers cost nothing)"),
    ("?", "this help"),
    ("q", "quit"),
];
