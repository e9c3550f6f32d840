//! The one loading path: a document read from a file and from memory, with
//! its format told from the content or forced to the same format, gets the
//! same verdict, model and problems; large generated documents load valid,
//! and a fault in them is found and named.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "../benches/synth/mod.rs"]
mod synth;

use std::path::{Path, PathBuf};
use triage::model::load::{Loaded, load_bytes, load_path};
use triage::model::review::Format;

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

fn fixtures() -> Vec<PathBuf> {
    let mut files = Vec::new();
    json_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        &mut files,
    );
    files.sort();
    files
}

#[test]
fn files_and_bytes_load_alike_detected_or_forced() {
    let files = fixtures();
    assert!(files.len() > 140, "fixtures missing: {}", files.len());
    let (mut valid, mut invalid) = (0, 0);
    for file in &files {
        let bytes = std::fs::read(file).expect("fixture");
        let name = file.display();
        let from_bytes = load_bytes(&bytes, None);
        let from_file = load_path(file, None).expect("fixture");
        assert_eq!(from_bytes, from_file, "{name}: file and memory disagree");
        if let Some(format) = from_bytes.format {
            let forced = load_bytes(&bytes, Some(format));
            assert_eq!(
                forced, from_bytes,
                "{name}: forcing the detected format changed the result"
            );
        }
        if from_bytes.is_valid() {
            valid += 1;
        } else {
            invalid += 1;
            assert!(!from_bytes.problems.is_empty(), "{name}: invalid without a problem");
        }
    }
    assert!(valid > 20 && invalid > 60, "{valid} valid, {invalid} invalid");
}

fn rules(loaded: &Loaded) -> Vec<&str> {
    loaded.problems.iter().map(|p| p.rule.as_str()).collect()
}

#[test]
fn large_documents_load_and_their_faults_are_named() {
    let agent = synth::agent_result(400 * 1024, 3);
    let artifact = synth::artifact_v3(400 * 1024, 5);
    assert!(agent.len() > 300 * 1024 && artifact.len() > 300 * 1024);
    let loaded = load_bytes(agent.as_bytes(), None);
    assert!(loaded.is_valid(), "{:?}", loaded.problems.first());
    assert!(loaded.set.as_ref().is_some_and(|s| !s.findings.is_empty()));
    let loaded = load_bytes(artifact.as_bytes(), None);
    assert_eq!(loaded.format, Some(Format::ArtifactV3));
    assert!(loaded.is_valid(), "{:?}", loaded.problems.first());

    let schema_fault = agent.replacen("\"severity\": \"P", "\"severity\": \"Q", 1);
    let rule_fault = agent.replacen("\"confidence\": 0.", "\"confidence\": 1.", 1);
    let artifact_fault = artifact.replacen("\"severity\": \"P", "\"severity\": \"Q", 1);
    assert!(schema_fault != agent && rule_fault != agent && artifact_fault != artifact);
    for (what, doc) in [("agent result", &schema_fault), ("v3 output", &artifact_fault)] {
        let loaded = load_bytes(doc.as_bytes(), None);
        let severity = loaded
            .problems
            .iter()
            .find(|p| p.rule == "schema" && p.path.ends_with("/severity"));
        assert!(severity.is_some(), "{what}: {:?}", loaded.problems);
    }
    let loaded = load_bytes(rule_fault.as_bytes(), None);
    assert!(!loaded.is_valid(), "confidence over 1 must be refused");
    assert!(
        loaded
            .problems
            .iter()
            .all(|p| p.path.contains("/confidence") || p.rule != "schema"),
        "{:?}",
        loaded.problems
    );
    let truncated = load_bytes(&agent.as_bytes()[..agent.len() / 2], None);
    assert_eq!(rules(&truncated), ["P3"]);
}
