//! `triage thread reply|resolve|unresolve --pr N --finding FP`: act on the
//! ReviewGate review thread of a finding; `triage thread list`, `retry
//! [ID]` and `drop ID` for the actions kept after a failure.
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
use crate::github::{Client, ClientConfig};
use crate::model::load::read_input;
use crate::outbox::entry::is_entry_id;
use crate::outbox::thread_actions::{ThreadEntry, ThreadStore};
use crate::sanitize::clean_line;
use crate::session::fetch::resolve_target;
use crate::session::thread_attempt::{Attempt, attempt};
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
        ThreadCommand::List { format } => return list(*format),
        ThreadCommand::Drop { id } => return drop_kept(id),
        ThreadCommand::Retry { id, api_url, format } => return retry(id.as_deref(), api_url.as_deref(), *format),
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
        expected_head: target.head.clone(),
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

/// The kept entries, oldest first; a word on stderr about damaged files.
fn kept(store: &ThreadStore) -> anyhow::Result<Vec<ThreadEntry>> {
    let (entries, unreadable) = store.list()?;
    if unreadable > 0 {
        eprintln!("triage: {unreadable} kept thread action file(s) cannot be read; left in place");
    }
    Ok(entries)
}

/// The kept entry `id`, or a usage error naming `thread list`.
fn kept_one(store: &ThreadStore, id: &str) -> anyhow::Result<ThreadEntry> {
    let found = if is_entry_id(id) { store.get(id)? } else { None };
    found.ok_or_else(|| {
        exit::Usage(format!(
            "no kept thread action {} (see `triage thread list`)",
            clean_line(id)
        ))
        .into()
    })
}

/// `triage thread list`: one line (or JSON object) per kept action.
fn list(format: TextOrJson) -> anyhow::Result<ExitCode> {
    let store = ThreadStore::open_default()?;
    let entries = kept(&store)?;
    match format {
        TextOrJson::Json => {
            for e in &entries {
                super::out::print_json(serde_json::to_string(e)?);
            }
        }
        TextOrJson::Text if entries.is_empty() => {
            println!("no thread action is kept ({})", store.dir().display());
        }
        TextOrJson::Text => {
            for e in &entries {
                println!("{}", entry_line(e));
            }
        }
    }
    Ok(ExitCode::from(exit::OK))
}

/// One kept action on one line: id, target, head, verb, fingerprint,
/// attempts, last outcome (a reply's words are left to `--format json`).
fn entry_line(e: &ThreadEntry) -> String {
    let r = &e.request;
    // Bound to a head (from the screen or `--head`), or to none.
    let head: String = r
        .expected_head
        .as_deref()
        .map(|h| format!("@{}", h.chars().take(12).collect::<String>()))
        .unwrap_or_default();
    let last = e.last_outcome.as_deref().unwrap_or("not sent yet");
    clean_line(&format!(
        "{}  {}#{}{}  {}  {}  attempts {}  {}",
        e.id,
        r.repository,
        r.pull_request,
        head,
        r.verb.name(),
        r.fingerprint,
        e.attempts,
        last
    ))
}

/// `triage thread drop ID`.
fn drop_kept(id: &str) -> anyhow::Result<ExitCode> {
    let store = ThreadStore::open_default()?;
    let entry = kept_one(&store, id)?;
    if store.remove(&entry.id)? {
        println!("dropped {}", entry.id);
        Ok(ExitCode::from(exit::OK))
    } else {
        Err(exit::Usage(format!("no kept thread action {} (see `triage thread list`)", entry.id)).into())
    }
}

/// `triage thread retry [ID]`: that kept action, or every one, oldest first.
fn retry(id: Option<&str>, api_url: Option<&str>, format: TextOrJson) -> anyhow::Result<ExitCode> {
    let store = ThreadStore::open_default()?;
    let entries = match id {
        Some(id) => vec![kept_one(&store, id)?],
        None => kept(&store)?,
    };
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
) -> anyhow::Result<Vec<(ThreadEntry, Attempt)>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    runtime.block_on(async {
        let client = Client::new(config).map_err(|e| exit::Unreachable(e.to_string()))?;
        let mut outcomes = Vec::new();
        for entry in entries {
            let attempt = attempt(store, Ok(&client), &entry).await;
            outcomes.push((entry, attempt));
        }
        Ok(outcomes)
    })
}

