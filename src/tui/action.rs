//! Semantic actions: what a key means, independent of which key it is.
//!
//! The keymap ([`super::keymap`]) maps keys to these per mode; `update` acts
//! on them; the help overlay and the status-bar hints describe them.

use serde::{Deserialize, Serialize};

/// Everything a key can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Move the selection (or scroll the focused pane) down one line.
    Down,
    /// Move the selection (or scroll the focused pane) up one line.
    Up,
    /// Move down one page.
    PageDown,
    /// Move up one page.
    PageUp,
    /// Jump to the first line.
    Top,
    /// Jump to the last line.
    Bottom,
    /// Focus the next pane (list, detail, evidence).
    FocusNext,
    /// Focus the previous pane.
    FocusPrev,
    /// Focus the detail pane of the selected finding.
    OpenDetail,
    /// Show the repair set.
    ViewRepair,
    /// Show every finding.
    ViewAll,
    /// Show the drift lane.
    ViewDrift,
    /// Cycle repair set -> all -> drift lane.
    NextView,
    /// Cycle the list's order: severity, file, confidence, disposition.
    CycleSort,
    /// Open the filter menu.
    OpenFilters,
    /// Remove every filter and the search query.
    ClearFilters,
    /// Switch the highlighted filter on or off.
    ToggleFilter,
    /// Start typing a search query.
    StartSearch,
    /// Select the next undecided finding of the list (wrapping around).
    NextUndecided,
    /// Select the previous undecided finding of the list (wrapping around).
    PrevUndecided,
    /// Let the focused pane fill the body, or give the others back their room.
    Zoom,
    /// Give the list less of the body.
    ShrinkList,
    /// Give the list more of the body.
    GrowList,
    /// Mark or unmark the selected finding.
    ToggleMark,
    /// Mark every visible finding (unmark them when all are marked).
    MarkAllVisible,
    /// Open the finding on GitHub in the browser.
    OpenInBrowser,
    /// Open $EDITOR at the path and line of the evidence item scrolled to.
    OpenInEditor,
    /// Copy the finding's fingerprint to the clipboard (OSC 52).
    CopyFingerprint,
    /// Show every validation problem and angle error.
    ShowProblems,
    /// Show or close the key help.
    Help,
    /// Finish typing and keep the text.
    Accept,
    /// Leave the current overlay or input; in the list, go back to the list pane (never quits).
    Back,
    /// Delete the character before the cursor in an input.
    DeleteBack,
    /// Clear the text of an input.
    ClearInput,
    /// Leave the program.
    Quit,
    /// Suspend the program to the shell (job control); `fg` brings the screen back.
    Suspend,
    /// Open the decision composer on the selected finding, or on every marked one.
    Decide,
    /// Send the last decision of the selected finding again (after a failure or rejection).
    Retry,
    /// Revoke the River suppression written for the selected finding.
    UndoDecision,
    /// Fetch the pull request's result and threads again (opened with --pr).
    Refresh,
    /// Hand a needs_human or drift finding to a person: the escalation packet.
    Escalate,
    /// Show the decisions kept in the outbox for this review.
    ShowOutbox,
    /// Composer: go back to choosing the status.
    ChangeStatus,
    /// Composer: read the exact comment and confirm.
    Preview,
    /// Composer: write the evidence in $EDITOR.
    ExternalEditor,
    /// Composer: insert the next evidence excerpt as a permalink `path@sha#Lnn`.
    InsertPermalink,
    /// Composer: insert the chosen status's template at the cursor.
    InsertTemplate,
    /// Answer yes.
    AnswerYes,
    /// Answer no.
    AnswerNo,
    /// Switch the highlighted answer between No and Yes.
    ToggleAnswer,
    /// River: switch the suppression between the v1 and the line-anchored v2 fingerprint.
    CycleFingerprint,
    /// River: the next expiry for the suppression (none, 7, 30, 90 days).
    CycleExpiry,
    /// Escalation packet: put it on the clipboard (OSC 52).
    ToClipboard,
    /// Escalation packet: write it to a file in the current directory.
    ToFile,
    /// Outbox: send the highlighted decision again.
    RetryEntry,
    /// Outbox: discard the highlighted decision (press twice).
    DropEntry,
    /// Outbox: re-confirm a stale decision against the current result.
    RebindEntry,
    /// Show the pull request's change (old and new side) around each evidence line.
    ShowDiff,
    /// Act on the selected finding's GitHub thread (reply, resolve, reopen; remedies when resolved externally).
    ThreadActions,
    /// Thread: type a reply.
    ThreadReply,
    /// Thread: resolve it.
    ThreadResolve,
    /// Thread: reopen (unresolve) it.
    ThreadReopen,
    /// Thread resolved externally: record a decision instead.
    ThreadDecide,
}

