//! The thread reply being typed, kept on disk as a draft of its own kind
//! ([`DraftKind::ThreadReply`], beside the composer's drafts), so a reply of
//! up to 16 KiB survives a crash, a kill or a hang-up as decision evidence
//! does: written a moment after typing stops and when the process is told
//! to end, removed once GitHub shows the reply posted or the input is
//! emptied, and put back in the input when the same pull request is opened
//! again (`t r` on its finding resumes it).
//!
//! A reply belongs to the finding whose reply input it was last typed in;
//! its id depends on the pull request and that finding only (not the head:
//! the reply is bound to a head when it is sent, not while it is typed).

use super::app::App;
use super::drafts::origin;
use super::effect::Effect;
use crate::outbox::drafts::{DraftKind, StoredDraft, draft_id_of};
use crate::sanitize::clean_line;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// A digest of what would be kept (the text and its finding).
pub fn mark(app: &App) -> u64 {
    let mut h = DefaultHasher::new();
    app.live.thread.reply.hash(&mut h);
    app.live.thread.reply_for.hash(&mut h);
    h.finish()
}

/// The draft the reply is kept in, as it is now (`None`: nothing is typed,
/// or this review keeps no drafts).
fn stored(app: &App) -> Option<StoredDraft> {
    let thread = &app.live.thread;
    let fingerprint = thread.reply_for.clone()?;
    if thread.reply.trim().is_empty() {
        return None;
    }
    let origin = origin(app)?;
    let fingerprints = vec![fingerprint];
    Some(StoredDraft {
        id: draft_id_of(DraftKind::ThreadReply, &origin, None, &fingerprints),
        kind: DraftKind::ThreadReply,
        origin,
        reviewed_sha: app.doc.set.as_ref().and_then(|s| s.reviewed_sha.clone()),
        fingerprints,
        status: None,
        evidence: thread.reply.clone(),
        updated_at: None,
    })
}

/// Keeps the reply on disk as it is now; an emptied reply's file (and one
/// kept under another finding before) is removed.
pub fn save(app: &mut App) -> Vec<Effect> {
    let draft = stored(app);
    let id = draft.as_ref().map(|d| d.id.clone());
    let old = std::mem::replace(&mut app.live.thread.reply_saved_as, id.clone());
    let mut effects: Vec<Effect> = draft.map(|draft| Effect::SaveDraft { draft }).into_iter().collect();
    effects.extend(
        old.filter(|o| Some(o) != id.as_ref())
            .map(|id| Effect::DeleteDraft { id }),
    );
    effects
}

/// The reply was posted: its kept file goes.
pub fn forget(app: &mut App) -> Vec<Effect> {
    app.live
        .thread
        .reply_saved_as
        .take()
        .map(|id| Effect::DeleteDraft { id })
        .into_iter()
        .collect()
}

/// Kept reply drafts were read: the first whose finding is in the result is
/// put back in the (empty) input. Returns the line that says so, and how
/// many were for findings not in the result (their files stay). A reply
/// typed meanwhile is never replaced.
pub fn restore(app: &mut App, drafts: Vec<StoredDraft>) -> (Option<String>, usize) {
    let (mut said, mut missing) = (None, 0);
    for d in drafts {
        let Some(fp) = d.fingerprints.first() else { continue };
        if app.doc.position_of(fp).is_none() {
            missing += 1;
            continue;
        }
        if !app.live.thread.reply.is_empty() {
            continue;
        }
        let thread = &mut app.live.thread;
        thread.reply = d.evidence;
        thread.reply_for = Some(fp.clone());
        thread.reply_saved_as = Some(d.id);
        said = Some(format!(
            "Restored a thread reply you typed for {} (t r on that finding resumes it).",
            clean_line(fp)
        ));
    }
    (said, missing)
}
