use super::wording::subject;
use super::*;
use serde_json::json;

/// The schema check of a document built in memory.
fn check(format: Format, value: &Value) -> Vec<Problem> {
    let doc = Doc::of_value(value).expect("a readable document");
    super::check(format, doc.root())
}

fn minimal_agent_result() -> Value {
    json!({
        "schema_version": "reviewgate-agent-result/v1",
        "scope": {"kind": "local"},
        "status": "needs_changes",
        "score": 3,
        "reviewed_sha": "abc123",
        "angle_errors": [],
        "costs": {"estimated_total_usd": null, "summary": null},
        "findings": [{
            "id": "f1",
            "semantic_fingerprint": "defect:src.a.rs:x",
            "disposition": "still_open",
            "severity": "P2",
            "confidence": 0.9,
            "classification": "defect",
            "blocking_reason": "validated_defect",
            "path": "src/a.rs",
            "line": 3,
            "claim": null,
            "causal_evidence": null,
            "evidence": [],
            "reproduction": null,
            "suggested_fix": "fix it",
            "thread_id": null,
            "prior_dispositions": []
        }]
    })
}

fn minimal_legacy(status: &str, score: Value) -> Value {
    json!({
        "score": score,
        "reviewed_sha": "abc",
        "status": status,
        "verdict": "ok",
        "models": ["m"],
        "findings": [{
            "id": "1", "scope": "pr", "severity": "P3", "confidence": 0.5,
            "file": null, "line": null, "title": "t", "detail": null, "agent_instruction": "do"
        }],
        "notes": []
    })
}

fn messages(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(|p| format!("{} {}", p.path, p.message)).collect()
}

#[test]
fn every_schema_compiles_offline() {
    warm();
    for (name, _) in BUNDLES {
        assert_eq!(compiled(name).err(), None, "{name}");
    }
    for (name, text) in FILES {
        let doc: Value = serde_json::from_str(text).expect("embedded schema is JSON");
        assert_eq!(doc["$id"], json!(format!("{SCHEMA_BASE}{name}")), "{name}");
        assert_eq!(
            doc["$schema"],
            json!("https://json-schema.org/draft/2020-12/schema"),
            "{name}"
        );
    }
}

#[test]
fn a_conforming_agent_result_has_no_problems() {
    assert_eq!(
        check(Format::AgentResult, &minimal_agent_result()),
        Vec::<Problem>::new()
    );
}

#[test]
fn unknown_member_points_at_the_member() {
    let mut doc = minimal_agent_result();
    doc["findings"][0]["foo"] = json!(1);
    let problems = check(Format::AgentResult, &doc);
    assert_eq!(
        problems,
        vec![Problem::new("schema", "/findings/0/foo", "unknown member `foo`")]
    );
}

#[test]
fn missing_member_names_it_at_the_parent() {
    let mut doc = minimal_agent_result();
    doc.as_object_mut().map(|m| m.remove("scope"));
    assert_eq!(
        messages(&check(Format::AgentResult, &doc)),
        vec![" missing required member `scope`"]
    );
}

#[test]
fn bounds_types_and_enums_read_plainly() {
    let mut doc = minimal_agent_result();
    doc["findings"][0]["confidence"] = json!(1.5);
    doc["findings"][0]["severity"] = json!("p2");
    doc["findings"][0]["line"] = json!("3");
    let got = messages(&check(Format::AgentResult, &doc));
    assert!(
        got.contains(&"/findings/0/confidence `confidence` must be <= 1 (got 1.5)".to_string()),
        "{got:?}"
    );
    assert!(
        got.contains(
            &"/findings/0/severity `severity` must be one of `P0`, `P1`, `P2`, `P3`, `P4` (got \"p2\")".to_string()
        ),
        "{got:?}"
    );
    assert!(
        got.contains(&"/findings/0/line `line` must be an integer or null (got the string \"3\")".to_string()),
        "{got:?}"
    );
    assert_eq!(got.len(), 3);
}