impl Action {
    /// Every action, in help order.
    pub const ALL: [Action; 63] = [
        Action::Down,
        Action::Up,
        Action::PageDown,
        Action::PageUp,
        Action::Top,
        Action::Bottom,
        Action::FocusNext,
        Action::FocusPrev,
        Action::OpenDetail,
        Action::ViewRepair,
        Action::ViewAll,
        Action::ViewDrift,
        Action::NextView,
        Action::CycleSort,
        Action::OpenFilters,
        Action::ClearFilters,
        Action::ToggleFilter,
        Action::StartSearch,
        Action::NextUndecided,
        Action::PrevUndecided,
        Action::Zoom,
        Action::ShrinkList,
        Action::GrowList,
        Action::ToggleMark,
        Action::MarkAllVisible,
        Action::Decide,
        Action::OpenInBrowser,
        Action::ShowDiff,
        Action::OpenInEditor,
        Action::CopyFingerprint,
        Action::Retry,
        Action::UndoDecision,
        Action::Escalate,
        Action::Refresh,
        Action::ShowOutbox,
        Action::ThreadActions,
        Action::ThreadReply,
        Action::ThreadResolve,
        Action::ThreadReopen,
        Action::ThreadDecide,
        Action::ChangeStatus,
        Action::InsertTemplate,
        Action::InsertPermalink,
        Action::ExternalEditor,
        Action::Preview,
        Action::AnswerYes,
        Action::AnswerNo,
        Action::ToggleAnswer,
        Action::CycleFingerprint,
        Action::CycleExpiry,
        Action::ToClipboard,
        Action::ToFile,
        Action::RetryEntry,
        Action::DropEntry,
        Action::RebindEntry,
        Action::ShowProblems,
        Action::Help,
        Action::Accept,
        Action::Back,
        Action::DeleteBack,
        Action::ClearInput,
        Action::Quit,
        Action::Suspend,
    ];

