//! The projection (J1–J7), the model of v3 and legacy outputs, and the
//! fingerprints of every finding.

use super::*;

#[test]
fn projection_matches_the_rules() {
    let v = tracked_base();
    let d = doc(&v);
    let result = project(d.root(), &Scope::Local).expect("projects");
    assert_eq!(result.findings.len(), 2);
    assert_eq!(result.findings[0].thread_status, ThreadStatus::NotPublished);
    let pr = Scope::PullRequest {
        repository: "o/r".into(),
        pull_request_number: 12,
    };
    let result = project(d.root(), &pr).expect("projects");
    let bytes = canonical_projection(&result);
    let text = String::from_utf8(bytes).expect("utf-8");
    assert!(text.starts_with(r#"{"schema_version":"reviewgate-agent-result/v1","scope":{"kind":"pull_request","repository":"o/r","pull_request_number":12},"status":"needs_changes","score":3,"#), "{text}");
    // The projection reads back as a valid agent result with the same fingerprints.
    let back: Value = serde_json::from_str(&text).expect("json");
    let c = check_agent_result(&back, text.len());
    assert!(c.problems.is_empty(), "{:#?}", c.problems);
    let fps: Vec<String> = c
        .set
        .expect("model")
        .findings
        .iter()
        .map(|f| f.key.as_str().to_owned())
        .collect();
    let from_artifact: Vec<String> = artifact(&v)
        .set
        .expect("model")
        .findings
        .iter()
        .map(|f| f.key.as_str().to_owned())
        .collect();
    assert_eq!(fps, from_artifact);
}

#[test]
fn j6_failed_projection_keeps_the_artifact_valid() {
    let mut v = plain_base();
    let mut copy = v.pointer("/findings/1").cloned().expect("finding");
    put(&mut copy, "/id", json!("rg_003"));
    push(&mut v, "/findings", copy);
    let c = artifact(&v);
    assert!(c.problems.is_empty(), "{:#?}", c.problems);
    let set = c.set.expect("model");
    assert_eq!(set.findings.len(), 3, "findings are still shown");
    match &set.projection {
        Projection::Failed(problems) => {
            assert_eq!(problems.len(), 1, "{problems:#?}");
            assert_eq!(
                (problems[0].rule.as_str(), problems[0].path.as_str()),
                ("J6", "/findings/2")
            );
            assert!(problems[0].message.contains("R11"), "{}", problems[0].message);
        }
        other => panic!("expected a failed projection, got {other:?}"),
    }
    assert!(project(doc(&v).root(), &Scope::Local).is_err());
    // A whitespace-only instruction passes the artifact rules, not the projection.
    let mut v = plain_base();
    put(&mut v, "/findings/1/agent_instruction", json!(" "));
    let c = artifact(&v);
    assert!(c.problems.is_empty());
    assert!(matches!(c.set.expect("model").projection, Projection::Failed(_)));
}

#[test]
fn j1_invalid_artifacts_have_no_projection() {
    let mut v = plain_base();
    put(&mut v, "/score", json!(4));
    let c = artifact(&v);
    assert!(!c.problems.is_empty());
    match c.set.expect("model").projection {
        Projection::Failed(p) => assert_eq!(p[0].rule, "J1"),
        other => panic!("expected J1, got {other:?}"),
    }
    assert_eq!(
        project(doc(&v).root(), &Scope::Local).expect_err("invalid")[0].rule,
        "A4"
    );
}

#[test]
fn model_of_an_artifact() {
    let c = artifact(&plain_base());
    let set = c.set.expect("model");
    assert_eq!(set.format, Format::ArtifactV3);
    assert_eq!(set.scope, Scope::Local);
    assert_eq!(set.estimated_cost_usd, Some(0.08));
    let f = &set.findings[0];
    assert_eq!(
        f.key.as_str(),
        "reliability_risk:app.webhooks.retry.py:webhook.retry.exhaustion.missing.regression"
    );
    assert_eq!(f.title.as_deref(), Some("Missing regression test for retry exhaustion"));
    assert_eq!(
        f.claim.as_deref(),
        Some("The changed retry-exhaustion behavior has no regression coverage.")
    );
    assert_eq!(f.evidence.len(), 1);
    let rg = f.reviewgate().expect("reviewgate");
    assert_eq!(
        rg.code_fingerprint.as_deref(),
        Some("1a1271e5796612a3b068e48fe4f4c185e0d1fdffefac503aeba7a8056e024c66")
    );
    assert_eq!(rg.thread.status, ThreadStatus::NotPublished);
    assert!(f.in_repair_set());
    assert!(!set.findings[1].in_repair_set());
}

#[test]
fn legacy_outputs_are_told_apart_and_read() {
    let legacy = json!({
        "score": 4, "reviewed_sha": "abc", "status": "needs_changes", "verdict": "ok", "models": ["m"],
        "findings": [{"id": "a", "scope": "line", "severity": "P3", "confidence": 0.5, "file": "src/x.rs",
                      "line": 4, "title": "Thing is off", "detail": null, "agent_instruction": "fix"}],
        "notes": []
    });
    let legacy_at = |v: &Value| is_legacy_artifact(v);
    assert!(legacy_at(&legacy));
    assert!(!legacy_at(&plain_base()));
    let mut empty = legacy.clone();
    put(&mut empty, "/findings", json!([]));
    assert!(!legacy_at(&empty), "no findings reads as v3");
    let c = check_legacy_artifact(&legacy);
    assert!(c.problems.is_empty(), "{:#?}", c.problems);
    let set = c.set.expect("model");
    assert_eq!(set.format, Format::ArtifactLegacy);
    assert_eq!(set.projection, Projection::NotApplicable);
    assert_eq!(set.findings[0].key.as_str(), "defect:src.x.rs:thing.is.off");
    let rg = set.findings[0].reviewgate().expect("reviewgate");
    assert_eq!(
        (rg.disposition, rg.thread.status),
        (Disposition::StillOpen, ThreadStatus::Unknown)
    );
    let mut bad = legacy.clone();
    put(&mut bad, "/findings/0/classification", json!("defect"));
    assert_eq!(rules(&check_legacy_artifact(&bad)), BTreeSet::from(["P11".to_owned()]));
}

#[test]
fn a9_disposition_updates_get_shape_checks_only() {
    let mut v = plain_base();
    let mut resolution = v.pointer("/findings/1").cloned().expect("finding");
    // Nothing in an update is held to a code rule, not even the policy.
    put(&mut resolution, "/blocking_reason", json!("validated_defect"));
    put(&mut resolution, "/confidence", json!(1));
    let update = json!({"semantic_fingerprint": " ", "disposition": "fixed", "evidence_summary": " ", "actor": " ",
                        "reviewed_sha": " ", "code_fingerprint": " ", "resolution": resolution});
    put(&mut v, "/disposition_updates", json!([update]));
    assert!(artifact(&v).problems.is_empty(), "{:#?}", artifact(&v).problems);
    put(&mut v, "/disposition_updates/0/resolution/extra", json!(1));
    let c = artifact(&v);
    assert_eq!(rules(&c), BTreeSet::from(["P11".to_owned()]));
    assert_eq!(c.problems[0].path, "/disposition_updates/0/resolution/extra");
}

#[test]
fn fingerprints_of_every_finding() {
    let fps = finding_fingerprints(&tracked_base()).expect("decodes");
    let sources: Vec<(FindingSource, usize, &str)> = fps.iter().map(|f| (f.source, f.index, f.id.as_str())).collect();
    assert_eq!(
        sources,
        [
            (FindingSource::Findings, 0, "rg_001"),
            (FindingSource::Findings, 1, "rg_002"),
            (FindingSource::TrackedFindings, 0, "rg_001"),
            (FindingSource::TrackedFindings, 1, "rg_002"),
        ]
    );
    assert_eq!(
        fps[1].semantic_fingerprint,
        "suggestion:app.webhooks.retry.py:helper.name.is.slightly.vague"
    );
    assert_eq!(
        fps[1].code_fingerprint,
        "4161a20949a7260c26eeb3668dec480ffed4ab6351940745f03718c33781f0e4"
    );
    assert_eq!(fps[0].code_fingerprint, fps[2].code_fingerprint);
    let mut broken = tracked_base();
    put(&mut broken, "/findings/0/line", json!(1.5));
    let problems = finding_fingerprints(&broken).expect_err("undecodable");
    assert_eq!(
        (problems[0].rule.as_str(), problems[0].path.as_str()),
        ("P8", "/findings/0/line")
    );
}
