//! v1 and v2 review outputs get the verdict of the ReviewGate era that wrote
//! them (see `legacy_rules`).

use super::*;

/// A v1 output (no `angle_errors`): one P3 finding, so the derived score is
/// 4 and the derived status `needs_changes`.
fn v1() -> Value {
    json!({
        "score": 4, "reviewed_sha": "abc", "status": "needs_changes", "verdict": "ok", "models": ["m"],
        "findings": [{"id": "a", "angle_id": "general", "scope": "line", "severity": "P3", "confidence": 0.5,
                      "file": "src/x.rs", "line": 4, "title": "Thing is off", "detail": null,
                      "agent_instruction": "fix"}],
        "angle_results": [{"id": "general", "name": "General", "score": 4, "status": "needs_changes",
                           "verdict": "ok", "model": "m", "finding_ids": ["a"]}],
        "notes": []
    })
}

/// The same output as v2 wrote it (it carries `angle_errors`).
fn v2() -> Value {
    let mut v = v1();
    put(&mut v, "/angle_errors", json!([]));
    v
}

fn legacy_rules(v: &Value) -> BTreeSet<String> {
    rules(&check_legacy_artifact(v))
}

#[test]
fn consistent_outputs_of_both_eras_are_valid() {
    assert_eq!(legacy_rules(&v1()), BTreeSet::new());
    assert_eq!(legacy_rules(&v2()), BTreeSet::new());
}

#[test]
fn a_v2_score_or_status_other_than_the_derived_one_is_invalid() {
    let mut score = v2();
    put(&mut score, "/score", json!(3));
    let c = check_legacy_artifact(&score);
    assert_eq!(rules(&c), BTreeSet::from(["A4".to_owned()]));
    assert!(
        c.problems[0].message.contains("derived from the findings, 4"),
        "{:?}",
        c.problems
    );
    let mut status = v2();
    put(&mut status, "/status", json!("passed"));
    let c = check_legacy_artifact(&status);
    assert_eq!(rules(&c), BTreeSet::from(["A4".to_owned()]));
    assert_eq!(c.problems[0].path, "/status");
    let mut angle = v2();
    put(&mut angle, "/angle_results/0/score", json!(5));
    assert_eq!(legacy_rules(&angle), BTreeSet::from(["A21".to_owned()]));
}

#[test]
fn v1_checked_ranges_and_fields_only() {
    // Score and status that disagree with the findings: v1 never compared them.
    let mut v = v1();
    put(&mut v, "/score", json!(5));
    put(&mut v, "/status", json!("passed"));
    put(&mut v, "/reviewed_sha", json!(" "));
    put(&mut v, "/angle_results/0/finding_ids", json!(["nobody"]));
    assert_eq!(legacy_rules(&v), BTreeSet::new());
    // What it did check.
    put(&mut v, "/findings/0/confidence", json!(1.5));
    put(&mut v, "/angle_results/0/model", json!(" "));
    put(&mut v, "/estimated_cost_usd", json!(-1.0));
    assert_eq!(
        legacy_rules(&v),
        BTreeSet::from(["A13".to_owned(), "A18".to_owned(), "A5".to_owned()])
    );
    let mut v2 = v2();
    put(&mut v2, "/reviewed_sha", json!(" "));
    assert_eq!(legacy_rules(&v2), BTreeSet::from(["A1".to_owned()]));
}

#[test]
fn a_v1_failed_status_is_read_as_needs_changes() {
    let mut v = v1();
    put(&mut v, "/status", json!("failed"));
    let c = check_legacy_artifact(&v);
    assert!(c.problems.is_empty(), "{:?}", c.problems);
    assert_eq!(c.set.expect("model").status, ReviewStatus::NeedsChanges);
    // From bytes, the schema and the detection agree.
    let loaded = crate::model::load::load_bytes(v.to_string().as_bytes(), None);
    assert_eq!(loaded.format, Some(Format::ArtifactLegacy));
    assert!(loaded.is_valid(), "{:?}", loaded.problems);
    // A v1 output whose score says passed beside a P3 finding: v1 took it.
    put(&mut v, "/score", json!(5));
    assert!(crate::model::load::load_bytes(v.to_string().as_bytes(), None).is_valid());
    // The same in a v2 output is refused.
    put(&mut v, "/angle_errors", json!([]));
    let loaded = crate::model::load::load_bytes(v.to_string().as_bytes(), None);
    assert!(loaded.problems.iter().any(|p| p.rule == "A4"), "{:?}", loaded.problems);
}