    /// One line for the help overlay.
    pub fn describe(self) -> &'static str {
        match self {
            Action::Down => "down one line",
            Action::Up => "up one line",
            Action::PageDown => "down one page",
            Action::PageUp => "up one page",
            Action::Top => "first line",
            Action::Bottom => "last line",
            Action::FocusNext => "next pane (list, detail, evidence)",
            Action::FocusPrev => "previous pane",
            Action::OpenDetail => "read the selected finding",
            Action::ViewRepair => "view: repair set",
            Action::ViewAll => "view: all findings",
            Action::ViewDrift => "view: drift lane (threads that need a human)",
            Action::NextView => "next view",
            Action::CycleSort => "sort by severity, file (grouped), confidence, disposition",
            Action::OpenFilters => "filters: severity, disposition, classification, thread, path",
            Action::ClearFilters => "clear filters and search",
            Action::ToggleFilter => "switch the filter on/off (path: edit)",
            Action::StartSearch => "search title, claim, path, fingerprint",
            Action::NextUndecided => "next undecided finding (with a search applied: next match)",
            Action::PrevUndecided => "previous undecided finding (with a search applied: previous match)",
            Action::Zoom => "zoom the focused pane (again: back)",
            Action::ShrinkList => "narrower list",
            Action::GrowList => "wider list",
            Action::ToggleMark => "mark / unmark",
            Action::MarkAllVisible => "mark all visible (again: unmark)",
            Action::OpenInBrowser => "open on GitHub",
            Action::ShowDiff => "the pull request's change around each evidence line (old and new side)",
            Action::OpenInEditor => "open $EDITOR at path:line",
            Action::CopyFingerprint => "copy fingerprint (OSC 52)",
            Action::ShowProblems => "all validation problems / angle errors",
            Action::Help => "this help",
            Action::Accept => "keep the text",
            Action::Back => "back / close (never quits; q does)",
            Action::DeleteBack => "delete a character",
            Action::ClearInput => "clear the text",
            Action::Quit => "quit",
            Action::Suspend => "suspend to the shell (fg resumes)",
            Action::Decide => "decide: status, evidence, preview, confirm (marked: all of them)",
            Action::Retry => "send the failed or rejected decision again",
            Action::UndoDecision => "River: revoke the suppression written for this finding",
            Action::Refresh => "fetch the result and threads again (--pr)",
            Action::Escalate => "escalation packet for a needs_human or drift finding",
            Action::ShowOutbox => "decisions kept in the outbox for this review",
            Action::ThreadActions => "GitHub thread: reply, resolve, reopen (resolved externally: the remedies)",
            Action::ThreadReply => "thread: write a reply",
            Action::ThreadResolve => "thread: resolve",
            Action::ThreadReopen => "thread: reopen (unresolve)",
            Action::ThreadDecide => "thread resolved externally: record a decision",
            Action::ChangeStatus => "choose another status",
            Action::Preview => "read the exact comment, then confirm",
            Action::ExternalEditor => "write the evidence in $EDITOR",
            Action::InsertPermalink => "insert an evidence permalink path@sha#Lnn",
            Action::InsertTemplate => "insert the status template",
            Action::AnswerYes => "yes",
            Action::AnswerNo => "no",
            Action::ToggleAnswer => "switch between No and Yes",
            Action::CycleFingerprint => "River: suppression fingerprint v1 / v2 (v2 needs a line)",
            Action::CycleExpiry => "River: suppression expiry (none, 7, 30, 90 days)",
            Action::ToClipboard => "to the clipboard (OSC 52)",
            Action::ToFile => "to a file in the current directory",
            Action::RetryEntry => "send this kept decision or thread action again",
            Action::DropEntry => "discard this kept entry (press twice)",
            Action::RebindEntry => "re-confirm a stale decision against the current result",
        }
    }

    /// The status-bar label of this action in a key table, where the mode
    /// gives it a more precise meaning than [`Action::hint`].
    pub fn hint_in(self, mode: super::keymap::KeyMode) -> Option<&'static str> {
        use super::keymap::KeyMode;
        match (mode, self) {
            (KeyMode::StatusPicker, Action::Accept) => Some("choose"),
            (KeyMode::Confirm, Action::Accept) => Some("answer"),
            (KeyMode::Editor | KeyMode::StatusPicker | KeyMode::Outbox, Action::Back) => Some("keep & close"),
            (KeyMode::Confirm, Action::Back) => Some("edit"),
            (KeyMode::Ask, Action::Accept | Action::Back) => None,
            // In the list these are in the help; the hints keep room for the rest.
            (KeyMode::Normal, Action::ClearFilters | Action::OpenInEditor | Action::CopyFingerprint | Action::Back) => {
                None
            }
            _ => self.hint(),
        }
    }

    /// A short label for the status bar, for the actions worth a hint there.
    pub fn hint(self) -> Option<&'static str> {
        Some(match self {
            Action::OpenDetail => "read",
            Action::NextView => "view",
            Action::OpenFilters => "filter",
            Action::StartSearch => "search",
            Action::ToggleMark => "mark",
            Action::OpenInBrowser => "github",
            Action::OpenInEditor => "edit",
            Action::CopyFingerprint => "copy",
            Action::ToggleFilter => "toggle",
            Action::ClearFilters => "clear",
            Action::Accept => "done",
            Action::Back => "back",
            Action::Help => "help",
            Action::Quit => "quit",
            Action::Decide => "decide",
            Action::ChangeStatus => "status",
            Action::Preview => "preview",
            Action::ExternalEditor => "$EDITOR",
            Action::InsertPermalink => "link",
            Action::InsertTemplate => "template",
            Action::AnswerYes => "yes",
            Action::AnswerNo => "no",
            Action::ToClipboard => "clipboard",
            Action::ToFile => "file",
            Action::RetryEntry => "retry",
            Action::DropEntry => "drop",
            Action::RebindEntry => "re-bind",
            Action::ThreadReply => "reply",
            Action::ThreadResolve => "resolve",
            Action::ThreadReopen => "reopen",
            Action::ThreadDecide => "decide",
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_each_action_once_with_a_description() {
        let mut seen = std::collections::HashSet::new();
        for a in Action::ALL {
            assert!(seen.insert(a), "{a:?} twice");
            assert!(!a.describe().is_empty());
        }
    }

    #[test]
    fn actions_have_snake_case_names() {
        let json = serde_json::to_string(&Action::OpenInBrowser).unwrap_or_default();
        assert_eq!(json, "\"open_in_browser\"");
        let back: Result<Action, _> = serde_json::from_str("\"mark_all_visible\"");
        assert_eq!(back.ok(), Some(Action::MarkAllVisible));
    }
}
