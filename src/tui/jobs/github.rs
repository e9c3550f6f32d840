//! Recording ReviewGate decisions from the screen: every decision is kept in
//! the outbox before the first request, then sent one after another
//! ([`batch::submit_many`]); each outcome is reported as soon as it is known.
//! Without a token nothing is sent and the decisions stay in the outbox.

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
use std::sync::mpsc::Sender;

/// Starts sending `items` (kept first) on a thread of its own.
pub fn submit(ctx: &Context, generation: u64, items: Vec<SubmitItem>, drafts: Vec<String>, tx: Sender<Msg>) {
    let api_url = ctx.pr.api_url.clone();
    let source = ctx.source.clone();
    std::thread::spawn(move || {
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
                return;
            }
        };
        let connect = || super::connect(api_url.as_deref());
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
        run(&outbox, connect, Batch { source, items }, &report, &all_kept);
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

/// Keeps every decision, then (when a client can be made) sends them in turn.
fn run(
    outbox: &Outbox,
    connect: impl FnOnce() -> Result<(tokio::runtime::Runtime, crate::github::ClientConfig), String>,
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
    let (runtime, config) = match connect() {
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
    runtime.block_on(async {
        let client = match super::client(config) {
            Ok(c) => c,
            Err(why) => {
                for k in &list {
                    if let Some(&f) = ids.get(&k.entry.id) {
                        report(f, failed(format!("{why}; kept in the outbox as {}", k.entry.id)));
                    }
                }
                return;
            }
        };
        batch::submit_many(&client, outbox, &list, |entry, result| {
            if let Some(&finding) = ids.get(&entry.id) {
                report(finding, outcome_of(&entry.id, result));
            }
        })
        .await;
    });
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

/// Reads the authenticated login in the background (`Msg::Actor`).
pub fn lookup_actor(ctx: &Context, tx: Sender<Msg>) {
    let api_url = ctx.pr.api_url.clone();
    std::thread::spawn(move || {
        let result = super::connect(api_url.as_deref()).and_then(|(runtime, config)| {
            runtime.block_on(async {
                let client = super::client(config)?;
                client
                    .get_json::<Account>(&Route::new(["user"]))
                    .await
                    .map(|a| a.login)
                    .map_err(|e| format!("cannot read your GitHub login: {e}"))
            })
        });
        let _ = tx.send(Msg::Actor(result));
    });
}

#[cfg(test)]
mod tests;
