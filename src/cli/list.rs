//! `triage list`: findings ranked by severity, as a table, TSV or JSON lines.

use super::args::{ListArgs, ListFormat};
use super::common::{forced_format, load_or_problem, report_invalid};
use super::exit;
use crate::model::finding::{Disposition, Finding, Origin, Severity};
use crate::model::review::ReviewSet;
use crate::sanitize::clean_line;
use anyhow::bail;
use serde_json::json;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

pub(super) mod table;

/// Which findings to list.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Every finding instead of the repair set.
    pub all: bool,
    /// Only these ranks (empty = any).
    pub severities: Vec<Severity>,
    /// Only these canonical dispositions (empty = any).
    pub dispositions: Vec<Disposition>,
}

impl Selection {
    /// Builds a selection from the flags, rejecting unknown names.
    pub fn from_args(args: &ListArgs) -> anyhow::Result<Selection> {
        let mut severities = Vec::new();
        for s in args.severity.iter().filter(|s| !s.is_empty()) {
            match Severity::parse(&s.trim().to_ascii_uppercase()) {
                Some(v) => severities.push(v),
                None => {
                    return Err(crate::cli::exit::Usage(format!(
                        "unknown severity {:?} (expected P0, P1, P2, P3 or P4, any case)",
                        clean_line(s)
                    ))
                    .into());
                }
            }
        }
        let mut dispositions = Vec::new();
        for s in args.disposition.iter().filter(|s| !s.is_empty()) {
            match Disposition::parse(s) {
                Some(v) => dispositions.push(v),
                None => bail!(
                    "unknown disposition {:?} (expected one of: {})",
                    clean_line(s),
                    Disposition::ALL.map(Disposition::as_str).join(", ")
                ),
            }
        }
        Ok(Selection {
            all: args.all,
            severities,
            dispositions,
        })
    }

    /// True when the finding is selected.
    pub fn matches(&self, f: &Finding) -> bool {
        (self.all || f.in_repair_set())
            && (self.severities.is_empty() || self.severities.contains(&f.rank))
            && (self.dispositions.is_empty()
                || f.reviewgate()
                    .is_some_and(|r| self.dispositions.contains(&r.disposition)))
    }

    /// Indices of the selected findings in rank order (stable within a rank).
    pub fn apply(&self, set: &ReviewSet) -> Vec<usize> {
        set.ranked()
            .into_iter()
            .filter(|&i| self.matches(&set.findings[i]))
            .collect()
    }
}

/// Runs the subcommand.
/// A result whose review did not complete says so on stderr (the listing on
/// stdout stays what scripts expect): its findings are not a verdict.
fn review_error_notice(set: &crate::model::review::ReviewSet) {
    use crate::model::review::ReviewStatus;
    let what = match set.status {
        ReviewStatus::ReviewError => "review_error",
        ReviewStatus::Error => "error",
        _ => return,
    };
    let angles = set.angle_errors.len();
    eprintln!(
        "triage: this result is a {what}: the review did not complete and is not a pass \
         ({angles} angle error{}); the findings listed are what it produced before it stopped",
        if angles == 1 { "" } else { "s" }
    );
}

