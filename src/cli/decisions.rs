//! `triage decisions`: the decision ledger of a pull request, one line per
//! ReviewGate disposition comment, classified as ReviewGate's replay would
//! treat it (receipt, permission, none, stale, malformed), or one `unknown`
//! line with the reason when the ledger cannot be read.
//!
//! With `--pr N` the ledger is judged against the head ReviewGate reviewed
//! last (its summary comment says which; else the pull request's current
//! head); with FILE (a pull-request-scoped result), against the result's
//! reviewed head. Exit codes: 0 read, 1 invalid input, 2 usage, 4 the ledger
//! could not be read (network, token, GitHub).

use super::args::{DecisionsArgs, DecisionsFormat};
use super::common::{load_or_problem, report_invalid};
use super::exit;
use super::submit::Connection;
use crate::github::Client;
use crate::github::decide::Target;
use crate::github::route::{RepoName, Route};
use crate::github::wire::PullRequest;
use crate::model::ledger::{Ledger, LedgerState, Recorded, last_reviewed_head};
use crate::sanitize::clean_line;
use serde_json::json;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(args: &DecisionsArgs) -> anyhow::Result<ExitCode> {
    let Some(wanted) = wanted(args)? else {
        return Ok(ExitCode::from(exit::USAGE));
    };
    let connection = match Connection::open(args.pr.api_url.as_deref()) {
        Ok(c) => c,
        Err(message) => {
            let state = LedgerState::Unknown { reason: message };
            print(&state, args.format);
            return Ok(ExitCode::from(exit::NETWORK));
        }
    };
    let state = connection.run(|client| async move {
        let target = match wanted {
            Wanted::Known(target) => target,
            Wanted::Head { repository, number } => return last_reviewed(&client, repository, number).await,
        };
        crate::github::ledger::read_ledger(&client, &target, &[]).await
    });
    let state = state.unwrap_or_else(|reason| LedgerState::Unknown { reason });
    print(&state, args.format);
    Ok(ExitCode::from(match state {
        LedgerState::Known(_) => exit::OK,
        LedgerState::Unknown { .. } => exit::NETWORK,
    }))
}

/// The ledger of pull request `number`, judged against the head ReviewGate
/// reviewed last (its summary comment's state): the head its next review
/// replays the decisions against, so decisions recorded for it before a
/// push are still applied, not stale. Without a summary state, the pull
/// request's current head. The pull request and its comments are read
/// together.
async fn last_reviewed(client: &Client, repository: RepoName, number: u64) -> LedgerState {
    let pull = Route::repo(&repository, ["pulls", number.to_string().as_str()]);
    let mut target = Target {
        repository,
        pull_request: number,
        reviewed_sha: String::new(),
    };
    let (pull, comments) = tokio::join!(
        client.get_json::<PullRequest>(&pull),
        crate::github::ledger::read_comments(client, &target)
    );
    let head = match pull {
        Ok(p) => p.head.sha,
        Err(e) => {
            let reason = format!("the pull request could not be read: {e}");
            return LedgerState::Unknown { reason };
        }
    };
    let comments = match comments {
        Ok(c) => c,
        Err(e) => {
            let reason = format!("the pull request's comments could not be read: {e}");
            return LedgerState::Unknown { reason };
        }
    };
    target.reviewed_sha = match last_reviewed_head(&comments) {
        Some(last) if last != head => {
            eprintln!(
                "triage: judged against {}, the head ReviewGate reviewed last (its next review replays the decisions against it); the pull request's head is now {}",
                short(&last),
                short(&head)
            );
            last
        }
        _ => head,
    };
    match crate::github::ledger::read_with_comments(client, &target, &[], &comments).await {
        Ok(ledger) => LedgerState::Known(ledger),
        Err(e) => LedgerState::Unknown { reason: e.to_string() },
    }
}

fn short(sha: &str) -> String {
    clean_line(&sha.chars().take(12).collect::<String>())
}