#[test]
fn conditional_rules_name_their_condition() {
    let mut doc = minimal_agent_result();
    doc["scope"] = json!({"kind": "pull_request", "repository": "o/r", "pull_request_number": 0});
    assert_eq!(
        messages(&check(Format::AgentResult, &doc)),
        vec!["/scope/pull_request_number `pull_request_number` must be >= 1 (got 0) (when `kind` is `pull_request`)"]
    );
}

#[test]
fn dependent_members_say_what_they_go_with() {
    let mut doc = minimal_agent_result();
    doc["findings"][0]["prior_dispositions"] = json!([{
        "disposition": "still_open", "submitted_disposition": "accepted",
        "evidence_summary": "e", "actor": "a", "reviewed_sha": "s", "code_fingerprint": "c"
    }]);
    assert_eq!(
        messages(&check(Format::AgentResult, &doc)),
        vec![
            "/findings/0/prior_dispositions/0 missing member `submission_id` (it must come with `submitted_disposition`)"
        ]
    );
}

#[test]
fn nulls_only_where_allowed() {
    let mut doc = minimal_agent_result();
    doc["findings"][0]["thread_status"] = json!(null);
    doc["findings"][0]["evidence"] = json!(null);
    let got = messages(&check(Format::AgentResult, &doc));
    assert_eq!(got.len(), 2, "{got:?}");
    let mut ok = minimal_agent_result();
    ok["findings"][0]["verification"] = json!(null);
    ok["timings"] = json!(null);
    assert!(check(Format::AgentResult, &ok).is_empty());
}

#[test]
fn legacy_outputs_of_both_versions_are_accepted() {
    assert!(check(Format::ArtifactLegacy, &minimal_legacy("passed", json!(5))).is_empty());
    let mut v2 = minimal_legacy("review_error", json!(null));
    v2["angle_errors"] = json!([{
        "angle_id": "a", "angle_name": "A", "kind": "timeout", "retryable": true, "message": "m", "model": "x"
    }]);
    assert!(check(Format::ArtifactLegacy, &v2).is_empty());
    v2["angle_errors"][0]["kind"] = json!("verification_inconclusive");
    assert_eq!(
        check(Format::ArtifactLegacy, &v2).len(),
        1,
        "v2 knows five angle error kinds"
    );
}

#[test]
fn legacy_schema_rejects_v3_only_members_and_v3_rejects_legacy_findings() {
    let mut doc = minimal_legacy("passed", json!(5));
    doc["findings"][0]["classification"] = json!("defect");
    assert_eq!(
        messages(&check(Format::ArtifactLegacy, &doc)),
        vec!["/findings/0/classification unknown member `classification`"]
    );
    let v3 = check(Format::ArtifactV3, &minimal_legacy("passed", json!(5)));
    assert!(
        v3.iter()
            .any(|p| p.message == "missing required member `classification`"),
        "{v3:?}"
    );
}

#[test]
fn river_unknown_members_are_accepted_and_listed_as_notices() {
    let doc = json!({
        "version": "1", "timestamp": "2026-01-01T00:00:00Z", "phase": "midstream", "status": "ok",
        "gate": {"decision": "GO", "reasonCode": "CONVERGED_CLEAN", "tier": "field", "inputs": {"x": 1}},
        "suggestedLoopSignal": "CONVERGED",
        "futureThing": {"a": 1},
        "debug": {"anything": {"goes": true}},
        "findings": [{
            "id": "rr-1", "ruleId": "r", "title": "t", "message": "m", "severity": "minor",
            "phase": "midstream", "file": "a.js", "scope": "in-diff", "shinyNew": 2
        }]
    });
    assert!(check(Format::RiverArtifact, &doc).is_empty());
    // The schema lets them through; the River reader keeps them as notices.
    let set = crate::model::river::check_artifact(&doc, &[]).set.expect("readable");
    let mut got: Vec<(&str, &str)> = set.notices.iter().map(|p| (p.rule.as_str(), p.path.as_str())).collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            ("river-additive", "/findings/0/shinyNew"),
            ("river-additive", "/futureThing")
        ]
    );
    assert!(set.notices.iter().any(|n| n.message.contains("shinyNew")));
}

