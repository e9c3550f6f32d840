//! Reading the pull request's decision ledger in the background
//! (`Msg::LedgerLoaded`). Without a token the ledger is unknown, and the
//! screen says why.

use crate::github::decide::Target;
use crate::github::route::RepoName;
use crate::model::ledger::LedgerState;
use crate::tui::effect::Context;
use crate::tui::recorded::LedgerTarget;
use crate::tui::update::Msg;
use std::sync::mpsc::Sender;

/// Starts the read on a thread of its own.
pub fn load(ctx: &Context, generation: u64, target: LedgerTarget, tx: Sender<Msg>) {
    let api_url = ctx.pr.api_url.clone();
    std::thread::spawn(move || {
        let state = read(api_url.as_deref(), &target).unwrap_or_else(|reason| LedgerState::Unknown { reason });
        let _ = tx.send(Msg::LedgerLoaded { generation, state });
    });
}

fn read(api_url: Option<&str>, target: &LedgerTarget) -> Result<LedgerState, String> {
    let repository = RepoName::parse(&target.repository).map_err(|e| e.to_string())?;
    let target = Target {
        repository,
        pull_request: target.pull_request,
        reviewed_sha: target.head.clone(),
    };
    let (runtime, config) = super::connect(api_url)?;
    runtime.block_on(async {
        let client = super::client(config)?;
        Ok(crate::github::ledger::read_ledger(&client, &target, &[]).await)
    })
}