pub fn run(args: &ListArgs) -> anyhow::Result<ExitCode> {
    let selection = match Selection::from_args(args) {
        Ok(s) => s,
        Err(err) => {
            eprintln!("triage: {err:#}");
            return Ok(ExitCode::from(exit::USAGE));
        }
    };
    let (name, loaded, ledger) = match (&args.file, args.pr.pr) {
        (Some(path), _) => (
            path.display().to_string(),
            load_or_problem(path, forced_format(args.kind)),
            None,
        ),
        (None, Some(_)) => {
            let reads = crate::session::fetch::LiveReads {
                ledger: matches!(args.format, ListFormat::Json),
            };
            super::common::load_pr_reading(&args.pr, reads)?
        }
        (None, None) => return Err(exit::Usage("nothing to list: give a FILE or --pr N".into()).into()),
    };
    let set = match (&loaded.set, loaded.is_valid()) {
        (Some(set), true) => set,
        _ => {
            report_invalid(&name, &loaded);
            return Ok(ExitCode::from(exit::INVALID));
        }
    };
    let order = selection.apply(set);
    review_error_notice(set);
    let stdout = std::io::stdout();
    let terminal = std::io::IsTerminal::is_terminal(&stdout);
    let mut out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    match args.format {
        ListFormat::Tsv => write_tsv(&mut out, set, &order, terminal)?,
        ListFormat::Json => {
            let recorded = match ledger {
                Some(state) => super::recorded::Recorded::Ledger(state),
                None => super::recorded::read_for(set, args.pr.api_url.as_deref()),
            };
            if let super::recorded::Recorded::Ledger(crate::model::ledger::LedgerState::Unknown { reason }) = &recorded
            {
                eprintln!(
                    "triage: the decisions recorded on the pull request are unknown: {}",
                    clean_line(reason)
                );
            }
            write_json(&mut out, set, &order, &recorded, terminal)?
        }
        ListFormat::Table => {
            let columns = std::env::var("COLUMNS").ok();
            let size = terminal.then(|| crossterm::terminal::size().ok()).flatten();
            let width = table::table_width(columns.as_deref(), size.map(|(cols, _)| cols));
            table::write_table(&mut out, set, &order, width)?
        }
    }
    out.flush()?;
    drop(out);
    // The process ends right after this; freeing a large model piece by piece
    // costs more than it gives back (the OS reclaims it at exit).
    std::mem::forget(loaded);
    Ok(ExitCode::from(exit::OK))
}

