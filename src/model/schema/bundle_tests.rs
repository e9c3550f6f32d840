//! The bundles `build.rs` makes: one document each, local references only,
//! no annotations, and the same verdicts as the schema files they come from.

use super::*;
use serde_json::json;

/// Every `$ref` in `value` (a bundle, or part of one) with where it sits.
fn references<'v>(value: &'v Value, at: String, out: &mut Vec<(String, &'v str)>) {
    match value {
        Value::Object(map) => {
            for (key, sub) in map {
                match (key.as_str(), sub) {
                    ("$ref", Value::String(target)) => out.push((at.clone(), target)),
                    _ => references(sub, format!("{at}/{key}"), out),
                }
            }
        }
        Value::Array(items) => {
            for (i, sub) in items.iter().enumerate() {
                references(sub, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// How many annotation keywords `value` holds. A member named like one
/// (a finding's `title`) has a schema, an object, as its value.
fn annotations(value: &Value) -> usize {
    match value {
        Value::Object(map) => map
            .iter()
            .map(|(key, sub)| {
                let annotation =
                    ["title", "description", "$comment", "examples"].contains(&key.as_str()) && !sub.is_object();
                usize::from(annotation) + annotations(sub)
            })
            .sum(),
        Value::Array(items) => items.iter().map(annotations).sum(),
        _ => 0,
    }
}

#[test]
fn every_bundle_is_one_document_with_local_references_and_no_annotations() {
    for (name, text) in BUNDLES {
        let bundle: Value = serde_json::from_str(text).expect("a bundle is JSON");
        assert_eq!(bundle.get("$id"), None, "{name}");
        let mut found = Vec::new();
        references(&bundle, String::new(), &mut found);
        for (at, target) in found {
            let pointer = target
                .strip_prefix('#')
                .unwrap_or_else(|| panic!("{name}{at}: {target} is not local"));
            assert!(bundle.pointer(pointer).is_some(), "{name}{at}: {target} resolves");
        }
        assert_eq!(
            serde_json::to_string(&bundle).ok().as_deref(),
            Some(text),
            "{name} is minified"
        );
        assert_eq!(annotations(&bundle), 0, "{name}");
    }
    // The check can fail: the source files are full of annotations.
    let (_, source) = FILES[0];
    assert!(annotations(&serde_json::from_str(source).expect("JSON")) > 0);
    // The bundle of a file that refers to another holds the definitions it
    // uses, most of them in place: the agent result's severities are
    // defined in the shared file, and its bundle has fewer references than
    // the agent result's file alone.
    let (agent, bundle) = (FILES[1], BUNDLES[0]);
    assert_eq!(agent.0, bundle.0);
    let refs = |text: &str| text.matches("\"$ref\"").count();
    assert!(!agent.1.contains("\"P0\""));
    assert!(bundle.1.contains("\"P0\""), "{}", bundle.1);
    assert!(refs(bundle.1) < refs(agent.1), "{}", bundle.1);
    // A reference whose definition cannot be merged with the keywords beside
    // it stays one, to a definition the bundle holds (the disposition's
    // `scope` narrows the shared scope's `properties`).
    let disposition = BUNDLES[3];
    assert_eq!(disposition.0, "reviewgate-agent-dispositions-v1.schema.json");
    assert!(disposition.1.contains("\"$ref\":\"#/$defs/d0\""), "{}", disposition.1);
}

/// Every JSON file under `dir`, recursively, in name order.
fn json_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a fixture directory")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// The bundles change how the schemas are written, never what they say:
/// for every fixture, each bundle reports the same errors (where and what)
/// as the schema files it was made from, compiled together as written.
#[test]
fn every_bundle_judges_the_fixtures_as_its_schema_files_do() {
    let sources: Vec<(String, Value)> = FILES
        .iter()
        .map(|(name, text)| {
            (
                format!("{SCHEMA_BASE}{name}"),
                serde_json::from_str(text).expect("JSON"),
            )
        })
        .collect();
    let registry = jsonschema::Registry::new()
        .draft(Draft::Draft202012)
        .extend(sources.iter().map(|(id, doc)| (id.as_str(), doc)))
        .and_then(|builder| builder.prepare())
        .expect("the schema files form a registry");
    let mut files = Vec::new();
    json_files(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        &mut files,
    );
    let documents: Vec<Value> = files
        .iter()
        .filter_map(|path| serde_json::from_slice(&std::fs::read(path).expect("readable")).ok())
        .collect();
    assert!(documents.len() > 100, "{}", documents.len());
    let errors = |validator: &jsonschema::Validator, doc: &Value| {
        let mut found: Vec<String> = validator
            .iter_errors(doc)
            .map(|e| format!("{} {e}", e.instance_path().as_str()))
            .collect();
        found.sort();
        found
    };
    let mut rejected = 0;
    for (name, text) in BUNDLES {
        let source = jsonschema::options()
            .with_registry(&registry)
            .offline()
            .build(&json!({"$ref": format!("{SCHEMA_BASE}{name}")}))
            .expect("the schema files compile");
        let bundle: Value = serde_json::from_str(text).expect("JSON");
        let bundled = jsonschema::options()
            .offline()
            .build(&bundle)
            .expect("the bundle compiles");
        for doc in &documents {
            let expected = errors(&source, doc);
            rejected += usize::from(!expected.is_empty());
            assert_eq!(errors(&bundled, doc), expected, "{name}");
        }
    }
    assert!(rejected > 100, "{rejected}");
}
