//! v3 review output rules (A1–A31, P14), the projection (J1–J7) and the model.

use super::*;

/// Asserts that the mutated base breaks exactly `rule`, at `path`.
fn only(base: fn() -> Value, mutate: impl FnOnce(&mut Value), rule: &str, path: &str) {
    let mut v = base();
    mutate(&mut v);
    let c = artifact(&v);
    assert_eq!(rules(&c), BTreeSet::from([rule.to_owned()]), "{:#?}", c.problems);
    assert!(
        c.problems.iter().any(|p| p.path == path),
        "no problem at {path}: {:#?}",
        c.problems
    );
}

fn semantic_context() -> Value {
    json!({"status": "collected", "reviewed_sha": "abc123", "parser": "tree-sitter", "changed_symbol_count": 1,
           "candidate_count": 2, "selected_count": 1, "rg_calls": 1, "rg_output_bytes": 10, "selected_bytes": 10,
           "truncated": false, "excerpts": [{"path": "a.rs", "start_line": 1, "end_line": 2, "reason": "caller",
           "relation": "calls", "bytes": 10, "truncated": false, "reviewed_sha": "abc123"}]})
}

fn angle_error(id: &str) -> Value {
    json!({"angle_id": id, "angle_name": "Tests", "kind": "verification_inconclusive", "retryable": false,
           "message": "unsure", "model": "m"})
}

#[test]
fn p14_and_top_level() {
    only(
        plain_base,
        |v| put(v, "/target_score", json!(5)),
        "P14",
        "/target_score",
    );
    only(
        plain_base,
        |v| put(v, "/reviewed_sha", json!("\u{2003}")),
        "A1",
        "/reviewed_sha",
    );
    only(
        plain_base,
        |v| put(v, "/estimated_cost_usd", json!(-0.01)),
        "A5",
        "/estimated_cost_usd",
    );
    only(
        plain_base,
        |v| put(v, "/cost_summary/components/1/label", json!(" ")),
        "S4",
        "/cost_summary/components/1/label",
    );
    only(
        plain_base,
        |v| put(v, "/review_stages/0/reason", json!("")),
        "A6",
        "/review_stages/0/reason",
    );
    only(
        plain_base,
        |v| put(v, "/metrics/current_run_cost_usd", json!(-1)),
        "A7",
        "/metrics/current_run_cost_usd",
    );
    // A whitespace-only verdict passes (schema checks only).
    let mut v = plain_base();
    put(&mut v, "/verdict", json!(" "));
    put(&mut v, "/estimated_cost_usd", json!(-0.0));
    assert!(artifact(&v).problems.is_empty());
}

#[test]
fn a2_to_a4_status_and_score() {
    let c = {
        let mut v = plain_base();
        put(&mut v, "/score", json!(6));
        artifact(&v)
    };
    assert!(rules(&c).contains("A2"), "{:#?}", c.problems);
    only(plain_base, |v| put(v, "/score", json!(4)), "A4", "/score");
    only(plain_base, |v| put(v, "/score", json!(null)), "A4", "/score");
    only(plain_base, |v| put(v, "/status", json!("passed")), "A4", "/status");
    only(
        plain_base,
        |v| put(v, "/angle_errors", json!([angle_error("tests")])),
        "A4",
        "/angle_errors",
    );
    only(
        plain_base,
        |v| {
            put(v, "/status", json!("review_error"));
            put(v, "/score", json!(null));
            put(v, "/angle_errors", json!([]));
        },
        "A3",
        "/angle_errors",
    );
    // Null angle_errors is refused (P13), and such an output has no model
    // and so no projection: ReviewGate cannot read it (before, the model
    // was built and its projection said ok).
    let mut v = plain_base();
    put(&mut v, "/angle_errors", json!(null));
    let c = artifact(&v);
    assert_eq!(rules(&c), BTreeSet::from(["P13".to_owned()]), "{:#?}", c.problems);
    assert!(
        c.problems.iter().any(|p| p.path == "/angle_errors"),
        "{:#?}",
        c.problems
    );
    assert!(c.set.is_none(), "an output ReviewGate cannot read has no projection");
    // No angle_errors member at all (the plain base has none): the problem
    // points at the document, where the member is missing.
    let mut v = plain_base();
    put(&mut v, "/status", json!("review_error"));
    put(&mut v, "/score", json!(null));
    let c = artifact(&v);
    assert!(
        c.problems
            .iter()
            .any(|p| p.rule == "A3" && p.path.is_empty() && p.message.contains("absent")),
        "{:#?}",
        c.problems
    );
    only(
        plain_base,
        |v| {
            put(v, "/status", json!("review_error"));
            put(v, "/angle_errors", json!([angle_error("tests")]));
        },
        "A3",
        "/score",
    );
    // An inconclusive verifier blocks nothing and means the review did not complete.
    let mut v = plain_base();
    let verification = json!({"state": "inconclusive", "reason": "unsure", "model": "m", "evidence": []});
    put(&mut v, "/findings/0/verification", verification);
    put(&mut v, "/findings/0/blocking_reason", json!(null));
    put(&mut v, "/score", json!(5));
    put(&mut v, "/status", json!("passed"));
    let c = artifact(&v);
    assert_eq!(rules(&c), BTreeSet::from(["A4".to_owned()]), "{:#?}", c.problems);
    assert_eq!(c.problems[0].path, "/findings/0/verification/state");
    // The same file as a review_error keeps its findings and is valid.
    put(&mut v, "/status", json!("review_error"));
    put(&mut v, "/score", json!(null));
    put(&mut v, "/angle_errors", json!([angle_error("tests")]));
    let c = artifact(&v);
    assert!(c.problems.is_empty(), "{:#?}", c.problems);
    assert_eq!(c.set.expect("model").findings.len(), 2);
}

