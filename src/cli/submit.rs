//! `triage submit`: record a decision on GitHub (ReviewGate) through the
//! outbox, or hand River results to `submit_river`.
//!
//! Order: local checks (no network) → outbox (on disk) → token and client →
//! the protocol (which reads the pull request's ledger before posting) →
//! settle the outbox entry → print the outcome. Exit codes: 0 recorded or
//! already recorded, 1 invalid input, 2 usage, 3 rejected (including a
//! different decision already recorded on this head, without `--supersede`),
//! 4 GitHub/network failure (the decision stays in the outbox).

use super::args::{SubmitArgs, TextOrJson};
use super::common::report_invalid;
use super::exit;
use crate::github::draft::{Draft, LocalProblem, parse_status};
use crate::github::protocol::Outcome;
use crate::github::{Client, ClientConfig};
use crate::model::load::{load_path, read_input, read_input_within};
use crate::model::review::Format;
use crate::outbox::Outbox;
use crate::sanitize::clean_line;
use crate::session::batch::{self, SendError, Sent};
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(args: &SubmitArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.payload {
        return run_payload(args, path);
    }
    let Some(result) = &args.result else {
        eprintln!(
            "triage: give --payload FILE, or --result FILE --finding FINGERPRINT --status STATUS --evidence TEXT"
        );
        return Ok(code(exit::USAGE));
    };
    let loaded = load_path(result, None)?;
    let set = match (&loaded.set, loaded.is_valid()) {
        (Some(set), true) => set,
        _ => {
            report_invalid(&result.display().to_string(), &loaded);
            eprintln!("triage: nothing is submitted from an invalid result");
            return Ok(code(exit::INVALID));
        }
    };
    if matches!(set.format, Format::RiverArtifact | Format::RiverRun) {
        return super::submit_river::run(args, set);
    }
    let (Some(fingerprint), Some(status)) = (&args.finding, &args.status) else {
        eprintln!("triage: --finding and --status are required with --result");
        return Ok(code(exit::USAGE));
    };
    let Some(evidence) = read_evidence(args)? else {
        eprintln!("triage: give the evidence with --evidence TEXT or --evidence-file PATH");
        return Ok(code(exit::USAGE));
    };
    let status = match parse_status(status) {
        Ok(s) => s,
        Err(p) => return Ok(invalid(&[p])),
    };
    let draft = match Draft::for_finding(set, fingerprint, status, &evidence) {
        Ok(d) => d,
        Err(problems) => return Ok(invalid(&problems)),
    };
    if args.dry_run {
        return preview(&draft, args.format);
    }
    record(draft, Some(result.display().to_string()), &Sending::of(args))
}

/// How `record` sends.
struct Sending<'a> {
    api_url: Option<&'a str>,
    format: TextOrJson,
    supersede: bool,
}

impl<'a> Sending<'a> {
    fn of(args: &'a SubmitArgs) -> Sending<'a> {
        Sending {
            api_url: args.api_url.as_deref(),
            format: args.format,
            supersede: args.supersede,
        }
    }
}

/// `--payload FILE`: a ready payload; its actor must be the authenticated user.
fn run_payload(args: &SubmitArgs, path: &Path) -> anyhow::Result<ExitCode> {
    let draft = match read_payload(path)? {
        Ok(draft) => draft,
        Err(lines) => {
            eprintln!(
                "triage: {} is not a valid disposition payload:",
                clean_line(&path.display().to_string())
            );
            for line in lines {
                eprintln!("  {}", clean_line(&line));
            }
            return Ok(code(exit::INVALID));
        }
    };
    let sendable = draft.clone().check();
    if args.dry_run {
        // A valid payload always previews (D7: the repository's shape is not a
        // validity rule); what would stop a real submission is said beside it.
        if let Err(problems) = &sendable {
            eprintln!("triage: note: the payload is valid, but a real submission would be refused:");
            for p in problems {
                eprintln!("  {}", clean_line(&p.to_string()));
            }
        }
        return preview(&draft, args.format);
    }
    if let Err(problems) = sendable {
        return Ok(invalid(&problems));
    }
    record(draft, Some(path.display().to_string()), &Sending::of(args))
}

/// The most bytes of a payload `submit --payload` reads.
const POSTED_PAYLOAD_MAX_BYTES: usize = 1024 * 1024;

/// Reads and validates a payload file (strict JSON, D1–D6).
fn read_payload(path: &Path) -> anyhow::Result<Result<Draft, Vec<String>>> {
    use crate::model::json::{ReadLimits, read_strict};
    // Reading stops one byte past the cap, so an oversize payload (from a
    // file or standard input) is refused without being read whole. The
    // payload's verdict has no size rule, but what is posted must fit one
    // GitHub comment (65,536 characters), far below this cap.
    let max_bytes = POSTED_PAYLOAD_MAX_BYTES;
    let bytes = read_input_within(path, max_bytes)?;
    let limits = ReadLimits {
        max_bytes,
        ..ReadLimits::default()
    };
    let value = match read_strict(&bytes, &limits) {
        Ok(v) => v,
        Err(p) => return Ok(Err(vec![p.to_string()])),
    };
    match crate::model::disposition::validate_payload(&value) {
        Ok(payload) => Ok(Ok(Draft::from_payload(&payload))),
        Err(problems) => Ok(Err(problems.iter().map(ToString::to_string).collect())),
    }
}

/// The evidence from `--evidence` or `--evidence-file` (exact bytes, UTF-8).
fn read_evidence(args: &SubmitArgs) -> anyhow::Result<Option<String>> {
    if let Some(text) = &args.evidence {
        return Ok(Some(text.clone()));
    }
    let Some(path) = &args.evidence_file else {
        return Ok(None);
    };
    let bytes = read_input(path)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Some(text)),
        Err(_) => anyhow::bail!("{} is not UTF-8 text", path.display()),
    }
}

