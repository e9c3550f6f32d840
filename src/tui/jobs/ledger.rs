//! Reading the pull request's decision ledger in the background
//! (`Msg::LedgerLoaded`). Without a token the ledger is unknown, and the
//! screen says why.

use super::worker::{Net, Worker};
use crate::github::decide::Target;
use crate::github::route::RepoName;
use crate::model::ledger::LedgerState;
use crate::tui::effect::Context;
use crate::tui::recorded::LedgerTarget;
use crate::tui::update::Msg;

/// Queues the read on the worker (the session's client).
pub fn load(_ctx: &Context, generation: u64, target: LedgerTarget, worker: &Worker) {
    worker.job("reading the decision ledger", move |net| {
        let state = read(net, &target).unwrap_or_else(|reason| LedgerState::Unknown { reason });
        Some(Msg::LedgerLoaded { generation, state })
    });
}

fn read(net: &Net, target: &LedgerTarget) -> Result<LedgerState, String> {
    let repository = RepoName::parse(&target.repository).map_err(|e| e.to_string())?;
    let target = Target {
        repository,
        pull_request: target.pull_request,
        reviewed_sha: target.head.clone(),
    };
    let client = net.client().map_err(|e| e.to_string())?;
    Ok(net.block_on(crate::github::ledger::read_ledger(&client, &target, &[])))
}