#[test]
fn a8_semantic_context() {
    let with = |mutate: fn(&mut Value)| {
        move |v: &mut Value| {
            let mut ctx = semantic_context();
            mutate(&mut ctx);
            put(v, "/metrics/semantic_context", ctx);
        }
    };
    let mut v = plain_base();
    with(|_| {})(&mut v);
    assert!(artifact(&v).problems.is_empty());
    only(
        plain_base,
        with(|c| put(c, "/selected_count", json!(2))),
        "A8",
        "/metrics/semantic_context/selected_count",
    );
    only(
        plain_base,
        with(|c| put(c, "/parser", json!(" "))),
        "A8",
        "/metrics/semantic_context/parser",
    );
    only(
        plain_base,
        with(|c| put(c, "/excerpts/0/end_line", json!(0))),
        "A8",
        "/metrics/semantic_context/excerpts/0/end_line",
    );
    only(
        plain_base,
        with(|c| put(c, "/excerpts/0/reviewed_sha", json!("abc124"))),
        "A8",
        "/metrics/semantic_context/excerpts/0/reviewed_sha",
    );
    only(
        plain_base,
        with(|c| put(c, "/excerpts/0/relation", json!("\t"))),
        "A8",
        "/metrics/semantic_context/excerpts/0/relation",
    );
    // Null is not allowed for semantic_context (P13), absence is.
    only(
        plain_base,
        |v| put(v, "/metrics/semantic_context", json!(null)),
        "P13",
        "/metrics/semantic_context",
    );
}

#[test]
fn a13_to_a17_findings() {
    only(
        plain_base,
        |v| put(v, "/findings/1/confidence", json!(1.5)),
        "A13",
        "/findings/1/confidence",
    );
    only(
        plain_base,
        |v| put(v, "/findings/0/blocking_reason", json!("validated_defect")),
        "A14",
        "/findings/0/blocking_reason",
    );
    only(
        plain_base,
        |v| put(v, "/findings/1/blocking_reason", json!("validated_defect")),
        "A14",
        "/findings/1/blocking_reason",
    );
    only(
        plain_base,
        |v| {
            put(v, "/findings/0/evidence_gate_result", json!("failed"));
            put(v, "/score", json!(5));
            put(v, "/status", json!("passed"));
        },
        "A14",
        "/findings/0/blocking_reason",
    );
    only(
        plain_base,
        |v| {
            let verification = json!({"state": "verified", "reason": "ok", "model": "m",
            "evidence": [{"path": "a", "side": "old", "line": 1, "excerpt": "x", "reason": "r"}]});
            put(v, "/findings/1/verification", verification);
        },
        "A15",
        "/findings/1/verification",
    );
    only(
        plain_base,
        |v| {
            let verification = json!({"state": "verified", "reason": " ", "model": "m",
            "evidence": [{"path": "a", "side": "old", "line": 1, "excerpt": "x", "reason": "r"}]});
            put(v, "/findings/0/verification", verification);
        },
        "S2",
        "/findings/0/verification/reason",
    );
    only(
        plain_base,
        |v| put(v, "/findings/1/id", json!("rg_001")),
        "A17",
        "/findings/1/id",
    );
    // A rejected verification means no blocker and no projection of that finding.
    let mut v = plain_base();
    let verification = json!({"state": "rejected", "reason": "not reachable", "model": "m",
        "evidence": [{"path": "a", "side": "new", "line": 1, "excerpt": "x", "reason": "r"}]});
    put(&mut v, "/findings/0/verification", verification);
    put(&mut v, "/findings/0/blocking_reason", json!(null));
    put(&mut v, "/score", json!(5));
    put(&mut v, "/status", json!("passed"));
    let c = artifact(&v);
    assert!(c.problems.is_empty(), "{:#?}", c.problems);
    let set = c.set.expect("model");
    assert_eq!(set.findings.len(), 1);
    assert_eq!(set.findings[0].id, "rg_002");
}

