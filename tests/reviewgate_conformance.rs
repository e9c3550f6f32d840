//! The public ReviewGate conformance set: every agent result and v3 review
//! output gets its strict verdict, and every valid output its projection
//! outcome, projected fingerprints, status, score, per-finding fingerprints
//! and (where published) its byte-exact canonical projection.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use triage::model::load::{Loaded, load_path_keeping_value};
use triage::model::review::{Format, Projection, Scope};
use triage::model::reviewgate::{FindingSource, canonical_projection, finding_fingerprints, project};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance")
}

/// The expected.jsonl entries of ReviewGate agent results and artifacts.
fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("expected.jsonl")).expect("expected.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).expect("expected.jsonl line"))
        .filter(|c| matches!(c["kind"].as_str(), Some("agent-result" | "artifact")))
        .collect()
}

fn load(case: &Value) -> (String, Loaded) {
    let file = case["file"].as_str().expect("file").to_owned();
    let format = Format::parse(case["kind"].as_str().expect("kind")).expect("a known kind");
    let loaded = load_path_keeping_value(&root().join(&file), Some(format)).expect("fixture");
    (file, loaded)
}

#[test]
fn verdicts_match_the_strict_consumer() {
    let cases = cases();
    assert!(cases.len() >= 100, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let (file, loaded) = load(case);
        let expected = case["valid"].as_bool().expect("valid");
        if loaded.is_valid() != expected {
            failures.push(format!(
                "{file}: expected valid={expected}, problems {:?}",
                loaded.problems
            ));
        }
        if !expected && loaded.problems.iter().any(|p| p.rule.is_empty()) {
            failures.push(format!("{file}: a problem without a rule id"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Checks one valid artifact's projection facts; returns the mismatches.
fn projection_mismatches(case: &Value, file: &str, loaded: &Loaded) -> Vec<String> {
    let mut out = Vec::new();
    let doc = loaded.doc.as_ref().expect("parsed document");
    let set = loaded.set.as_ref().expect("model");
    let projected = project(doc.root(), &Scope::Local);
    let want_ok = case["projection"] == "ok";
    if projected.is_ok() != want_ok || matches!(set.projection, Projection::Ok) != want_ok {
        out.push(format!(
            "{file}: projection {:?} / model {:?}, expected {}",
            projected.as_ref().err(),
            set.projection,
            case["projection"]
        ));
        return out;
    }
    if let Ok(result) = &projected {
        let fps: Vec<&str> = result
            .findings
            .iter()
            .map(|f| f.semantic_fingerprint.as_ref())
            .collect();
        let model_fps: Vec<&str> = set.findings.iter().map(|f| f.key.as_str()).collect();
        // expected.jsonl lists them sorted; the order itself is pinned by the projection files.
        let mut sorted = fps.clone();
        sorted.sort_unstable();
        if serde_json::json!(sorted) != case["projected_semantic_fingerprints"] || fps != model_fps {
            out.push(format!("{file}: projected fingerprints {fps:?}, model {model_fps:?}"));
        }
        if result.status.as_str() != case["projection_status"]
            || serde_json::json!(result.score) != case["projection_score"]
        {
            out.push(format!(
                "{file}: projected status {:?} score {:?}",
                result.status, result.score
            ));
        }
        let name = Path::new(file).file_name().expect("name");
        if let Ok(published) = std::fs::read(root().join("projections").join(name)) {
            let mut ours = canonical_projection(result);
            ours.push(b'\n');
            if ours != published {
                out.push(format!(
                    "{file}: canonical projection differs:\n{}",
                    String::from_utf8_lossy(&ours)
                ));
            }
        }
    }
    let fingerprints = finding_fingerprints(doc.root()).expect("fingerprints");
    let ours: Vec<Value> = fingerprints
        .iter()
        .map(|f| {
            let source = match f.source {
                FindingSource::Findings => "findings",
                FindingSource::TrackedFindings => "tracked_findings",
            };
            serde_json::json!({"source": source, "id": f.id, "semantic_fingerprint": f.semantic_fingerprint,
                               "code_fingerprint": f.code_fingerprint})
        })
        .collect();
    if Value::Array(ours.clone()) != case["fingerprints"] {
        out.push(format!("{file}: fingerprints {ours:?}"));
    }
    // The model's code fingerprints are those of the projected findings' sources.
    for f in &set.findings {
        let code = f.reviewgate().and_then(|r| r.code_fingerprint.as_deref());
        if !fingerprints
            .iter()
            .any(|s| Some(s.code_fingerprint.as_str()) == code && s.id == f.id)
        {
            out.push(format!("{file}: finding {} has code fingerprint {code:?}", f.id));
        }
    }
    out
}

#[test]
fn artifact_projections_and_fingerprints_match() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases()
        .iter()
        .filter(|c| c["kind"] == "artifact" && c.get("projection").is_some())
    {
        let (file, loaded) = load(case);
        if !loaded.is_valid() {
            failures.push(format!("{file}: invalid: {:?}", loaded.problems));
            continue;
        }
        failures.extend(projection_mismatches(case, &file, &loaded));
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} artifacts with projection facts");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_published_projection_is_compared() {
    let expected: Vec<String> = cases()
        .iter()
        .filter_map(|c| c["file"].as_str().map(str::to_owned))
        .collect();
    for entry in std::fs::read_dir(root().join("projections")).expect("projections") {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        assert!(
            expected.contains(&format!("artifact/{name}")),
            "{name} has no artifact case"
        );
    }
}

#[test]
fn a_failed_projection_still_shows_findings() {
    let case = cases()
        .into_iter()
        .find(|c| c["projection"] == "error")
        .expect("a case whose projection fails");
    let (file, loaded) = load(&case);
    assert!(loaded.is_valid(), "{file}: {:?}", loaded.problems);
    let set = loaded.set.expect("model");
    let Projection::Failed(problems) = &set.projection else {
        panic!("{file}: projection {:?}", set.projection)
    };
    assert!(problems.iter().all(|p| p.rule == "J6"), "{problems:?}");
    let sources = case["fingerprints"].as_array().expect("fingerprints").len();
    assert_eq!(set.findings.len(), sources, "every non-rejected finding is shown");
}

/// Runs the `triage` binary.
fn triage(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_triage"))
        .args(args)
        .output()
        .expect("run triage")
}

fn fixture_path(file: &str) -> String {
    root().join(file).display().to_string()
}

#[test]
fn cli_projects_every_published_projection() {
    let mut compared = 0;
    for entry in std::fs::read_dir(root().join("projections")).expect("projections") {
        let entry = entry.expect("entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let out = triage(&["project", &fixture_path(&format!("artifact/{name}"))]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let published = std::fs::read(entry.path()).expect("projection");
        assert!(
            out.stdout == published,
            "{name}: stdout differs:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} projections");
}

#[test]
fn cli_project_scopes_and_failures() {
    let artifact = fixture_path("artifact/valid-tracked-first-review.json");
    let out = triage(&["project", &artifact, "--scope", "LVTD-LLC/reviewgate#48"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.contains(r#""scope":{"kind":"pull_request","repository":"LVTD-LLC/reviewgate","pull_request_number":48}"#)
    );
    assert!(text.ends_with("}\n") && text.matches('\n').count() == 1);

    let out = triage(&["project", &artifact, "--scope", "reviewgate#0"]);
    assert_eq!(out.status.code(), Some(2), "a malformed scope is a usage error");

    let duplicates = fixture_path("artifact/real-evidence-grounding-41-findings-duplicate-fingerprints.json");
    let out = triage(&["project", &duplicates]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("[J6]") && err.contains("R11"), "{err}");

    let invalid = fixture_path("artifact/invalid-angle-score-mismatch.json");
    let out = triage(&["project", &invalid]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("[A21]"));

    let agent_result = fixture_path("agent-result/valid-passed-score-5.json");
    let out = triage(&["project", &agent_result]);
    assert_eq!(out.status.code(), Some(1), "an agent result has no projection");
}
