//! Reading the output of `river run --output json` (`{issues, summary,
//! decision}`) into [`RunOutput`].

use super::finding::{FindingKind, read_findings};
use super::reader::{Obj, Reader};
use super::types::{Decision, LoopSignal, RunOutput, RunSummary};

use serde_json::Value;

const SEVERITIES: [&str; 4] = ["info", "minor", "major", "critical"];
const PHASES: [&str; 3] = ["upstream", "midstream", "downstream"];
const PRIORITIES: [&str; 4] = ["P1", "P2", "P3", "P4"];
const RISK_ACTIONS: [&str; 3] = ["comment_only", "escalate", "require_human_review"];

/// Reads a whole run output; problems and notices go to `reader`.
pub fn read_run_output(reader: &mut Reader, value: &Value) -> Option<RunOutput> {
    let top = reader.object(value, "")?;
    reader.members(
        top,
        &[
            "issues",
            "summary",
            "decision",
            "suggestedLoopSignal",
            "gate",
            "timedOutRoles",
            "reviewCoverage",
            "teamLeadReport",
        ],
        &["issues", "summary"],
    );
    let mut out = RunOutput::default();
    if let Some(items) = reader.array(top, "issues") {
        out.issues = read_findings(reader, items, "/issues", FindingKind::RunIssue);
    }
    out.summary = reader
        .child(top, "summary", "/summary")
        .map(|o| read_summary(reader, o));
    let decisions: Vec<&str> = Decision::ALL.iter().map(|d| d.as_str()).collect();
    out.decision = reader.one_of(top, "decision", &decisions).and_then(Decision::parse);
    let signals: Vec<&str> = LoopSignal::ALL.iter().map(|d| d.as_str()).collect();
    out.loop_signal = reader
        .one_of(top, "suggestedLoopSignal", &signals)
        .and_then(LoopSignal::parse);
    // The newer line's members (its output.schema.json): `gate` is only an
    // object here, `reviewCoverage` has a schema of its own (kept as it is).
    let _ = reader.child(top, "gate", "/gate");
    let timed_out = reader.strings(top, "timedOutRoles", true, false);
    if !timed_out.is_empty() {
        out.extra.push(("timedOutRoles".to_owned(), timed_out.join(", ")));
    }
    if let Some(report) = reader.child(top, "teamLeadReport", "/teamLeadReport") {
        read_team_lead_report(reader, report);
        if let Some(v) = top.get("teamLeadReport") {
            out.extra
                .push(("teamLeadReport".to_owned(), super::reader::compact(v, 300)));
        }
    }
    Some(out)
}

/// `teamLeadReport`: `top3Findings` (at most three, each with `id` and
/// `severity`), `blindSpots` (`role`, `label`) and `consensusSummary` counts.
fn read_team_lead_report(reader: &mut Reader, o: Obj<'_>) {
    let keys = ["top3Findings", "blindSpots", "consensusSummary"];
    reader.members(o, &keys, &keys);
    if let Some(items) = reader.array(o, "top3Findings") {
        let base = o.at("top3Findings");
        if items.len() > 3 {
            reader.problem(
                "river-range",
                base.clone(),
                format!("has {} items, at most 3 allowed", items.len()),
            );
        }
        for (i, item) in items.iter().enumerate() {
            let path = crate::model::problem::push_pointer(&base, &i.to_string());
            if let Some(f) = reader.object(item, &path) {
                // Open by contract: only `id` and `severity` are checked.
                for key in ["id", "severity"] {
                    if f.get(key).is_none() {
                        reader.problem("river-required", f.path, format!("required member `{key}` is missing"));
                    }
                }
                reader.non_empty_string(f, "id");
                reader.one_of(f, "severity", &SEVERITIES);
            }
        }
    }
    if let Some(items) = reader.array(o, "blindSpots") {
        let base = o.at("blindSpots");
        for (i, item) in items.iter().enumerate() {
            let path = crate::model::problem::push_pointer(&base, &i.to_string());
            if let Some(b) = reader.object(item, &path) {
                reader.members(b, &["role", "label"], &["role", "label"]);
                reader.non_empty_string(b, "role");
                reader.non_empty_string(b, "label");
            }
        }
    }
    let summary_path = o.at("consensusSummary");
    if let Some(c) = reader.child(o, "consensusSummary", &summary_path) {
        counts(reader, c, &["consensus", "multi", "single", "total"]);
    }
}

/// Reads an object of counts whose members are exactly `keys` (all required).
fn counts(reader: &mut Reader, o: Obj<'_>, keys: &[&str]) -> Vec<(String, u64)> {
    reader.members(o, keys, keys);
    keys.iter()
        .filter_map(|k| reader.count(o, k).map(|c| ((*k).to_owned(), c)))
        .collect()
}

fn read_summary(reader: &mut Reader, o: Obj<'_>) -> RunSummary {
    let known = [
        "issueCountBySeverity",
        "issueCountByPhase",
        "notes",
        "riskSummary",
        "prioritySummary",
    ];
    reader.members(o, &known, &["issueCountBySeverity", "issueCountByPhase"]);
    let mut summary = RunSummary {
        notes: reader.string(o, "notes").map(str::to_owned),
        ..RunSummary::default()
    };
    if let Some(c) = reader.child(o, "issueCountBySeverity", "/summary/issueCountBySeverity") {
        summary.by_severity = counts(reader, c, &SEVERITIES);
    }
    if let Some(c) = reader.child(o, "issueCountByPhase", "/summary/issueCountByPhase") {
        summary.by_phase = counts(reader, c, &PHASES);
    }
    if let Some(risk) = reader.child(o, "riskSummary", "/summary/riskSummary") {
        let keys = ["aggregateAction", "escalatedFiles", "humanReviewFiles"];
        reader.members(risk, &keys, &keys);
        if let Some(action) = reader.one_of(risk, "aggregateAction", &RISK_ACTIONS) {
            summary.risk.push(("aggregateAction".to_owned(), action.to_owned()));
        }
        for key in ["escalatedFiles", "humanReviewFiles"] {
            let files = reader.strings(risk, key, false, false);
            summary.risk.push((key.to_owned(), files.join(", ")));
        }
    }
    if let Some(p) = reader.child(o, "prioritySummary", "/summary/prioritySummary") {
        let keys = ["counts", "requiresImmediateAttention"];
        reader.members(p, &keys, &keys);
        if let Some(c) = reader.child(p, "counts", "/summary/prioritySummary/counts") {
            for (k, n) in counts(reader, c, &PRIORITIES) {
                summary.priority.push((k, n.to_string()));
            }
        }
        if let Some(b) = reader.boolean(p, "requiresImmediateAttention") {
            summary
                .priority
                .push(("requiresImmediateAttention".to_owned(), b.to_string()));
        }
    }
    summary
}
