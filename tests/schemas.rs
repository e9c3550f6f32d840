//! The shipped JSON Schemas on their own, against the conformance set and the
//! River Review examples: every valid file is accepted, every file whose
//! verdict is decided by the schema is rejected, and no file whose verdict a
//! code rule decides is rejected by the schema alone. Only the schemas are used
//! here (files that are not JSON at all count as rejected).

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use triage::model::json::Doc;
use triage::model::problem::Problem;
use triage::model::review::Format;
use triage::model::schema::{self, RiverEntrySchema};

/// The schema check of a document built in memory.
fn check(format: Format, value: &Value) -> Vec<Problem> {
    let doc = Doc::of_value(value).expect("a readable document");
    schema::check(format, doc.root())
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The paths of the unknown additive members the River reader keeps and
/// reports as notices (the schema lets them through).
fn river_notices(format: Format, value: &Value) -> Vec<String> {
    let checked = match format {
        Format::RiverRun => triage::model::river::check_run_output(value, &[]),
        _ => triage::model::river::check_artifact(value, &[]),
    };
    let mut paths: Vec<String> = checked
        .set
        .map(|s| {
            s.notices
                .into_iter()
                .filter(|n| n.rule == "river-additive")
                .map(|n| n.path)
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
}

fn read_json(path: &Path) -> Option<Value> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_slice(&bytes).ok()
}

fn format_of_kind(kind: &str) -> Format {
    match kind {
        "agent-result" => Format::AgentResult,
        "artifact" => Format::ArtifactV3,
        "disposition" => Format::Disposition,
        other => panic!("unexpected kind {other} in expected.jsonl"),
    }
}

/// Schema verdict: None when the file is not JSON, else the problems.
fn schema_verdict(format: Format, path: &Path) -> Option<Vec<triage::model::problem::Problem>> {
    read_json(path).map(|value| check(format, &value))
}

#[test]
fn conformance_valid_files_pass_and_schema_failures_fail() {
    let dir = fixtures().join("conformance");
    let expected = std::fs::read_to_string(dir.join("expected.jsonl")).expect("expected.jsonl");
    let (mut accepted, mut rejected, mut rule_only) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in expected.lines().filter(|l| !l.trim().is_empty()) {
        let entry: Value = serde_json::from_str(line).expect("expected.jsonl line is JSON");
        let file = entry["file"].as_str().expect("file");
        let format = format_of_kind(entry["kind"].as_str().expect("kind"));
        let verdict = schema_verdict(format, &dir.join(file));
        if entry["valid"] == json!(true) {
            match verdict {
                Some(problems) if problems.is_empty() => accepted += 1,
                Some(problems) => failures.push(format!("{file}: valid but schema says {problems:?}")),
                None => failures.push(format!("{file}: valid but not JSON")),
            }
        } else if entry["why"] == json!("schema") {
            match verdict {
                Some(problems) if problems.is_empty() => failures.push(format!("{file}: schema accepted it")),
                _ => rejected += 1,
            }
        } else {
            // Decided by a code rule: the schema alone must not reject it
            // (a schema stricter than the format would reject valid files).
            match verdict {
                Some(problems) if !problems.is_empty() => {
                    failures.push(format!("{file}: rule-decided but the schema rejects it: {problems:?}"))
                }
                _ => rule_only += 1,
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        accepted >= 40 && rejected >= 50,
        "too few cases: {accepted} accepted, {rejected} rejected"
    );
    eprintln!(
        "conformance: {accepted} valid accepted, {rejected} schema-invalid rejected, {rule_only} decided by rules"
    );
}

#[test]
fn every_schema_problem_names_the_schema_rule_and_a_pointer() {
    let dir = fixtures().join("conformance/artifact");
    let value = read_json(&dir.join("valid-unknown-finding-field.json")).expect("JSON");
    let problems = check(Format::ArtifactV3, &value);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].rule, "schema");
    assert_eq!(problems[0].path, "/findings/0/extra_field");
    assert_eq!(problems[0].message, "unknown member `extra_field`");
}

/// The published v3 example has `grounding.evidence: []`, which the schema's
/// minimum of one evidence item forbids (a schema-only minimum a strict reader
/// enforces; its calibrated twin in the conformance set is schema-invalid for
/// exactly this). Everything else in it conforms.
#[test]
fn reviewgate_v3_example_conforms_except_its_empty_grounding_evidence() {
    let path = fixtures().join("reference/reviewgate/example-review-output-v3.json");
    let mut value = read_json(&path).expect("example is JSON");
    let problems = check(Format::ArtifactV3, &value);
    let got: Vec<(&str, &str)> = problems.iter().map(|p| (p.path.as_str(), p.message.as_str())).collect();
    assert_eq!(
        got,
        vec![("/findings/0/grounding/evidence", "`evidence` must not be empty")]
    );

    value["findings"][0]["grounding"]["evidence"] = json!([{
        "path": "app/webhooks/retry.py", "side": "new", "line": 42,
        "excerpt": "return terminal_state", "reason": "the new terminal path"
    }]);
    assert_eq!(check(Format::ArtifactV3, &value), vec![]);
}

#[test]
fn river_examples_are_accepted_without_notices() {
    let dir = fixtures().join("reference/river-review/examples");
    let mut seen = (0, 0);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let value = read_json(&path).unwrap_or_else(|| panic!("{} is not JSON", path.display()));
        let format = if value.get("entries").is_some() {
            continue; // the memory index, checked below
        } else if value.get("version").is_some() {
            seen.0 += 1;
            Format::RiverArtifact
        } else if value.get("issues").is_some() {
            seen.1 += 1;
            Format::RiverRun
        } else {
            panic!("{}: neither an artifact nor run output", path.display());
        };
        assert_eq!(check(format, &value), vec![], "{}", path.display());
        assert_eq!(
            river_notices(format, &value),
            Vec::<String>::new(),
            "{}",
            path.display()
        );
    }
    assert!(seen.0 >= 3 && seen.1 >= 1, "examples found: {seen:?}");
}

fn river_artifact() -> Value {
    json!({
        "version": "1",
        "timestamp": "2026-11-29T19:36:17.758Z",
        "phase": "midstream",
        "status": "ok",
        "findings": [{
            "id": "rr-1",
            "ruleId": "rr-midstream-security-001",
            "title": "Hardcoded API key detected",
            "message": "Finding: key in source",
            "severity": "major",
            "phase": "midstream",
            "file": "src/config.mjs",
            "line": 4,
            "status": "open"
        }]
    })
}

fn river_run() -> Value {
    let issue = river_artifact()["findings"][0].clone();
    json!({
        "issues": [issue],
        "summary": {
            "issueCountBySeverity": {"info": 0, "minor": 0, "major": 1, "critical": 0},
            "issueCountByPhase": {"upstream": 0, "midstream": 1, "downstream": 0}
        },
        "decision": "human-review-recommended"
    })
}

/// Applies `edit` to the first finding of an artifact and of a run output and
/// returns both schema verdicts.
fn both_with_finding(edit: impl Fn(&mut Value)) -> [Vec<triage::model::problem::Problem>; 2] {
    let mut artifact = river_artifact();
    edit(&mut artifact["findings"][0]);
    let mut run = river_run();
    edit(&mut run["issues"][0]);
    [check(Format::RiverArtifact, &artifact), check(Format::RiverRun, &run)]
}

#[test]
fn river_hand_made_baselines_are_valid() {
    assert_eq!(check(Format::RiverArtifact, &river_artifact()), vec![]);
    assert_eq!(check(Format::RiverRun, &river_run()), vec![]);
}

#[test]
fn river_bad_severity_is_rejected() {
    for problems in both_with_finding(|f| f["severity"] = json!("high")) {
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].path.ends_with("/0/severity"), "{problems:?}");
    }
}

