//! Tests of the compact document: what the tape holds, where its strings
//! live, and what it reports.

use super::*;
use serde_json::json;

fn doc(text: &str) -> Doc<'_> {
    read_doc(text.as_bytes(), &ReadLimits::default()).unwrap_or_else(|p| panic!("{text}: {p}"))
}

fn failure(text: &str) -> (String, String) {
    let p = read_doc(text.as_bytes(), &ReadLimits::default()).expect_err("refused");
    (p.rule, p.path)
}

#[test]
fn plain_strings_are_lent_from_the_input_and_escaped_ones_decoded() {
    let text = r#"{"plain": "abc", "esc": "a\"b\u00e9\ud83d\ude00\n", "k\u0041": 1}"#;
    let d = doc(text);
    let root = d.root();
    let plain = root.get("plain").and_then(|n| n.as_str()).expect("plain");
    let at = text.find("abc").expect("in the text");
    assert!(
        std::ptr::eq(plain.as_ptr(), text[at..].as_ptr()),
        "a plain string is not copied"
    );
    assert_eq!(root.get("esc").and_then(|n| n.as_str()), Some("a\"bé😀\n"));
    assert!(root.has("kA"), "member names are decoded too");
    assert!(!root.has("k\\u0041"));
}

#[test]
fn numbers_are_what_serde_json_makes_of_them() {
    let text = r#"[0, 18446744073709551615, -1, -9223372036854775808, 1.5, 1e2, -0, 0.1, 2.2250738585072014e-308]"#;
    let d = doc(text);
    let want: serde_json::Value = serde_json::from_str(text).expect("JSON");
    let got: Vec<_> = d.root().items().map(|n| n.as_number().expect("a number")).collect();
    let want: Vec<_> = want
        .as_array()
        .expect("array")
        .iter()
        .map(|v| v.as_number().cloned().expect("n"))
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        d.root().to_value(),
        serde_json::from_str::<serde_json::Value>(text).expect("JSON")
    );
}

#[test]
fn a_number_takes_two_cells_and_its_bits_are_never_read_as_a_cell() {
    // 6 to 9 are the bits of a string's, an array's and an object's cell
    // kinds, and u64::MAX sets every bit: stepping over any of them must
    // land on the next value.
    let text = r#"{"a": 6, "b": 7, "c": [8, 9, 18446744073709551615, "after"], "d": 9, "e": {"f": -8}, "g": "end"}"#;
    let d = doc(text);
    let root = d.root();
    assert_eq!(root.get("a").and_then(|n| n.as_number()), Some(6.into()));
    assert_eq!(root.get("g").and_then(|n| n.as_str()), Some("end"));
    let c: Vec<_> = root.get("c").expect("c").items().map(|n| n.to_value()).collect();
    assert_eq!(c, [json!(8), json!(9), json!(u64::MAX), json!("after")]);
    assert_eq!(
        root.get("e").and_then(|e| e.get("f")).and_then(|n| n.as_number()),
        Some((-8).into())
    );
    let names: Vec<_> = root.members().map(|(k, _)| k).collect();
    assert_eq!(names, ["a", "b", "c", "d", "e", "g"]);
    assert_eq!(
        root.to_value(),
        serde_json::from_str::<serde_json::Value>(text).expect("JSON")
    );
    // Seven numbers of two cells; one cell each for the two objects, the
    // seven names, the array and the two strings.
    let numbers = 7;
    let others = 2 + 7 + 1 + 2;
    assert_eq!(d.cell_count(), others + 2 * numbers);
    assert_eq!(std::mem::size_of_val(&d.tape[0]), 8);
}