fn invalid(problems: &[LocalProblem]) -> ExitCode {
    for p in problems {
        eprintln!("triage: {}", clean_line(&p.to_string()));
    }
    eprintln!("triage: nothing was sent");
    code(exit::INVALID)
}

/// `--dry-run`: the exact body and receipt, no network, no file written.
fn preview(draft: &Draft, format: TextOrJson) -> anyhow::Result<ExitCode> {
    let (actor, actor_note) = match (&draft.actor, std::env::var("TRIAGE_ACTOR")) {
        (Some(actor), _) => (actor.clone(), "the payload's actor"),
        (None, Ok(actor)) if !actor.trim().is_empty() => (
            actor,
            "taken from TRIAGE_ACTOR; a real submission uses the authenticated login",
        ),
        _ => (
            "dry-run".to_owned(),
            "a placeholder; a real submission uses the authenticated login (set TRIAGE_ACTOR to preview it)",
        ),
    };
    let payload = draft.payload(&actor);
    let body = crate::model::disposition::comment_body(&payload);
    let receipt = crate::model::disposition::receipt_digest(&body);
    match format {
        TextOrJson::Json => {
            eprintln!("triage: dry run; the actor is {actor_note}");
            let payload_json = serde_json::to_value(&payload)?;
            super::out::print_json(json!({ "body": body, "receipt": receipt, "payload": payload_json }));
        }
        TextOrJson::Text => {
            let canonical = String::from_utf8_lossy(&payload.canonical_bytes()).into_owned();
            println!("Dry run: nothing is sent and nothing is written.");
            println!("Actor: {} ({actor_note})", clean_line(&actor));
            println!("Receipt: {receipt}");
            println!("Payload: {}", clean_line(&canonical));
            println!("Comment body:");
            for line in crate::sanitize::clean_lines(&body, 4) {
                println!("  {line}");
            }
        }
    }
    Ok(code(exit::OK))
}

/// Keeps the draft in the outbox, then sends it and prints the outcome.
fn record(draft: Draft, source: Option<String>, how: &Sending<'_>) -> anyhow::Result<ExitCode> {
    let outbox = Outbox::open_default()?;
    let mut kept = batch::keep(&outbox, draft, source)?;
    kept.supersede = how.supersede;
    if kept.was_kept_before {
        eprintln!(
            "triage: this decision was already kept as {}; what the pull request already holds is checked first",
            kept.entry.id
        );
    }
    let (entry, options) = (&kept.entry, kept.options());
    let (api_url, format) = (how.api_url, how.format);
    let result = match Connection::open(api_url) {
        Ok(connection) => {
            connection.block_on(|client| async move { batch::send_entry(&client, &outbox, entry, options).await })
        }
        Err(message) => {
            eprintln!("triage: {}", clean_line(&message));
            eprintln!(
                "triage: the decision is kept in the outbox as {} (`triage outbox retry {}`)",
                kept.entry.id, kept.entry.id
            );
            return Ok(code(exit::NETWORK));
        }
    };
    Ok(code(report(&kept.entry.id, Attempt::of(&result), format)))
}

