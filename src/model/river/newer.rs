//! The members River Review's newer line (s977043/river-review 1.110.x)
//! adds to the artifact v1, checked with the exact types of that line's
//! `schemas/review-artifact.schema.json` (and `output.schema.json` for the
//! run output members, see [`super::run_output`]). A member of these objects
//! that the schema does not name is kept and reported as a notice, like any
//! other additive member, except inside `executionManifest`, whose own schema
//! is open.

use super::reader::{Obj, Reader};
use super::types::{GATE_DECISIONS, GATE_TIERS, Gate};
use crate::model::json::type_name;
use crate::model::problem::push_pointer;
use serde_json::Value;

/// `gate.reasonCode` values.
pub const GATE_REASONS: [&str; 14] = [
    "GATE_CONFIG_CHANGED",
    "HUMAN_APPROVAL_REQUIRED",
    "DECISION_ESCALATED",
    "OSCILLATION_DETECTED",
    "RISK_MAP_HUMAN_REVIEW",
    "UNKNOWN_RISK_ACTION",
    "SKIPPED_BY_POLICY",
    "NOT_EXECUTED",
    "BLOCKING_FINDINGS",
    "MINOR_FINDINGS_OBSERVE",
    "UNDETERMINED",
    "RISK_MAP_OBSERVE",
    "CONVERGED_CLEAN",
    "UNKNOWN_SIGNAL",
];
/// Finding `consensusLevel` values.
pub const CONSENSUS_LEVELS: [&str; 3] = ["single", "multi", "consensus"];
/// `steps[].outcome` values.
pub const STEP_OUTCOMES: [&str; 5] = ["executed", "skipped", "degraded", "stopped", "not-implemented"];
/// `steps[].kind` values.
pub const STEP_KINDS: [&str; 2] = ["primitive", "reviewer"];
/// `plan.executionOrder` items.
pub const EXECUTION_LAYERS: [&str; 3] = ["deterministic", "heuristic", "llm"];

impl Reader {
    /// A string member matching `^[0-9a-f]{len}$` (or `prefix` + that).
    pub fn hex(&mut self, obj: Obj<'_>, key: &str, prefix: &str, len: usize) -> Option<String> {
        let s = self.string(obj, key)?;
        let ok = s
            .strip_prefix(prefix)
            .is_some_and(|h| h.len() == len && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')));
        if !ok {
            let what = format!("{prefix}{len} lowercase hex digits");
            self.problem("river-format", obj.at(key), format!("must be {what}, found {:?}", s));
            return None;
        }
        Some(s.to_owned())
    }

    /// A member that must be an integer `>= min` (JavaScript's reading).
    pub fn int_at_least(&mut self, obj: Obj<'_>, key: &str, min: f64) -> Option<f64> {
        let v = obj.get(key)?;
        match v.as_f64() {
            Some(x) if x.fract() == 0.0 && x >= min => Some(x),
            Some(x) if x.fract() == 0.0 => {
                let message = format!("{} is below the minimum {min}", super::reader::js_display(x));
                self.problem("river-range", obj.at(key), message);
                None
            }
            _ => {
                self.problem(
                    "river-type",
                    obj.at(key),
                    format!("must be an integer, found {}", compact_type(v)),
                );
                None
            }
        }
    }
}

fn compact_type(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        other => type_name(other).into(),
    }
}

