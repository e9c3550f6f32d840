//! The fast path (schema and typed decoding on the parsed document itself)
//! and the `Value` path (every check on a `serde_json::Value`) must agree on
//! every document: the same format, model and problems. Checked on every
//! file of the conformance set and reference examples, forced to every
//! format, and on valid documents with one value changed at random.

#[path = "../benches/synth/mod.rs"]
mod synth;

use proptest::prelude::*;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use triage::model::load::{load_bytes, load_bytes_via_value};
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

fn assert_paths_agree(bytes: &[u8], forced: Option<Format>, what: &str) {
    let fast = load_bytes(bytes, forced);
    let slow = load_bytes_via_value(bytes, forced);
    assert_eq!(
        fast, slow,
        "{what} (forced {forced:?}): the fast path and the Value path disagree"
    );
}

#[test]
fn every_fixture_gets_the_same_result_on_both_paths() {
    let files = fixtures();
    assert!(files.len() > 140, "fixtures missing: {}", files.len());
    let mut fast_valid = 0;
    for file in &files {
        let bytes = std::fs::read(file).expect("fixture");
        let name = file.display().to_string();
        assert_paths_agree(&bytes, None, &name);
        for format in [Format::AgentResult, Format::ArtifactV3] {
            assert_paths_agree(&bytes, Some(format), &name);
        }
        let loaded = load_bytes(&bytes, None);
        if loaded.is_valid() && matches!(loaded.format, Some(Format::AgentResult | Format::ArtifactV3)) {
            fast_valid += 1;
        }
    }
    assert!(
        fast_valid > 20,
        "only {fast_valid} valid agent results and v3 outputs were compared"
    );
}

/// Large documents are loaded on two threads (the schema checked beside the
/// rules); the result must not change, whether the document conforms, breaks
/// a rule, breaks the schema, or is not what its contents first suggest.
#[test]
fn large_documents_get_the_same_result_on_both_paths() {
    let agent = synth::agent_result(400 * 1024, 3);
    let artifact = synth::artifact_v3(400 * 1024, 5);
    assert!(agent.len() > 300 * 1024 && artifact.len() > 300 * 1024);
    let schema_fault = agent.replacen("\"severity\": \"P", "\"severity\": \"Q", 1);
    let rule_fault = agent.replacen("\"confidence\": 0.", "\"confidence\": 1.", 1);
    let artifact_fault = artifact.replacen("\"severity\": \"P", "\"severity\": \"Q", 1);
    let truncated = &agent[..agent.len() / 2];
    assert!(
        schema_fault != agent && rule_fault != agent && artifact_fault != artifact,
        "every change must apply"
    );
    for (name, doc) in [
        ("agent result", agent.as_str()),
        ("v3 output", artifact.as_str()),
        ("schema fault", schema_fault.as_str()),
        ("rule fault", rule_fault.as_str()),
        ("v3 schema fault", artifact_fault.as_str()),
        ("truncated", truncated),
    ] {
        assert_paths_agree(doc.as_bytes(), None, name);
        for format in [Format::AgentResult, Format::ArtifactV3, Format::RiverArtifact] {
            assert_paths_agree(doc.as_bytes(), Some(format), name);
        }
    }
    assert!(load_bytes(agent.as_bytes(), None).is_valid());
    assert!(load_bytes(artifact.as_bytes(), None).is_valid());
    let faulty = load_bytes(schema_fault.as_bytes(), None);
    assert!(
        faulty.problems.iter().any(|p| p.rule == "schema"),
        "{:?}",
        faulty.problems
    );
}

/// Valid agent results and v3 outputs to change.
fn seeds() -> Vec<Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    [
        "conformance/agent-result/valid-thread-resolved-fixed.json",
        "conformance/agent-result/valid-verification-verified-blocking.json",
        "conformance/artifact/valid-tracked-first-review.json",
        "conformance/artifact/real-lib-test-angle-results.json",
        "reference/reviewgate/example-review-output-v3.json",
    ]
    .iter()
    .map(|f| serde_json::from_slice(&std::fs::read(root.join(f)).expect("seed")).expect("seed json"))
    .collect()
}

/// Every place in a value, as a pointer.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(v, p, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(v, p, out);
            }
        }
        _ => {}
    }
}

fn replacements() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(3.0),
        json!(4294967296u64),
        json!(""),
        json!(" "),
        json!("P2"),
        json!("still_open"),
        json!([]),
        json!(["x"]),
        json!({}),
        json!({"x": 1}),
    ]
}

#[derive(Debug, Clone)]
enum Change {
    Replace(usize, usize),
    Remove(usize),
    AddMember(usize),
}

fn change(doc: &mut Value, change: &Change) {
    let mut places = Vec::new();
    pointers(doc, String::new(), &mut places);
    if places.is_empty() {
        return;
    }
    match *change {
        Change::Replace(place, with) => {
            let all = replacements();
            if let Some(slot) = doc.pointer_mut(&places[place % places.len()]) {
                *slot = all[with % all.len()].clone();
            }
        }
        Change::Remove(place) => {
            let pointer = &places[place % places.len()];
            let (parent, last) = pointer.rsplit_once('/').unwrap_or(("", pointer));
            match doc.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.remove(&last.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(items)) => {
                    if let Ok(i) = last.parse::<usize>() {
                        items.remove(i);
                    }
                }
                _ => {}
            }
        }
        Change::AddMember(place) => {
            let pointer = &places[place % places.len()];
            if let Some(Value::Object(map)) = doc.pointer_mut(pointer) {
                map.insert("unexpected_member".into(), json!(1));
            } else if let Some(Value::Object(map)) = doc.pointer_mut("") {
                map.insert("unexpected_member".into(), json!(1));
            }
        }
    }
}

fn a_change() -> impl Strategy<Value = Change> {
    prop_oneof![
        4 => (any::<usize>(), any::<usize>()).prop_map(|(p, w)| Change::Replace(p, w)),
        2 => any::<usize>().prop_map(Change::Remove),
        1 => any::<usize>().prop_map(Change::AddMember),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn changed_documents_get_the_same_result_on_both_paths(
        seed in 0usize..5,
        changes in prop::collection::vec(a_change(), 1..3),
    ) {
        let seeds = seeds();
        let mut doc = seeds[seed % seeds.len()].clone();
        for c in &changes {
            change(&mut doc, c);
        }
        let bytes = serde_json::to_vec(&doc).expect("serialize");
        assert_paths_agree(&bytes, None, &format!("seed {seed} with {changes:?}"));
    }
}