/// A runtime, API base and token, ready to build a client inside the runtime.
pub(super) struct Connection {
    runtime: tokio::runtime::Runtime,
    config: ClientConfig,
}

impl Connection {
    /// Finds the API base and the token. `Err` is a message for the user.
    pub(super) fn open(api_url: Option<&str>) -> Result<Connection, String> {
        let config = ClientConfig::discover(api_url).map_err(|e| e.to_string())?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the network runtime: {e}"))?;
        Ok(Connection { runtime, config })
    }

    /// Builds the client inside the runtime and runs `work` with it. A
    /// client that cannot be built fails every send the same way.
    pub(super) fn block_on<T, F, Fut>(self, work: F) -> Result<T, SendErrorOrSetup>
    where
        F: FnOnce(Client) -> Fut,
        Fut: std::future::Future<Output = Result<T, SendError>>,
    {
        let config = self.config;
        self.runtime.block_on(async move {
            let client = Client::new(config).map_err(|e| SendErrorOrSetup::Setup(e.to_string()))?;
            let watch = client.clone();
            let done = work(client).await.map_err(SendErrorOrSetup::Send);
            notice_low_rate(&watch);
            done
        })
    }
}

impl Connection {
    /// Builds the client inside the runtime and runs `work` with it; `Err`
    /// is why no client could be built.
    pub(super) fn run<T, F, Fut>(self, work: F) -> Result<T, String>
    where
        F: FnOnce(Client) -> Fut,
        Fut: std::future::Future<Output = T>,
    {
        let config = self.config;
        self.runtime.block_on(async move {
            let client = Client::new(config).map_err(|e| e.to_string())?;
            let watch = client.clone();
            let done = work(client).await;
            notice_low_rate(&watch);
            Ok(done)
        })
    }
}

/// A line on stderr when GitHub's rate limit runs low.
fn notice_low_rate(client: &Client) {
    if let Some(notice) = crate::session::rate::rate_notice(client.rate_remaining()) {
        eprintln!("triage: {notice}");
    }
}

/// A send that did not happen: the client could not be built, or the entry could not be sent.
#[derive(Debug)]
pub(super) enum SendErrorOrSetup {
    Setup(String),
    Send(SendError),
}

