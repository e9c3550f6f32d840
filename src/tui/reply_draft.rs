//! The thread reply being typed, kept on disk as a draft of its own kind
//! ([`DraftKind::ThreadReply`], beside the composer's drafts), so a reply of
//! up to 16 KiB survives a crash, a kill or a hang-up as decision evidence
//! does: written a moment after typing stops and when the process is told
//! to end, removed once GitHub shows the reply posted or the input is
//! emptied, and put back in the input when the same pull request is opened
//! again (`t r` on its finding resumes it).
//!
//! Each thread has its own reply and its own file: the id depends on the
//! pull request and the finding only (not the head: the reply is bound to
//! a head when it is sent, not while it is typed).

use super::app::App;
use super::drafts::origin;
use super::effect::Effect;
use crate::outbox::drafts::{DraftKind, DraftOrigin, StoredDraft, draft_id_of, screen_id};
use crate::sanitize::clean_line;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// A digest of what would be kept (every thread's typed reply).
pub fn mark(app: &App) -> u64 {
    let mut h = DefaultHasher::new();
    app.live.thread.replies.hash(&mut h);
    h.finish()
}

/// The file of `fingerprint`'s reply, as a screen named `screen` keeps it
/// (see [`super::drafts::screen`]).
fn id_of(origin: &DraftOrigin, fingerprint: &str, screen: Option<&str>) -> String {
    let id = draft_id_of(DraftKind::ThreadReply, origin, None, &[fingerprint.to_owned()]);
    screen_id(id, screen)
}

/// What joins the replies of one thread typed in two screens (a reply is one line).
const JOINED: &str = "  // also typed in another screen: ";

/// Keeps every typed reply on disk as it is now, writing only the ones
/// that changed since they were last written; an emptied reply's file is
/// removed.
pub fn save(app: &mut App) -> Vec<Effect> {
    let Some(origin) = origin(app) else {
        return Vec::new();
    };
    let reviewed_sha = app.doc.set.as_ref().and_then(|s| s.reviewed_sha.clone());
    let screen = app.decide.open_elsewhere.as_deref();
    let id = |fp: &str| id_of(&origin, fp, screen);
    let thread = &mut app.live.thread;
    thread.replies.retain(|_, text| !text.trim().is_empty());
    let mut effects = Vec::new();
    for (fingerprint, text) in &thread.replies {
        if thread.replies_saved.get(fingerprint) == Some(text) {
            continue;
        }
        thread.replies_saved.insert(fingerprint.clone(), text.clone());
        effects.push(Effect::SaveDraft {
            draft: StoredDraft {
                id: id(fingerprint),
                kind: DraftKind::ThreadReply,
                origin: origin.clone(),
                reviewed_sha: reviewed_sha.clone(),
                fingerprints: vec![fingerprint.clone()],
                status: None,
                evidence: text.clone(),
                updated_at: None,
            },
        });
    }
    let emptied: Vec<String> = (thread.replies_saved.keys())
        .filter(|fp| !thread.replies.contains_key(*fp))
        .cloned()
        .collect();
    for fingerprint in emptied {
        thread.replies_saved.remove(&fingerprint);
        effects.push(Effect::DeleteDraft { id: id(&fingerprint) });
    }
    effects
}

/// The reply on `fingerprint`'s thread was posted: it leaves the input,
/// and its kept file goes.
pub fn forget(app: &mut App, fingerprint: &str) -> Vec<Effect> {
    app.live.thread.replies.remove(fingerprint);
    let written = app.live.thread.replies_saved.remove(fingerprint).is_some();
    origin(app)
        .filter(|_| written)
        .map(|origin| Effect::DeleteDraft {
            id: id_of(&origin, fingerprint, super::drafts::screen(app)),
        })
        .into_iter()
        .collect()
}

/// Kept reply drafts were read (newest first): each whose finding is in
/// the result is put back in its thread's input, unless a reply was typed
/// there meanwhile (that one is never replaced); replies of one thread kept
/// by two screens are joined. Returns the line that says so, how many were
/// for findings not in the result (their files stay), and, for a screen
/// that holds the review, the effects that keep what was restored from
/// another screen's files in this screen's own and remove those.
pub fn restore(app: &mut App, drafts: Vec<StoredDraft>) -> (Option<String>, usize, Vec<Effect>) {
    let (mut restored, mut missing, mut others) = (Vec::<String>::new(), 0, Vec::new());
    let origin = origin(app);
    for d in drafts {
        let Some(fp) = d.fingerprints.first().cloned() else {
            continue;
        };
        if app.doc.position_of(&fp).is_none() {
            missing += 1;
            continue;
        }
        let own = origin.as_ref().map(|o| id_of(o, &fp, super::drafts::screen(app)));
        let thread = &mut app.live.thread;
        let text = match thread.replies.get(&fp) {
            Some(_) if restored.contains(&fp) => super::drafts::joined(&thread.replies[&fp], &d.evidence, JOINED),
            Some(typed) if !typed.trim().is_empty() => continue,
            _ => d.evidence,
        };
        if own.as_ref() != Some(&d.id) {
            others.push((fp.clone(), d.id));
        }
        thread.replies.insert(fp.clone(), text.clone());
        thread.replies_saved.insert(fp.clone(), text);
        if !restored.contains(&fp) {
            restored.push(fp);
        }
    }
    let mut effects = Vec::new();
    if super::drafts::screen(app).is_none() && !others.is_empty() {
        for (fp, _) in &others {
            app.live.thread.replies_saved.remove(fp);
        }
        effects = save(app);
        effects.extend(others.into_iter().map(|(_, id)| Effect::DeleteDraft { id }));
    }
    let said = match restored.as_slice() {
        [] => None,
        [one] => Some(format!(
            "Restored a thread reply you typed for {} (t r on that finding resumes it).",
            clean_line(one)
        )),
        many => Some(format!(
            "Restored {} thread replies you typed (t r on each finding resumes its own).",
            many.len()
        )),
    };
    (said, missing, effects)
}
