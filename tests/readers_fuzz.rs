//! Random bytes and mutated valid documents fed to the one loading path,
//! with the format detected and forced each way: never a panic; an invalid
//! input names at least one problem, each with a known kind of rule id and a
//! JSON pointer into the document; a valid one has its model.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use proptest::prelude::*;
use serde_json::Value;
use std::path::Path;
use triage::model::load::load_bytes;
use triage::model::review::Format;

fn seeds() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let files = [
        "conformance/agent-result/valid-thread-resolved-fixed.json",
        "conformance/agent-result/valid-verification-verified-blocking.json",
        "conformance/artifact/valid-tracked-first-review.json",
        "conformance/artifact/real-lib-test-angle-results.json",
        "conformance/disposition/valid-body-escaping.json",
        "reference/river-review/examples/exec-two-findings.json",
        "reference/river-review/examples/river-run-output.json",
        "reference/reviewgate/example-review-output-v3.json",
    ];
    files
        .iter()
        .map(|f| std::fs::read(root.join(f)).expect("seed file"))
        .collect()
}

fn check_all_readers(bytes: &[u8]) {
    let mut forced: Vec<Option<Format>> = Format::ALL.into_iter().map(Some).collect();
    forced.push(None);
    // The document as serde_json reads it, to resolve pointers in.
    let parsed: Option<Value> = serde_json::from_slice(bytes).ok();
    for format in forced {
        let loaded = load_bytes(bytes, format);
        if loaded.is_valid() {
            assert!(
                loaded.set.is_some() || loaded.format == Some(Format::Disposition),
                "valid {:?} without a model",
                loaded.format
            );
            continue;
        }
        assert!(!loaded.problems.is_empty(), "invalid ({format:?}) without a problem");
        for p in &loaded.problems {
            assert!(is_rule_id(&p.rule), "problem with no rule id: {p:?}");
            assert!(
                p.path.is_empty() || p.path.starts_with('/'),
                "not a JSON pointer: {p:?}"
            );
            if let Some(doc) = &parsed {
                assert!(resolves(doc, &p.path), "pointer names nothing in the document: {p:?}");
            }
        }
    }
}

/// A rule id: a letter or two and a number (`P4`, `R12`, `A21` ...) or a
/// lower-case name (`schema`, `size`, `format`, `river-additive` ...).
fn is_rule_id(rule: &str) -> bool {
    let (letters, digits) = rule.split_at(rule.find(|c: char| c.is_ascii_digit()).unwrap_or(rule.len()));
    let numbered = (1..=2).contains(&letters.len())
        && letters.chars().all(|c| c.is_ascii_uppercase())
        && (1..=2).contains(&digits.len())
        && digits.chars().all(|c| c.is_ascii_digit());
    let named = !rule.is_empty() && rule.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    numbered || named
}

/// True when `pointer`, or the object or array it would be a member of,
/// exists in `doc` (a missing member is reported at its own name).
fn resolves(doc: &Value, pointer: &str) -> bool {
    doc.pointer(pointer).is_some()
        || pointer
            .rsplit_once('/')
            .is_some_and(|(parent, _)| doc.pointer(parent).is_some())
}

#[test]
fn the_checks_of_this_suite_can_fail() {
    assert!(is_rule_id("P4") && is_rule_id("A21") && is_rule_id("river-additive"));
    assert!(!is_rule_id("") && !is_rule_id("p4") && !is_rule_id("P") && !is_rule_id("PPP1"));
    let doc: Value = serde_json::json!({"a": [{"b": 1}]});
    assert!(resolves(&doc, "/a/0/b") && resolves(&doc, "/a/0/missing") && resolves(&doc, ""));
    assert!(!resolves(&doc, "/x/y") && !resolves(&doc, "/a/3/b"));
}

/// One mutation of a document: flip, insert, delete or truncate at a position.
#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

fn apply(mut doc: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        if doc.is_empty() {
            break;
        }
        let at = |i: usize| i % doc.len();
        match *m {
            Mutation::Flip(i, b) => {
                let i = at(i);
                doc[i] ^= b | 1;
            }
            Mutation::Insert(i, b) => {
                let i = at(i);
                doc.insert(i, b);
            }
            Mutation::Delete(i) => {
                let i = at(i);
                doc.remove(i);
            }
            Mutation::Truncate(i) => {
                let i = at(i);
                doc.truncate(i);
            }
        }
    }
    doc
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let tokens = prop::sample::select(vec![
        b'"', b'{', b'}', b'[', b']', b',', b':', b'\\', b'0', b'-', b'e', 0xff, 0x00,
    ]);
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), tokens).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check_all_readers(&bytes);
    }

    #[test]
    fn mutated_valid_documents_never_panic(
        seed in 0usize..8,
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let seeds = seeds();
        let doc = apply(seeds[seed % seeds.len()].clone(), &mutations);
        check_all_readers(&doc);
    }
}

#[test]
fn deep_nesting_and_oversize_inputs_get_one_problem() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let loaded = load_bytes(deep.as_bytes(), Some(Format::AgentResult));
    assert!(!loaded.is_valid());
    assert_eq!(loaded.problems[0].rule, "P15", "{:?}", loaded.problems);

    let mut big = b"{\"schema_version\":\"reviewgate-agent-result/v1\",\"pad\":\"".to_vec();
    big.extend(std::iter::repeat_n(b'x', 1 << 20));
    big.extend_from_slice(b"\"}");
    let loaded = load_bytes(&big, None);
    assert!(
        loaded.problems.iter().any(|p| p.rule == "R1"),
        "{:?}",
        loaded.problems.first()
    );

    let loaded = load_bytes(b"{\"a\":\xff}", None);
    assert_eq!(loaded.problems[0].rule, "P1");
}
