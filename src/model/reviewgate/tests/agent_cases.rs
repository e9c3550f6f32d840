//! Agent result rules (R1–R21, S1–S8 as they apply, P7–P13).

use super::*;

/// Asserts that the mutated base breaks exactly `rule`, at `path`.
fn only(mutate: impl FnOnce(&mut Value), rule: &str, path: &str) {
    let mut v = agent_base();
    mutate(&mut v);
    let c = agent(&v);
    assert_eq!(rules(&c), BTreeSet::from([rule.to_owned()]), "{:#?}", c.problems);
    assert!(
        c.problems.iter().any(|p| p.path == path),
        "no problem at {path}: {:#?}",
        c.problems
    );
}

#[test]
fn r1_raw_size() {
    let v = agent_base();
    assert!(check_agent_result(&v, MAX_BYTES).problems.is_empty());
    let c = check_agent_result(&v, MAX_BYTES + 1);
    assert_eq!(rules(&c), BTreeSet::from(["R1".to_owned()]));
}

#[test]
fn r2_canonical_size_counts_defaults() {
    let mut v = agent_base();
    // The base writes every member, so its compact form is its canonical size.
    put(&mut v, "/findings/1/suggested_fix", json!("x"));
    let base_len = serde_json::to_vec(&v).expect("json").len();
    put(
        &mut v,
        "/findings/1/suggested_fix",
        json!("x".repeat(1 + MAX_BYTES - base_len)),
    );
    assert!(agent(&v).problems.is_empty(), "exactly {MAX_BYTES} bytes is allowed");
    put(
        &mut v,
        "/findings/1/suggested_fix",
        json!("x".repeat(2 + MAX_BYTES - base_len)),
    );
    assert_eq!(rules(&agent(&v)), BTreeSet::from(["R2".to_owned()]));
    // Omitted thread members are written back (R20) and count: `"unknown"`
    // twice and `false` are 3 bytes longer than `"open"`, `"retained"`, `true`.
    put(
        &mut v,
        "/findings/1/suggested_fix",
        json!("x".repeat(1 + MAX_BYTES - base_len - 2)),
    );
    assert!(agent(&v).problems.is_empty());
    remove(&mut v, "/findings/0/thread_outdated");
    put(&mut v, "/findings/0/thread_status", json!("unknown"));
    put(&mut v, "/findings/0/thread_transition", json!("unknown"));
    remove(&mut v, "/findings/0/thread_status");
    remove(&mut v, "/findings/0/thread_transition");
    let c = agent(&v);
    assert!(serde_json::to_vec(&v).expect("json").len() <= MAX_BYTES);
    assert_eq!(rules(&c), BTreeSet::from(["R2".to_owned()]), "{:#?}", c.problems);
}

#[test]
fn r3_to_r7_top_level() {
    only(
        |v| put(v, "/schema_version", json!("reviewgate-agent-result/v2")),
        "R3",
        "/schema_version",
    );
    only(|v| put(v, "/reviewed_sha", json!("\u{3000}")), "R4", "/reviewed_sha");
    only(|v| put(v, "/score", json!(5)), "R5", "/score");
    only(|v| put(v, "/status", json!("passed")), "R5", "/score");
    only(|v| put(v, "/score", json!(null)), "R5", "/score");
    only(
        |v| {
            put(v, "/status", json!("review_error"));
            put(v, "/score", json!(null));
        },
        "R5",
        "/angle_errors",
    );
    only(
        |v| put(v, "/scope", json!({"kind": "local", "repository": "o/r"})),
        "S8",
        "/scope",
    );
    only(
        |v| put(v, "/scope/pull_request_number", json!(0)),
        "S8",
        "/scope/pull_request_number",
    );
    only(|v| put(v, "/scope/repository", json!(" ")), "S8", "/scope/repository");
    only(
        |v| put(v, "/costs/estimated_total_usd", json!(-1)),
        "R7",
        "/costs/estimated_total_usd",
    );
    only(
        |v| put(v, "/costs/summary/components/0/model", json!("")),
        "S4",
        "/costs/summary/components/0/model",
    );
    only(
        |v| put(v, "/costs/summary/current_run_usd", json!(-0.5)),
        "S4",
        "/costs/summary/current_run_usd",
    );
}

