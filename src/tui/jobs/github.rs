//! Recording ReviewGate decisions from the screen: every decision is kept in
//! the outbox before the first request, then sent one after another
//! ([`batch::submit_many`]); each outcome is reported as soon as it is known.
//! Without a token nothing is sent and the decisions stay in the outbox.

use super::worker::Worker;
use crate::github::Client;
use crate::github::decide::Rejection;
use crate::github::protocol::Outcome;
use crate::github::route::Route;
use crate::github::wire::Account;
use crate::outbox::{Outbox, OutboxError};
use crate::session::batch::{self, Kept, SendError, Sent};
use crate::tui::decision_state::Receipt;
use crate::tui::effect::{Context, SubmitItem};
use crate::tui::message::failure::{ActorError, ClientError, SendFailure, Shared};
use crate::tui::prepared::disposition_short;
use crate::tui::update::{Msg, SubmitOutcome};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

/// Keeps `items` in the outbox on the file lane, then queues their send
/// with the session's client. Kept first, so a quit while the send still
/// waits in the queue loses nothing: the decisions stay in the outbox and
/// are offered next time, as the quit question says.
pub fn submit(ctx: &Context, generation: u64, items: Vec<SubmitItem>, drafts: Vec<String>, worker: &Worker) {
    let source = ctx.source.clone();
    let (tx, jobs) = (worker.tx(), worker.jobs());
    let to_screen = tx.clone();
    worker.write(move || {
        let report = move |finding: usize, outcome: SubmitOutcome| {
            let _ = tx.send(Msg::SubmitFinished {
                finding,
                generation,
                outcome,
            });
        };
        let outbox = match Outbox::open_default() {
            Ok(o) => o,
            Err(e) => {
                let e = Shared::new(e);
                for it in items {
                    report(it.finding, failed(SendFailure::NoOutbox(e.clone())));
                }
                return None;
            }
        };
        let total = items.len();
        let kept = keep_all(&outbox, source, items, &report);
        // Every decision is on disk now: its draft is not needed.
        if kept.len() == total {
            for id in &drafts {
                if let Some(msg) = super::files::delete_draft(id) {
                    let _ = to_screen.send(msg);
                }
            }
        }
        if !kept.is_empty() {
            jobs.job("sending decisions", move |net| {
                send(&outbox, (|| net.client(), |f| net.block_on(f)), kept, &report);
                None
            });
        }
        None
    });
}
fn failed(reason: SendFailure) -> SubmitOutcome {
    SubmitOutcome::Failed { reason }
}

/// Runs a future to its end (the session runtime's `block_on`, or a test's).
type BlockOn<'a> = Pin<Box<dyn Future<Output = ()> + 'a>>;

