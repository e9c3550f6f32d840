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
use crate::outbox::Outbox;
use crate::session::batch::{self, Kept, SendError, Sent};
use crate::tui::decision_state::Receipt;
use crate::tui::effect::{Context, SubmitItem};
use crate::tui::prepared::disposition_short;
use crate::tui::update::{Msg, SubmitOutcome};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

/// Queues sending `items` (kept first) on the worker, with the session's client.
pub fn submit(ctx: &Context, generation: u64, items: Vec<SubmitItem>, drafts: Vec<String>, worker: &Worker) {
    let source = ctx.source.clone();
    let tx = worker.tx();
    worker.job("sending decisions", move |net| {
        let report = |finding: usize, outcome: SubmitOutcome| {
            let _ = tx.send(Msg::SubmitFinished {
                finding,
                generation,
                outcome,
            });
        };
        let outbox = match Outbox::open_default() {
            Ok(o) => o,
            Err(e) => {
                for it in items {
                    let why = format!("the outbox cannot be opened ({e}); nothing was sent");
                    report(it.finding, failed(why));
                }
                return None;
            }
        };
        let connect = || net.client();
        let all_kept = |kept: usize, of: usize| {
            // Every decision is on disk now: its draft is not needed.
            if kept == of {
                for id in &drafts {
                    if let Some(msg) = super::files::delete_draft(id) {
                        let _ = tx.send(msg);
                    }
                }
            }
        };
        let batch = Batch { source, items };
        run(&outbox, (connect, |f| net.block_on(f)), batch, &report, &all_kept);
        None
    });
}

/// The decisions of one submission and where they came from.
struct Batch {
    source: Option<String>,
    items: Vec<SubmitItem>,
}

fn failed(reason: String) -> SubmitOutcome {
    SubmitOutcome::Failed { reason }
}

/// Runs a future to its end (the session runtime's `block_on`, or a test's).
type BlockOn<'a> = Pin<Box<dyn Future<Output = ()> + 'a>>;

/// Keeps every decision, then (when a client can be had) sends them in turn:
/// `net` is how to get the client and how to wait for the sends.
fn run(
    outbox: &Outbox,
    net: (impl FnOnce() -> Result<Client, String>, impl FnOnce(BlockOn<'_>)),
    batch: Batch,
    report: &dyn Fn(usize, SubmitOutcome),
    kept_count: &dyn Fn(usize, usize),
) {
    let total = batch.items.len();
    let kept = keep_all(outbox, batch.source, batch.items, report);
    kept_count(kept.len(), total);
    if kept.is_empty() {
        return;
    }
    let (connect, block_on) = net;
    let client = match connect() {
        Ok(c) => c,
        Err(why) => {
            for (finding, k) in &kept {
                let id = &k.entry.id;
                report(
                    *finding,
                    failed(format!(
                        "not sent, kept in the outbox as {id}: {why}; set GH_TOKEN, then press r"
                    )),
                );
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
            Err(e) => report(
                it.finding,
                failed(format!(
                    "the decision could not be kept in the outbox ({e}); nothing was sent"
                )),
            ),
        }
    }
    kept
}

/// The screen's view of one send.
pub fn outcome_of(id: &str, result: &Result<Sent, SendError>) -> SubmitOutcome {
    let sent = match result {
        Ok(sent) => sent,
        // Another process holds the entry: it settles it, and the ledger
        // read by the next attempt (r) shows what it recorded.
        Err(SendError::Outbox(e @ crate::outbox::OutboxError::Busy { .. })) => {
            return failed(format!(
                "{e}; that process settles it (r checks the pull request again)"
            ));
        }
        Err(e @ SendError::Gone { .. }) => return failed(e.to_string()),
        Err(e) => return failed(format!("{e} (kept in the outbox as {id})")),
    };
    let settle = sent
        .settle_error
        .as_ref()
        .map(|e| format!("; outbox: {e}"))
        .unwrap_or_default();
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
                    "{} recorded by {} ({}{reused}){settle}",
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
            reason: format!("{}; kept in the outbox as {id}", sent.outcome.summary()),
        },
        Outcome::Rejected { reason, .. } => SubmitOutcome::Rejected {
            reason: format!("{}; kept in the outbox as {id}{settle}", sent.outcome.summary()),
            stale_head: match reason {
                Rejection::StaleHead { head, .. } | Rejection::HeadMoved { head, .. } => Some(head.clone()),
                _ => None,
            },
        },
        Outcome::Failed { .. } => failed(format!(
            "{}; kept in the outbox as {id}{settle}",
            sent.outcome.summary()
        )),
    }
}

/// Reads the authenticated login on the worker (`Msg::Actor`).
pub fn lookup_actor(worker: &Worker) {
    worker.job("reading your GitHub login", |net| {
        let result = net.client().and_then(|client| {
            net.block_on(async {
                client
                    .get_json::<Account>(&Route::new(["user"]))
                    .await
                    .map(|a| a.login)
                    .map_err(|e| format!("cannot read your GitHub login: {e}"))
            })
        });
        Some(Msg::Actor(result))
    });
}

#[cfg(test)]
mod tests;
