//! The words and the level of each [`Notice`] in the status bar.

use crate::tui::message::Level;
use crate::tui::message::notice::Notice;
use std::fmt::{Display, Formatter, Result};

impl Notice {
    /// How the status bar marks it.
    pub fn level(&self) -> Level {
        match self {
            Notice::Dropped { .. }
            | Notice::NotInOutbox { .. }
            | Notice::PacketWritten { .. }
            | Notice::Opened { .. }
            | Notice::BackFrom { .. } => Level::Info,
            Notice::TerminalNotRestored(_) | Notice::Panicked { .. } => Level::Error,
            _ => Level::Warning,
        }
    }
}

impl Display for Notice {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Notice::OutboxUnreadable(e) => write!(f, "The outbox cannot be read: {e}"),
            Notice::ThreadFilesUnreadable(n) => write!(
                f,
                "{n} kept thread action file(s) cannot be read (left in place); see `triage thread list`."
            ),
            Notice::Dropped { id, kind } => write!(f, "Dropped {} {id} from the outbox.", kind.noun()),
            Notice::NotInOutbox { id, kind } => {
                write!(f, "The {} {id} was no longer in the outbox.", kind.noun())
            }
            Notice::NotDropped { id, kind, error } => write!(f, "Could not drop the {} {id}: {error}", kind.noun()),
            Notice::DraftsUnreadable(e) => write!(f, "Kept drafts cannot be read: {e}"),
            Notice::DraftNotKept(e) => write!(f, "The draft is kept on this screen only: {e}"),
            Notice::DraftNotRemoved(e) => write!(f, "A kept draft could not be removed: {e}"),
            Notice::NoCurrentDir(e) => write!(f, "Cannot tell the current directory: {e}"),
            Notice::PacketWritten { path } => write!(f, "Escalation packet written to {path}"),
            Notice::PacketNotWritten { path, error } => write!(f, "Could not write {path}: {error}"),
            Notice::TerminalNotRestored(e) => write!(f, "The terminal could not be restored: {e}"),
            Notice::NotSuspended(e) => write!(f, "Cannot suspend: {e}"),
            Notice::SizeUnknown(e) => write!(f, "Cannot read the terminal size: {e}"),
            Notice::QueueFull { job } => write!(
                f,
                "Too much background work: {job} was not started; try again in a moment."
            ),
            Notice::Opened { program, url } => write!(f, "Opened with {program}: {url}"),
            Notice::NotInCheckout { path } => write!(f, "{path} is not in this checkout (see --repo-root)"),
            Notice::BackFrom { program } => write!(f, "Back from {program}"),
            Notice::EditorExited { program, status } => write!(f, "{program} exited with {status}"),
            Notice::EditorNotStarted { program, error } => {
                write!(f, "Cannot start {program}: {error} (set $VISUAL or $EDITOR)")
            }
            Notice::CopyRefused { why } => f.write_str(why),
            Notice::NotCopied(e) => write!(f, "Could not copy: {e}"),
            Notice::SignalsUnwatched(e) => write!(f, "Signals are not watched: {e}"),
            Notice::Panicked { failure } => write!(f, "A background task failed: {failure}"),
            Notice::SplitNotKept(e) => write!(f, "The split is kept for this screen only: {e}"),
        }
    }
}
