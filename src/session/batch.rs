//! Recording through the outbox: keep first, send, then settle the entry
//! (removed when recorded, attempt counted otherwise). One decision or many.
//!
//! The order for any caller (command line or screen):
//! 1. local checks ([`Draft::check`] or [`Draft::for_finding`]);
//! 2. [`keep`] — on disk before any network call;
//! 3. [`send_entry`] (or [`submit_many`]) inside a tokio runtime.

use crate::decision::draft::{CheckedDraft, Draft, LocalProblem};
use crate::decision::outcome::Outcome;
use crate::github::cleanup::Journal;
use crate::github::client::Client;
use crate::github::protocol::{self, Known, Started, SubmitOptions};
use crate::outbox::{ApiBinding, Claim, Entry, Outbox, OutboxError};
use crate::sanitize::clean_line;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;

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
    /// The entry was sent to another GitHub API before: it is not sent to
    /// this one (it stays kept, its attempts as they were).
    #[error(
        "outbox entry {id} is for the GitHub API at {kept_for}, and this run talks to {here}: not sent; run it with --api-url {kept_for} (it stays kept)"
    )]
    OtherApi { id: String, kept_for: String, here: String },
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
    let Prepared { claim, entry, checked } = prepare(outbox, entry, &client.api_base().url())?;
    let options = with_pending(options, &entry);
    let mut journal = EntryJournal { outbox, id: &entry.id };
    let outcome = protocol::submit_knowing(client, &checked, &options, &mut journal, &mut Known::default()).await;
    Ok(settle(outbox, &claim, &entry, outcome))
}

/// A kept entry ready to be sent: claimed, read again, checked and bound
/// to the API of this run.
struct Prepared {
    claim: Claim,
    entry: Entry,
    checked: CheckedDraft,
}

/// The one step every send goes through before its first request (one
/// decision or a batch, so no path can skip the binding): claims the entry,
/// reads it again (another process may have changed or settled it before the
/// claim), checks its draft, and binds it to the API at `here`
/// ([`bound_to`]).
fn prepare(outbox: &Outbox, listed: &Entry, here: &str) -> Result<Prepared, SendError> {
    let claim = outbox.claim(&listed.id)?;
    let entry = outbox
        .get(&listed.id)?
        .ok_or_else(|| SendError::Gone { id: listed.id.clone() })?;
    let checked = entry.draft.clone().check().map_err(SendError::Invalid)?;
    let entry = bound_to(outbox, entry, here)?;
    Ok(Prepared { claim, entry, checked })
}

/// The entry bound to the API at `here`: one never sent is bound to it on
/// disk before its first request; one sent to another API before is not
/// sent (its words, and any comment it may have left, belong there).
fn bound_to(outbox: &Outbox, mut entry: Entry, here: &str) -> Result<Entry, SendError> {
    match ApiBinding::of(entry.api.as_deref(), here) {
        ApiBinding::Here => Ok(entry),
        ApiBinding::Elsewhere(api) => Err(SendError::OtherApi {
            id: entry.id.clone(),
            kept_for: clean_line(&api),
            here: here.to_owned(),
        }),
        ApiBinding::Unbound => {
            entry.api = Some(here.to_owned());
            outbox.put(&entry)?;
            Ok(entry)
        }
    }
}

/// The options with every delete the stored entry has written down.
fn with_pending(mut options: SubmitOptions, entry: &Entry) -> SubmitOptions {
    for id in &entry.pending_deletes {
        if !options.pending_deletes.contains(id) {
            options.pending_deletes.push(*id);
        }
    }
    options
}

/// Removes the entry when recorded, otherwise stores its attempt (by the
/// holder of its claim).
fn settle(outbox: &Outbox, claim: &Claim, entry: &Entry, outcome: Outcome) -> Sent {
    let settled = if outcome.is_recorded() {
        outbox.remove_recorded(claim, &entry.id).map(|_| ())
    } else {
        outbox.mark_attempt(&entry.id, &outcome).map(|_| ())
    };
    Sent {
        outcome,
        settle_error: settled.err(),
    }
}

/// Counts of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    pub recorded: usize,
    pub rejected: usize,
    pub failed: usize,
    /// Not sent: invalid draft, busy or unreadable outbox entry, or one
    /// kept for another GitHub API.
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

/// Sends kept entries, the writes one after another (never two at once:
/// GitHub's secondary rate limits punish bursts of writes), the reads beside
/// them. Every entry is prepared first (claimed, checked and bound to this
/// run's API, as [`send_entry`] does: one kept for another API is reported
/// [`SendError::OtherApi`] and not sent), and only then is anything read, so
/// the ledger read sees every comment an earlier attempt of these entries
/// made. The actor, its permission, and each pull request and its ledger
/// are read once for the batch ([`Known`]); the head is read again after
/// every comment, before its status, and that read is what the next
/// decision's post is judged by. The read-back of one decision runs beside
/// the next decision's steps: N decisions on one pull request cost 3N + 2
/// round trips. Each result is handed to `each` as soon as it is known; one
/// failure never stops the others. Entries are sent grouped by pull request
/// (in their order otherwise).
pub async fn submit_many(
    client: &Client,
    outbox: &Outbox,
    entries: &[Kept],
    each: impl FnMut(&Entry, &Result<Sent, SendError>),
) -> Summary {
    let tally = RefCell::new((Summary::default(), each));
    {
        let report = |entry: &Entry, result: Result<Sent, SendError>| {
            let mut tally = tally.borrow_mut();
            tally.0.add(&result);
            (tally.1)(entry, &result);
        };
        let here = client.api_base().url();
        let mut claimed = Vec::new();
        for kept in entries {
            match prepare(outbox, &kept.entry, &here) {
                Ok(prepared) => claimed.push((prepared, kept.options())),
                Err(error) => report(&kept.entry, Err(error)),
            }
        }
        claimed.sort_by_key(|(Prepared { entry, .. }, _)| {
            let d = &entry.draft;
            (
                d.repository.to_ascii_lowercase(),
                d.pull_request,
                d.reviewed_sha.clone(),
            )
        });
        let mut known = Known::default();
        let mut tail: Option<Pin<Box<dyn Future<Output = ()> + '_>>> = None;
        for (Prepared { claim, entry, checked }, options) in claimed {
            let options = with_pending(options, &entry);
            let previous = tail.take();
            let front = async {
                let mut journal = EntryJournal { outbox, id: &entry.id };
                protocol::start(client, &checked, &options, &mut journal, &mut known).await
            };
            let ((), started) = tokio::join!(
                async {
                    if let Some(previous) = previous {
                        previous.await;
                    }
                },
                front
            );
            match started {
                Ok(Started::Attested(attested)) => {
                    let report = &report;
                    tail = Some(Box::pin(async move {
                        let outcome = protocol::confirm(client, &attested).await;
                        report(&entry, Ok(settle(outbox, &claim, &entry, outcome)));
                        drop(claim);
                    }));
                }
                Ok(Started::Done(receipt)) => {
                    report(&entry, Ok(settle(outbox, &claim, &entry, Outcome::Recorded(receipt))));
                }
                Err(outcome) => report(&entry, Ok(settle(outbox, &claim, &entry, outcome))),
            }
        }
        if let Some(last) = tail {
            last.await;
        }
    }
    tally.into_inner().0
}
