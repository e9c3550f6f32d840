//! Reading a River review artifact v1 (`version: "1"`) into [`RiverArtifact`].

use super::finding::{FindingKind, read_findings};
use super::newer;
use super::reader::{Obj, Reader, compact};
use super::types::{
    ArtifactStatus, Context, Decision, LoopSignal, MODEL_HINTS, PHASES, PLANNER_MODES, Plan, RiverArtifact, RiverPhase,
    STATUSES, SelectedSkill, Usage,
};
use crate::model::problem::push_pointer;
use serde_json::Value;

const TOP_REQUIRED: [&str; 4] = ["version", "timestamp", "phase", "status"];
const TOP_KNOWN: [&str; 12] = [
    "version",
    "timestamp",
    "phase",
    "status",
    "decision",
    "suggestedLoopSignal",
    "usage",
    "trace",
    "plan",
    "findings",
    "context",
    "debug",
];
/// Newer top-level members River documents without a published shape.
const TOP_NEWER_OPAQUE: [&str; 4] = ["executionManifest", "flow", "evidenceRequirements", "steps"];
const PLAN_KNOWN: [&str; 5] = [
    "selectedSkills",
    "skippedSkills",
    "plannerMode",
    "plannerReasons",
    "impactTags",
];
const PLAN_NEWER_OPAQUE: [&str; 3] = ["executionOrder", "contextLift", "estimatedCost"];
const EXTRA_CHARS: usize = 300;

/// Reads a whole artifact; problems and notices go to `reader`.
pub fn read_artifact(reader: &mut Reader, value: &Value) -> Option<RiverArtifact> {
    let top = reader.object(value, "")?;
    let mut known: Vec<&str> = TOP_KNOWN.to_vec();
    known.extend(TOP_NEWER_OPAQUE);
    known.push("gate");
    reader.members(top, &known, &TOP_REQUIRED);

    let version = reader.string(top, "version").map(str::to_owned);
    if let Some(v) = version.as_deref().filter(|v| *v != "1") {
        let message = format!(
            "`{}` is not a River review artifact version this reader knows (\"1\")",
            v.escape_debug()
        );
        reader.problem("river-enum", "/version", message);
    }
    let mut artifact = RiverArtifact {
        version,
        timestamp: reader.date_time(top, "timestamp").map(str::to_owned),
        phase: reader.one_of(top, "phase", &PHASES).and_then(RiverPhase::parse),
        status: reader.one_of(top, "status", &STATUSES).and_then(ArtifactStatus::parse),
        ..RiverArtifact::default()
    };
    let decisions: Vec<&str> = Decision::ALL.iter().map(|d| d.as_str()).collect();
    artifact.decision = reader.one_of(top, "decision", &decisions).and_then(Decision::parse);
    let signals: Vec<&str> = LoopSignal::ALL.iter().map(|d| d.as_str()).collect();
    artifact.loop_signal = reader
        .one_of(top, "suggestedLoopSignal", &signals)
        .and_then(LoopSignal::parse);

    artifact.usage = reader.child(top, "usage", "/usage").map(|o| read_usage(reader, o));
    if let Some(trace) = reader.child(top, "trace", "/trace") {
        reader.members(trace, &["run_id"], &[]);
        artifact.run_id = reader.string(trace, "run_id").map(str::to_owned);
    }
    artifact.plan = reader.child(top, "plan", "/plan").map(|o| read_plan(reader, o));
    if let Some(items) = reader.array(top, "findings") {
        artifact.findings = read_findings(reader, items, "/findings", FindingKind::Artifact);
    }
    artifact.context = reader
        .child(top, "context", "/context")
        .map(|o| read_context(reader, o));
    artifact.gate = reader.child(top, "gate", "/gate").map(|o| newer::read_gate(reader, o));
    if let Some(o) = reader.child(top, "executionManifest", "/executionManifest") {
        newer::read_execution_manifest(reader, o);
    }
    if let Some(o) = reader.child(top, "flow", "/flow") {
        newer::read_flow(reader, o);
    }
    reader.strings(top, "evidenceRequirements", true, false);
    newer::read_steps(reader, top);
    // `debug` is free-form by contract: only its type is checked.
    let _ = reader.child(top, "debug", "/debug");
    for key in TOP_NEWER_OPAQUE {
        if let Some(v) = top.get(key) {
            artifact.extra.push((key.to_owned(), compact(v, EXTRA_CHARS)));
        }
    }
    Some(artifact)
}