/// What to read: a known head (from a result) or the pull request's head.
enum Wanted {
    Known(Target),
    Head { repository: RepoName, number: u64 },
}

fn wanted(args: &DecisionsArgs) -> anyhow::Result<Option<Wanted>> {
    if let Some(path) = &args.file {
        let name = path.display().to_string();
        let loaded = load_or_problem(path, None);
        let set = match (&loaded.set, loaded.is_valid()) {
            (Some(set), true) => set,
            _ => {
                report_invalid(&name, &loaded);
                anyhow::bail!("no ledger is read for an invalid result");
            }
        };
        return match super::recorded::target_of(set) {
            Some(Ok(target)) => Ok(Some(Wanted::Known(target))),
            Some(Err(reason)) => anyhow::bail!("{reason}"),
            None => {
                eprintln!(
                    "triage: {} is not a pull-request result with a reviewed head; give --pr N",
                    clean_line(&name)
                );
                Ok(None)
            }
        };
    }
    if args.pr.pr.is_none() {
        eprintln!("triage: give a FILE or --pr N");
        return Ok(None);
    }
    match crate::session::fetch::resolve_target(&args.pr.target()) {
        Ok((_, request)) => Ok(Some(Wanted::Head {
            repository: request.repo,
            number: request.pr,
        })),
        Err(e) => {
            eprintln!("triage: {}", clean_line(&e.to_string()));
            Ok(None)
        }
    }
}

/// One ledger entry as a JSON object (`decisions --format json`).
pub fn entry_json(ledger: &Ledger, e: &Recorded) -> serde_json::Value {
    let d = e.decision.as_ref();
    json!({
        "comment_id": e.comment_id,
        "url": ledger.url(e.comment_id),
        "fingerprint": d.map(|d| d.fingerprint.as_str()),
        "disposition": d.map(|d| d.disposition.as_str()),
        "actor": d.map(|d| d.actor.as_str()),
        "author": e.author,
        "reviewed_sha": d.map(|d| d.reviewed_sha.as_str()),
        "authorised": e.authorised.as_str(),
        "reason": e.authorised.reason(),
    })
}

fn print(state: &LedgerState, format: DecisionsFormat) {
    match (state, format) {
        (LedgerState::Unknown { reason }, DecisionsFormat::Json) => {
            super::out::print_json(json!({"authorised": "unknown", "reason": reason}));
        }
        (LedgerState::Unknown { reason }, DecisionsFormat::Table) => {
            println!("unknown: {}", clean_line(reason));
        }
        (LedgerState::Known(ledger), DecisionsFormat::Json) => {
            for e in &ledger.entries {
                super::out::print_json(entry_json(ledger, e));
            }
        }
        (LedgerState::Known(ledger), DecisionsFormat::Table) => table(ledger),
    }
}

fn table(ledger: &Ledger) {
    println!(
        "{:<12} {:<10} {:<22} {:<16} {:<12} FINGERPRINT / REASON",
        "COMMENT", "AUTHORISED", "DISPOSITION", "ACTOR", "SHA"
    );
    for e in &ledger.entries {
        let d = e.decision.as_ref();
        let sha: String = d.map_or("-".into(), |d| d.reviewed_sha.chars().take(12).collect());
        println!(
            "{:<12} {:<10} {:<22} {:<16} {:<12} {}",
            e.comment_id,
            e.authorised.as_str(),
            d.map_or("-", |d| d.disposition.as_str()),
            clean_line(d.map_or(e.author.as_deref().unwrap_or("-"), |d| d.actor.as_str())),
            clean_line(&sha),
            clean_line(d.map_or("-", |d| d.fingerprint.as_str()))
        );
        if !e.authorised.is_authorised() {
            println!("{:<12} {}", "", clean_line(&e.authorised.reason()));
        }
    }
    if ledger.entries.is_empty() {
        println!("(no disposition comments on this pull request)");
    }
}