#[test]
fn r5_accepts_each_status_shape() {
    let mut v = agent_base();
    put(&mut v, "/score", json!(0));
    assert!(agent(&v).problems.is_empty());
    put(&mut v, "/status", json!("review_error"));
    put(&mut v, "/score", json!(null));
    let error = json!({"angle_id": "general", "angle_name": "General", "kind": "timeout", "retryable": true,
                       "message": "timed out", "model": "m"});
    put(&mut v, "/angle_errors", json!([error.clone(), error]));
    // R8: duplicate angle ids are allowed in an agent result.
    assert!(agent(&v).problems.is_empty(), "{:#?}", agent(&v).problems);
    put(&mut v, "/angle_errors/1/message", json!("\u{a0}"));
    assert_eq!(rules(&agent(&v)), BTreeSet::from(["S6".to_owned()]));
}

#[test]
fn r10_to_r13_findings() {
    only(|v| put(v, "/findings/0/id", json!(" ")), "R10", "/findings/0/id");
    only(
        |v| put(v, "/findings/0/suggested_fix", json!("\n")),
        "R10",
        "/findings/0/suggested_fix",
    );
    only(
        |v| put(v, "/findings/1/semantic_fingerprint", json!("defect:src.a.rs:key.one")),
        "R11",
        "/findings/1/semantic_fingerprint",
    );
    only(
        |v| put(v, "/findings/0/confidence", json!(1.0000001)),
        "R12",
        "/findings/0/confidence",
    );
    only(|v| put(v, "/findings/0/line", json!(0)), "R12", "/findings/0/line");
    only(
        |v| put(v, "/findings/0/evidence/0/excerpt", json!("  ")),
        "R13",
        "/findings/0/evidence/0/excerpt",
    );
    only(
        |v| put(v, "/findings/0/evidence/0/line", json!(0)),
        "R13",
        "/findings/0/evidence/0/line",
    );
}

#[test]
fn r10_allows_repeated_ids_and_zero_width_text() {
    let mut v = agent_base();
    put(&mut v, "/findings/1/id", json!("rg_001"));
    put(&mut v, "/findings/1/suggested_fix", json!("\u{200b}"));
    assert!(agent(&v).problems.is_empty());
}

#[test]
fn r14_verification() {
    only(
        |v| put(v, "/findings/0/verification/state", json!("rejected")),
        "R14",
        "/findings/0/blocking_reason",
    );
    only(
        |v| put(v, "/findings/0/verification/state", json!("inconclusive")),
        "R14",
        "/findings/0/blocking_reason",
    );
    only(
        |v| put(v, "/findings/0/verification/reason", json!("é".repeat(4001))),
        "S2",
        "/findings/0/verification/reason",
    );
    only(
        |v| put(v, "/findings/0/verification/evidence", json!([])),
        "S2",
        "/findings/0/verification/evidence",
    );
    only(
        |v| put(v, "/findings/0/verification/evidence/0/path", json!("")),
        "S2",
        "/findings/0/verification/evidence/0/path",
    );
    only(
        |v| {
            let decision = json!({"state": "inconclusive", "reason": "unsure", "model": "m2", "evidence": []});
            put(
                v,
                "/findings/0/verification/conflicting_decisions",
                json!(vec![decision; 9]),
            );
        },
        "S3",
        "/findings/0/verification/conflicting_decisions",
    );
    only(
        |v| {
            let decision = json!({"state": "rejected", "reason": "no", "model": "m2", "evidence": []});
            put(v, "/findings/0/verification/conflicting_decisions", json!([decision]));
        },
        "S2",
        "/findings/0/verification/conflicting_decisions/0/evidence",
    );
    let mut v = agent_base();
    put(&mut v, "/findings/0/verification/reason", json!("é".repeat(4000)));
    assert!(agent(&v).problems.is_empty());
}