/// One attempt as the command line shows it.
pub(super) enum Attempt<'a> {
    /// The protocol ran.
    Sent(&'a Sent),
    /// The entry was not sent (invalid draft, busy or unreadable outbox).
    NotSent(&'a SendError),
    /// No client could be built.
    NoClient(&'a str),
}

impl<'a> Attempt<'a> {
    /// Views a send result.
    pub(super) fn of(result: &'a Result<Sent, SendErrorOrSetup>) -> Attempt<'a> {
        match result {
            Ok(sent) => Attempt::Sent(sent),
            Err(SendErrorOrSetup::Send(e)) => Attempt::NotSent(e),
            Err(SendErrorOrSetup::Setup(m)) => Attempt::NoClient(m),
        }
    }
}

/// Prints one attempt (JSON: one object per line) and returns its exit code.
pub(super) fn report(id: &str, attempt: Attempt<'_>, format: TextOrJson) -> u8 {
    let (value, exit_code) = match attempt {
        Attempt::Sent(sent) => {
            if let Some(e) = &sent.settle_error {
                eprintln!("triage: warning: {}", clean_line(&e.to_string()));
            }
            (outcome_json(id, &sent.outcome), outcome_code(&sent.outcome))
        }
        Attempt::NoClient(message) => (
            json!({"outbox_id": id, "outcome": "failed", "error": message}),
            exit::NETWORK,
        ),
        Attempt::NotSent(SendError::Invalid(p)) => {
            let text: Vec<String> = p.iter().map(ToString::to_string).collect();
            (
                json!({"outbox_id": id, "outcome": "invalid", "error": text.join("; ")}),
                exit::INVALID,
            )
        }
        Attempt::NotSent(SendError::Outbox(e)) => {
            let busy = matches!(e, crate::outbox::OutboxError::Busy { .. });
            (
                json!({"outbox_id": id, "outcome": if busy { "busy" } else { "not_sent" }, "error": e.to_string()}),
                exit::NETWORK,
            )
        }
        Attempt::NotSent(e @ SendError::Gone { .. }) => (
            json!({"outbox_id": id, "outcome": "settled_elsewhere", "error": e.to_string()}),
            exit::NETWORK,
        ),
        Attempt::NotSent(e @ SendError::OtherApi { .. }) => (
            json!({"outbox_id": id, "outcome": "other_api", "error": e.to_string()}),
            exit::NETWORK,
        ),
    };
    match format {
        TextOrJson::Json => super::out::print_json(&value),
        TextOrJson::Text => print_text(&value),
    }
    exit_code
}

fn outcome_code(outcome: &Outcome) -> u8 {
    match outcome {
        Outcome::Recorded(_) => exit::OK,
        Outcome::Rejected { .. } => exit::REJECTED,
        Outcome::Failed { .. } => exit::NETWORK,
    }
}

/// The machine-readable form of an outcome.
pub(super) fn outcome_json(id: &str, outcome: &Outcome) -> serde_json::Value {
    match outcome {
        Outcome::Recorded(r) => json!({
            "outbox_id": id, "outcome": "recorded", "comment_id": r.comment_id, "url": r.url,
            "fingerprint": r.fingerprint, "disposition": r.disposition.as_str(), "actor": r.actor,
            "receipt": r.digest, "reused_comment": r.reused, "already_recorded": r.already_recorded,
        }),
        Outcome::Rejected {
            reason,
            comment_removed,
            comment_left,
        } => {
            let recorded = match reason {
                crate::github::decide::Rejection::AlreadyDecided { comment_id, .. } => Some(*comment_id),
                _ => None,
            };
            json!({
                "outbox_id": id, "outcome": "rejected", "reason": reason.to_string(),
                "comment_removed": comment_removed, "comment_left": comment_left,
                "already_decided_comment_id": recorded,
            })
        }
        Outcome::Failed {
            step,
            error,
            comment_left,
        } => json!({
            "outbox_id": id, "outcome": "failed", "step": step.as_str(), "error": error.to_string(), "comment_left": comment_left,
        }),
    }
}

fn print_text(value: &serde_json::Value) {
    let field = |k: &str| {
        value
            .get(k)
            .and_then(|v| v.as_str())
            .map(clean_line)
            .unwrap_or_default()
    };
    let id = field("outbox_id");
    let number = |k: &str| value.get(k).and_then(|v| v.as_u64());
    match field("outcome").as_str() {
        "recorded" if value.get("already_recorded").and_then(|v| v.as_bool()) == Some(true) => println!(
            "already recorded (comment {}): {} as {}: {}",
            number("comment_id").unwrap_or_default(),
            field("fingerprint"),
            field("disposition"),
            field("url")
        ),
        "recorded" => println!(
            "recorded {} as {}: {}",
            field("fingerprint"),
            field("disposition"),
            field("url")
        ),
        "rejected" => {
            let removed = value.get("comment_removed").and_then(|v| v.as_bool()) == Some(true);
            let tail = if removed {
                " (the posted comment was removed)"
            } else {
                ""
            };
            println!("rejected: {}{tail}", field("reason"));
            if let Some(left) = number("comment_left") {
                println!(
                    "comment {left} could not be removed from the pull request; `triage outbox retry {id}` removes it"
                );
                println!("the decision stays in the outbox as {id}");
            } else if number("already_decided_comment_id").is_some() {
                println!(
                    "the decision stays in the outbox as {id} (`triage outbox retry --supersede {id}` records it over the other one, `triage outbox drop {id}` discards it)"
                );
            } else {
                println!("the decision stays in the outbox as {id} (`triage outbox drop {id}` to discard it)");
            }
        }
        "busy" => {
            println!("not sent: {}", field("error"));
            println!(
                "that process holds outbox entry {id} and settles it (it leaves the outbox once recorded); see `triage outbox list`"
            );
        }
        "settled_elsewhere" => println!("not sent: {}", field("error")),
        other => {
            let step = field("step");
            let during = if step.is_empty() {
                String::new()
            } else {
                format!(" while {step}")
            };
            println!("{other}{during}: {}", field("error"));
            if let Some(left) = number("comment_left") {
                println!("comment {left} may be on the pull request; `triage outbox retry {id}` settles it");
            }
            println!("the decision stays in the outbox as {id} (`triage outbox retry {id}`)");
        }
    }
}

fn code(c: u8) -> ExitCode {
    ExitCode::from(c)
}
