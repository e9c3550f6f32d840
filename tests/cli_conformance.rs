//! The public conformance set, through the real binary: every file's strict
//! verdict, every projection (bytes, fingerprints, status, score), every
//! fingerprint and every disposition comment body and receipt.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance")
}

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("expected.jsonl")).expect("expected.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("jsonl line"))
        .collect()
}

fn triage(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("triage")
        .expect("binary")
        .current_dir(root())
        .args(args)
        .output()
        .expect("run triage")
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

#[test]
fn every_file_gets_its_strict_verdict() {
    let mut failures = Vec::new();
    let cases = cases();
    for case in &cases {
        let file = case["file"].as_str().unwrap();
        let kind = case["kind"].as_str().unwrap();
        let out = triage(&["validate", "--kind", kind, "--format", "json", file]);
        let line = json_lines(&out.stdout).pop().unwrap_or(Value::Null);
        let expected = case["valid"].as_bool().unwrap();
        let code = out.status.code();
        if line["valid"] != Value::Bool(expected) || code != Some(if expected { 0 } else { 1 }) {
            failures.push(format!("{file}: expected valid={expected}, got {line} (exit {code:?})"));
        }
        if !expected && line["problems"].as_array().is_none_or(|p| p.is_empty()) {
            failures.push(format!("{file}: invalid but no problem named"));
        }
        for p in line["problems"].as_array().into_iter().flatten() {
            if p["rule"].as_str().is_none_or(str::is_empty) || p["path"].as_str().is_none() {
                failures.push(format!("{file}: problem without rule or path: {p}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} verdicts wrong:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn formats_are_detected_without_kind() {
    for case in cases().iter().filter(|c| c["valid"] == Value::Bool(true)) {
        let file = case["file"].as_str().unwrap();
        let out = triage(&["validate", "--format", "json", file]);
        let line = json_lines(&out.stdout).pop().unwrap_or(Value::Null);
        let expected_format = case["kind"].as_str().unwrap();
        assert_eq!(line["format"], expected_format, "{file}: {line}");
        assert_eq!(line["valid"], true, "{file}: {line}");
    }
}

#[test]
fn projections_match_byte_for_byte() {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.get("projection").is_some()) {
        let file = case["file"].as_str().unwrap();
        let out = triage(&["project", file]);
        let ok = case["projection"] == "ok";
        assert_eq!(
            out.status.success(),
            ok,
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if !ok {
            assert!(!out.stderr.is_empty(), "{file}: a failed projection must say why");
            continue;
        }
        let name = Path::new(file).file_name().unwrap();
        let fixture = root().join("projections").join(name);
        if fixture.exists() {
            assert_eq!(
                out.stdout,
                std::fs::read(&fixture).unwrap(),
                "{file}: projection bytes differ"
            );
        }
        let projected: Value = serde_json::from_slice(&out.stdout).expect("projection is JSON");
        // expected.jsonl lists the projected fingerprints sorted.
        let mut fps: Vec<&str> = projected["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["semantic_fingerprint"].as_str())
            .collect();
        let mut expected: Vec<&str> = case["projected_semantic_fingerprints"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        fps.sort_unstable();
        expected.sort_unstable();
        assert_eq!(fps, expected, "{file}: projected fingerprints");
        assert_eq!(projected["status"], case["projection_status"], "{file}: status");
        assert_eq!(projected["score"], case["projection_score"], "{file}: score");
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} projections checked");
}

#[test]
fn fingerprints_match() {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.get("fingerprints").is_some()) {
        let file = case["file"].as_str().unwrap();
        let out = triage(&["fingerprints", file]);
        let got: Vec<(String, String, String, String)> = json_lines(&out.stdout)
            .iter()
            .map(|f| {
                let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
                (s("source"), s("id"), s("semantic_fingerprint"), s("code_fingerprint"))
            })
            .collect();
        let expected: Vec<(String, String, String, String)> = case["fingerprints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
                (s("source"), s("id"), s("semantic_fingerprint"), s("code_fingerprint"))
            })
            .collect();
        assert_eq!(got, expected, "{file}");
        checked += expected.len();
    }
    assert!(checked > 40, "only {checked} fingerprints checked");
}

#[test]
fn disposition_bodies_and_receipts_match() {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.get("body").is_some()) {
        let file = case["file"].as_str().unwrap();
        let out = triage(&["submit", "--payload", file, "--dry-run", "--format", "json"]);
        assert!(out.status.success(), "{file}: {}", String::from_utf8_lossy(&out.stderr));
        let printed: Value = serde_json::from_slice(&out.stdout).expect("dry-run JSON");
        assert_eq!(printed["body"], case["body"], "{file}: body");
        assert_eq!(printed["receipt"], case["digest"], "{file}: receipt");
        let evidence = printed["payload"]["submission"]["evidence"].as_str().unwrap();
        assert_eq!(
            Some(evidence.len() as u64),
            case["evidence_bytes"].as_u64(),
            "{file}: evidence bytes"
        );
        assert_eq!(
            triage::model::disposition::status_context(1),
            case["status_context"].as_str().unwrap(),
            "{file}: status context"
        );
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} bodies checked");
}

#[test]
fn invalid_payloads_are_refused_by_dry_run() {
    for case in cases()
        .iter()
        .filter(|c| c["kind"] == "disposition" && c["valid"] == false)
    {
        let file = case["file"].as_str().unwrap();
        let out = triage(&["submit", "--payload", file, "--dry-run"]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{file}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(
            out.stdout.is_empty(),
            "{file}: nothing may be printed as if it would be posted"
        );
    }
}

#[test]
fn list_tsv_matches_jq_on_every_valid_agent_result() {
    // The seed's pipeline with its documented explicit severity sort (jq's sort_by is stable),
    // which is what `list` does: rank order, file order within a rank.
    let filter = r#"def rank: {"P0":0,"P1":1,"P2":2,"P3":3,"P4":4}[.];
        [ .findings[] | select(.disposition == "still_open" and .blocking_reason != null) ]
        | sort_by(.severity | rank) | .[]
        | [ .severity, .semantic_fingerprint, (.path // "PR"), (.line // "-"), (.claim // .suggested_fix) ] | @tsv"#;
    let mut compared = 0;
    for case in cases()
        .iter()
        .filter(|c| c["kind"] == "agent-result" && c["valid"] == true)
    {
        let file = case["file"].as_str().unwrap();
        let jq = std::process::Command::new("jq")
            .current_dir(root())
            .args(["-r", filter, file])
            .output()
            .expect("jq must be installed for this test (.ci/run installs it)");
        assert!(jq.status.success(), "{file}: jq failed");
        let ours = triage(&["list", file, "--repair-set", "--format", "tsv"]);
        assert!(ours.status.success(), "{file}");
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&jq.stdout),
            "{file}"
        );
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} files compared");
}

/// Control characters, NUL included, come out of `list --format tsv` to a
/// pipe exactly as jq's `@tsv` writes them (the seed's pipeline).
#[test]
fn list_tsv_matches_jq_byte_for_byte_on_control_characters() {
    let base = root().join("agent-result/valid-scope-pull-request.json");
    let mut doc: Value = serde_json::from_slice(&std::fs::read(base).unwrap()).unwrap();
    doc["findings"][0]["claim"] = Value::String("a\u{0}b\\c\td\ne\rf\u{1}g\u{1b}[31m\u{7f}h é\u{202e}".into());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("controls.json");
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    let file = file.to_str().unwrap();
    let filter = r#".findings[] | select(.disposition == "still_open" and .blocking_reason != null)
        | [ .severity, .semantic_fingerprint, (.path // "PR"), (.line // "-"), (.claim // .suggested_fix) ] | @tsv"#;
    let jq = std::process::Command::new("jq")
        .args(["-r", filter, file])
        .output()
        .expect("jq must be installed for this test (.ci/run installs it)");
    assert!(jq.status.success());
    let ours = triage(&["list", file, "--format", "tsv"]);
    assert!(ours.status.success());
    assert_eq!(ours.stdout, jq.stdout);
}
