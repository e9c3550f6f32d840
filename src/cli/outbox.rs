//! `triage outbox list | retry [ID|--all] | drop ID`: the decisions kept on
//! disk until GitHub has recorded them.

use super::args::{OutboxArgs, OutboxCommand, TextOrJson};
use super::exit;
use super::submit::{Attempt, Connection, SendErrorOrSetup, report};
use crate::outbox::{Entry, Outbox};
use crate::sanitize::clean_line;
use crate::session::batch::{self, Kept};
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(args: &OutboxArgs) -> anyhow::Result<ExitCode> {
    if let OutboxCommand::List { format } = &args.command {
        // Reading only: an outbox that was never written to is empty, and
        // listing it must not create the state directory.
        let dir = crate::outbox::default_dir()?;
        return match Outbox::existing(&dir) {
            Some(outbox) => list(&outbox, *format),
            None => {
                if *format == TextOrJson::Text {
                    println!("the outbox is empty ({})", clean_line(&dir.display().to_string()));
                }
                Ok(ExitCode::from(exit::OK))
            }
        };
    }
    let outbox = Outbox::open_default()?;
    match &args.command {
        OutboxCommand::List { format } => list(&outbox, *format),
        OutboxCommand::Retry {
            id,
            all,
            supersede,
            api_url,
            format,
        } => retry(
            &outbox,
            Which {
                id: id.as_deref(),
                all: *all,
            },
            *supersede,
            api_url.as_deref(),
            *format,
        ),
        OutboxCommand::Drop { id } => drop_entry(&outbox, id),
    }
}

fn list(outbox: &Outbox, format: TextOrJson) -> anyhow::Result<ExitCode> {
    let listing = outbox.list()?;
    for (path, reason) in &listing.unreadable {
        eprintln!(
            "triage: skipped {}: {}",
            clean_line(&path.display().to_string()),
            clean_line(reason)
        );
    }
    match format {
        // JSON lines, like `list --format json`: one entry object per line.
        TextOrJson::Json => {
            for e in &listing.entries {
                super::out::print_json(serde_json::to_string(e)?);
            }
        }
        TextOrJson::Text if listing.entries.is_empty() => println!("the outbox is empty ({})", outbox.dir().display()),
        TextOrJson::Text => {
            for e in &listing.entries {
                println!("{}", entry_line(e));
            }
        }
    }
    // Thread actions are kept beside the decisions: say they are there.
    let threads = crate::outbox::thread_actions::ThreadStore::open_default()
        .and_then(|s| s.list())
        .map_or(0, |(kept, _)| kept.len());
    if threads > 0 {
        eprintln!("triage: also kept: {threads} thread action(s); see `triage thread list`");
    }
    Ok(ExitCode::from(exit::OK))
}

/// One entry on one line: id, target, status, fingerprint, attempts, last outcome.
fn entry_line(e: &Entry) -> String {
    let d = &e.draft;
    let sha: String = d.reviewed_sha.chars().take(12).collect();
    let last = e
        .last_outcome
        .as_ref()
        .map_or_else(|| "not sent yet".to_owned(), |o| o.message.clone());
    clean_line(&format!(
        "{}  {}#{}@{}  {}  {}  attempts {}  {}",
        e.id,
        d.repository,
        d.pull_request,
        sha,
        d.status.as_str(),
        d.fingerprint,
        e.attempts,
        last
    ))
}

/// Which entries a retry sends.
struct Which<'a> {
    id: Option<&'a str>,
    all: bool,
}

fn retry(
    outbox: &Outbox,
    which: Which<'_>,
    supersede: bool,
    api_url: Option<&str>,
    format: TextOrJson,
) -> anyhow::Result<ExitCode> {
    let Which { id, all } = which;
    let entries: Vec<Entry> = if all {
        outbox.list()?.entries
    } else {
        let Some(id) = id else {
            eprintln!("triage: give an entry id or --all");
            return Ok(ExitCode::from(exit::USAGE));
        };
        match outbox.get(id)? {
            Some(entry) => vec![entry],
            None => {
                eprintln!(
                    "triage: no entry {} in the outbox (see `triage outbox list`)",
                    clean_line(id)
                );
                return Ok(ExitCode::from(exit::USAGE));
            }
        }
    };
    if entries.is_empty() {
        println!("the outbox is empty: nothing to retry");
        return Ok(ExitCode::from(exit::OK));
    }
    // Every send reads the pull request's ledger before posting, so an
    // earlier attempt's or another process's comment is found, not doubled.
    let kept: Vec<Kept> = entries
        .into_iter()
        .map(|entry| Kept {
            supersede,
            ..Kept::retry(entry)
        })
        .collect();
    let connection = match Connection::open(api_url) {
        Ok(c) => c,
        Err(message) => {
            eprintln!("triage: {}", clean_line(&message));
            return Ok(ExitCode::from(exit::NETWORK));
        }
    };
    // The batch exits with the worst code its entries got, each the code
    // `submit` gives the same attempt (an entry held by another process is
    // a failure to send, 4, as it is for `submit`).
    let worst = std::cell::Cell::new(exit::OK);
    let worst_seen = &worst;
    let result = connection.block_on(|client| async move {
        Ok(batch::submit_many(&client, outbox, &kept, |entry, result| {
            let attempt = match result {
                Ok(sent) => Attempt::Sent(sent),
                Err(e) => Attempt::NotSent(e),
            };
            worst_seen.set(worse(worst_seen.get(), report(&entry.id, attempt, format)));
        })
        .await)
    });
    let summary = match result {
        Ok(summary) => summary,
        Err(SendErrorOrSetup::Setup(message)) => {
            eprintln!("triage: {}", clean_line(&message));
            return Ok(ExitCode::from(exit::NETWORK));
        }
        Err(SendErrorOrSetup::Send(e)) => return Err(e.into()),
    };
    eprintln!(
        "triage: {} recorded, {} rejected, {} failed, {} not sent",
        summary.recorded, summary.rejected, summary.failed, summary.not_sent
    );
    // Every entry is reported; were one not, the batch did not record it.
    let code = match worst.get() {
        exit::OK if !summary.all_recorded() => exit::NETWORK,
        code => code,
    };
    Ok(ExitCode::from(code))
}

/// The worse of two entries' codes: failed (4) over rejected (3) over
/// invalid (1) over recorded (0).
fn worse(a: u8, b: u8) -> u8 {
    let rank = |code: u8| match code {
        exit::NETWORK => 3,
        exit::REJECTED => 2,
        exit::OK => 0,
        _ => 1,
    };
    if rank(b) > rank(a) { b } else { a }
}

fn drop_entry(outbox: &Outbox, id: &str) -> anyhow::Result<ExitCode> {
    let kept = outbox.get(id).ok().flatten();
    let (left, posted) = kept.as_ref().map(|e| e.left_on_pull_request()).unwrap_or_default();
    if outbox.remove(id)? {
        for comment in left {
            eprintln!(
                "triage: warning: comment {comment} may still be on the pull request (its clean-up delete never finished); delete it on GitHub"
            );
        }
        if let Some(comment) = posted {
            eprintln!(
                "triage: warning: comment {comment} of an earlier attempt may be on the pull request, and ReviewGate applies it; `triage decisions` shows it, delete it on GitHub to withdraw the decision"
            );
        }
        println!("dropped {id}");
        Ok(ExitCode::from(exit::OK))
    } else {
        eprintln!(
            "triage: no entry {} in the outbox (see `triage outbox list`)",
            clean_line(id)
        );
        Ok(ExitCode::from(exit::USAGE))
    }
}