/// Sends kept decisions in turn (when a client can be had), reporting each.
fn send(
    outbox: &Outbox,
    net: (impl FnOnce() -> Result<Client, ClientError>, impl FnOnce(BlockOn<'_>)),
    kept: Vec<(usize, Kept)>,
    report: &dyn Fn(usize, SubmitOutcome),
) {
    if kept.is_empty() {
        return;
    }
    let (connect, block_on) = net;
    let client = match connect() {
        Ok(c) => c,
        Err(why) => {
            for (finding, k) in &kept {
                let id = k.entry.id.clone();
                report(*finding, failed(SendFailure::NoClient { id, why: why.clone() }));
            }
            return;
        }
    };
    let ids: HashMap<String, usize> = kept.iter().map(|(f, k)| (k.entry.id.clone(), *f)).collect();
    let list: Vec<Kept> = kept.into_iter().map(|(_, k)| k).collect();
    block_on(Box::pin(async {
        batch::submit_many(&client, outbox, &list, |entry, result| {
            if let Some(&finding) = ids.get(&entry.id) {
                report(finding, outcome_of(&entry.id, result));
            }
        })
        .await;
    }));
}

/// Keeps every decision on disk (and removes the stale entries they re-bind);
/// a decision that cannot be kept is reported failed and never sent.
fn keep_all(
    outbox: &Outbox,
    source: Option<String>,
    items: Vec<SubmitItem>,
    report: &dyn Fn(usize, SubmitOutcome),
) -> Vec<(usize, Kept)> {
    let mut kept = Vec::new();
    for it in items {
        match batch::keep(outbox, it.draft, source.clone()) {
            Ok(mut k) => {
                k.supersede = it.supersede;
                if let Some(old) = it.replaces.filter(|old| *old != k.entry.id) {
                    let _ = outbox.remove(&old);
                }
                kept.push((it.finding, k));
            }
            Err(e) => report(it.finding, failed(SendFailure::NotKept(e.into()))),
        }
    }
    kept
}

/// The screen's view of one send.
pub fn outcome_of(id: &str, result: &Result<Sent, SendError>) -> SubmitOutcome {
    let sent = match result {
        Ok(sent) => sent,
        Err(error) => {
            return failed(SendFailure::NotSent {
                id: id.to_owned(),
                error: Shared::new(send_error_copy(error)),
            });
        }
    };
    let answered = |settle: Option<crate::outbox::OutboxError>| SendFailure::Answered {
        id: id.to_owned(),
        outcome: Box::new(sent.outcome.clone()),
        settle: settle.map(Shared::new),
    };
    let settle = sent.settle_error.as_ref().map(outbox_error_copy);
    let settle_text = settle.as_ref().map(|e| format!("; outbox: {e}")).unwrap_or_default();
    match &sent.outcome {
        Outcome::Recorded(r) => {
            let reused = if r.already_recorded {
                ", already recorded: nothing was sent"
            } else if r.reused {
                ", attesting an earlier attempt's comment"
            } else {
                ""
            };
            SubmitOutcome::Recorded(Receipt {
                summary: format!(
                    "{} recorded by {} ({}{reused}){settle_text}",
                    r.disposition.as_str(),
                    r.actor,
                    r.digest
                ),
                link: Some(r.url.clone()),
                shown_as: Some(disposition_short(r.disposition.canonical())),
                suppressed: false,
            })
        }
        Outcome::Rejected {
            reason: Rejection::AlreadyDecided { .. },
            ..
        } => SubmitOutcome::Conflict {
            // The outbox's settle error is not said here: the entry stays for the answer to the question.
            reason: answered(None),
        },
        Outcome::Rejected { reason, .. } => SubmitOutcome::Rejected {
            stale_head: match reason {
                Rejection::StaleHead { head, .. } | Rejection::HeadMoved { head, .. } => Some(head.clone()),
                _ => None,
            },
            reason: answered(settle),
        },
        Outcome::Failed { .. } => failed(answered(settle)),
    }
}

/// A copy of an error the batch lends to its callback (it holds an
/// `io::Error`, which cannot be cloned): the same variant, with the system
/// error's kind and words.
fn send_error_copy(e: &SendError) -> SendError {
    match e {
        SendError::Invalid(problems) => SendError::Invalid(problems.clone()),
        SendError::Outbox(e) => SendError::Outbox(outbox_error_copy(e)),
        SendError::Gone { id } => SendError::Gone { id: id.clone() },
        SendError::OtherApi { id, kept_for, here } => SendError::OtherApi {
            id: id.clone(),
            kept_for: kept_for.clone(),
            here: here.clone(),
        },
    }
}

fn outbox_error_copy(e: &OutboxError) -> OutboxError {
    match e {
        OutboxError::Io { action, path, source } => OutboxError::Io {
            action,
            path: path.clone(),
            source: std::io::Error::new(source.kind(), source.to_string()),
        },
        OutboxError::Corrupt { path, message } => OutboxError::Corrupt {
            path: path.clone(),
            message: message.clone(),
        },
        OutboxError::NoStateDir => OutboxError::NoStateDir,
        OutboxError::BadId { id } => OutboxError::BadId { id: id.clone() },
        OutboxError::NotFound { id } => OutboxError::NotFound { id: id.clone() },
        OutboxError::Busy { id } => OutboxError::Busy { id: id.clone() },
    }
}

/// Reads the authenticated login on the worker (`Msg::Actor`).
pub fn lookup_actor(worker: &Worker) {
    worker.job("reading your GitHub login", |net| {
        let result = net.client().map_err(ActorError::NoClient).and_then(|client| {
            net.block_on(async {
                client
                    .get_json::<Account>(&Route::new(["user"]))
                    .await
                    .map(|a| a.login)
                    .map_err(ActorError::Lookup)
            })
        });
        Some(Msg::Actor(result))
    });
}

#[cfg(test)]
mod tests;
