//! River's memory index (`.river/memory/index.json`, shape
//! `{"entries": [...], "version": "1"}`) as an order-preserving document:
//! checking an existing one and appending entries (pure; the files are read
//! and written in [`super::files`]; what an entry means to River is in
//! [`super::lifecycle`]).

use super::ordered::{Json, to_pretty};
use crate::model::problem::push_pointer;
use serde::Serialize;
use std::collections::HashSet;

/// Where and why an existing index cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    /// A JSON pointer, or `line L column C` for a syntax error.
    pub location: String,
    pub problem: String,
}

impl Malformed {
    fn at(location: impl Into<String>, problem: impl Into<String>) -> Self {
        Malformed {
            location: location.into(),
            problem: problem.into(),
        }
    }
}

/// The index of a repository that has none yet.
pub fn new_index() -> Json {
    Json::Object(vec![
        ("entries".to_owned(), Json::Array(Vec::new())),
        ("version".to_owned(), Json::String("1".to_owned())),
    ])
}

/// Parses and checks an existing index. Only what appending needs is checked
/// (an object with an `entries` array of objects, string ids, version "1"):
/// entries written by others are kept as they are, never judged.
pub fn parse_index(bytes: &[u8]) -> Result<Json, Malformed> {
    let index: Json = serde_json::from_slice(bytes).map_err(|e| {
        let text = e.to_string();
        let problem = text.rfind(" at line ").map_or(text.as_str(), |i| &text[..i]).to_owned();
        Malformed::at(format!("line {} column {}", e.line(), e.column()), problem)
    })?;
    let Json::Object(_) = &index else {
        return Err(Malformed::at("(document)", "the index must be a JSON object"));
    };
    match index.get("version") {
        None => {}
        Some(Json::String(v)) if v == "1" => {}
        Some(other) => {
            let shown = super::ordered::to_compact(other);
            return Err(Malformed::at(
                "/version",
                format!("version {shown} is not \"1\", the only one this writer knows"),
            ));
        }
    }
    let entries = match index.get("entries") {
        None => return Err(Malformed::at("/entries", "required member `entries` is missing")),
        Some(Json::Array(entries)) => entries,
        Some(_) => return Err(Malformed::at("/entries", "must be an array")),
    };
    for (i, entry) in entries.iter().enumerate() {
        let path = push_pointer("/entries", &i.to_string());
        if !matches!(entry, Json::Object(_)) {
            return Err(Malformed::at(path, "every entry must be an object"));
        }
        if entry.get("id").is_some_and(|id| id.as_str().is_none()) {
            return Err(Malformed::at(push_pointer(&path, "id"), "an entry id must be a string"));
        }
    }
    Ok(index)
}

fn entries(index: &Json) -> &[Json] {
    match index.get("entries") {
        Some(Json::Array(items)) => items,
        _ => &[],
    }
}

/// Every id in use.
pub fn ids(index: &Json) -> HashSet<String> {
    entries(index)
        .iter()
        .filter_map(|e| e.get("id").and_then(Json::as_str))
        .map(str::to_owned)
        .collect()
}

/// An entry `triage` built, in its member order.
pub fn to_json<T: Serialize>(entry: &T) -> Json {
    // The entry types serialise to plain JSON, which always parses back.
    serde_json::to_string(entry)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Json::Null)
}

/// Appends an entry at the end (every other entry keeps its place).
pub fn append(index: &mut Json, entry: Json) {
    if let Some(Json::Array(items)) = index.get_mut("entries") {
        items.push(entry);
    }
}

/// The index text as River writes it (2-space indent, final newline).
pub fn render(index: &Json) -> String {
    to_pretty(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE_FILE: &str = include_str!("../../tests/fixtures/reference/river-review/examples/memory-index.json");

    /// River's example as River writes it (the stored copy lacks the final newline).
    fn example() -> String {
        format!("{}\n", EXAMPLE_FILE.trim_end())
    }

    #[test]
    fn rivers_example_round_trips_byte_for_byte() {
        let index = parse_index(example().as_bytes()).unwrap();
        assert_eq!(render(&index), example());
        assert!(ids(&index).contains("suppression-98103dc8dd71c74c-1795980984336"));
    }

    #[test]
    fn taking_rivers_example_out_of_force_changes_only_its_context() {
        use crate::river_store::lifecycle::{FindingIds, suppressions_of, take_out_of_force};
        let mut index = parse_index(example().as_bytes()).unwrap();
        let ids = FindingIds {
            v1: "98103dc8dd71c74c",
            v2: &[],
        };
        let views = suppressions_of(&index, &ids);
        assert_eq!(views.len(), 1);
        assert!(views[0].in_force_newer(0) && views[0].matchable_115());
        assert_eq!(views[0].id, "suppression-98103dc8dd71c74c-1795980984336");
        assert!(take_out_of_force(&mut index, views[0].position));
        let want = example().replace("\"active\": true", "\"active\": false").replace(
            "\"fingerprint\": \"98103dc8dd71c74c\"",
            "\"revokedFingerprint\": \"98103dc8dd71c74c\"",
        );
        assert_eq!(render(&index), want);
        assert!(!suppressions_of(&index, &ids)[0].hides_anywhere(0));
    }

    #[test]
    fn malformed_indexes_are_located() {
        let cases: [(&str, &str, &str); 8] = [
            ("{\"entries\": [}", "line 1 column 14", "expected value"),
            ("", "line 1 column 0", "EOF"),
            ("[]", "(document)", "object"),
            ("{\"version\":\"1\"}", "/entries", "missing"),
            ("{\"entries\":{}}", "/entries", "array"),
            ("{\"entries\":[{},3]}", "/entries/1", "object"),
            ("{\"entries\":[{\"id\":7}]}", "/entries/0/id", "string"),
            ("{\"entries\":[],\"version\":2}", "/version", "not \"1\""),
        ];
        for (text, location, problem) in cases {
            let err = parse_index(text.as_bytes()).unwrap_err();
            assert_eq!(err.location, location, "{text}");
            assert!(err.problem.contains(problem), "{text}: {}", err.problem);
        }
        let dup = parse_index(b"{\"entries\":[],\"entries\":[]}").unwrap_err();
        assert!(dup.problem.contains("duplicate member"), "{}", dup.problem);
    }

    #[test]
    fn new_index_shape() {
        let mut index = new_index();
        append(&mut index, to_json(&serde_json::json!({"id": "x"})));
        assert_eq!(
            render(&index),
            "{\n  \"entries\": [\n    {\n      \"id\": \"x\"\n    }\n  ],\n  \"version\": \"1\"\n}\n"
        );
    }
}
