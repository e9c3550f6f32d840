//! `R`: the newest exact-head result of the pull request with live threads.
//! When no current result can be fetched, the head is read to tell a moved
//! head (the loaded result is stale) from a failure on the same head (then
//! only the threads are read again).
//!
//! What a refresh of an unchanged pull request sends: every REST read with
//! `If-None-Match` (the session's one client kept the answers of the first
//! fetch, so each costs a `304`), the artifact's zip from that client's
//! memory, and the review-thread query, always: GraphQL has no conditional
//! requests and thread resolution is only in GraphQL, so skipping it after
//! `304`s would show a thread resolved or reopened since in its old state
//! (see [`crate::github::threads`]).

use super::worker::{Net, Worker};
use crate::sanitize::clean_line;
use crate::session::fetch::{current_head, fetch_live, observe_threads, resolve_target};
use crate::tui::app::Source;
use crate::tui::effect::Context;
use crate::tui::live::RefreshOutcome;
use crate::tui::message::failure::{RefreshError, Shared};
use crate::tui::update::Msg;

/// Queues the refresh on the worker (`Msg::Refreshed`).
pub fn start(ctx: &Context, generation: u64, reviewed_sha: Option<String>, worker: &Worker) {
    let pr = ctx.pr.clone();
    worker.job("refreshing the pull request", move |net| {
        let outcome = run(net, &pr, reviewed_sha.as_deref()).unwrap_or_else(|reason| RefreshOutcome::Failed { reason });
        Some(Msg::Refreshed { generation, outcome })
    });
}

fn run(net: &Net, pr: &crate::session::PrTarget, reviewed_sha: Option<&str>) -> Result<RefreshOutcome, RefreshError> {
    let (_, request) = resolve_target(pr).map_err(|e| RefreshError::Target(e.into()))?;
    let client = net.client().map_err(RefreshError::NoClient)?;
    net.block_on(async {
        let err = match fetch_live(&client, &request).await {
            Ok(fetched) => {
                let threads_unavailable = fetched
                    .threads
                    .as_ref()
                    .and_then(|t| t.unavailable_reason())
                    .map(str::to_owned);
                let name = clean_line(&fetched.display_name());
                let orphans = fetched.orphan_threads;
                let doc = crate::tui::document(Source::File(name), fetched.loaded);
                return Ok(RefreshOutcome::Loaded {
                    doc: Box::new(doc),
                    threads_unavailable,
                    orphans,
                });
            }
            Err(e) => Shared::new(e),
        };
        let head = current_head(&client, &request)
            .await
            .map_err(|head| RefreshError::Unread {
                fetch: err.clone(),
                head: head.into(),
            })?;
        if Some(head.as_str()) != reviewed_sha {
            return Ok(RefreshOutcome::HeadMoved { head, reason: err });
        }
        let observation = observe_threads(&client, &request.repo, request.pr).await;
        Ok(RefreshOutcome::Threads {
            observation,
            warning: err,
        })
    })
}
