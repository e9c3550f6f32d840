//! River readers against River Review's own example files and hand-made cases.

use super::*;
use crate::model::finding::{FindingKey, RiverSeverity, RiverStatus, Severity};
use serde_json::json;

macro_rules! example {
    ($name:literal) => {
        include_str!(concat!(
            "../../../tests/fixtures/reference/river-review/examples/",
            $name
        ))
    };
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn keys(set: &ReviewSet) -> Vec<&str> {
    set.findings.iter().map(|f| f.key.as_str()).collect()
}

fn info(set: &ReviewSet) -> &RiverRunInfo {
    set.river.as_ref().unwrap()
}

#[test]
fn exec_two_findings_opens() {
    let checked = check_artifact(&parse(example!("exec-two-findings.json")), &[]);
    assert_eq!(checked.problems, []);
    let set = checked.set.unwrap();
    assert_eq!(
        (set.format, set.status, set.scope.clone()),
        (Format::RiverArtifact, ReviewStatus::Ok, Scope::Local)
    );
    assert_eq!(set.reviewed_sha, None);
    assert_eq!(set.notices, []);
    // The first one is the fingerprint River Review itself wrote into its feedback example.
    assert_eq!(keys(&set), ["98103dc8dd71c74c", "d6afba8514c186cd"]);
    let f = &set.findings[0];
    assert_eq!(f.id, "rr-1");
    assert_eq!(f.rank, Severity::P3);
    assert_eq!((f.path.as_deref(), f.line), (Some("src/util.js"), Some(4)));
    assert!(f.claim.as_deref().unwrap().starts_with("Finding: catch"));
    assert!(f.suggested_fix.as_deref().unwrap().starts_with("ログ+再throw"));
    let r = f.river().unwrap();
    assert_eq!(r.rule_id.as_deref(), Some("rr-midstream-logging-observability-001"));
    assert_eq!(
        (r.severity, r.status, r.confidence.as_deref()),
        (Some(RiverSeverity::Minor), Some(RiverStatus::Open), Some("high"))
    );
    assert_eq!(r.evidence.len(), 1);
    let i = info(&set);
    assert_eq!(i.decision, Some(Stated::Stated("auto-approve".into())));
    assert_eq!(i.loop_signal, Some(Stated::Derived("CONVERGED".into())));
    assert_eq!(i.run_id.as_deref(), Some("2026-11-29T19-36-18-016Z-a3a4a9"));
    assert_eq!((i.selected_skills.len(), i.skipped_skills.len()), (22, 81));
    assert_eq!(i.planner_mode.as_deref(), Some("off"));
    assert_eq!(i.worst, Some(RiverSeverity::Minor));
    assert_eq!(i.overall_score, Some(96));
}

#[test]
fn dry_run_without_findings_opens() {
    let set = check_artifact(&parse(example!("exec-dry-run-no-findings.json")), &[])
        .set
        .unwrap();
    assert!(set.findings.is_empty());
    let i = info(&set);
    assert_eq!(i.decision, Some(Stated::Stated("auto-approve".into())));
    assert_eq!(i.loop_signal, Some(Stated::Derived("CONVERGED".into())));
    assert_eq!(i.worst, None);
}

#[test]
fn full_artifact_fills_every_run_fact_and_derives_the_decision() {
    let checked = check_artifact(&parse(example!("full-artifact-from-schema-test.json")), &[]);
    assert_eq!(checked.problems, []);
    let set = checked.set.unwrap();
    assert_eq!(keys(&set), ["5ce65cc6e4d52959"]);
    assert_eq!(set.findings[0].rank, Severity::P2);
    let i = info(&set);
    // No decision in the file: one major finding => recommended, revise.
    assert_eq!(i.decision, Some(Stated::Derived("human-review-recommended".into())));
    assert_eq!(i.loop_signal, Some(Stated::Derived("REVISE_REQUIRED".into())));
    assert_eq!(i.selected_skills, [("s1".to_owned(), "skill one".to_owned())]);
    assert_eq!(i.skipped_skills, [("s2".to_owned(), vec!["phase mismatch".to_owned()])]);
    assert_eq!((i.planner_mode.as_deref(), i.planner_reasons.len()), (Some("prune"), 1));
    assert_eq!(i.impact_tags, ["security"]);
    assert_eq!(
        (
            i.repo_root.as_deref(),
            i.default_branch.as_deref(),
            i.merge_base.as_deref()
        ),
        (Some("/repo"), Some("main"), Some("abc123"))
    );
    assert_eq!(i.changed_files, ["src/foo.mjs"]);
    assert_eq!(
        (i.token_estimate, i.raw_token_estimate, i.reduction),
        (Some(100.0), Some(150.0), Some(33.0))
    );
    assert_eq!(i.timestamp.as_deref(), Some("2025-01-01T00:00:00Z"));
}

#[test]
fn run_output_opens() {
    let checked = check_run_output(&parse(example!("river-run-output.json")), &[]);
    assert_eq!(checked.problems, []);
    let set = checked.set.unwrap();
    assert_eq!((set.format, set.status), (Format::RiverRun, ReviewStatus::Ok));
    assert_eq!(keys(&set), ["98103dc8dd71c74c", "d6afba8514c186cd"]);
    let i = info(&set);
    assert_eq!(i.phase.as_deref(), Some("midstream"));
    assert_eq!(i.decision, Some(Stated::Stated("auto-approve".into())));
    assert_eq!(i.loop_signal, Some(Stated::Derived("CONVERGED".into())));
    assert!(i.extra.contains(&("prioritySummary.P3".to_owned(), "2".to_owned())));
    assert!(
        i.extra
            .contains(&("issueCountBySeverity.minor".to_owned(), "2".to_owned()))
    );
}

/// The fingerprint test vectors of RIVER.md, read through an artifact.
#[test]
fn fingerprint_vectors_through_an_artifact() {
    let finding = |rule: Option<&str>, file: &str, message: Option<&str>, title: &str| {
        let mut f = json!({"id": "x", "title": title, "severity": "minor", "phase": "midstream", "file": file});
        if let Some(r) = rule {
            f["ruleId"] = json!(r);
        }
        if let Some(m) = message {
            f["message"] = json!(m);
        }
        f
    };
    let emoji = format!("{}😀 tail", "x".repeat(59));
    let doc = json!({
        "version": "1", "timestamp": "2026-11-29T19:36:17.758Z", "phase": "midstream", "status": "ok",
        "findings": [
            finding(Some("rr-midstream-security-001"), "src/config.mjs", Some("Hardcoded API key detected"), "t"),
            finding(Some("r1"), "src/x.ts", Some("  Leak\tDETECTED \n in   handler  "), "t"),
            finding(Some("rr-midstream-code-quality-001"), "src/lib/runner.mjs", Some("Finding: Missing error handling Evidence: async without try/catch Impact: Crash on failure Fix: Add try/catch Severity: major Confidence: high"), "t"),
            finding(None, "README.md", None, "Only a title, no ruleId and no message"),
            finding(Some("r-emoji"), "a.js", Some(&emoji), "t"),
        ]
    });
    let checked = check_artifact(&doc, &[]);
    let set = checked.set.unwrap();
    assert_eq!(
        keys(&set),
        [
            "333be486c0c537ac",
            "2d551902b02b28ee",
            "b95e284d0c8e10d6",
            "6e5a6fd694f79a5b",
            "83d0e791e107712f"
        ]
    );
    // The fourth lacks required members: still read (and keyed), but invalid.
    let missing: Vec<_> = checked
        .problems
        .iter()
        .map(|p| (p.rule.as_str(), p.path.as_str()))
        .collect();
    assert_eq!(
        missing,
        [("river-required", "/findings/3"), ("river-required", "/findings/3")]
    );
}

#[test]
fn unknown_members_are_notices_and_known_newer_ones_are_shown() {
    let doc = json!({
        "version": "1", "timestamp": "2026-01-01T00:00:00Z", "phase": "downstream", "status": "ok",
        "suggestedLoopSignal": "REVISE_REQUIRED",
        "gate": {"decision": "NO_GO", "reasonCode": "BLOCKING_FINDINGS", "tier": "cliff", "inputs": {},
            "inputsHash": "0123456789abcdef", "schemaVersion": "1"},
        "executionManifest": {"kind": "execution-manifest", "manifestId": "RR-EXM-0123456789ab",
            "manifestKey": "a".repeat(64), "manifestHash": "b".repeat(64), "steps": 3},
        "futureThing": {"a": 1},
        "plan": {"contextLift": {"totalSkillTokens": 10, "loadedSkillTokens": 4, "liftRatio": 0.4}, "shinyNew": true},
        "usage": {"provider": "openai", "model": "m", "input_tokens": 10, "estimated_cost_usd": 0.25},
        "trace": {"run_id": "r", "span": 1},
        "findings": [{
            "id": "rr-1", "ruleId": "r", "title": "t", "message": "m", "severity": "critical",
            "phase": "downstream", "file": "f", "scope": "pre-existing", "consensusLevel": "multi",
            "agreement": ["a", "b"], "mystery": 1
        }]
    });
    let checked = check_artifact(&doc, &[]);
    assert_eq!(checked.problems, []);
    let set = checked.set.unwrap();
    let notices: Vec<_> = set.notices.iter().map(|p| (p.rule.as_str(), p.path.as_str())).collect();
    assert_eq!(
        notices,
        [
            ("river-additive", "/futureThing"),
            ("river-additive", "/trace/span"),
            ("river-additive", "/plan/shinyNew"),
            ("river-additive", "/findings/0/mystery")
        ]
    );
    let i = info(&set);
    assert_eq!(i.loop_signal, Some(Stated::Stated("REVISE_REQUIRED".into())));
    assert_eq!(i.decision, Some(Stated::Derived("human-review-required".into())));
    assert_eq!(i.gate.len(), 3);
    assert!(i.gate.contains(&("tier".to_owned(), "cliff".to_owned())));
    assert!(
        i.extra
            .iter()
            .any(|(k, v)| k == "executionManifest" && v.contains("\"steps\":3"))
    );
    assert!(
        i.extra
            .iter()
            .any(|(k, v)| k == "plan.contextLift" && v.contains("\"liftRatio\":0.4"))
    );
    assert_eq!((i.provider.as_deref(), i.model.as_deref()), (Some("openai"), Some("m")));
    assert!(i.usage.contains(&("input_tokens".to_owned(), "10".to_owned())));
    assert_eq!(set.estimated_cost_usd, Some(0.25));
    let r = set.findings[0].river().unwrap();
    assert_eq!(r.scope.as_deref(), Some("pre-existing"));
    assert_eq!(r.agreement.as_deref(), Some("a, b"));
    assert_eq!(r.extra, [("consensusLevel".to_owned(), "multi".to_owned())]);
    assert_eq!(set.findings[0].rank, Severity::P1);
}

#[test]
fn known_members_are_checked_strictly() {
    let doc = json!({
        "version": "2", "timestamp": "2026-01-01", "phase": "Midstream", "status": "failed",
        "decision": "approve", "suggestedLoopSignal": "DONE",
        "gate": {"tier": "mountain"},
        "context": {"reduction": 101, "changedFiles": "a"},
        "plan": {"selectedSkills": [{"id": "s"}], "plannerMode": "auto"},
        "findings": [{
            "id": "", "ruleId": "r", "title": "t", "message": "m", "severity": "blocker", "phase": "midstream",
            "file": "f", "line": 0, "evidence": "e", "agreement": ["a", "a"], "status": "closed"
        }, 7]
    });
    let checked = check_artifact(&doc, &[]);
    let got: Vec<_> = checked
        .problems
        .iter()
        .map(|p| (p.rule.as_str(), p.path.as_str()))
        .collect();
    let want = [
        ("river-enum", "/version"),
        ("river-format", "/timestamp"),
        ("river-enum", "/phase"),
        ("river-enum", "/status"),
        ("river-enum", "/decision"),
        ("river-enum", "/suggestedLoopSignal"),
        ("river-enum", "/plan/plannerMode"),
        ("river-required", "/plan/selectedSkills/0"),
        ("river-range", "/findings/0/id"),
        ("river-range", "/findings/0/line"),
        ("river-type", "/findings/0/evidence"),
        ("river-enum", "/findings/0/severity"),
        ("river-enum", "/findings/0/status"),
        ("river-unique", "/findings/0/agreement/1"),
        ("river-type", "/findings/1"),
        ("river-type", "/context/changedFiles"),
        ("river-range", "/context/reduction"),
        ("river-enum", "/gate/tier"),
        // decision, reasonCode, inputs, inputsHash, schemaVersion are required.
        ("river-required", "/gate"),
        ("river-required", "/gate"),
        ("river-required", "/gate"),
        ("river-required", "/gate"),
        ("river-required", "/gate"),
    ];
    for w in want {
        assert!(got.contains(&w), "missing {w:?} in {got:?}");
    }
    assert_eq!(got.len(), want.len(), "{got:?}");
    // Still shown read-only, never as a pass.
    let set = checked.set.unwrap();
    assert_eq!(set.status, ReviewStatus::Error);
    assert_eq!(info(&set).decision, None);
    assert_eq!(set.findings.len(), 2);
}

#[test]
fn failed_run_keeps_a_stated_decision_but_derives_none() {
    let base = json!({"version": "1", "timestamp": "2026-01-01T00:00:00Z", "phase": "upstream", "status": "error"});
    let set = check_artifact(&base, &[]).set.unwrap();
    assert_eq!(set.status, ReviewStatus::Error);
    assert_eq!(
        (info(&set).decision.clone(), info(&set).loop_signal.clone()),
        (None, None)
    );
    let mut stated = base.clone();
    stated["decision"] = json!("human-review-required");
    let set = check_artifact(&stated, &[]).set.unwrap();
    assert_eq!(
        info(&set).decision,
        Some(Stated::Stated("human-review-required".into()))
    );
    assert_eq!(info(&set).loop_signal, Some(Stated::Derived("ESCALATE_HUMAN".into())));
}

#[test]
fn statuses_map_to_review_statuses() {
    for (s, want) in [
        ("no-changes", ReviewStatus::NoChanges),
        ("skipped-by-label", ReviewStatus::SkippedByLabel),
        ("ok", ReviewStatus::Ok),
    ] {
        let doc = json!({"version": "1", "timestamp": "2026-01-01T00:00:00Z", "phase": "upstream", "status": s});
        assert_eq!(check_artifact(&doc, &[]).set.unwrap().status, want);
    }
}

#[test]
fn run_output_is_checked_strictly() {
    let doc = json!({
        "issues": [{"id": "i", "ruleId": "r", "title": "t", "message": "m", "severity": "info", "phase": "upstream",
                    "file": "f", "actionability": 1.5, "validatedStatus": "confirmed"}],
        "summary": {"issueCountBySeverity": {"info": 1, "minor": 0, "major": 0}, "issueCountByPhase": {"upstream": -1, "midstream": 0, "downstream": 0},
                    "prioritySummary": {"counts": {"P1": 0, "P2": 0, "P3": 0, "P4": 1}, "requiresImmediateAttention": "no"}},
        "decision": "auto-approve"
    });
    let checked = check_run_output(&doc, &[]);
    let got: Vec<_> = checked
        .problems
        .iter()
        .map(|p| (p.rule.as_str(), p.path.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("river-range", "/issues/0/actionability"),
            ("river-required", "/summary/issueCountBySeverity"),
            ("river-range", "/summary/issueCountByPhase/upstream"),
            ("river-type", "/summary/prioritySummary/requiresImmediateAttention"),
        ]
    );
    let set = checked.set.unwrap();
    // `validatedStatus` is not an issue member of the run output: kept as a notice.
    assert_eq!(set.notices.len(), 1);
    assert_eq!(set.notices[0].path, "/issues/0/validatedStatus");
    assert!(matches!(&set.findings[0].key, FindingKey::River(fp) if fp.len() == 16));
}

#[test]
fn not_an_object_is_one_problem_and_no_set() {
    let checked = check_artifact(&json!([1]), &[]);
    assert!(checked.set.is_none());
    assert_eq!(checked.problems.len(), 1);
    assert_eq!(checked.problems[0].rule, "river-type");
}
