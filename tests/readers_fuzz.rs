//! Random bytes and mutated valid documents fed to every reader, with the
//! format detected and forced each way: never a panic, and an invalid input
//! always names at least one problem with a rule id.

use proptest::prelude::*;
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
    for format in forced {
        let loaded = load_bytes(bytes, format);
        if !loaded.is_valid() {
            assert!(
                !loaded.problems.is_empty() || loaded.format.is_none(),
                "invalid without a problem"
            );
            for p in &loaded.problems {
                assert!(!p.rule.is_empty(), "problem without a rule: {p:?}");
            }
        }
    }
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
