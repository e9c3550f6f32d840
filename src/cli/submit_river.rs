//! `triage submit --result RIVER_FILE --finding FP --status S --evidence TEXT`:
//! record a decision on a River Review finding in River Review's own files
//! (`.river/feedback/` and `.river/memory/index.json`), or revoke its
//! suppression with `--undo`.
//!
//! The caller ([`super::submit`]) loads the result and passes only a valid
//! River review set. Output says what was written (files and entry ids) or
//! why no suppression was, and every reason River Review's gate will not
//! apply the suppression (changed files, configuration, expiry, phase, the
//! release line: [`crate::river_store::gate`]); the decision is still written.
//! `--format json` prints one JSON object (the reasons under `warnings`).
//! Exit codes: 0 recorded, 1 a local check failed (nothing written), 2 usage.

use super::args::{SubmitArgs, TextOrJson};
use super::exit;
use crate::model::load::read_input;
use crate::model::review::ReviewSet;
use crate::river_store::config;
use crate::river_store::decide::{is_fingerprint, suppression_for};
use crate::river_store::gate::{GateInput, GateWarning, warnings};
use crate::river_store::lifecycle::{FindingIds, describe_all, expiry_millis};
use crate::river_store::root::{RootSource, resolve_root};
use crate::river_store::store::existing;
use crate::river_store::{
    DecisionInput, DecisionStatus, FindingFacts, FingerprintAlgo, Note, Recorded, Revoked, RiverPaths, StoreError,
    record, revoke,
};
use crate::sanitize::clean_line;
use crate::time::{UnixMillis, iso_millis, now_millis};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::ExitCode;

/// The longest evidence accepted, in bytes.
pub const MAX_EVIDENCE_BYTES: usize = crate::session::RIVER_MAX_EVIDENCE_BYTES;

/// Author recorded when neither `--author` nor `$USER` gives one.
const DEFAULT_AUTHOR: &str = "triage";

/// Runs the River part of `triage submit` on a loaded, valid River review set.
pub fn run(args: &SubmitArgs, set: &ReviewSet) -> anyhow::Result<ExitCode> {
    let Some(fingerprint) = args.finding.as_deref() else {
        return Ok(usage("--finding FINGERPRINT is required"));
    };
    let evidence = match read_evidence(args) {
        Ok(e) => e,
        Err(message) => return Ok(fail(args.format, &message, exit::USAGE)),
    };
    if let Some(placeholder) = crate::model::placeholder::unfilled(&evidence).filter(|_| !args.undo) {
        let message = format!(
            "the evidence still holds the template placeholder {placeholder}; replace it with the fact it asks for"
        );
        return Ok(fail(args.format, &message, exit::INVALID));
    }
    let author = args
        .author
        .clone()
        .or_else(|| std::env::var("USER").ok())
        .filter(|a| !a.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_AUTHOR.to_owned());
    let note = Note {
        evidence: &evidence,
        author: &author,
        pr: args.river_pr,
    };
    if args.undo {
        if !is_fingerprint(fingerprint) {
            return Ok(store_failed(
                args.format,
                &StoreError::BadFingerprint(fingerprint.to_owned()),
            ));
        }
        let artifact_root = set.river.as_ref().and_then(|r| r.repo_root.as_deref());
        let (root, source) = match root_for(args, artifact_root) {
            Ok(r) => r,
            Err(e) => return Ok(store_failed(args.format, &e)),
        };
        // The finding's v2 values, and the given value itself should it be one.
        let mut v2 = FindingFacts::from_set(set, fingerprint)
            .map(|f| f.v2_all)
            .unwrap_or_default();
        v2.push(fingerprint.to_owned());
        let ids = FindingIds {
            v1: fingerprint,
            v2: &v2,
        };
        return Ok(
            match revoke(&RiverPaths::new(&root), &ids, &note, now_millis(), args.dry_run) {
                Ok(revoked) => print_revoked(args.format, &root, source, fingerprint, &revoked),
                Err(e) => store_failed(args.format, &e),
            },
        );
    }
    let algo = FingerprintAlgo::parse(&args.fingerprint_algo).unwrap_or_default();
    let expires = match args.expires.as_deref().map(parse_expiry).transpose() {
        Ok(e) => e,
        Err(message) => return Ok(fail(args.format, &message, exit::USAGE)),
    };
    let Some(status_name) = args.status.as_deref() else {
        return Ok(usage("--status is required (or --undo)"));
    };
    let Some(status) = DecisionStatus::parse(status_name) else {
        let names: Vec<_> = DecisionStatus::ALL.iter().map(|s| s.as_str()).collect();
        let message = format!(
            "`{}` is not a River decision status; use one of: {}",
            status_name,
            names.join(", ")
        );
        return Ok(fail(args.format, &message, exit::USAGE));
    };
    if args.line.is_some() && algo != FingerprintAlgo::V2 {
        return Ok(usage(
            "--line goes with --fingerprint-algo v2 (a v1 suppression is for every line)",
        ));
    }
    // A v2 suppression anchors one occurrence: the one at --line.
    let facts = match algo {
        FingerprintAlgo::V2 => FindingFacts::at_line(set, fingerprint, args.line.map(|l| l.to_string()).as_deref()),
        FingerprintAlgo::V1 => FindingFacts::from_set(set, fingerprint),
    };
    let facts = match facts {
        Ok(f) => f,
        Err(e) => return Ok(store_failed(args.format, &e)),
    };
    let (root, source) = match root_for(args, facts.repo_root.as_deref()) {
        Ok(r) => r,
        Err(e) => return Ok(store_failed(args.format, &e)),
    };
    let input = DecisionInput {
        status,
        note,
        suppress: !args.no_suppress,
        algo,
        expires_at: expires.as_ref().map(|(iso, _)| iso.as_str()),
    };
    let now = now_millis();
    let paths = RiverPaths::new(&root);
    let before = Before {
        gate: gate_warnings(&root, &facts, &input, now),
        existing: existing(&paths, &facts.ids())
            .map(|views| describe_all(&views, now, &facts.gate_run()))
            .unwrap_or_default(),
    };
    Ok(match record(&paths, &facts, &input, now, args.dry_run) {
        Ok(recorded) => print_recorded(args.format, &root, source, status, &recorded, &before),
        Err(e) => store_failed(args.format, &e),
    })
}

