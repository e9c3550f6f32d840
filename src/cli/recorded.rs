//! The recorded decisions of a pull-request result, for the headless
//! commands: the ledger of its pull request judged against its reviewed
//! head, and the `recorded_*` members `list --format json` adds per finding.

use super::submit::Connection;
use crate::github::decide::Target;
use crate::github::route::RepoName;
use crate::model::ledger::{Ledger, LedgerState};
use crate::model::review::{ReviewSet, Scope};
use serde_json::{Value, json};

/// What is known about a result's recorded decisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// A local result (or one without a reviewed head): nothing can be recorded.
    NotApplicable,
    /// A pull-request result: its ledger (or why it is unknown).
    Ledger(LedgerState),
}

/// The pull request and head a result's decisions target, if any.
pub fn target_of(set: &ReviewSet) -> Option<Result<Target, String>> {
    let (
        Scope::PullRequest {
            repository,
            pull_request_number,
        },
        Some(sha),
    ) = (&set.scope, &set.reviewed_sha)
    else {
        return None;
    };
    Some(
        RepoName::parse(repository)
            .map(|repository| Target {
                repository,
                pull_request: *pull_request_number,
                reviewed_sha: sha.clone(),
            })
            .map_err(|e| format!("the result's repository cannot be used: {e}")),
    )
}

/// Reads the ledger for `set` (its own runtime; no token means unknown).
pub fn read_for(set: &ReviewSet, api_url: Option<&str>) -> Recorded {
    let target = match target_of(set) {
        None => return Recorded::NotApplicable,
        Some(Err(reason)) => return Recorded::Ledger(LedgerState::Unknown { reason }),
        Some(Ok(t)) => t,
    };
    let state = match Connection::open(api_url) {
        Ok(c) => c
            .run(|client| async move { crate::github::ledger::read_ledger(&client, &target, &[]).await })
            .unwrap_or_else(|reason| LedgerState::Unknown { reason }),
        Err(reason) => LedgerState::Unknown { reason },
    };
    Recorded::Ledger(state)
}

/// `recorded_disposition`, `recorded_by`, `recorded_comment_id`,
/// `recorded_authorised` for one finding: null when nothing is recorded,
/// `recorded_authorised: "unknown"` when the ledger could not be read.
pub fn fields(recorded: &Recorded, fingerprint: &str) -> [(&'static str, Value); 4] {
    let none = |authorised: Value| {
        [
            ("recorded_disposition", Value::Null),
            ("recorded_by", Value::Null),
            ("recorded_comment_id", Value::Null),
            ("recorded_authorised", authorised),
        ]
    };
    let ledger: &Ledger = match recorded {
        Recorded::NotApplicable => return none(Value::Null),
        Recorded::Ledger(LedgerState::Unknown { .. }) => return none(json!("unknown")),
        Recorded::Ledger(LedgerState::Known(l)) => l,
    };
    match ledger.latest(fingerprint) {
        None => none(Value::Null),
        Some(e) => [
            (
                "recorded_disposition",
                json!(e.decision.as_ref().map(|d| d.disposition.as_str())),
            ),
            ("recorded_by", json!(e.author)),
            ("recorded_comment_id", json!(e.comment_id)),
            ("recorded_authorised", json!(e.authorised.as_str())),
        ],
    }
}
