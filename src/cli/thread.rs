//! `triage thread reply|resolve|unresolve --pr N --finding FP`: act on the
//! ReviewGate review thread of a finding, and `triage thread retry`.
//!
//! Each action is kept on disk (`outbox/threads/`) before the first request
//! and removed once done or refused; a failed one stays and is sent again by
//! running the same command or `triage thread retry`. A reply whose earlier
//! attempt landed is found by its body and not posted twice.
//!
//! Exit codes ([`super::exit`]): 0 done (also "already so"), 1 the reply
//! failed its local checks or its file cannot be read, 2 usage, 3 refused
//! (closed pull request, no such thread, GitHub refused the mutation), 4
//! GitHub, network or token failure (the action stays kept).

use super::args::{TextOrJson, ThreadArgs, ThreadCommand, ThreadTarget};
use super::exit;
use crate::github::thread_action::{ThreadDone, ThreadOutcome, ThreadRequest, ThreadVerb};
use crate::github::thread_send::send_thread_action;
use crate::github::{Client, ClientConfig};
use crate::model::load::read_input;
use crate::outbox::thread_actions::{ThreadEntry, ThreadStore};
use crate::sanitize::clean_line;
use crate::session::fetch::resolve_target;
use anyhow::Context as _;
use serde_json::json;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(args: &ThreadArgs) -> anyhow::Result<ExitCode> {
    let (target, verb) = match &args.command {
        ThreadCommand::Reply {
            target,
            body,
            body_file,
        } => {
            let body = match (body, body_file) {
                (Some(text), _) => text.clone(),
                (None, Some(path)) => reply_from_file(path)?,
                (None, None) => return Err(exit::Usage("give --body TEXT or --body-file FILE".into()).into()),
            };
            (target, ThreadVerb::Reply { body })
        }
        ThreadCommand::Resolve { target } => (target, ThreadVerb::Resolve),
        ThreadCommand::Unresolve { target } => (target, ThreadVerb::Unresolve),
        ThreadCommand::Retry { api_url, format } => return retry(api_url.as_deref(), *format),
    };
    act(target, verb)
}

fn reply_from_file(path: &std::path::Path) -> anyhow::Result<String> {
    let bytes = read_input(path).with_context(|| format!("cannot read the reply from {}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("the reply in {} is not UTF-8 text", path.display()))
}

fn act(target: &ThreadTarget, verb: ThreadVerb) -> anyhow::Result<ExitCode> {
    let (_, request) = resolve_target(&target.pr.target())?;
    let request = ThreadRequest {
        repository: request.repo.to_string(),
        pull_request: request.pr,
        fingerprint: target.finding.clone(),
        expected_head: None,
        verb,
    };
    if let Err(problem) = request.check() {
        eprintln!("triage: {} not sent: {problem}", request.verb.name());
        return Ok(ExitCode::from(exit::INVALID));
    }
    let store = ThreadStore::open_default()?;
    let entry = store.keep(request)?;
    if entry.attempts > 0 {
        eprintln!(
            "triage: this {} was kept after {} failed attempt(s); an earlier reply is looked for before posting",
            entry.request.verb.name(),
            entry.attempts
        );
    }
    let config = ClientConfig::discover(target.pr.api_url.as_deref())?;
    let outcomes = send_all(config, &store, vec![entry])?;
    Ok(ExitCode::from(report(&outcomes, target.format)))
}

/// `triage thread retry`: every kept action, oldest first.
fn retry(api_url: Option<&str>, format: TextOrJson) -> anyhow::Result<ExitCode> {
    let store = ThreadStore::open_default()?;
    let (entries, unreadable) = store.list()?;
    if unreadable > 0 {
        eprintln!("triage: {unreadable} kept thread action file(s) cannot be read; left in place");
    }
    if entries.is_empty() {
        eprintln!("triage: no thread action is kept");
        return Ok(ExitCode::from(exit::OK));
    }
    let config = ClientConfig::discover(api_url)?;
    let outcomes = send_all(config, &store, entries)?;
    Ok(ExitCode::from(report(&outcomes, format)))
}

fn send_all(
    config: ClientConfig,
    store: &ThreadStore,
    entries: Vec<ThreadEntry>,
) -> anyhow::Result<Vec<(ThreadEntry, ThreadOutcome)>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    runtime.block_on(async {
        let client = Client::new(config).map_err(|e| exit::Unreachable(e.to_string()))?;
        let mut outcomes = Vec::new();
        for entry in entries {
            let outcome = send_thread_action(&client, &entry.request).await;
            if let Err(e) = store.settle(&entry, &outcome) {
                eprintln!("triage: warning: {}", clean_line(&e.to_string()));
            }
            outcomes.push((entry, outcome));
        }
        Ok(outcomes)
    })
}

/// Prints each outcome; the code of the worst (4 over 3 over 0).
fn report(outcomes: &[(ThreadEntry, ThreadOutcome)], format: TextOrJson) -> u8 {
    let mut code = exit::OK;
    for (entry, outcome) in outcomes {
        let this = outcome_code(outcome);
        code = code.max(this);
        let value = outcome_json(entry, outcome);
        match format {
            TextOrJson::Json => super::out::print_json(&value),
            TextOrJson::Text => print_text(entry, outcome),
        }
    }
    code
}

fn outcome_code(outcome: &ThreadOutcome) -> u8 {
    match outcome {
        ThreadOutcome::Done(_) => exit::OK,
        ThreadOutcome::Refused(_) => exit::REJECTED,
        ThreadOutcome::Failed { .. } => exit::NETWORK,
    }
}

/// One JSON object: the action, the fingerprint, the outcome and its words.
pub fn outcome_json(entry: &ThreadEntry, outcome: &ThreadOutcome) -> serde_json::Value {
    let (kind, already) = match outcome {
        ThreadOutcome::Done(
            ThreadDone::Replied { already, .. } | ThreadDone::Resolved { already } | ThreadDone::Unresolved { already },
        ) => ("done", Some(*already)),
        ThreadOutcome::Refused(_) => ("refused", None),
        ThreadOutcome::Failed { .. } => ("failed", None),
    };
    let url = match outcome {
        ThreadOutcome::Done(ThreadDone::Replied { url, .. }) => url.as_deref().map(clean_line),
        _ => None,
    };
    json!({
        "outbox_id": entry.id,
        "action": entry.request.verb.name(),
        "repository": entry.request.repository,
        "pull_request": entry.request.pull_request,
        "fingerprint": entry.request.fingerprint,
        "outcome": kind,
        "already": already,
        "url": url,
        "message": clean_line(&outcome.summary()),
        "kept": matches!(outcome, ThreadOutcome::Failed { .. }),
    })
}

fn print_text(entry: &ThreadEntry, outcome: &ThreadOutcome) {
    let r = &entry.request;
    let head = format!("{}#{} {}", r.repository, r.pull_request, clean_line(&r.fingerprint));
    match outcome {
        ThreadOutcome::Done(_) => println!("{head}: {}", clean_line(&outcome.summary())),
        ThreadOutcome::Refused(_) => eprintln!("triage: {head}: refused: {}", clean_line(&outcome.summary())),
        ThreadOutcome::Failed { .. } => {
            eprintln!("triage: {head}: {}", clean_line(&outcome.summary()));
            eprintln!(
                "triage: the {} is kept; run the same command again or `triage thread retry`",
                r.verb.name()
            );
        }
    }
}
