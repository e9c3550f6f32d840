//! Tests of the strict reader: every §1 rule, exact number conversion,
//! agreement with serde_json where both must agree, conformance files, and
//! random input.

use super::*;
use proptest::prelude::*;
use serde_json::json;
use std::path::PathBuf;

fn read(s: &str) -> Result<Value, Problem> {
    read_strict(s.as_bytes(), &ReadLimits::default())
}

fn rule_of(s: &str) -> (String, String) {
    match read(s) {
        Ok(v) => panic!("{s:?} was accepted as {v:?}"),
        Err(p) => (p.rule, p.path),
    }
}

fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance")
}

#[test]
fn p5_number_grammar() {
    for bad in [
        "NaN",
        "Infinity",
        "-Infinity",
        "+1",
        "01",
        "-01",
        "00",
        ".5",
        "1.",
        "1.e5",
        "1e",
        "1e+",
        "-",
        "--1",
        "1.5.3",
        "0x10",
        "1f",
        "[1,+2]",
        "[.5]",
        "{\"a\":01}",
        "-.5",
        "1e5.5",
        "1E+-5",
    ] {
        let (rule, _) = rule_of(bad);
        assert!(rule == "P5" || rule == "P3", "{bad}: rule {rule}");
    }
    for (bad, path) in [
        ("NaN", ""),
        ("[1,+2]", "/1"),
        ("{\"a\":01}", "/a"),
        ("{\"c\":[-Infinity]}", "/c/0"),
    ] {
        assert_eq!(rule_of(bad), ("P5".to_string(), path.to_string()), "{bad}");
    }
    // Truncated inside a number counts as truncation.
    assert_eq!(rule_of("[1.").0, "P3");
    assert_eq!(rule_of("-").0, "P3");
}

#[test]
fn p1_invalid_utf8_names_the_byte_offset() {
    let p = read_strict(b"{\"a\":\n\"x\xC3\"}", &ReadLimits::default()).unwrap_err();
    assert_eq!(p.rule, "P1");
    assert!(p.message.contains("offset 8"), "{}", p.message);
    assert!(p.message.contains("line 2"), "{}", p.message);
    for bad in [
        &b"\xFF"[..],
        b"\"\xED\xA0\x80\"",
        b"\"\xC0\xAF\"",
        b"\"\xF4\x90\x80\x80\"",
    ] {
        assert_eq!(
            read_strict(bad, &ReadLimits::default()).unwrap_err().rule,
            "P1",
            "{bad:?}"
        );
    }
}

#[test]
fn p2_byte_order_mark_is_an_error() {
    let p = read_strict(b"\xEF\xBB\xBF{}", &ReadLimits::default()).unwrap_err();
    assert_eq!(p.rule, "P2");
    // A BOM after leading white space is just an unexpected character.
    assert_eq!(rule_of(" \u{FEFF}{}").0, "P3");
}

#[test]
fn p3_exactly_one_value() {
    for bad in [
        "",
        " \n\t\r ",
        "{}{}",
        "{} x",
        "[1] ]",
        "{",
        "[",
        "[1,",
        "{\"a\"",
        "{\"a\":",
        "{\"a\":1",
        "\"abc",
        "tru",
        "nul",
        "[1 2]",
        "{\"a\" 1}",
        "{\"a\":1,}",
        "[1,]",
        "{,}",
        "{1:2}",
        "\u{a0}{}",
        "{}\u{0c}",
        "True",
        "'a'",
    ] {
        assert_eq!(rule_of(bad).0, "P3", "{bad:?}");
    }
    for good in [" {} ", "\t\r\n[]\n", "\"x\"", "0", "true", "null", "false", "[[],{}]"] {
        assert!(read(good).is_ok(), "{good:?}");
    }
    assert_eq!(rule_of("{\"a\":[1,2 3]}"), ("P3".to_string(), "/a".to_string()));
    let p = read("{\n  \"a\": tru\n}").unwrap_err();
    assert_eq!(p.path, "/a");
    assert!(p.message.contains("line 2, column 8"), "{}", p.message);
}