#[test]
fn r15_r16_dispositions() {
    only(
        |v| put(v, "/findings/1/blocking_reason", json!("validated_security")),
        "R15",
        "/findings/1/blocking_reason",
    );
    only(
        |v| put(v, "/findings/1/prior_dispositions/1/disposition", json!("disputed")),
        "R16",
        "/findings/1/prior_dispositions/1/disposition",
    );
    only(
        |v| remove(v, "/findings/1/prior_dispositions/1/submission_id"),
        "S7",
        "/findings/1/prior_dispositions/1",
    );
    only(
        |v| put(v, "/findings/1/prior_dispositions/1/submission_id", json!(0)),
        "S7",
        "/findings/1/prior_dispositions/1/submission_id",
    );
    only(
        |v| put(v, "/findings/1/prior_dispositions/0/actor", json!("\t")),
        "S7",
        "/findings/1/prior_dispositions/0/actor",
    );
    let mut v = agent_base();
    put(&mut v, "/findings/1/prior_dispositions", json!([]));
    assert!(
        agent(&v).problems.is_empty(),
        "an empty history goes with any disposition"
    );
}

#[test]
fn r17_to_r19_threads() {
    only(
        |v| put(v, "/findings/0/thread_id", json!("\u{2028}")),
        "R17",
        "/findings/0/thread_id",
    );
    only(
        |v| put(v, "/findings/0/reopening_evidence", json!(" ")),
        "R17",
        "/findings/0/reopening_evidence",
    );
    only(
        |v| {
            put(v, "/findings/0/thread_status", json!("unknown"));
            put(v, "/findings/0/thread_transition", json!("unknown"));
        },
        "R18",
        "/findings/0/thread_outdated",
    );
    only(
        |v| {
            put(v, "/findings/1/thread_status", json!("not_published"));
            put(v, "/findings/1/thread_transition", json!("not_published"));
        },
        "R18",
        "/findings/1/thread_id",
    );
    only(
        |v| put(v, "/findings/0/thread_id", json!(null)),
        "R18",
        "/findings/0/thread_id",
    );
    only(
        |v| put(v, "/findings/0/thread_transition", json!("resolution_pending")),
        "R19",
        "/findings/0/thread_transition",
    );
    // An absent transition reads as unknown; the problem points at the finding.
    only(|v| remove(v, "/findings/0/thread_transition"), "R19", "/findings/0");
    // reopened needs an earlier settled record and reopening evidence.
    only(
        |v| {
            put(v, "/findings/0/thread_transition", json!("reopened"));
            put(v, "/findings/0/reopening_evidence", json!("the guard came back"));
        },
        "R19",
        "/findings/0/thread_transition",
    );
}

#[test]
fn r19_reopened_is_derived() {
    let mut v = agent_base();
    let settled = json!({"disposition": "fixed", "evidence_summary": "s", "actor": "a", "reviewed_sha": "old",
                         "code_fingerprint": "c1"});
    let reopened = json!({"disposition": "still_open", "evidence_summary": "s", "actor": "a", "reviewed_sha": "abc123",
                          "code_fingerprint": "c1"});
    put(&mut v, "/findings/0/prior_dispositions", json!([settled, reopened]));
    put(&mut v, "/findings/0/reopening_evidence", json!("the guard came back"));
    put(&mut v, "/findings/0/thread_transition", json!("reopened"));
    assert!(agent(&v).problems.is_empty(), "{:#?}", agent(&v).problems);
    // The last record alone does not count as "previously settled".
    put(
        &mut v,
        "/findings/0/prior_dispositions",
        json!([{"disposition": "still_open", "evidence_summary": "s",
        "actor": "a", "reviewed_sha": "abc123", "code_fingerprint": "c1"}]),
    );
    assert_eq!(rules(&agent(&v)), BTreeSet::from(["R19".to_owned()]));
}

#[test]
fn r20_defaults_for_older_files() {
    let mut v = agent_base();
    for member in [
        "thread_status",
        "thread_transition",
        "thread_outdated",
        "reopening_evidence",
        "verification",
    ] {
        remove(&mut v, &format!("/findings/0/{member}"));
    }
    let c = agent(&v);
    assert!(c.problems.is_empty(), "{:#?}", c.problems);
    let set = c.set.expect("model");
    let rg = set.findings[0].reviewgate().expect("reviewgate finding");
    assert_eq!(
        (rg.thread.status, rg.thread.transition),
        (ThreadStatus::Unknown, ThreadTransition::Unknown)
    );
    // Null is not a default: it is rejected (P13).
    let mut v = agent_base();
    put(&mut v, "/findings/0/thread_status", json!(null));
    assert_eq!(rules(&agent(&v)), BTreeSet::from(["P13".to_owned()]));
    // So is a null transition, at its own path (it was read as absent, and
    // R19 blamed the finding for an "absent" member).
    only(
        |v| put(v, "/findings/0/thread_transition", json!(null)),
        "P13",
        "/findings/0/thread_transition",
    );
}

