//! The canonical writer on the agent results and projections of the
//! conformance fixtures: the bytes serde_json's compact writer (with C3
//! numbers) writes, and a size count that agrees with them.

use super::*;
use crate::model::json::canonical::oracle_tests::assert_matches_oracle;

/// The parsed fixtures of `dir` whose names start with one of `prefixes`.
fn fixtures(dir: &str, prefixes: &[&str]) -> Vec<(String, Value)> {
    let path = format!("{}/tests/fixtures/conformance/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| prefixes.iter().any(|p| name.starts_with(p)))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| (name.clone(), fixture(&format!("{dir}/{name}"))))
        .collect()
}

/// Every agent result fixture that decodes (some `valid` ones are valid
/// only to a lenient reader).
#[test]
fn agent_results_are_written_as_serde_json_writes_them() {
    let mut decoded = 0;
    for (_, v) in fixtures("agent-result", &["valid"]) {
        let d = doc(&v);
        if let Ok(r) = decode::decode::<AgentResult>(d.root(), locate::agent_result) {
            assert_matches_oracle(&r);
            decoded += 1;
        }
    }
    assert!(decoded > 10, "{decoded} agent results");
}

#[test]
fn projections_are_written_as_serde_json_writes_them() {
    let pr = Scope::PullRequest {
        repository: "o/r".into(),
        pull_request_number: 12,
    };
    let mut projected = 0;
    for (_, v) in fixtures("artifact", &["valid", "real"])
        .into_iter()
        .chain(fixtures("projections", &["projection-ok", "valid", "real"]))
    {
        let d = doc(&v);
        for scope in [Scope::Local, pr.clone()] {
            if let Ok(result) = project(d.root(), &scope) {
                assert_matches_oracle(&result);
                projected += 1;
            }
        }
    }
    assert!(projected > 10, "{projected} projections");
}