#[test]
fn duplicate_names_are_refused_at_their_place_at_any_depth() {
    assert_eq!(
        failure(r#"{"a": {"b": 1, "c": 2, "b": 3}}"#),
        ("P4".into(), "/a/b".into())
    );
    assert_eq!(
        failure(r#"[{}, {"x": [1, {"y": 0, "y": 0}]}]"#),
        ("P4".into(), "/1/x/1/y".into())
    );
    // Names equal once decoded are the same name.
    assert_eq!(failure(r#"{"k": 1, "\u006b": 2}"#), ("P4".into(), "/k".into()));
    // Many members (the sorted check) and a fault after the repeat: the
    // later fault inside the object is reported first, as it always was.
    let many: Vec<String> = (0..20).map(|i| format!("\"m{i}\": {i}")).collect();
    let text = format!("{{{}, \"m3\": 0}}", many.join(", "));
    assert_eq!(failure(&text), ("P4".into(), "/m3".into()));
    assert_eq!(failure(r#"{"a": 1, "a": 2, "b": tru}"#).0, "P3");
    assert!(read_doc(br#"{"a": {"b": 1}, "b": {"a": 1}}"#, &ReadLimits::default()).is_ok());
}

#[test]
fn nesting_is_bounded_and_failures_name_their_pointer() {
    let limits = ReadLimits::default();
    let ok = format!("{}{}", "[".repeat(127), "]".repeat(127));
    assert!(read_doc(ok.as_bytes(), &limits).is_ok());
    let deep = format!("{}{}", "[".repeat(128), "]".repeat(128));
    let p = read_doc(deep.as_bytes(), &limits).expect_err("too deep");
    assert_eq!(p.rule, "P15");
    assert_eq!(
        failure(r#"{"a": [1, 2, {"b/c": 01}]}"#),
        ("P5".into(), "/a/2/b~1c".into())
    );
    assert_eq!(failure(r#"{"a": [1e999]}"#), ("P9".into(), "/a/0".into()));
}

#[test]
fn javascript_numbers_become_placeholders_with_their_pointers() {
    let text = r#"{"a": [1e400], "b": {"c": -1e400}, "d": 1}"#;
    let (d, infinite) = read_as_javascript(text.into(), &ReadLimits::default()).expect("read");
    let pointers: Vec<(&str, bool)> = infinite.iter().map(|i| (i.pointer.as_str(), i.negative)).collect();
    assert_eq!(pointers, [("/a/0", false), ("/b/c", true)]);
    assert_eq!(
        d.root().to_value(),
        json!({"a": [f64::MAX], "b": {"c": -f64::MAX}, "d": 1})
    );
}

#[test]
fn javascript_mode_reads_a_lone_surrogate_as_a_replacement_character() {
    let read = |text: &str| {
        read_as_javascript(text.into(), &ReadLimits::default())
            .map(|(d, _)| d.root().to_value())
            .map_err(|p| (p.rule, p.path))
    };
    assert_eq!(read(r#"{"t": "ab\ud83d"}"#), Ok(json!({"t": "ab\u{FFFD}"})));
    assert_eq!(read(r#"["\ude00x"]"#), Ok(json!(["\u{FFFD}x"])));
    // A lone high surrogate before another escape: that escape is its own
    // character, even the high half of a pair.
    assert_eq!(read(r#"["\ud83d\u0041"]"#), Ok(json!(["\u{FFFD}A"])));
    assert_eq!(read(r#"["\ud83d\ud83d\ude00"]"#), Ok(json!(["\u{FFFD}\u{1F600}"])));
    assert_eq!(read(r#"["\ud83d\ude00"]"#), Ok(json!(["\u{1F600}"])));
    // Everything else stays a failure, as in JSON.parse.
    assert_eq!(read("[\"a\u{1}\"]").map_err(|e| e.0), Err("P6".to_owned()));
    assert_eq!(read(r#"["\ud83d\uZZZZ"]"#).map_err(|e| e.0), Err("P6".to_owned()));
    // The strict reading keeps P6.
    assert_eq!(failure(r#"{"t": ["\ud83d"]}"#), ("P6".into(), "/t/0".into()));
}

#[test]
fn members_come_in_document_order_or_in_name_order_through_a_name_order_node() {
    let d = doc(r#"{"b": 1, "c": {"z": 0, "y": 0}, "a": 2}"#);
    let names = |n: DocNode<'_>| n.members().map(|(k, _)| k.to_owned()).collect::<Vec<_>>();
    assert_eq!(names(d.root()), ["b", "c", "a"]);
    let sorted = d.root().in_name_order();
    assert_eq!(names(sorted), ["a", "b", "c"]);
    let inner = sorted.get("c").expect("c");
    assert_eq!(names(inner), ["y", "z"], "nodes reached from it keep the order");
    assert_eq!(inner.members().len(), 2);
    let through_members = sorted.members().find(|(k, _)| *k == "c").map(|(_, v)| v).expect("c");
    assert_eq!(names(through_members), ["y", "z"]);
    assert_eq!(names(d.root()), ["b", "c", "a"], "the document itself is unchanged");
    assert_eq!(names(d.root().get("c").expect("c")), ["z", "y"]);
}

#[test]
fn values_decoded_over_split_strings_outlive_the_tape() {
    use crate::model::reviewgate::test_decode_lent;
    let text = r#"["plain", "esc\u00e9"]"#;
    let (strings, tape) = doc(text).split();
    let view = Doc::over(&strings, tape);
    let decoded: Vec<&str> = test_decode_lent(view, strings.strings());
    // `view` (and its tape) is gone; the strings are still lent.
    assert_eq!(decoded, ["plain", "escé"]);
}
