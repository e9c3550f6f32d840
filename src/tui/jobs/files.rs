//! File work for the screen: the outbox listing and drops, the evidence in
//! $EDITOR (through a private temporary file), and escalation packet files.

use super::worker::Worker;
use crate::atomic_write::{Access, write_atomic};
use crate::outbox::drafts::{DraftStore, StoredDraft};
use crate::outbox::thread_actions::ThreadStore;
use crate::outbox::{Outbox, OutboxError};
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
        for msg in outbox_messages(ThreadStore::open_default(), Outbox::open_default()) {
            let _ = tx.send(msg);
        }
        None
    });
}

/// What one reading of the outbox tells the screen, in order: the kept
/// thread actions first (so the decisions' answer offers them too), then
/// the decisions. Damaged files and an unreadable store are said, never
/// shown as nothing kept.
pub fn outbox_messages(threads: Result<ThreadStore, OutboxError>, decisions: Result<Outbox, OutboxError>) -> Vec<Msg> {
    let mut out = Vec::new();
    match threads.and_then(|s| s.list()) {
        Ok((threads, unreadable)) => {
            out.push(Msg::ThreadsKept(threads));
            if unreadable > 0 {
                out.push(Msg::Notice(Notice::ThreadFilesUnreadable(unreadable)));
            }
        }
        Err(e) => out.push(Msg::Notice(Notice::OutboxUnreadable(e.into()))),
    }
    out.push(match decisions.and_then(|o| o.list()) {
        Ok(listing) => Msg::OutboxLoaded {
            entries: listing.entries,
            unreadable: listing.unreadable.len(),
        },
        Err(e) => Msg::Notice(Notice::OutboxUnreadable(e.into())),
    });
    out
}

/// Claims the review for this screen (one try, no waiting):
/// [`OutboxError::Busy`] when another screen holds it.
pub fn claim_review(origin: &crate::outbox::drafts::DraftOrigin) -> Result<crate::outbox::Claim, OutboxError> {
    DraftStore::open_default().and_then(|s| s.claim_review(origin))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::thread_action::{ThreadRequest, ThreadVerb};

    #[test]
    fn damaged_thread_files_are_said_beside_the_readable_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let threads = ThreadStore::open(dir.path().join("threads")).expect("store");
        let kept = threads
            .keep(ThreadRequest {
                repository: "o/r".into(),
                pull_request: 3,
                fingerprint: "defect:a".into(),
                expected_head: None,
                verb: ThreadVerb::Resolve,
            })
            .expect("keep");
        std::fs::write(threads.dir().join("0123456789abcdef.json"), b"{damaged").expect("write");
        let outbox = Outbox::open(dir.path().join("outbox")).expect("outbox");
        let msgs = outbox_messages(Ok(threads), Ok(outbox));
        assert!(matches!(&msgs[0], Msg::ThreadsKept(t) if *t == vec![kept]), "{msgs:?}");
        assert!(
            matches!(msgs[1], Msg::Notice(Notice::ThreadFilesUnreadable(1))),
            "{msgs:?}"
        );
        assert!(matches!(&msgs[2], Msg::OutboxLoaded { entries, unreadable: 0 } if entries.is_empty()));
        let text = Notice::ThreadFilesUnreadable(1).to_string();
        assert!(text.contains("triage thread list"), "{text}");
    }

    #[test]
    fn an_unreadable_thread_store_is_said_not_shown_as_empty() {
        let dir = tempfile::tempdir().expect("tempdir");
        let outbox = Outbox::open(dir.path().join("outbox")).expect("outbox");
        let msgs = outbox_messages(Err(OutboxError::NoStateDir), Ok(outbox));
        assert!(matches!(msgs[0], Msg::Notice(Notice::OutboxUnreadable(_))), "{msgs:?}");
        assert!(!msgs.iter().any(|m| matches!(m, Msg::ThreadsKept(_))));
    }
}