/// `gate`: decision, reasonCode, tier, inputs, inputsHash and schemaVersion
/// are required; `observation` has its own required members.
pub fn read_gate(reader: &mut Reader, o: Obj<'_>) -> Gate {
    let known = [
        "decision",
        "reasonCode",
        "tier",
        "inputs",
        "inputsHash",
        "configSnapshot",
        "observation",
        "schemaVersion",
    ];
    let required = [
        "decision",
        "reasonCode",
        "tier",
        "inputs",
        "inputsHash",
        "schemaVersion",
    ];
    reader.members(o, &known, &required);
    let _ = reader.child(o, "inputs", "/gate/inputs");
    let _ = reader.child(o, "configSnapshot", "/gate/configSnapshot");
    reader.hex(o, "inputsHash", "", 16);
    reader.one_of(o, "schemaVersion", &["1"]);
    let observation_path = o.at("observation");
    if let Some(obs) = reader.child(o, "observation", &observation_path) {
        reader.members(
            obs,
            &["expiresInHours", "onExpiry", "files"],
            &["expiresInHours", "onExpiry"],
        );
        if let Some(h) = reader.number(obs, "expiresInHours", 0.0, f64::INFINITY)
            && h <= 0.0
        {
            reader.problem("river-range", obs.at("expiresInHours"), "must be greater than 0");
        }
        reader.one_of(obs, "onExpiry", &["stop"]);
        reader.strings(obs, "files", false, false);
    }
    Gate {
        decision: reader.one_of(o, "decision", &GATE_DECISIONS).map(str::to_owned),
        reason_code: reader.one_of(o, "reasonCode", &GATE_REASONS).map(str::to_owned),
        tier: reader.one_of(o, "tier", &GATE_TIERS).map(str::to_owned),
    }
}

/// `executionManifest`: an open object whose identity members are required.
pub fn read_execution_manifest(reader: &mut Reader, o: Obj<'_>) {
    for key in ["kind", "manifestId", "manifestKey", "manifestHash"] {
        if o.get(key).is_none() {
            reader.problem("river-required", o.path, format!("required member `{key}` is missing"));
        }
    }
    reader.one_of(o, "kind", &["execution-manifest"]);
    reader.hex(o, "manifestId", "RR-EXM-", 12);
    reader.hex(o, "manifestKey", "", 64);
    reader.hex(o, "manifestHash", "", 64);
}

/// `flow`: entry, id, version (non-empty) and the 64-hex `sha256`.
pub fn read_flow(reader: &mut Reader, o: Obj<'_>) {
    let required = ["entry", "id", "version", "sha256"];
    reader.members(o, &required, &required);
    for key in ["entry", "id", "version"] {
        reader.non_empty_string(o, key);
    }
    reader.hex(o, "sha256", "", 64);
}

/// `steps[]`: the flow runner's step records.
pub fn read_steps(reader: &mut Reader, top: Obj<'_>) {
    let Some(items) = reader.array(top, "steps") else {
        return;
    };
    let base = top.at("steps");
    for (i, item) in items.iter().enumerate() {
        let path = push_pointer(&base, &i.to_string());
        let Some(step) = reader.object(item, &path) else {
            continue;
        };
        let required = ["index", "id", "kind", "parallel", "parallelRun", "outcome"];
        let mut known = required.to_vec();
        known.extend(["reason", "result"]);
        reader.members(step, &known, &required);
        reader.int_at_least(step, "index", 0.0);
        reader.non_empty_string(step, "id");
        reader.one_of(step, "kind", &STEP_KINDS);
        reader.boolean(step, "parallel");
        if step.get("parallelRun").is_some_and(|v| !v.is_null()) {
            reader.int_at_least(step, "parallelRun", 0.0);
        }
        reader.one_of(step, "outcome", &STEP_OUTCOMES);
        reader.non_empty_string(step, "reason");
    }
}

/// The newer `plan` members: `executionOrder`, `contextLift`, `estimatedCost`.
pub fn read_plan_members(reader: &mut Reader, plan: Obj<'_>) {
    let order = reader.strings(plan, "executionOrder", false, false);
    let base = plan.at("executionOrder");
    for (i, layer) in order.iter().enumerate() {
        if !EXECUTION_LAYERS.contains(&layer.as_str()) {
            let message = format!(
                "`{}` is not one of {}",
                layer.escape_debug(),
                EXECUTION_LAYERS.join(", ")
            );
            reader.problem("river-enum", push_pointer(&base, &i.to_string()), message);
        }
    }
    let lift_path = plan.at("contextLift");
    if let Some(lift) = reader.child(plan, "contextLift", &lift_path) {
        let keys = ["totalSkillTokens", "loadedSkillTokens", "liftRatio"];
        reader.members(lift, &keys, &keys);
        reader.number(lift, "totalSkillTokens", 0.0, f64::INFINITY);
        reader.number(lift, "loadedSkillTokens", 0.0, f64::INFINITY);
        reader.number(lift, "liftRatio", 0.0, 1.0);
    }
    let cost_path = plan.at("estimatedCost");
    if let Some(cost) = reader.child(plan, "estimatedCost", &cost_path) {
        reader.members(cost, &["tokens", "source"], &["tokens", "source"]);
        reader.number(cost, "tokens", 0.0, f64::INFINITY);
        reader.one_of(cost, "source", &["token-estimator"]);
    }
}

