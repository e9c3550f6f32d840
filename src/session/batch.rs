//! Recording through the outbox: keep first, send, then settle the entry
//! (removed when recorded, attempt counted otherwise). One decision or many.
//!
//! The order for any caller (command line or screen):
//! 1. local checks ([`Draft::check`] or [`Draft::for_finding`]);
//! 2. [`keep`] — on disk before any network call;
//! 3. [`send_entry`] (or [`submit_many`]) inside a tokio runtime.

use crate::decision::draft::{Draft, LocalProblem};
use crate::decision::outcome::Outcome;
use crate::github::cleanup::Journal;
use crate::github::client::Client;
use crate::github::protocol::{Known, SubmitOptions, submit_knowing};
use crate::outbox::{Entry, Outbox, OutboxError};

/// A kept decision, whether it was already in the outbox, and whether the
/// user chose to supersede a different recorded decision with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub entry: Entry,
    pub was_kept_before: bool,
    pub supersede: bool,
}

impl Kept {
    /// An entry read back from the outbox (a retry).
    pub fn retry(entry: Entry) -> Kept {
        Kept {
            entry,
            was_kept_before: true,
            supersede: false,
        }
    }

    /// Options for sending it. Every send reads the pull request's ledger
    /// first, so an earlier attempt's (or another process's) comment is found.
    pub fn options(&self) -> SubmitOptions {
        SubmitOptions {
            supersede: self.supersede,
            pending_deletes: self.entry.pending_deletes.clone(),
        }
    }
}

/// Writes clean-up deletes into the outbox entry before they are sent.
struct EntryJournal<'a> {
    outbox: &'a Outbox,
    id: &'a str,
}

impl Journal for EntryJournal<'_> {
    fn deleting(&mut self, comment_id: u64) -> Result<(), String> {
        self.outbox.note_delete(self.id, comment_id).map_err(|e| e.to_string())
    }

    fn deleted(&mut self, comment_id: u64) {
        if let Err(e) = self.outbox.delete_done(self.id, comment_id) {
            tracing::warn!(comment_id, %e, "could not note a finished delete in the outbox");
        }
    }
}

/// Writes the decision to the outbox unless the identical decision is
/// already there (then that entry, with its attempts, is returned).
pub fn keep(outbox: &Outbox, draft: Draft, source: Option<String>) -> Result<Kept, OutboxError> {
    let fresh = Entry::new(draft, source);
    if let Some(existing) = outbox.get(&fresh.id)? {
        return Ok(Kept::retry(existing));
    }
    outbox.put(&fresh)?;
    Ok(Kept {
        entry: fresh,
        was_kept_before: false,
        supersede: false,
    })
}

/// Why an entry was not sent at all.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The stored draft fails its local checks (edited by hand?); kept.
    #[error("the kept decision fails its local checks: {}", join(.0))]
    Invalid(Vec<LocalProblem>),
    /// The outbox could not be read or claimed.
    #[error(transparent)]
    Outbox(#[from] OutboxError),
    /// Another process settled the entry (recorded or dropped it) before
    /// this one could claim it.
    #[error(
        "outbox entry {id} was settled by another triage process (recorded or dropped) before this one could send it; `triage decisions` shows what the pull request holds"
    )]
    Gone { id: String },
}

fn join(problems: &[LocalProblem]) -> String {
    problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// The outcome of one send, and an outbox error that happened while
/// settling it afterwards (the outcome stands either way).
#[derive(Debug)]
pub struct Sent {
    pub outcome: Outcome,
    pub settle_error: Option<OutboxError>,
}

/// Sends one kept entry and settles it: removed from the outbox when
/// recorded, otherwise its attempt and outcome are stored. The entry is read
/// again once claimed (another process may have changed or settled it).
pub async fn send_entry(
    client: &Client,
    outbox: &Outbox,
    entry: &Entry,
    options: SubmitOptions,
) -> Result<Sent, SendError> {
    send_entry_knowing(client, outbox, entry, options, &mut Known::default()).await
}

/// [`send_entry`] within a batch: the actor and permission `known` holds are
/// not read again.
async fn send_entry_knowing(
    client: &Client,
    outbox: &Outbox,
    entry: &Entry,
    options: SubmitOptions,
    known: &mut Known,
) -> Result<Sent, SendError> {
    let _claim = outbox.claim(&entry.id)?;
    let Some(entry) = outbox.get(&entry.id)? else {
        return Err(SendError::Gone { id: entry.id.clone() });
    };
    let checked = entry.draft.clone().check().map_err(SendError::Invalid)?;
    let mut options = options;
    for id in &entry.pending_deletes {
        if !options.pending_deletes.contains(id) {
            options.pending_deletes.push(*id);
        }
    }
    let mut journal = EntryJournal { outbox, id: &entry.id };
    let outcome = submit_knowing(client, &checked, &options, &mut journal, known).await;
    let settled = if outcome.is_recorded() {
        outbox.remove(&entry.id).map(|_| ())
    } else {
        outbox.mark_attempt(&entry.id, &outcome).map(|_| ())
    };
    Ok(Sent {
        outcome,
        settle_error: settled.err(),
    })
}

/// Counts of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    pub recorded: usize,
    pub rejected: usize,
    pub failed: usize,
    /// Not sent: invalid draft, busy or unreadable outbox entry.
    pub not_sent: usize,
}

impl Summary {
    /// Adds one result.
    pub fn add(&mut self, result: &Result<Sent, SendError>) {
        match result {
            Ok(Sent {
                outcome: Outcome::Recorded(_),
                ..
            }) => self.recorded += 1,
            Ok(Sent {
                outcome: Outcome::Rejected { .. },
                ..
            }) => self.rejected += 1,
            Ok(Sent {
                outcome: Outcome::Failed { .. },
                ..
            }) => self.failed += 1,
            Err(_) => self.not_sent += 1,
        }
    }

    /// True when every entry was recorded.
    pub fn all_recorded(&self) -> bool {
        self.rejected == 0 && self.failed == 0 && self.not_sent == 0
    }
}

/// Sends kept entries one after another (never in parallel: GitHub's
/// secondary rate limits punish bursts of writes). The actor and its write
/// permission are read once for the batch ([`Known`]); each pull request's
/// head is read before every post. Each result is handed to `each` as soon
/// as it is known; one failure never stops the others.
pub async fn submit_many(
    client: &Client,
    outbox: &Outbox,
    entries: &[Kept],
    mut each: impl FnMut(&Entry, &Result<Sent, SendError>),
) -> Summary {
    let mut summary = Summary::default();
    let mut known = Known::default();
    for kept in entries {
        let result = send_entry_knowing(client, outbox, &kept.entry, kept.options(), &mut known).await;
        summary.add(&result);
        each(&kept.entry, &result);
    }
    summary
}