#[test]
fn p8_integer_literals() {
    for bad in [json!(3.0), json!(-0.0), json!(-3), json!(1e0)] {
        only(|v| put(v, "/score", bad), "P8", "/score");
    }
    only(
        |v| put(v, "/findings/0/line", json!(4294967296u64)),
        "P8",
        "/findings/0/line",
    );
    only(
        |v| put(v, "/scope/pull_request_number", json!(18446744073709551616.0)),
        "P8",
        "/scope/pull_request_number",
    );
    only(|v| put(v, "/score", json!(256)), "P8", "/score");
    let mut v = agent_base();
    put(&mut v, "/findings/0/line", json!(u32::MAX));
    put(&mut v, "/scope/pull_request_number", json!(9007199254740993u64));
    let c = agent(&v);
    assert!(c.problems.is_empty());
    let scope = c.set.expect("model").scope;
    assert_eq!(
        scope,
        Scope::PullRequest {
            repository: "o/r".into(),
            pull_request_number: 9007199254740993
        }
    );
}

#[test]
fn p8_float_members_accept_integers() {
    let mut v = agent_base();
    put(&mut v, "/findings/1/confidence", json!(1));
    put(&mut v, "/costs/estimated_total_usd", json!(0));
    assert!(agent(&v).problems.is_empty());
}

#[test]
fn strict_typed_reading() {
    only(
        |v| put(v, "/findings/0/evidence/0/extra", json!(1)),
        "P11",
        "/findings/0/evidence/0/extra",
    );
    only(|v| put(v, "/timings/total_ms", json!(1)), "P11", "/timings/total_ms");
    only(|v| remove(v, "/findings/1/path"), "P12", "/findings/1");
    only(|v| remove(v, "/score"), "P12", "");
    only(|v| remove(v, "/costs/summary"), "P12", "/costs");
    only(
        |v| put(v, "/findings/0/severity", json!("p2")),
        "P7",
        "/findings/0/severity",
    );
    only(
        |v| put(v, "/findings/0/confidence", json!("0.86")),
        "type",
        "/findings/0/confidence",
    );
    only(
        |v| put(v, "/findings/0/prior_dispositions/0/submitted_disposition", json!(null)),
        "P13",
        "/findings/0/prior_dispositions/0/submitted_disposition",
    );
    let array = json!([
        "reviewgate-agent-result/v1",
        ["local"],
        "passed",
        5,
        "abc",
        [],
        [null, null],
        null,
        []
    ]);
    let c = agent(&array);
    assert_eq!(rules(&c), BTreeSet::from(["P10".to_owned()]));
}

#[test]
fn every_faulty_finding_is_reported() {
    let mut v = agent_base();
    put(&mut v, "/findings/0/extra", json!(1));
    put(&mut v, "/findings/1/line", json!(2.5));
    let c = agent(&v);
    let paths: BTreeSet<&str> = c.problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        BTreeSet::from(["/findings/0/extra", "/findings/1/line"]),
        "{:#?}",
        c.problems
    );
    assert!(c.set.is_none());
}

#[test]
fn model_of_an_agent_result() {
    let c = agent(&agent_base());
    let set = c.set.expect("model");
    assert_eq!(set.status, ReviewStatus::NeedsChanges);
    assert_eq!(set.score, Some(3));
    assert_eq!(set.reviewed_sha.as_deref(), Some("abc123"));
    assert_eq!(set.projection, Projection::NotApplicable);
    let f = &set.findings[1];
    assert_eq!(f.key.as_str(), "defect:src.b.rs:key.two");
    assert_eq!(
        (f.index, f.rank, f.title.as_deref()),
        (1, crate::model::finding::Severity::P3, None)
    );
    let rg = f.reviewgate().expect("reviewgate finding");
    assert_eq!(rg.disposition, Disposition::Fixed);
    assert_eq!(rg.history.len(), 2);
    assert_eq!(rg.history[1].submission_id, Some(3));
    assert_eq!(rg.thread.id.as_deref(), Some("PRRT_2"));
    assert!(set.findings[0].in_repair_set());
    assert!(!f.in_repair_set());
}