/// The newer finding members: `consensusLevel`, `criterionRefs`, `artifactRefs`.
pub fn read_finding_members(reader: &mut Reader, finding: Obj<'_>) {
    reader.one_of(finding, "consensusLevel", &CONSENSUS_LEVELS);
    reader.strings(finding, "criterionRefs", true, false);
    reader.strings(finding, "artifactRefs", true, false);
}

#[cfg(test)]
mod tests {
    use super::super::check_artifact;
    use serde_json::{Value, json};

    fn base() -> Value {
        json!({"version": "1", "timestamp": "2026-11-29T19:36:17.758Z", "phase": "midstream", "status": "ok",
            "findings": [{"id": "rr-1", "ruleId": "r", "title": "t", "message": "m", "severity": "minor",
                "phase": "midstream", "file": "a.js", "consensusLevel": "multi"}]})
    }

    fn problems(doc: &Value) -> Vec<(String, String)> {
        check_artifact(doc, &[])
            .problems
            .into_iter()
            .map(|p| (p.rule, p.path))
            .collect()
    }

    fn with(pointer_key: &str, value: Value) -> Value {
        let mut doc = base();
        doc[pointer_key] = value;
        doc
    }

    #[test]
    fn valid_newer_members_pass() {
        let hex64 = "a".repeat(64);
        let mut doc = base();
        doc["gate"] = json!({"decision": "GO_WITH_OBSERVATION", "reasonCode": "MINOR_FINDINGS_OBSERVE", "tier": "hill",
            "inputs": {}, "inputsHash": "0123456789abcdef", "schemaVersion": "1",
            "observation": {"expiresInHours": 24, "onExpiry": "stop", "files": ["a.js"]}});
        doc["executionManifest"] = json!({"kind": "execution-manifest", "manifestId": "RR-EXM-0123456789ab",
            "manifestKey": hex64, "manifestHash": hex64, "anything": 1});
        doc["flow"] = json!({"entry": "e", "id": "f", "version": "1", "sha256": hex64});
        doc["steps"] = json!([{"index": 0, "id": "s", "kind": "primitive", "parallel": false, "parallelRun": null,
            "outcome": "not-implemented", "reason": "r"}]);
        doc["plan"] = json!({"executionOrder": ["deterministic", "llm"],
            "contextLift": {"totalSkillTokens": 10, "loadedSkillTokens": 5, "liftRatio": 0.5},
            "estimatedCost": {"tokens": 100, "source": "token-estimator"}});
        assert_eq!(problems(&doc), []);
    }