/// Prints each attempt; the code of the worst (4 over 3 over 1 over 0).
fn report(outcomes: &[(ThreadEntry, Attempt)], format: TextOrJson) -> u8 {
    let mut code = exit::OK;
    for (entry, attempt) in outcomes {
        code = code.max(attempt_code(attempt));
        if let Attempt::Sent { settle: Some(e), .. } = attempt {
            eprintln!("triage: warning: {}", clean_line(&e.to_string()));
        }
        match format {
            TextOrJson::Json => super::out::print_json(attempt_json(entry, attempt)),
            TextOrJson::Text => print_text(entry, attempt),
        }
    }
    code
}

/// An attempt's exit code: as `submit`, an entry another process is
/// sending counts as not sent (4).
fn attempt_code(attempt: &Attempt) -> u8 {
    match attempt {
        Attempt::Sent {
            outcome: ThreadOutcome::Done(_),
            ..
        }
        | Attempt::Gone => exit::OK,
        Attempt::Sent {
            outcome: ThreadOutcome::Refused(_),
            ..
        } => exit::REJECTED,
        Attempt::Sent {
            outcome: ThreadOutcome::Failed { .. },
            ..
        }
        | Attempt::Busy
        | Attempt::OtherApi(_) => exit::NETWORK,
        Attempt::Store(_) => exit::INVALID,
    }
}

/// The words of an attempt another process was making.
const BUSY: &str = "another triage process is sending it right now; not sent, left kept";
/// The words of an attempt another process had just settled.
const GONE: &str = "another triage process settled it meanwhile; not sent";

/// One JSON object: the action, the fingerprint, the outcome and its words.
fn attempt_json(entry: &ThreadEntry, attempt: &Attempt) -> serde_json::Value {
    let (kind, already, url, message, kept) = match attempt {
        Attempt::Sent { outcome, .. } => {
            let (kind, already) = match outcome {
                ThreadOutcome::Done(
                    ThreadDone::Replied { already, .. }
                    | ThreadDone::Resolved { already }
                    | ThreadDone::Unresolved { already },
                ) => ("done", Some(*already)),
                ThreadOutcome::Refused(_) => ("refused", None),
                ThreadOutcome::Failed { .. } => ("failed", None),
            };
            let url = match outcome {
                ThreadOutcome::Done(ThreadDone::Replied { url, .. }) => url.as_deref().map(clean_line),
                _ => None,
            };
            let kept = matches!(outcome, ThreadOutcome::Failed { .. });
            (kind, already, url, outcome.summary(), kept)
        }
        Attempt::Busy => ("busy", None, None, BUSY.to_owned(), true),
        Attempt::Gone => ("gone", None, None, GONE.to_owned(), false),
        Attempt::OtherApi(why) => ("other_api", None, None, why.clone(), true),
        Attempt::Store(e) => ("error", None, None, format!("not sent: {e}"), true),
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
        "message": clean_line(&message),
        "kept": kept,
    })
}

fn print_text(entry: &ThreadEntry, attempt: &Attempt) {
    let r = &entry.request;
    let head = format!("{}#{} {}", r.repository, r.pull_request, clean_line(&r.fingerprint));
    let outcome = match attempt {
        Attempt::Sent { outcome, .. } => outcome,
        Attempt::Gone => return println!("{head}: {GONE}"),
        Attempt::Busy => return eprintln!("triage: {head}: {BUSY}"),
        Attempt::OtherApi(why) => return eprintln!("triage: {head}: {}", clean_line(why)),
        Attempt::Store(e) => return eprintln!("triage: {head}: not sent: {}", clean_line(&e.to_string())),
    };
    match outcome {
        ThreadOutcome::Done(_) => println!("{head}: {}", clean_line(&outcome.summary())),
        ThreadOutcome::Refused(_) => eprintln!("triage: {head}: refused: {}", clean_line(&outcome.summary())),
        ThreadOutcome::Failed { .. } => {
            eprintln!("triage: {head}: {}", clean_line(&outcome.summary()));
            eprintln!(
                "triage: the {} is kept; run the same command again or `triage thread retry {}`",
                r.verb.name(),
                entry.id
            );
        }
    }
}