/// jq's `@tsv` field escaping: `\`, tab, LF, CR and NUL are escaped (NUL
/// as `\0`). The interop notes name only the first four, but jq 1.6, gojq
/// and jaq all write NUL as `\0` (checked with each), and the output must be
/// the pipeline's byte for byte.
pub fn tsv_escape(s: &str, out: &mut String) {
    let mut rest = s;
    // Runs without a byte to escape are copied whole (all five are ASCII, so
    // every split falls on a character boundary).
    while let Some(i) = rest
        .bytes()
        .position(|b| matches!(b, b'\\' | b'\t' | b'\n' | b'\r' | 0))
    {
        out.push_str(&rest[..i]);
        out.push_str(match rest.as_bytes()[i] {
            b'\\' => "\\\\",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0 => "\\0",
            _ => "\\r",
        });
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

/// One TSV line exactly as the documented jq task-list pipeline prints it.
pub fn tsv_line(f: &Finding, line: &mut String) {
    line.clear();
    tsv_escape(f.severity_label(), line);
    line.push('\t');
    tsv_escape(f.key.as_str(), line);
    line.push('\t');
    tsv_escape(f.path.as_deref().unwrap_or("PR"), line);
    line.push('\t');
    match f.line {
        Some(n) => {
            use std::fmt::Write as _;
            let _ = write!(line, "{n}");
        }
        None => line.push('-'),
    }
    line.push('\t');
    let text = match &f.origin {
        Origin::ReviewGate(_) => f.claim.as_deref().or(f.suggested_fix.as_deref()),
        Origin::River(_) => f.claim.as_deref().or(f.title.as_deref()),
    };
    tsv_escape(text.unwrap_or(""), line);
    line.push('\n');
}

/// A TSV line made safe for a terminal: within each field every control,
/// C1 and bidi character becomes its visible placeholder (`␛`,
/// `⟨U+009B⟩`, …). Fields hold no raw tab or line break after
/// [`tsv_escape`], so the separators are untouched.
pub fn tsv_for_terminal(line: &str) -> String {
    let body = line.strip_suffix('\n').unwrap_or(line);
    let fields: Vec<String> = body.split('\t').map(clean_line).collect();
    let mut out = fields.join("\t");
    if body.len() != line.len() {
        out.push('\n');
    }
    out
}

pub use super::out::json_for_terminal;

/// TSV lines; to a terminal through [`tsv_for_terminal`], to a pipe or
/// file byte for byte as jq's `@tsv` writes them.
fn write_tsv(out: &mut impl Write, set: &ReviewSet, order: &[usize], terminal: bool) -> std::io::Result<()> {
    let mut line = String::new();
    for &i in order {
        tsv_line(&set.findings[i], &mut line);
        match terminal {
            true => out.write_all(tsv_for_terminal(&line).as_bytes())?,
            false => out.write_all(line.as_bytes())?,
        }
    }
    Ok(())
}

/// One finding as a JSON object (one line of `--format json`).
pub fn finding_json(f: &Finding, position: usize) -> serde_json::Value {
    let rg = f.reviewgate();
    let river = f.river();
    json!({
        "position": position,
        "rank": f.rank as u8,
        "severity": f.severity_label(),
        "fingerprint": f.key.as_str(),
        "id": f.id,
        "disposition": rg.map(|r| r.disposition.as_str())
            .or_else(|| river.and_then(|r| r.status).map(|s| match s {
                crate::model::finding::RiverStatus::Open => "open",
                crate::model::finding::RiverStatus::Suppressed => "suppressed",
                crate::model::finding::RiverStatus::Verified => "verified",
            })),
        "blocking_reason": rg.and_then(|r| r.blocking_reason).map(|b| b.as_str()),
        "in_repair_set": f.in_repair_set(),
        "classification": rg.map(|r| r.classification.as_str()),
        "confidence": rg.map(|r| json!(r.confidence)).or_else(|| river.and_then(|r| r.confidence.clone()).map(|c| json!(c))),
        "path": f.path,
        "line": f.line,
        "title": f.headline(),
        "claim": f.claim,
        "suggested_fix": f.suggested_fix,
        "thread_status": rg.map(|r| r.thread.status.as_str()),
        "thread_transition": rg.map(|r| r.thread.transition.as_str()),
        "thread_outdated": rg.map(|r| r.thread.outdated),
        "rule_id": river.and_then(|r| r.rule_id.clone()),
    })
}

/// One JSON object per line; to a terminal through [`json_for_terminal`].
fn write_json(
    out: &mut impl Write,
    set: &ReviewSet,
    order: &[usize],
    recorded: &super::recorded::Recorded,
    terminal: bool,
) -> std::io::Result<()> {
    let river = set.river.as_ref().map(crate::model::river::verdict::verdict_json);
    for (pos, &i) in order.iter().enumerate() {
        let f = &set.findings[i];
        let mut line = finding_json(f, pos + 1);
        if let Some(obj) = line.as_object_mut() {
            for (k, v) in super::recorded::fields(recorded, f.key.as_str()) {
                obj.insert(k.to_owned(), v);
            }
            // The run's River decision and loop signal, on every line (each
            // line stands alone).
            if let Some(r) = &river {
                obj.insert("river_run".to_owned(), r.clone());
            }
        }
        if terminal {
            out.write_all(json_for_terminal(&line.to_string()).as_bytes())?;
        } else {
            serde_json::to_writer(&mut *out, &line)?;
        }
        out.write_all(b"\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_escapes_what_jq_escapes() {
        let mut out = String::new();
        tsv_escape("a\\b\tc\nd\re\u{1}f\u{1b}g é\0h", &mut out);
        assert_eq!(out, "a\\\\b\\tc\\nd\\re\u{1}f\u{1b}g é\\0h");
    }

    #[test]
    fn a_terminal_gets_visible_tsv_and_escaped_json_of_the_same_data() {
        let hostile = "x\u{1b}[201~touch /tmp/PWNED\u{9b}2J\u{202e}\u{e0041}";
        let mut line = String::new();
        tsv_escape(hostile, &mut line);
        let line = format!("P1\t{line}\tPR\n");
        let shown = tsv_for_terminal(&line);
        assert_eq!(shown, "P1\tx␛[201~touch /tmp/PWNED⟨U+009B⟩2J⟨U+202E⟩⟨U+E0041⟩\tPR\n");
        let json = serde_json::json!({"fingerprint": hostile, "n": 1}).to_string();
        let escaped = json_for_terminal(&json);
        assert!(!escaped.chars().any(crate::sanitize::is_forbidden), "{escaped}");
        assert!(escaped.contains("\\u001b") && escaped.contains("\\u009b") && escaped.contains("\\u202e"));
        assert!(
            escaped.contains("\\udb40\\udc41"),
            "a surrogate pair above U+FFFF: {escaped}"
        );
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(&json).unwrap(),
            "the same data"
        );
    }
}