#[test]
fn a14_threshold_is_inclusive() {
    let mut v = plain_base();
    put(&mut v, "/findings/0/confidence", json!(0.85));
    assert!(artifact(&v).problems.is_empty());
    put(&mut v, "/findings/0/confidence", json!(0.8499999999999999));
    let c = artifact(&v);
    assert_eq!(
        rules(&c),
        BTreeSet::from(["A14".to_owned(), "A4".to_owned()]),
        "{:#?}",
        c.problems
    );
}

#[test]
fn a18_to_a23_angles() {
    only(
        angles_base,
        |v| put(v, "/angle_results/0/verdict", json!(" ")),
        "A18",
        "/angle_results/0/verdict",
    );
    only(
        angles_base,
        |v| put(v, "/angle_results/1/status", json!("review_error")),
        "A18",
        "/angle_results/1/status",
    );
    only(
        angles_base,
        |v| {
            let copy = v.pointer("/angle_results/0").cloned().expect("angle");
            push(v, "/angle_results", copy);
        },
        "A19",
        "/angle_results/2/id",
    );
    only(
        angles_base,
        |v| push(v, "/angle_results/0/finding_ids", json!("nope")),
        "A20",
        "/angle_results/0/finding_ids/0",
    );
    only(
        angles_base,
        |v| push(v, "/angle_results/1/finding_ids", json!("adversarial:rg_001")),
        "A20",
        "/angle_results/1/finding_ids/1",
    );
    only(
        angles_base,
        |v| {
            put(v, "/angle_results/1/finding_ids", json!([]));
            put(v, "/angle_results/1/score", json!(5));
            put(v, "/angle_results/1/status", json!("passed"));
        },
        "A20",
        "/angle_results/1/finding_ids",
    );
    only(
        angles_base,
        |v| put(v, "/angle_results/1/score", json!(5)),
        "A21",
        "/angle_results/1/score",
    );
    only(
        angles_base,
        |v| put(v, "/angle_results/0/status", json!("needs_changes")),
        "A21",
        "/angle_results/0/status",
    );
    only(
        plain_base,
        |v| put(v, "/findings/0/angle_id", json!("general")),
        "A22",
        "/findings/0/angle_id",
    );
    let errors = |v: &mut Value, list: Value| {
        put(v, "/status", json!("review_error"));
        put(v, "/score", json!(null));
        put(v, "/angle_errors", list);
    };
    only(
        angles_base,
        |v| errors(v, json!([angle_error("tests"), angle_error("tests")])),
        "A23",
        "/angle_errors/1/angle_id",
    );
    only(
        angles_base,
        |v| errors(v, json!([angle_error("general")])),
        "A23",
        "/angle_errors/0/angle_id",
    );
    only(
        angles_base,
        |v| {
            let mut e = angle_error("tests");
            put(&mut e, "/model", json!(""));
            errors(v, json!([e]));
        },
        "S6",
        "/angle_errors/0/model",
    );
}

#[test]
fn a24_to_a30_tracked() {
    only(
        tracked_base,
        |v| {
            put(v, "/tracked_findings/1/finding/confidence", json!(-0.5));
            put(v, "/findings/1/confidence", json!(-0.5));
        },
        "A13",
        "/tracked_findings/1/finding/confidence",
    );
    only(
        tracked_base,
        |v| {
            settle_second(v);
            put(v, "/tracked_findings/1/semantic_fingerprint", json!("suggestion:x"));
        },
        "A25",
        "/tracked_findings/1/semantic_fingerprint",
    );
    only(
        tracked_base,
        |v| {
            put(
                v,
                "/tracked_findings/1/disposition_history/0/disposition",
                json!("fixed"),
            )
        },
        "A26",
        "/tracked_findings/1/disposition_history/0/disposition",
    );
    only(
        tracked_base,
        |v| put(v, "/tracked_findings/1/disposition_history", json!([])),
        "A26",
        "/tracked_findings/1/disposition_history",
    );
    only(
        tracked_base,
        |v| put(v, "/tracked_findings/1/disposition_history/0/submission_id", json!(4)),
        "S7",
        "/tracked_findings/1/disposition_history/0",
    );
    only(
        tracked_base,
        |v| {
            let copy = v.pointer("/tracked_findings/1").cloned().expect("tracked");
            push(v, "/tracked_findings", copy);
        },
        "A27",
        "/tracked_findings/2/semantic_fingerprint",
    );
    only(tracked_base, |v| remove(v, "/tracked_findings/1"), "A29", "/findings/1");
    only(
        tracked_base,
        |v| remove(v, "/findings/1"),
        "A29",
        "/tracked_findings/1/semantic_fingerprint",
    );
    only(
        tracked_base,
        |v| put(v, "/tracked_findings/1/finding/detail", json!("edited")),
        "A30",
        "/tracked_findings/1/finding",
    );
    only(
        tracked_base,
        |v| put(v, "/tracked_findings/1/finding/angle_id", json!("general")),
        "A30",
        "/tracked_findings/1/finding",
    );
}