#[test]
fn river_known_newer_members_are_still_typed() {
    let doc = json!({
        "version": "1", "timestamp": "t", "phase": "midstream", "status": "ok",
        "gate": {"decision": "MAYBE"}, "suggestedLoopSignal": 3
    });
    let got = messages(&check(Format::RiverArtifact, &doc));
    assert_eq!(got.len(), 2, "{got:?}");
}

#[test]
fn reviewgate_unknown_members_are_errors_not_notices() {
    let mut doc = minimal_agent_result();
    doc["extra"] = json!(1);
    let problems = check(Format::AgentResult, &doc);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].rule, SCHEMA_RULE);
    assert_eq!(problems[0].path, "/extra");
}

#[test]
fn suppression_context_checks_fingerprint_shape() {
    let good = json!({"scope": "file", "active": true, "fingerprint": "0123456789abcdef", "extra": 1});
    assert!(check_river_entry(RiverEntrySchema::SuppressionContext, &good).is_empty());
    let bad = json!({"scope": "file", "active": true, "fingerprint": "0123456789ABCDEF"});
    let got = messages(&check_river_entry(RiverEntrySchema::SuppressionContext, &bad));
    assert_eq!(
        got,
        vec!["/fingerprint `fingerprint` must match the pattern `^[0-9a-f]{16}$` (got \"0123456789ABCDEF\")"]
    );
}

#[test]
fn memory_entry_is_closed_but_its_context_is_free() {
    let entry = json!({
        "id": "suppression-0123456789abcdef-1", "type": "suppression", "title": "Suppress: x", "content": "why",
        "metadata": {"createdAt": "2026-01-01T00:00:00Z", "author": "me", "phase": "midstream",
                     "tags": ["suppression", "active", "file"], "relatedFiles": ["a.js"]},
        "context": {"scope": "file", "active": true, "anything": [1]}
    });
    assert!(check_river_entry(RiverEntrySchema::MemoryEntry, &entry).is_empty());
    let mut dup = entry.clone();
    dup["metadata"]["tags"] = json!(["a", "a"]);
    dup["extra"] = json!(true);
    assert_eq!(check_river_entry(RiverEntrySchema::MemoryEntry, &dup).len(), 2);
}

#[test]
fn subjects_name_members_and_items() {
    assert_eq!(subject(""), "the document");
    assert_eq!(subject("/findings/0/id"), "`id`");
    assert_eq!(subject("/models/2"), "`models` item 2");
    assert_eq!(subject("/a/0/1"), "item 1");
    assert_eq!(subject("/a~1b"), "`a/b`");
}

#[test]
fn many_problems_are_capped_with_a_summary() {
    let mut doc = minimal_agent_result();
    let finding = doc["findings"][0].clone();
    let bad: Vec<Value> = (0..MAX_PROBLEMS + 10)
        .map(|_| {
            let mut f = finding.clone();
            f["confidence"] = json!(2);
            f
        })
        .collect();
    doc["findings"] = Value::Array(bad);
    let problems = check(Format::AgentResult, &doc);
    assert_eq!(problems.len(), MAX_PROBLEMS + 1);
    assert_eq!(problems[MAX_PROBLEMS].message, "... and 10 more schema problems");
}

#[test]
fn required_members_of_a_conditional_name_the_condition() {
    let doc = minimal_legacy("review_error", json!(null));
    assert_eq!(
        messages(&check(Format::ArtifactLegacy, &doc)),
        vec![" missing required member `angle_errors` (when `status` is `review_error`)"]
    );
}

/// The files the bundles are made from are valid draft 2020-12 schemas
/// (a bundle is checked against the meta-schema as it is compiled).
#[test]
fn every_embedded_schema_conforms_to_its_meta_schema() {
    for (name, text) in FILES {
        let doc: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            doc.get("$schema").and_then(Value::as_str),
            Some("https://json-schema.org/draft/2020-12/schema"),
            "{name} declares draft 2020-12"
        );
        if let Err(e) = jsonschema::draft202012::meta::validate(&doc) {
            panic!("{name} is not a valid draft 2020-12 schema: {e}");
        }
    }
    // The check can fail: a keyword with a value of the wrong type.
    let broken = serde_json::json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "minLength": "3"});
    assert!(jsonschema::draft202012::meta::validate(&broken).is_err());
}