/// What is known before writing: River's gate warnings for the suppression
/// about to be written, and the finding's suppressions already recorded.
struct Before {
    gate: Vec<GateWarning>,
    existing: Vec<String>,
}

/// `--expires` as River stores it (`toISOString` form) and in Unix ms: an
/// RFC 3339 date-time as River's validator accepts it, or `YYYY-MM-DD`.
pub fn parse_expiry(text: &str) -> Result<(String, UnixMillis), String> {
    let ms = expiry_millis(text.trim()).ok_or_else(|| {
        format!(
            "--expires `{}` is not a date-time River reads (e.g. 2027-01-01T00:00:00Z or 2027-01-01)",
            text.escape_debug()
        )
    })?;
    if !(0..=253_402_300_799_999).contains(&ms) {
        return Err(format!(
            "--expires `{}` is outside the years 1970..=9999",
            text.escape_debug()
        ));
    }
    Ok((iso_millis(ms), ms))
}

/// Why River's gate will not apply the suppression this decision writes
/// (none when it writes none).
fn gate_warnings(
    root: &std::path::Path,
    facts: &FindingFacts,
    input: &DecisionInput<'_>,
    now: UnixMillis,
) -> Vec<GateWarning> {
    let Ok((_, s)) = suppression_for(facts, input) else {
        return Vec::new();
    };
    let setting = config::read(root, config::user_home().as_deref());
    warnings(&GateInput {
        file: s.file,
        phase: s.phase,
        changed_files: &facts.changed_files,
        setting: &setting,
        algo: s.algo,
        expires_at: s.expires_at,
        now,
    })
}

fn root_for(args: &SubmitArgs, artifact_root: Option<&str>) -> Result<(PathBuf, RootSource), StoreError> {
    let cwd =
        std::env::current_dir().map_err(|e| StoreError::RepoRoot(format!("cannot read the current directory: {e}")))?;
    resolve_root(args.repo_root.as_deref(), artifact_root, &cwd)
}

/// The evidence text (`--evidence` or `--evidence-file`, `-` = stdin); empty
/// when neither is given (a decision then fails its evidence check).
fn read_evidence(args: &SubmitArgs) -> Result<String, String> {
    let text = match (&args.evidence, &args.evidence_file) {
        (Some(text), _) => text.clone(),
        (None, Some(path)) => {
            let bytes = read_input(path).map_err(|e| e.to_string())?;
            String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", path.display()))?
        }
        (None, None) => String::new(),
    };
    if text.len() > MAX_EVIDENCE_BYTES {
        return Err(format!("the evidence is longer than {MAX_EVIDENCE_BYTES} bytes"));
    }
    Ok(text)
}

fn usage(message: &str) -> ExitCode {
    eprintln!("triage: {}", clean_line(message));
    ExitCode::from(exit::USAGE)
}

/// Reports a failure (stderr; also one JSON object on stdout with `--format json`).
fn fail(format: TextOrJson, message: &str, code: u8) -> ExitCode {
    if format == TextOrJson::Json {
        super::out::print_json(json!({ "recorded": false, "error": message }));
    }
    eprintln!("triage: {}", clean_line(message));
    ExitCode::from(code)
}