#[test]
fn a30_equality_is_typed() {
    let mut v = tracked_base();
    // 0.72 written differently, absent vs null optional members.
    put(&mut v, "/tracked_findings/1/finding/confidence", json!(0.720));
    put(&mut v, "/tracked_findings/1/finding/angle_id", json!(null));
    put(&mut v, "/tracked_findings/1/finding/grounding", json!(null));
    assert!(artifact(&v).problems.is_empty(), "{:#?}", artifact(&v).problems);
}

/// Marks the second tracked finding fixed and drops its top-level finding.
fn settle_second(v: &mut Value) {
    put(v, "/tracked_findings/1/disposition", json!("fixed"));
    push(
        v,
        "/tracked_findings/1/disposition_history",
        json!({"disposition": "fixed",
        "submitted_disposition": "already_implemented", "submission_id": 9, "evidence_summary": "done",
        "actor": "dev", "reviewed_sha": "abc123", "code_fingerprint": "c"}),
    );
    remove(v, "/findings/1");
}

#[test]
fn a31_settled_tracked_findings_are_not_compared() {
    let mut v = tracked_base();
    settle_second(&mut v);
    put(&mut v, "/tracked_findings/1/finding/angle_id", json!("anything"));
    let c = artifact(&v);
    assert!(c.problems.is_empty(), "{:#?}", c.problems);
    let set = c.set.expect("model");
    let fixed = set.findings[1].reviewgate().expect("reviewgate");
    assert_eq!(fixed.disposition, Disposition::Fixed);
    // J3: a settled finding keeps no blocking reason and carries its history.
    assert_eq!(fixed.blocking_reason, None);
    assert_eq!(fixed.history.len(), 2);
}

#[test]
fn a29_is_skipped_for_review_error() {
    let mut v = tracked_base();
    remove(&mut v, "/tracked_findings/1");
    put(&mut v, "/status", json!("review_error"));
    put(&mut v, "/score", json!(null));
    put(&mut v, "/angle_errors", json!([angle_error("tests")]));
    assert!(artifact(&v).problems.is_empty());
}

#[test]
fn strict_typed_reading() {
    only(
        plain_base,
        |v| put(v, "/extra_field", json!(true)),
        "P11",
        "/extra_field",
    );
    only(
        plain_base,
        |v| put(v, "/findings/0/grounding/extra_field", json!(1)),
        "P11",
        "/findings/0/grounding/extra_field",
    );
    only(
        plain_base,
        |v| put(v, "/findings/0/grounding/evidence/0/extra_field", json!(1)),
        "P11",
        "/findings/0/grounding/evidence/0/extra_field",
    );
    only(plain_base, |v| remove(v, "/score"), "P12", "");
    only(
        plain_base,
        |v| remove(v, "/findings/1/classification"),
        "P12",
        "/findings/1",
    );
    only(plain_base, |v| put(v, "/status", json!("failed")), "P7", "/status");
    only(plain_base, |v| put(v, "/findings", json!(null)), "P13", "/findings");
    only(
        plain_base,
        |v| put(v, "/metrics/timings/startup_ms", json!(20.0)),
        "P8",
        "/metrics/timings/startup_ms",
    );
    only(
        plain_base,
        |v| put(v, "/findings/0/grounding/evidence/0/line", json!(-0.0)),
        "P8",
        "/findings/0/grounding/evidence/0/line",
    );
    only(
        plain_base,
        |v| put(v, "/findings/0/grounding/resolution_disposition", json!("still_open")),
        "P7",
        "/findings/0/grounding/resolution_disposition",
    );
    only(
        plain_base,
        |v| put(v, "/findings/0/scope", json!(["line"])),
        "type",
        "/findings/0/scope",
    );
    only(
        plain_base,
        |v| put(v, "/metrics/timings", json!([1, 2, 3, 4])),
        "P10",
        "/metrics/timings",
    );
    only(
        plain_base,
        |v| {
            let f = v.pointer("/findings/1").cloned().expect("finding");
            let positional: Vec<Value> = f.as_object().expect("object").values().cloned().collect();
            put(v, "/findings/1", Value::Array(positional));
        },
        "P10",
        "/findings/1",
    );
}