/// An error at the root of a document carries the root as an outline (its
/// member names, their values `null`), not a copy of the whole document: a
/// large document with many problems at its top would otherwise be copied
/// once per problem.
#[test]
fn an_errors_instance_is_an_outline_of_the_value() {
    let doc = Doc::of_value(&json!({
        "findings": [{"claim": "x".repeat(100)}, {"claim": "y"}],
        "scope": {"kind": "local", "deep": {"deeper": [1, 2, 3]}},
        "status": "passed",
    }))
    .expect("a readable document");
    let compiled = compiled(file_name(Format::AgentResult)).expect("compiles");
    let root = doc.root().in_name_order();
    let errors: Vec<ValidationError<'_>> = compiled.validator.iter_errors(root).collect();
    let at_root = errors
        .iter()
        .find(|e| e.instance_path().as_str().is_empty())
        .expect("the root misses required members");
    assert_eq!(
        at_root.instance().as_ref(),
        &json!({"findings": null, "scope": null, "status": null})
    );
    let findings = errors
        .iter()
        .find(|e| e.instance_path().as_str() == "/findings/0")
        .expect("the first finding misses required members");
    assert_eq!(findings.instance().as_ref(), &json!({"claim": null}));
    // What the wording reads from an outline is what it read from the value.
    let problems = super::check(Format::AgentResult, doc.root());
    assert!(
        problems
            .iter()
            .any(|p| p.path == "/findings/0" && p.message.contains("missing required member")),
        "{problems:?}"
    );
}

/// An error in every item of a large array: the listing stops after about
/// `MAX_ERRORS` errors instead of making one for every fault of every item
/// (each empty finding misses a dozen members), and the summary says that
/// the count is a lower bound.
#[test]
fn errors_are_listed_within_a_budget() {
    let mut doc = minimal_agent_result();
    doc["findings"] = Value::Array(vec![json!({}); MAX_ERRORS]);
    let doc = Doc::of_value(&doc).expect("a readable document");
    let compiled = compiled(file_name(Format::AgentResult)).expect("compiles");
    let (listed, stopped) =
        doc_json::with_error_budget(MAX_ERRORS, || compiled.validator.iter_errors(doc.root()).count());
    assert!(stopped);
    // The item under way when the budget ran out still lists its own errors.
    assert!((MAX_ERRORS..MAX_ERRORS + 50).contains(&listed), "{listed} errors");
    // Outside a budget every error is listed, as before.
    assert!(compiled.validator.iter_errors(doc.root()).count() > 5 * MAX_ERRORS);
    let problems = super::check(Format::AgentResult, doc.root());
    assert_eq!(problems.len(), MAX_PROBLEMS + 1);
    let last = &problems[MAX_PROBLEMS].message;
    assert!(
        last.starts_with("... and at least ") && last.contains("stops after"),
        "{last}"
    );
}

/// An object of many members is outlined by its first `OUTLINE_MEMBERS`
/// names: each error at the root of such a document would otherwise carry
/// all of them.
#[test]
fn an_outline_keeps_a_bounded_number_of_members() {
    let members: serde_json::Map<String, Value> = (0..1000).map(|i| (format!("m{i:04}"), json!(i))).collect();
    let doc = Doc::of_value(&Value::Object(members)).expect("a readable document");
    let compiled = compiled(file_name(Format::AgentResult)).expect("compiles");
    let errors: Vec<ValidationError<'_>> = compiled.validator.iter_errors(doc.root()).collect();
    let at_root = errors
        .iter()
        .find(|e| matches!(e.kind(), ValidationErrorKind::Required { .. }))
        .expect("the root misses required members");
    let outline = at_root.instance().as_object().expect("an object").len();
    assert_eq!(outline, doc_json::OUTLINE_MEMBERS);
    // The unknown members are all counted, though only some are worded.
    let problems = super::check(Format::AgentResult, doc.root());
    assert_eq!(problems.len(), MAX_PROBLEMS + 1);
    assert!(problems[MAX_PROBLEMS].message.starts_with("... and 8"), "{problems:?}");
}
