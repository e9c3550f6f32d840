//! Per-rule tests: a valid base document, mutated to break one rule, must be
//! reported under exactly that rule (and only there, where the rules allow).

use super::*;
use crate::model::finding::{Disposition, ThreadStatus, ThreadTransition};
use crate::model::json::Doc;
use crate::model::review::ReviewStatus;
use serde_json::{Value, json};
use std::collections::BTreeSet;

mod agent_cases;
mod artifact_cases;
mod canonical_cases;
mod legacy_cases;
mod projection_cases;

/// The document of a value built here.
fn doc(v: &Value) -> Doc<'static> {
    Doc::of_value(v).expect("a readable document")
}

fn check_agent_result(v: &Value, raw_len: usize) -> Checked {
    super::check_agent_result(doc(v).root(), raw_len)
}

fn check_legacy_artifact(v: &Value) -> Checked {
    super::check_legacy_artifact(doc(v).root())
}

fn is_legacy_artifact(v: &Value) -> bool {
    super::is_legacy_artifact(doc(v).root())
}

fn finding_fingerprints(v: &Value) -> Result<Vec<SourceFingerprint>, Vec<Problem>> {
    super::finding_fingerprints(doc(v).root())
}

/// The rule ids of every problem.
fn rules(checked: &Checked) -> BTreeSet<String> {
    checked.problems.iter().map(|p| p.rule.clone()).collect()
}

/// A valid agent result: a PR scope, one still-open blocker with an open
/// thread and a verified verification, and one fixed finding whose thread
/// is resolved.
fn agent_base() -> Value {
    json!({
        "schema_version": "reviewgate-agent-result/v1",
        "scope": {"kind": "pull_request", "repository": "o/r", "pull_request_number": 7},
        "status": "needs_changes",
        "score": 3,
        "reviewed_sha": "abc123",
        "angle_errors": [],
        "costs": {
            "estimated_total_usd": 0.08,
            "summary": {
                "current_run_usd": 0.08,
                "components": [{"label": "general", "model": "m", "prompt_tokens": 10,
                                "completion_tokens": null, "estimated_cost_usd": 0.08}],
                "source": "fallback_pricing"
            }
        },
        "timings": {"queue_ms": null, "startup_ms": 1, "model_ms": 2, "publish_ms": 3},
        "findings": [
            {
                "id": "rg_001",
                "semantic_fingerprint": "defect:src.a.rs:key.one",
                "disposition": "still_open",
                "severity": "P2",
                "confidence": 0.9,
                "classification": "defect",
                "blocking_reason": "validated_defect",
                "verification": {
                    "state": "verified", "reason": "checked", "model": "m",
                    "evidence": [{"path": "src/a.rs", "side": "new", "line": 3, "excerpt": "x()", "reason": "r"}]
                },
                "path": "src/a.rs",
                "line": 3,
                "claim": "claim",
                "causal_evidence": "cause",
                "evidence": [{"path": "src/a.rs", "side": "new", "line": 3, "excerpt": "x()", "reason": "r"}],
                "reproduction": null,
                "suggested_fix": "fix it",
                "thread_id": "PRRT_1",
                "thread_status": "open",
                "thread_transition": "retained",
                "thread_outdated": true,
                "reopening_evidence": null,
                "prior_dispositions": [
                    {"disposition": "still_open", "evidence_summary": "seen", "actor": "reviewgate",
                     "reviewed_sha": "abc123", "code_fingerprint": "c1"}
                ]
            },
            {
                "id": "rg_002",
                "semantic_fingerprint": "defect:src.b.rs:key.two",
                "disposition": "fixed",
                "severity": "P3",
                "confidence": 0.5,
                "classification": "defect",
                "blocking_reason": null,
                "path": null,
                "line": null,
                "claim": null,
                "causal_evidence": null,
                "evidence": [],
                "reproduction": null,
                "suggested_fix": "fix that",
                "thread_id": "PRRT_2",
                "thread_status": "resolved",
                "thread_transition": "resolved_fixed",
                "thread_outdated": false,
                "reopening_evidence": null,
                "prior_dispositions": [
                    {"disposition": "still_open", "evidence_summary": "seen", "actor": "reviewgate",
                     "reviewed_sha": "abc123", "code_fingerprint": "c2"},
                    {"disposition": "fixed", "submitted_disposition": "fixed", "submission_id": 3,
                     "evidence_summary": "fixed on head", "actor": "dev", "reviewed_sha": "abc123",
                     "code_fingerprint": "c2"}
                ]
            }
        ]
    })
}

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/conformance/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A valid v3 output with tracked findings (first review).
fn tracked_base() -> Value {
    fixture("artifact/valid-tracked-first-review.json")
}

/// The same output without tracked findings.
fn plain_base() -> Value {
    let mut v = tracked_base();
    v.as_object_mut().expect("object").remove("tracked_findings");
    v
}

/// A valid v3 output with two angles.
fn angles_base() -> Value {
    fixture("artifact/real-lib-test-angle-results.json")
}

/// Sets (or adds) the member or item at `pointer`.
fn put(v: &mut Value, pointer: &str, new: Value) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer");
    match v.pointer_mut(parent) {
        Some(Value::Object(m)) => {
            m.insert(key.to_owned(), new);
        }
        Some(Value::Array(a)) => a[key.parse::<usize>().expect("index")] = new,
        _ => panic!("no container at {parent}"),
    }
}

fn remove(v: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer");
    let parent = v.pointer_mut(parent).unwrap_or_else(|| panic!("no {parent}"));
    match parent {
        Value::Object(m) => {
            m.remove(key);
        }
        Value::Array(a) => {
            a.remove(key.parse::<usize>().expect("index"));
        }
        _ => panic!("{pointer} is not in a container"),
    }
}

fn push(v: &mut Value, pointer: &str, item: Value) {
    v.pointer_mut(pointer)
        .and_then(Value::as_array_mut)
        .unwrap_or_else(|| panic!("no array {pointer}"))
        .push(item);
}

fn agent(v: &Value) -> Checked {
    check_agent_result(v, 1000)
}

fn artifact(v: &Value) -> Checked {
    check_artifact(doc(v).root())
}

#[test]
fn bases_are_valid() {
    let c = agent(&agent_base());
    assert_eq!(c.problems, vec![]);
    for base in [tracked_base(), plain_base(), angles_base()] {
        let c = artifact(&base);
        assert_eq!(c.problems, vec![]);
        assert_eq!(c.set.as_ref().map(|s| &s.projection), Some(&Projection::Ok));
    }
}
