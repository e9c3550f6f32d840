//! What the runner and its jobs report in the status bar: one variant per
//! thing that happened, holding the facts and the typed error. Plain data:
//! the words and the level are in [`crate::tui::present::notice`].

use super::KeptKind;
use super::failure::Shared;
use crate::outbox::OutboxError;
use std::io;

/// One status-bar report from outside `update`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The outbox could not be listed.
    OutboxUnreadable(Shared<OutboxError>),
    /// This many kept thread action files are damaged (left in place).
    ThreadFilesUnreadable(usize),
    /// An outbox entry was dropped.
    Dropped { id: String, kind: KeptKind },
    /// The entry to drop was already gone.
    NotInOutbox { id: String, kind: KeptKind },
    /// An outbox entry could not be dropped.
    NotDropped {
        id: String,
        kind: KeptKind,
        error: Shared<OutboxError>,
    },
    /// The kept drafts could not be listed.
    DraftsUnreadable(Shared<OutboxError>),
    /// A draft could not be kept on disk.
    DraftNotKept(Shared<OutboxError>),
    /// A kept draft could not be removed.
    DraftNotRemoved(Shared<OutboxError>),
    /// The current directory is unknown (a file was to be written there).
    NoCurrentDir(Shared<io::Error>),
    /// The escalation packet was written to this (sanitised) path.
    PacketWritten { path: String },
    /// The escalation packet could not be written to this (sanitised) path.
    PacketNotWritten { path: String, error: Shared<io::Error> },
    /// The screen could not take the terminal back.
    TerminalNotRestored(Shared<io::Error>),
    /// The process could not stop itself (`ctrl-z`).
    NotSuspended(Shared<io::Error>),
    /// The terminal's size could not be read after a return.
    SizeUnknown(Shared<io::Error>),
    /// The worker's queue was full: this job was not started.
    QueueFull { job: &'static str },
    /// A browser program opened the link.
    Opened { program: String, url: String },
    /// The file to edit is not in the checkout (the sanitised path).
    NotInCheckout { path: String },
    /// The editor ended well.
    BackFrom { program: String },
    /// The editor ended with a failure status.
    EditorExited {
        program: String,
        status: std::process::ExitStatus,
    },
    /// The editor could not be started.
    EditorNotStarted { program: String, error: Shared<io::Error> },
    /// The text was refused for the clipboard: the clipboard check's sentence (it names the character).
    CopyRefused { why: String },
    /// The clipboard sequence could not be written.
    NotCopied(Shared<io::Error>),
    /// SIGHUP, SIGTERM, SIGINT and SIGQUIT are not watched (drafts are not kept on them).
    SignalsUnwatched(Shared<io::Error>),
    /// A background thread panicked with this (sanitised) message.
    Panicked { failure: String },
    /// The `<`/`>` split could not be remembered.
    SplitNotKept(Shared<io::Error>),
}