    #[test]
    fn each_newer_member_has_its_exact_type() {
        let hex64 = "a".repeat(64);
        let mut high = base();
        high["findings"][0]["consensusLevel"] = json!("high");
        let cases: Vec<(Value, &str, &str)> = vec![
            (high, "river-enum", "/findings/0/consensusLevel"),
            (
                with(
                    "steps",
                    json!([{"index": 0, "id": "s", "kind": "primitive", "parallel": false, "parallelRun": null, "outcome": "done"}]),
                ),
                "river-enum",
                "/steps/0/outcome",
            ),
            (
                with(
                    "steps",
                    json!([{"index": -1, "id": "s", "kind": "primitive", "parallel": false, "parallelRun": 0, "outcome": "skipped"}]),
                ),
                "river-range",
                "/steps/0/index",
            ),
            (
                with(
                    "flow",
                    json!({"entry": "e", "id": "f", "version": "1", "sha256": "not-hex"}),
                ),
                "river-format",
                "/flow/sha256",
            ),
            (
                with(
                    "executionManifest",
                    json!({"kind": "execution-manifest", "manifestKey": hex64, "manifestHash": hex64}),
                ),
                "river-required",
                "/executionManifest",
            ),
            (
                with(
                    "gate",
                    json!({"decision": "GO", "reasonCode": "CONVERGED_CLEAN", "tier": "field", "inputs": {}, "schemaVersion": "1"}),
                ),
                "river-required",
                "/gate",
            ),
            (
                with(
                    "gate",
                    json!({"decision": "GO", "reasonCode": "BECAUSE", "tier": "field", "inputs": {}, "inputsHash": "0123456789abcdef", "schemaVersion": "1"}),
                ),
                "river-enum",
                "/gate/reasonCode",
            ),
            (
                with(
                    "plan",
                    json!({"contextLift": {"totalSkillTokens": 1, "loadedSkillTokens": 1, "liftRatio": 2}}),
                ),
                "river-range",
                "/plan/contextLift/liftRatio",
            ),
            (
                with("plan", json!({"estimatedCost": {"tokens": 1}})),
                "river-required",
                "/plan/estimatedCost",
            ),
            (
                with("plan", json!({"executionOrder": ["llm", "magic"]})),
                "river-enum",
                "/plan/executionOrder/1",
            ),
        ];
        for (doc, rule, path) in cases {
            let got = problems(&doc);
            assert!(got.iter().any(|(r, p)| r == rule && p == path), "{path}: {got:?}");
        }
    }
}

#[cfg(test)]
mod run_output_tests {
    use super::super::check_run_output;
    use serde_json::{Value, json};

    fn base() -> Value {
        json!({"issues": [{"id": "rr-1", "ruleId": "r", "title": "t", "message": "m", "severity": "minor",
            "phase": "midstream", "file": "a.js", "reviewerRole": "bug-hunter", "consensusLevel": "single"}],
            "summary": {"issueCountBySeverity": {"info": 0, "minor": 1, "major": 0, "critical": 0},
                "issueCountByPhase": {"upstream": 0, "midstream": 1, "downstream": 0}},
            "timedOutRoles": ["security-scanner"],
            "teamLeadReport": {"top3Findings": [{"id": "rr-1", "severity": "minor", "lineStart": null}],
                "blindSpots": [{"role": "frontend-reviewer", "label": "Frontend Reviewer"}],
                "consensusSummary": {"consensus": 0, "multi": 0, "single": 1, "total": 1}}})
    }

    fn problems(doc: &Value) -> Vec<(String, String)> {
        check_run_output(doc, &[])
            .problems
            .into_iter()
            .map(|p| (p.rule, p.path))
            .collect()
    }

    #[test]
    fn newer_run_output_members_have_their_types() {
        let checked = check_run_output(&base(), &[]);
        assert_eq!(checked.problems, []);
        let set = checked.set.unwrap();
        assert!(set.notices.is_empty(), "{:?}", set.notices);
        let info = set.river.unwrap();
        assert!(
            info.extra
                .contains(&("timedOutRoles".to_owned(), "security-scanner".to_owned()))
        );
        let mut bad = base();
        bad["timedOutRoles"] = json!([""]);
        bad["issues"][0]["reviewerRole"] = json!(7);
        bad["issues"][0]["consensusLevel"] = json!("high");
        bad["teamLeadReport"]["consensusSummary"]["total"] = json!(-1);
        bad["teamLeadReport"]["top3Findings"] = json!([{"id": "a", "severity": "minor"}, {"id": "b", "severity": "minor"},
            {"id": "c", "severity": "minor"}, {"id": "d"}]);
        let got = problems(&bad);
        for want in [
            ("river-range", "/timedOutRoles/0"),
            ("river-type", "/issues/0/reviewerRole"),
            ("river-enum", "/issues/0/consensusLevel"),
            ("river-range", "/teamLeadReport/consensusSummary/total"),
            ("river-range", "/teamLeadReport/top3Findings"),
            ("river-required", "/teamLeadReport/top3Findings/3"),
        ] {
            assert!(
                got.iter().any(|(r, p)| r == want.0 && p == want.1),
                "{want:?} in {got:?}"
            );
        }
    }
}