fn store_failed(format: TextOrJson, err: &StoreError) -> ExitCode {
    fail(format, &err.to_string(), exit::INVALID)
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Prints what a decision wrote.
fn print_recorded(
    format: TextOrJson,
    root: &std::path::Path,
    source: RootSource,
    status: DecisionStatus,
    r: &Recorded,
    before: &Before,
) -> ExitCode {
    let gate = &before.gate;
    let fp = r.feedback.finding_fingerprint.as_deref().unwrap_or("");
    let root = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    let root = root.as_path();
    if format == TextOrJson::Json {
        let suppression = match &r.suppression {
            Ok(s) => {
                json!({ "written": !r.dry_run, "file": s.index_file, "id": s.entry.id, "entry": to_value(&s.entry),
                    "applies": !gate.iter().any(GateWarning::blocks_everywhere) })
            }
            Err(reason) => json!({ "written": false, "reason": reason.to_string() }),
        };
        let warnings: Vec<String> = r
            .still_hidden_by
            .iter()
            .map(ToString::to_string)
            .chain(gate.iter().map(ToString::to_string))
            .collect();
        let out = json!({
            "recorded": !r.dry_run, "dry_run": r.dry_run, "repo_root": root, "repo_root_source": source.describe(),
            "fingerprint": fp, "status": status.as_str(),
            "feedback": { "file": r.feedback_file, "line": r.feedback.to_line(), "entry": to_value(&r.feedback) },
            "suppression": suppression, "warnings": warnings, "existing_suppressions": before.existing,
            "still_suppressed_by": r.still_hidden_by,
        });
        super::out::print_json(&out);
        return ExitCode::from(exit::OK);
    }
    let verb = if r.dry_run { "would append" } else { "appended" };
    println!(
        "Repository root: {} (from {})",
        clean_line(&root.display().to_string()),
        source.describe()
    );
    println!(
        "River feedback `{}` for {} ({fp}): {verb} to {}",
        r.feedback.feedback_type.as_str(),
        clean_line(&r.feedback.skill_id),
        clean_line(&r.feedback_file.display().to_string())
    );
    match &r.suppression {
        Ok(s) => {
            let verb = if r.dry_run { "would be written" } else { "written" };
            println!(
                "Suppression {} ({}, file {}, phase {}) {verb} to {}",
                clean_line(&s.entry.id),
                s.entry.context.feedback_type.as_str(),
                clean_line(s.entry.metadata.related_files.first().map_or("", String::as_str)),
                s.entry.metadata.phase,
                clean_line(&s.index_file.display().to_string())
            );
        }
        Err(reason) => println!("No suppression: {reason}"),
    }
    for e in &before.existing {
        println!("Existing suppression {}", clean_line(e));
    }
    for h in &r.still_hidden_by {
        println!("Warning: {}", clean_line(&h.to_string()));
    }
    for w in gate {
        let label = if w.blocks_everywhere() { "Warning" } else { "Note" };
        println!("{label}: {}", clean_line(&w.to_string()));
    }
    if r.dry_run {
        println!("Dry run: nothing was written.");
    }
    ExitCode::from(exit::OK)
}

/// Prints what an undo wrote.
fn print_revoked(format: TextOrJson, root: &std::path::Path, source: RootSource, fp: &str, r: &Revoked) -> ExitCode {
    if format == TextOrJson::Json {
        let revoked: Vec<Value> = r
            .revoked
            .iter()
            .map(|(sid, entry)| {
                json!({ "suppression_id": sid, "resurface_id": entry.as_ref().map(|e| e.id.clone()),
                    "entry": entry.as_ref().map(to_value) })
            })
            .collect();
        let out = json!({
            "recorded": !r.dry_run, "dry_run": r.dry_run, "undo": true, "repo_root": root,
            "repo_root_source": source.describe(), "fingerprint": fp, "file": r.index_file, "revoked": revoked,
        });
        super::out::print_json(&out);
        return ExitCode::from(exit::OK);
    }
    println!(
        "Repository root: {} (from {})",
        clean_line(&root.display().to_string()),
        source.describe()
    );
    let verb = if r.dry_run { "would be revoked" } else { "revoked" };
    for (sid, entry) in &r.revoked {
        let how = match entry {
            Some(e) => format!("resurface entry {}", clean_line(&e.id)),
            None => "already revoked; its fingerprint is now out of River 1.15.0's reach".to_owned(),
        };
        println!(
            "Suppression {} {verb}: {how} in {}",
            clean_line(sid),
            clean_line(&r.index_file.display().to_string())
        );
    }
    if r.dry_run {
        println!("Dry run: nothing was written.");
    }
    ExitCode::from(exit::OK)
}