#[test]
fn p4_duplicate_member_names_at_any_depth() {
    assert_eq!(rule_of(r#"{"a":1,"a":1}"#), ("P4".into(), "/a".into()));
    assert_eq!(rule_of(r#"{"a":{"b":1,"c":2,"b":3}}"#), ("P4".into(), "/a/b".into()));
    assert_eq!(
        rule_of(r#"{"x":[{"k":1},{"k":2,"k":3}]}"#),
        ("P4".into(), "/x/1/k".into())
    );
    assert_eq!(rule_of(r#"{"a/b~":{"c":1,"c":1}}"#), ("P4".into(), "/a~1b~0/c".into()));
    // Names compare after unescaping.
    assert_eq!(rule_of(r#"{"é":1,"\u00e9":2}"#), ("P4".into(), "/é".into()));
    // The same name in different objects is fine.
    assert!(read(r#"{"a":{"k":1},"b":{"k":1},"k":[{"k":1},{"k":1}]}"#).is_ok());
}

#[test]
fn p4_is_found_in_objects_of_every_size() {
    // Names that differ only in their middle bytes, so a check that looked
    // only at their ends would take them for one.
    let name = |i: usize| format!("field_{i:03}_of_the_finding_record");
    for count in [2, 8, 9, 20, 63, 64, 65, 130] {
        let names: Vec<String> = (0..count).map(name).collect();
        let body = |names: &[String]| names.iter().map(|n| format!("\"{n}\":1")).collect::<Vec<_>>().join(",");
        assert!(read(&format!("{{{}}}", body(&names))).is_ok(), "{count} distinct names");
        for (first, second) in [(0, count - 1), (count / 2, count / 2 + 1), (1, count / 3 + 1)] {
            if first >= second || second >= count {
                continue;
            }
            let mut repeated = names.clone();
            repeated[second] = repeated[first].clone();
            // A second repeat later on: the first one in document order is named.
            if second + 2 < count {
                repeated[second + 2] = repeated[second + 1].clone();
            }
            let (rule, path) = rule_of(&format!("{{{}}}", body(&repeated)));
            assert_eq!(
                (rule.as_str(), path),
                ("P4", format!("/{}", names[first])),
                "{count}: {first}, {second}"
            );
        }
    }
}

#[test]
fn p6_strings() {
    for raw in ["\"a\u{0}b\"", "\"a\nb\"", "\"\t\"", "\"\u{1f}\"", "{\"k\u{1}\":1}"] {
        assert_eq!(rule_of(raw).0, "P6", "{raw:?}");
    }
    for lone in [
        r#""\uD800""#,
        r#""\uDBFF x""#,
        r#""\uDC00""#,
        r#""\uDFFF\uD800""#,
        r#""\uD800\u0041""#,
        r#""\uD800\n""#,
        r#""\uD800\uD800""#,
    ] {
        assert_eq!(rule_of(lone).0, "P6", "{lone}");
    }
    assert_eq!(rule_of(r#"{"a":["\ud83d"]}"#), ("P6".into(), "/a/0".into()));
    for bad_escape in [r#""\x""#, r#""\u12G4""#, r#""\U0041""#, r#""\'""#] {
        assert_eq!(rule_of(bad_escape).0, "P6", "{bad_escape}");
    }
    let pair = read(r#""\ud83d\ude00\u00e9\u0000\"\\\/\b\f\n\r\t""#).unwrap();
    assert_eq!(pair, json!("😀é\u{0}\"\\/\u{8}\u{c}\n\r\t"));
    assert_eq!(pair.as_str().map(|s| s[..4].len()), Some(4));
    // DEL and non-ASCII may appear raw.
    assert_eq!(read("\"\u{7f}é\u{2028}\"").unwrap(), json!("\u{7f}é\u{2028}"));
    // Escapes mixed with long unescaped runs.
    let long = format!("\"{}\\n{}\\u0041{}\"", "a".repeat(100), "é".repeat(50), "z".repeat(9));
    assert_eq!(
        read(&long).unwrap(),
        json!(format!("{}\n{}A{}", "a".repeat(100), "é".repeat(50), "z".repeat(9)))
    );
}

#[test]
fn p15_nesting_depth_follows_the_128_limit() {
    let nest = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(read(&nest(127)).is_ok());
    let p = read(&nest(128)).unwrap_err();
    assert_eq!(p.rule, "P15");
    assert_eq!(p.path, "/0".repeat(127));
    let objects = format!("{}1{}", "{\"a\":".repeat(128), "}".repeat(128));
    assert_eq!(rule_of(&objects).0, "P15");
    let tight = ReadLimits {
        max_depth: 3,
        ..ReadLimits::default()
    };
    assert!(read_strict(b"[[1]]", &tight).is_ok());
    assert_eq!(read_strict(b"[[[1]]]", &tight).unwrap_err().rule, "P15");
    // Huge limits are lowered to what the stack can take; no overflow.
    let unbounded = ReadLimits {
        max_depth: usize::MAX,
        ..ReadLimits::default()
    };
    let deep = nest(100_000);
    assert_eq!(read_strict(deep.as_bytes(), &unbounded).unwrap_err().rule, "P15");
}

#[test]
fn size_limit_is_checked_first() {
    let limits = ReadLimits {
        max_bytes: 4,
        ..ReadLimits::default()
    };
    assert!(read_strict(b"[10]", &limits).is_ok());
    let p = read_strict(b"[100]", &limits).unwrap_err();
    assert_eq!((p.rule.as_str(), p.path.as_str()), ("size", ""));
    assert_eq!(read_strict(b"\xFF\xFF\xFF\xFF\xFF", &limits).unwrap_err().rule, "size");
}

#[test]
fn messages_name_line_and_column() {
    let p = read("{\n  \"a\": [1,\n    2,, 3]\n}").unwrap_err();
    assert_eq!((p.rule.as_str(), p.path.as_str()), ("P3", "/a/2"));
    assert!(p.message.contains("line 3, column 7"), "{}", p.message);
    let p = read("[\"é\u{1}\"]").unwrap_err();
    assert!(p.message.contains("line 1, column 4"), "{}", p.message);
}

#[test]
fn values_equal_serde_json_on_ordinary_documents() {
    let doc = r#"{"s":"x\"y\\z\u00e9\ud83d\ude00","n":[0,-5,18446744073709551615,-9223372036854775808,0.5,1e3,-0.25],
                 "b":[true,false,null],"o":{"":{},"k":[]},"u":"\u2028 \u0000"}"#;
    let ours = read(doc).unwrap();
    let theirs: Value = serde_json::from_str(doc).unwrap();
    assert_eq!(ours, theirs);
}

/// File name -> the §1 rule that must reject it.
const PARSE_FAILURES: &[(&str, &str)] = &[
    ("agent-result/invalid-utf8-bom.json", "P2"),
    ("agent-result/invalid-empty-file.json", "P3"),
    ("agent-result/invalid-truncated-json.json", "P3"),
    ("agent-result/invalid-trailing-garbage.json", "P3"),
    ("agent-result/invalid-duplicate-json-key.json", "P4"),
    ("artifact/invalid-duplicate-json-key.json", "P4"),
    ("disposition/invalid-duplicate-json-key.json", "P4"),
    ("agent-result/invalid-confidence-infinity-token.json", "P5"),
    ("agent-result/invalid-lone-surrogate-escape.json", "P6"),
    ("artifact/invalid-non-utf8-bytes.json", "P1"),
    ("disposition/invalid-non-utf8.json", "P1"),
    ("disposition/invalid-truncated-json.json", "P3"),
    ("artifact/invalid-confidence-1e400-out-of-range.json", "P9"),
    ("agent-result/invalid-scope-local-nesting-depth-126.json", "P15"),
];

#[test]
fn conformance_parse_failures_name_their_rule() {
    for (file, rule) in PARSE_FAILURES {
        let bytes = std::fs::read(conformance_dir().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let p = read_strict(&bytes, &ReadLimits::default()).unwrap_err();
        assert_eq!(p.rule, *rule, "{file}: {p}");
    }
}

#[test]
fn every_valid_conformance_file_reads_like_serde_json() {
    let expected = std::fs::read_to_string(conformance_dir().join("expected.jsonl")).unwrap();
    let mut count = 0;
    for line in expected.lines().filter(|l| !l.trim().is_empty()) {
        let entry: Value = serde_json::from_str(line).unwrap();
        if entry["valid"] != json!(true) {
            continue;
        }
        let file = entry["file"].as_str().unwrap_or_default();
        let bytes = std::fs::read(conformance_dir().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let ours = read_strict(&bytes, &ReadLimits::default()).unwrap_or_else(|p| panic!("{file}: {p}"));
        let theirs: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(ours, theirs, "{file}");
        count += 1;
    }
    assert!(count >= 40, "only {count} valid files");
}

/// Structural equality where doubles may differ in their last bits (serde_json
/// in this build rounds correctly; the strict reader does not).
fn same_shape(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            x == y || (x - y).abs() <= x.abs().max(y.abs()) * 1e-14
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_shape(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| ka == kb && same_shape(va, vb))
        }
        _ => a == b,
    }
}

/// Our verdict must agree with serde_json's except where the rules are
/// stricter (duplicates, depth) or the number conversion differs (P9).
fn agrees_with_serde(bytes: &[u8]) -> Result<(), TestCaseError> {
    let ours = read_strict(bytes, &ReadLimits::default());
    let theirs = serde_json::from_slice::<Value>(bytes);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => prop_assert!(same_shape(a, b), "values differ: {a:?} vs {b:?}"),
        (Ok(a), Err(e)) => prop_assert!(
            e.to_string().contains("out of range"),
            "accepted {a:?}; serde_json: {e}"
        ),
        (Err(p), Ok(_)) => prop_assert!(["P4", "P9", "P15"].contains(&p.rule.as_str()), "rejected: {p}"),
        (Err(p), Err(_)) => prop_assert!(!p.rule.is_empty() && p.message.contains("line") || p.rule == "size"),
    }
    Ok(())
}

const SEED_DOC: &str = r#"{"schema_version":"reviewgate-agent-result/v1","scope":{"kind":"pull_request","repository":"o/r","pull_request_number":48},
"score":3,"findings":[{"id":"rg_1","confidence":0.86,"line":12,"claim":"a \"quoted\" \\ claim \u00e9\ud83d\ude00 é","evidence":[]},
{"id":"rg_2","confidence":1e-3,"line":null,"ok":true,"neg":-17,"big":18446744073709551616}]}"#;

fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        Just(b'{'),
        Just(b'}'),
        Just(b'['),
        Just(b']'),
        Just(b'"'),
        Just(b'\\'),
        Just(b','),
        Just(b':'),
        Just(b'-'),
        Just(b'0'),
        Just(b'e'),
        Just(b'.'),
        Just(b'u'),
        Just(0u8),
        Just(0x1f),
        Just(0xC3),
        Just(0xFF),
        any::<u8>(),
    ]
}

#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), interesting_byte()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<usize>(), interesting_byte()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(doc: &mut Vec<u8>, e: &Edit) {
    let n = doc.len().max(1);
    match *e {
        Edit::Replace(i, b) if !doc.is_empty() => doc[i % n] = b,
        Edit::Insert(i, b) => doc.insert(i % (doc.len() + 1), b),
        Edit::Delete(i) if !doc.is_empty() => {
            doc.remove(i % n);
        }
        Edit::Truncate(i) => doc.truncate(i % (doc.len() + 1)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(interesting_byte(), 0..256)) {
        agrees_with_serde(&bytes)?;
    }

    #[test]
    fn mutated_documents_never_panic(edits in proptest::collection::vec(edit(), 1..6)) {
        let mut doc = SEED_DOC.as_bytes().to_vec();
        for e in &edits {
            apply(&mut doc, e);
        }
        agrees_with_serde(&doc)?;
    }

    #[test]
    fn printed_values_read_back(v in arbitrary_value()) {
        let text = serde_json::to_string_pretty(&v).unwrap_or_default();
        let back = read(&text);
        prop_assert!(back.is_ok(), "{text}: {back:?}");
        prop_assert!(same_shape(&back.unwrap_or(Value::Null), &v));
    }
}

fn arbitrary_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e300f64..1e300).prop_map(|f| json!(f)),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map(".{0,6}", inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

#[test]
fn no_limit_lets_in_more_text_than_a_tape_addresses() {
    let unbounded = ReadLimits {
        max_bytes: usize::MAX,
        ..ReadLimits::default()
    };
    let refused = checked_len(doc::MAX_TEXT_BYTES + 1, &unbounded).expect_err("over the tape's reach");
    assert_eq!(refused.rule, "size");
    assert!(
        refused.message.contains(&doc::MAX_TEXT_BYTES.to_string()),
        "{}",
        refused.message
    );
    assert!(checked_len(doc::MAX_TEXT_BYTES, &unbounded).is_ok());
}
