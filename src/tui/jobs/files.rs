//! File work for the screen: the outbox listing and drops, the evidence in
//! $EDITOR (through a private temporary file), and escalation packet files.

use super::worker::Worker;
use crate::atomic_write::{Access, write_atomic};
use crate::outbox::Outbox;
use crate::outbox::drafts::{DraftStore, StoredDraft};
use crate::outbox::thread_actions::ThreadStore;
use crate::sanitize::clean_line;
use crate::tui::message::notice::Notice;
use crate::tui::message::{EditError, KeptKind};
use crate::tui::terminal::TerminalGuard;
use crate::tui::update::Msg;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The user's editor command: `$VISUAL`, else `$EDITOR`, else `vi`, split into words.
pub fn editor_words() -> Vec<String> {
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".into());
    editor.split_whitespace().map(str::to_owned).collect()
}

/// Reads the outbox in the background (`Msg::OutboxLoaded`).
pub fn load_outbox(worker: &Worker) {
    let tx = worker.tx();
    worker.job("reading the outbox", move |_| {
        // Thread actions first, so the decisions' answer can count them;
        // an unreadable thread store shows as none (`triage thread retry`
        // names it).
        if let Ok((threads, _)) = ThreadStore::open_default().and_then(|s| s.list()) {
            let _ = tx.send(Msg::ThreadsKept(threads));
        }
        let msg = match Outbox::open_default().and_then(|o| o.list()) {
            Ok(listing) => Msg::OutboxLoaded {
                entries: listing.entries,
                unreadable: listing.unreadable.len(),
            },
            Err(e) => Msg::Notice(Notice::OutboxUnreadable(e.into())),
        };
        let _ = tx.send(msg);
        None
    });
}

/// Removes a dropped entry (a quick local file operation).
pub fn drop_entry(id: &str, kind: KeptKind) -> Msg {
    let removed = match kind {
        KeptKind::Decision => Outbox::open_default().and_then(|o| o.remove(id)),
        KeptKind::ThreadAction => ThreadStore::open_default().and_then(|s| s.remove(id)),
    };
    let id = id.to_owned();
    match removed {
        Ok(true) => Msg::Notice(Notice::Dropped { id, kind }),
        Ok(false) => Msg::Notice(Notice::NotInOutbox { id, kind }),
        Err(e) => Msg::Notice(Notice::NotDropped {
            id,
            kind,
            error: e.into(),
        }),
    }
}

/// Reads the kept drafts in the background (`Msg::DraftsLoaded`).
pub fn load_drafts(worker: &Worker) {
    let tx = worker.tx();
    worker.job("reading kept drafts", move |_| {
        let msg = match DraftStore::open_default().and_then(|s| s.list()) {
            Ok(listing) => Msg::DraftsLoaded {
                drafts: listing.drafts,
                unreadable: listing.unreadable,
            },
            Err(e) => Msg::Notice(Notice::DraftsUnreadable(e.into())),
        };
        let _ = tx.send(msg);
        None
    });
}

/// Keeps a draft on disk (a small atomic write); a message only on failure.
pub fn save_draft(draft: &StoredDraft) -> Option<Msg> {
    let result = DraftStore::open_default().and_then(|s| s.put(draft));
    result.err().map(|e| Msg::Notice(Notice::DraftNotKept(e.into())))
}

/// Removes a kept draft; a message only on failure.
pub fn delete_draft(id: &str) -> Option<Msg> {
    let result = DraftStore::open_default().and_then(|s| s.remove(id));
    result.err().map(|e| Msg::Notice(Notice::DraftNotRemoved(e.into())))
}

/// Writes `text` to `name` in the current directory, atomically.
pub fn write_file(name: &str, text: &str) -> Msg {
    let path = match std::env::current_dir() {
        Ok(dir) => dir.join(name),
        Err(e) => {
            return Msg::Notice(Notice::NoCurrentDir(e.into()));
        }
    };
    let shown = clean_line(&path.display().to_string());
    match write_atomic(&path, text.as_bytes(), Access::Ordinary) {
        Ok(()) => Msg::Notice(Notice::PacketWritten { path: shown }),
        Err(e) => Msg::Notice(Notice::PacketNotWritten {
            path: shown,
            error: e.into(),
        }),
    }
}

/// A new private temporary file holding `text`.
fn temp_file(text: &str) -> std::io::Result<PathBuf> {
    use std::io::Write as _;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let path = std::env::temp_dir().join(format!("triage-evidence-{}-{nanos}.md", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let mut file = options.open(&path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    Ok(path)
}

fn run_editor(path: &Path, guard: &mut TerminalGuard) -> Result<(), EditError> {
    let words = editor_words();
    let Some((program, args)) = words.split_first() else {
        return Err(EditError::NoEditor);
    };
    guard.suspend();
    let status = Command::new(program).args(args).arg(path).status();
    let resumed = guard.resume();
    if let Err(e) = resumed {
        return Err(EditError::Terminal(e.to_string()));
    }
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(EditError::Exited {
            program: program.clone(),
            status: s.to_string(),
        }),
        Err(e) => Err(EditError::CannotStart {
            program: program.clone(),
            reason: e.to_string(),
        }),
    }
}

/// Suspends the screen, edits `text` in $EDITOR, and returns the new text.
pub fn edit_text(text: &str, guard: &mut TerminalGuard) -> Msg {
    let path = match temp_file(text) {
        Ok(p) => p,
        Err(e) => return Msg::EditedEvidence(Err(EditError::TempFile(e.to_string()))),
    };
    let result = run_editor(&path, guard).and_then(|()| {
        let bytes = std::fs::read(&path).map_err(|e| EditError::ReadBack(e.to_string()))?;
        String::from_utf8(bytes).map_err(|_| EditError::NotUtf8)
    });
    let _ = std::fs::remove_file(&path);
    Msg::EditedEvidence(result)
}