#[test]
fn river_missing_rule_id_is_rejected() {
    for problems in both_with_finding(|f| {
        f.as_object_mut().map(|m| m.remove("ruleId"));
    }) {
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].message, "missing required member `ruleId`");
    }
}

#[test]
fn river_status_outside_the_enum_is_rejected() {
    let mut artifact = river_artifact();
    artifact["status"] = json!("failed");
    let problems = check(Format::RiverArtifact, &artifact);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path, "/status");
    for problems in both_with_finding(|f| f["status"] = json!("closed")) {
        assert_eq!(problems.len(), 1, "{problems:?}");
    }
}

#[test]
fn river_unknown_additive_member_is_accepted_and_noticed() {
    let mut artifact = river_artifact();
    artifact["brandNewSection"] = json!({"x": 1});
    artifact["findings"][0]["criterionRefs"] = json!(["AC-4"]);
    artifact["findings"][0]["someFutureFlag"] = json!(true);
    assert_eq!(check(Format::RiverArtifact, &artifact), vec![]);
    let paths = river_notices(Format::RiverArtifact, &artifact);
    assert_eq!(paths, vec!["/brandNewSection", "/findings/0/someFutureFlag"]);

    let mut run = river_run();
    // `timedOutRoles` is a known member of the newer line: read, not noticed.
    run["timedOutRoles"] = json!(["security-scanner"]);
    run["summary"]["extraCounter"] = json!(3);
    assert_eq!(check(Format::RiverRun, &run), vec![]);
    assert_eq!(river_notices(Format::RiverRun, &run), vec!["/summary/extraCounter"]);
}

#[test]
fn memory_index_entries_match_their_schemas() {
    let path = fixtures().join("reference/river-review/examples/memory-index.json");
    let index = read_json(&path).expect("memory index is JSON");
    let entries = index["entries"].as_array().expect("entries array");
    assert!(!entries.is_empty());
    let mut suppressions = 0;
    for entry in entries {
        assert_eq!(schema::check_river_entry(RiverEntrySchema::MemoryEntry, entry), vec![]);
        if entry["type"] == json!("suppression") {
            suppressions += 1;
            let context = &entry["context"];
            assert_eq!(
                schema::check_river_entry(RiverEntrySchema::SuppressionContext, context),
                vec![]
            );
        }
    }
    assert!(suppressions >= 1);
}

#[test]
fn suppression_context_rejects_wrong_scope_and_missing_active() {
    let context = json!({"scope": "repo", "fingerprint": "98103dc8dd71c74c"});
    let problems = schema::check_river_entry(RiverEntrySchema::SuppressionContext, &context);
    let mut got: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    got.sort();
    assert_eq!(got, vec!["", "/scope"], "{problems:?}");
}