fn read_usage(reader: &mut Reader, o: Obj<'_>) -> Usage {
    let known = [
        "provider",
        "model",
        "input_tokens",
        "output_tokens",
        "estimated_cost_usd",
    ];
    reader.members(o, &known, &[]);
    Usage {
        provider: reader.string(o, "provider").map(str::to_owned),
        model: reader.string(o, "model").map(str::to_owned),
        input_tokens: reader.number(o, "input_tokens", 0.0, f64::INFINITY),
        output_tokens: reader.number(o, "output_tokens", 0.0, f64::INFINITY),
        estimated_cost_usd: reader.number(o, "estimated_cost_usd", 0.0, f64::INFINITY),
    }
}

fn read_context(reader: &mut Reader, o: Obj<'_>) -> Context {
    let known = [
        "repoRoot",
        "defaultBranch",
        "mergeBase",
        "changedFiles",
        "tokenEstimate",
        "rawTokenEstimate",
        "reduction",
    ];
    reader.members(o, &known, &[]);
    Context {
        repo_root: reader.string(o, "repoRoot").map(str::to_owned),
        default_branch: reader.string(o, "defaultBranch").map(str::to_owned),
        merge_base: reader.string(o, "mergeBase").map(str::to_owned),
        changed_files: reader.strings(o, "changedFiles", false, false),
        token_estimate: reader.number(o, "tokenEstimate", 0.0, f64::INFINITY),
        raw_token_estimate: reader.number(o, "rawTokenEstimate", 0.0, f64::INFINITY),
        reduction: reader.number(o, "reduction", 0.0, 100.0),
    }
}

fn read_plan(reader: &mut Reader, o: Obj<'_>) -> Plan {
    let mut known = PLAN_KNOWN.to_vec();
    known.extend(PLAN_NEWER_OPAQUE);
    reader.members(o, &known, &[]);
    let mut plan = Plan {
        planner_mode: reader.one_of(o, "plannerMode", &PLANNER_MODES).map(str::to_owned),
        impact_tags: reader.strings(o, "impactTags", false, false),
        ..Plan::default()
    };
    each_object(reader, o, "selectedSkills", |reader, skill| {
        reader.members(skill, &["id", "name", "phase", "modelHint"], &["id", "name"]);
        plan.selected.push(SelectedSkill {
            id: reader.string(skill, "id").unwrap_or_default().to_owned(),
            name: reader.string(skill, "name").unwrap_or_default().to_owned(),
            phase: reader.one_of(skill, "phase", &PHASES).and_then(RiverPhase::parse),
            model_hint: reader.one_of(skill, "modelHint", &MODEL_HINTS).map(str::to_owned),
        });
    });
    each_object(reader, o, "skippedSkills", |reader, skill| {
        reader.members(skill, &["id", "reasons"], &["id", "reasons"]);
        let id = reader.string(skill, "id").unwrap_or_default().to_owned();
        let reasons = reader.strings(skill, "reasons", false, false);
        plan.skipped.push((id, reasons));
    });
    each_object(reader, o, "plannerReasons", |reader, item| {
        reader.members(item, &["id", "reason"], &["id", "reason"]);
        let id = reader.string(item, "id").unwrap_or_default().to_owned();
        let reason = reader.string(item, "reason").unwrap_or_default().to_owned();
        plan.planner_reasons.push((id, reason));
    });
    super::newer::read_plan_members(reader, o);
    for key in PLAN_NEWER_OPAQUE {
        if let Some(v) = o.get(key) {
            plan.extra.push((key.to_owned(), compact(v, EXTRA_CHARS)));
        }
    }
    plan
}

/// Calls `each` for every object item of the array member `key`.
fn each_object<'a>(reader: &mut Reader, o: Obj<'a>, key: &str, mut each: impl FnMut(&mut Reader, Obj<'_>)) {
    let Some(items) = reader.array(o, key) else {
        return;
    };
    let base = o.at(key);
    for (i, item) in items.iter().enumerate() {
        let path = push_pointer(&base, &i.to_string());
        if let Some(obj) = reader.object(item, &path) {
            each(reader, obj);
        }
    }
}
