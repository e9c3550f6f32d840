//! Tests of the fingerprint functions: spec examples, River's published test
//! vectors, and every fingerprint listed in the conformance expectations.

use super::*;
use crate::model::json::{ReadLimits, read_strict};
use serde_json::Value;
use std::path::PathBuf;

#[test]
fn norm_follows_f2() {
    assert_eq!(norm("app/webhooks/retry.py"), "app.webhooks.retry.py");
    assert_eq!(
        norm("webhook.retry_exhaustion.missing_regression"),
        "webhook.retry.exhaustion.missing.regression"
    );
    assert_eq!(norm("  --Leading and trailing--  "), "leading.and.trailing");
    assert_eq!(norm("MiXeD CaSe 42"), "mixed.case.42");
    assert_eq!(norm("!!!"), "");
    assert_eq!(norm(""), "");
    // U+0130 lowercases to "i" + U+0307; U+212A (Kelvin) to "k".
    assert_eq!(norm("\u{130}STANBUL"), "i.stanbul");
    assert_eq!(norm("5\u{212A}"), "5k");
    // Other non-ASCII letters never become ASCII.
    assert_eq!(norm("café ÉTÉ straße ǅ ﬃ"), "caf.t.stra.e");
    assert_eq!(norm("ΣΑΣ x"), "x");
    assert_eq!(norm("a\u{0}b\u{FEFF}c"), "a.b.c");
}

#[test]
fn semantic_fingerprint_follows_f1() {
    assert_eq!(
        semantic_fingerprint(
            "reliability_risk",
            Some("app/webhooks/retry.py"),
            "webhook.retry_exhaustion.missing_regression"
        ),
        "reliability_risk:app.webhooks.retry.py:webhook.retry.exhaustion.missing.regression"
    );
    assert_eq!(semantic_fingerprint("defect", None, "Title"), "defect:pr:title");
    assert_eq!(semantic_fingerprint("defect", Some(""), "Title"), "defect::title");
    assert_eq!(semantic_fingerprint("defect", Some("PR"), "!!"), "defect:pr:");
    assert_eq!(semantic_key(Some("key"), "title"), "key");
    assert_eq!(semantic_key(Some(" \u{a0}"), "title"), "title");
    assert_eq!(semantic_key(Some("\u{200b}"), "title"), "\u{200b}");
    assert_eq!(semantic_key(None, "title"), "title");
}

#[test]
fn code_fingerprint_hashes_the_f4_text() {
    let sha = |text: &str| hex(&Sha256::digest(text.as_bytes()));
    assert_eq!(code_fingerprint(None, None), sha("pr\n"));
    assert_eq!(code_fingerprint(Some(""), None), sha("\n"));
    let items = vec![
        CodeItem {
            path: "b.rs",
            side: "new",
            excerpt: "x",
        },
        CodeItem {
            path: "a.rs",
            side: "old",
            excerpt: "y",
        },
        CodeItem {
            path: "b.rs",
            side: "new",
            excerpt: "x",
        },
    ];
    let grounding = CodeGrounding {
        causal_path: "cause",
        items,
    };
    assert_eq!(
        code_fingerprint(Some("f.rs"), Some(grounding.clone())),
        sha("f.rs\ncause\na.rs\nold\ny\nb.rs\nnew\nx\nb.rs\nnew\nx\n")
    );
    // Sorted by UTF-8 bytes (code points): U+FF21 sorts before U+1F600,
    // although UTF-16 order would put the surrogate pair first.
    let astral = CodeGrounding {
        causal_path: "c",
        items: vec![
            CodeItem {
                path: "u",
                side: "new",
                excerpt: "\u{1F600}",
            },
            CodeItem {
                path: "u",
                side: "new",
                excerpt: "\u{FF21}",
            },
        ],
    };
    assert_eq!(
        code_fingerprint(None, Some(astral)),
        sha("pr\nc\nu\nnew\n\u{FF21}\nu\nnew\n\u{1F600}\n")
    );
    assert_eq!(code_fingerprint(None, Some(CodeGrounding::default())), sha("pr\n\n"));
}

/// ruleId, file, message, title, expected fingerprint.
type RiverVector<'a> = (Option<&'a str>, &'a str, Option<&'a str>, Option<&'a str>, &'a str);

#[test]
fn river_test_vectors() {
    let emoji = format!("{}😀 tail", "x".repeat(59));
    let cases: [RiverVector; 5] = [
        (
            Some("rr-midstream-security-001"),
            "src/config.mjs",
            Some("Hardcoded API key detected"),
            None,
            "333be486c0c537ac",
        ),
        (
            Some("r1"),
            "src/x.ts",
            Some("  Leak\tDETECTED \n in   handler  "),
            None,
            "2d551902b02b28ee",
        ),
        (
            Some("rr-midstream-code-quality-001"),
            "src/lib/runner.mjs",
            Some(
                "Finding: Missing error handling Evidence: async without try/catch Impact: Crash on failure \
                 Fix: Add try/catch Severity: major Confidence: high",
            ),
            None,
            "b95e284d0c8e10d6",
        ),
        (
            None,
            "README.md",
            None,
            Some("Only a title, no ruleId and no message"),
            "6e5a6fd694f79a5b",
        ),
        (Some("r-emoji"), "a.js", Some(emoji.as_str()), None, "83d0e791e107712f"),
    ];
    for (rule, file, message, title, expected) in cases {
        assert_eq!(
            river_fingerprint(rule, Some(file), message, title),
            expected,
            "{rule:?} {message:?}"
        );
    }
}

#[test]
fn river_message_key_uses_javascript_rules() {
    assert_eq!(
        river_message_key("  Leak\tDETECTED \n in   handler  "),
        "leak detected in handler"
    );
    // JS \s includes U+FEFF and excludes U+0085.
    assert_eq!(river_message_key("\u{FEFF}a\u{FEFF}\u{3000}b"), "a b");
    assert_eq!(river_message_key("a\u{85}b"), "a\u{85}b");
    assert!(is_js_space('\u{FEFF}') && !is_js_space('\u{85}') && !is_js_space('\u{180E}'));
    // 60 UTF-16 units; a pair cut in half leaves U+FFFD.
    let key = river_message_key(&format!("{}😀 tail", "x".repeat(59)));
    assert_eq!(key, format!("{}\u{FFFD}", "x".repeat(59)));
    assert_eq!(river_message_key(&"é".repeat(70)).chars().count(), 60);
    assert_eq!(river_message_key(&"😀".repeat(40)), "😀".repeat(30));
    // Final sigma, as JavaScript's toLowerCase applies it.
    assert_eq!(river_message_key("ΟΔΟΣ"), "οδος");
    assert_eq!(river_message_key("İ"), "i\u{307}");
    assert_eq!(river_message_key(""), "");
}

#[test]
fn river_defaults() {
    let sha16 = |text: &str| hex(&Sha256::digest(text.as_bytes())[..8]);
    assert_eq!(river_fingerprint(None, None, None, None), sha16("unknown::::"));
    assert_eq!(
        river_fingerprint(Some(""), Some("f"), Some("M"), Some("T")),
        sha16("::f::m")
    );
    assert_eq!(
        river_fingerprint(Some("r"), Some("f"), None, Some("T")),
        sha16("r::f::t")
    );
    assert_eq!(
        river_fingerprint(Some("r"), Some("f"), Some(""), Some("T")),
        sha16("r::f::")
    );
}

#[test]
fn marker_encoding_round_trips() {
    assert_eq!(marker_encode("rg_001"), "rg_001");
    assert_eq!(marker_encode("a-Z.9~_"), "a-Z.9~_");
    assert_eq!(marker_encode("defect:src/lib.rs:x y"), "defect%3Asrc%2Flib.rs%3Ax%20y");
    assert_eq!(marker_encode("é -->\n%"), "%C3%A9%20--%3E%0A%25");
    for s in ["", "plain", "defect:a.b:c", "é😀\u{0}%", "-->", "%41"] {
        assert_eq!(marker_decode(&marker_encode(s)).as_deref(), Ok(s));
    }
    assert_eq!(marker_decode("%c3%a9").as_deref(), Ok("é"));
    assert_eq!(marker_decode("%4"), Err(MarkerDecodeError::BadEscape(0)));
    assert_eq!(marker_decode("ab%G1"), Err(MarkerDecodeError::BadEscape(2)));
    assert_eq!(marker_decode("%FF"), Err(MarkerDecodeError::NotUtf8));
    assert_eq!(marker_decode("%25%"), Err(MarkerDecodeError::BadEscape(3)));
    assert_eq!(marker_decode("a%2"), Err(MarkerDecodeError::BadEscape(1)));
}

#[test]
fn the_marker_set_keeps_exactly_the_unreserved_ascii() {
    for b in 0u8..128 {
        let c = char::from(b);
        let kept = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~');
        let expected = if kept { c.to_string() } else { format!("%{b:02X}") };
        assert_eq!(marker_encode(&c.to_string()), expected, "byte {b:#04x}");
    }
}

fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance")
}

/// F1 and F4 computed from a v3 finding object's raw members.
fn fingerprints_of(finding: &Value) -> (String, String) {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let file = text(finding, "file");
    let title = text(finding, "title").unwrap_or_default();
    let classification = text(finding, "classification").unwrap_or_default();
    let grounding = finding.get("grounding").filter(|g| g.is_object());
    let key_source = grounding.and_then(|g| g.get("semantic_key")).and_then(Value::as_str);
    let semantic = semantic_fingerprint(&classification, file.as_deref(), semantic_key(key_source, &title));
    let code_grounding = grounding.map(|g| {
        let items = ["evidence", "related_tests"]
            .iter()
            .flat_map(|list| g.get(*list).and_then(Value::as_array).into_iter().flatten())
            .map(|item| CodeItem {
                path: item.get("path").and_then(Value::as_str).unwrap_or(""),
                side: item.get("side").and_then(Value::as_str).unwrap_or("new"),
                excerpt: item.get("excerpt").and_then(Value::as_str).unwrap_or(""),
            })
            .collect();
        CodeGrounding {
            causal_path: g.get("causal_path").and_then(Value::as_str).unwrap_or(""),
            items,
        }
    });
    (semantic, code_fingerprint(file.as_deref(), code_grounding))
}

#[test]
fn conformance_fingerprints_match() {
    let expected = std::fs::read_to_string(conformance_dir().join("expected.jsonl")).expect("expected.jsonl");
    let mut checked = 0;
    for line in expected.lines().filter(|l| !l.trim().is_empty()) {
        let entry: Value = serde_json::from_str(line).expect("expected line");
        let Some(wanted) = entry.get("fingerprints").and_then(Value::as_array) else {
            continue;
        };
        let file = entry["file"].as_str().unwrap_or_default();
        let bytes = std::fs::read(conformance_dir().join(file)).expect("artifact");
        let artifact = read_strict(&bytes, &ReadLimits::default()).unwrap_or_else(|p| panic!("{file}: {p}"));
        let findings = artifact["findings"].as_array().cloned().unwrap_or_default();
        let tracked: Vec<Value> = artifact
            .get("tracked_findings")
            .and_then(Value::as_array)
            .map(|list| list.iter().map(|t| t["finding"].clone()).collect())
            .unwrap_or_default();
        let (mut next_top, mut next_tracked) = (findings.iter(), tracked.iter());
        for want in wanted {
            let finding = match want["source"].as_str() {
                Some("findings") => next_top.next(),
                Some("tracked_findings") => next_tracked.next(),
                other => panic!("{file}: unknown source {other:?}"),
            };
            let finding = finding.unwrap_or_else(|| panic!("{file}: fewer findings than expected"));
            assert_eq!(finding["id"], want["id"], "{file}");
            let (semantic, code) = fingerprints_of(finding);
            assert_eq!(
                semantic,
                want["semantic_fingerprint"].as_str().unwrap_or_default(),
                "{file} {}",
                want["id"]
            );
            assert_eq!(
                code,
                want["code_fingerprint"].as_str().unwrap_or_default(),
                "{file} {}",
                want["id"]
            );
            checked += 1;
        }
    }
    assert!(checked >= 70, "only {checked} fingerprints checked");
}

/// F2 as it reads: map, keep or dot, then trim the dots at the end.
fn norm_by_the_letter(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('.') {
            out.push('.');
        }
    }
    while out.ends_with('.') {
        out.pop();
    }
    out
}

#[test]
fn norm_agrees_with_f2_by_the_letter() {
    let pieces = [
        "", "a", "Z9", ".", "..", " ", "\u{130}", "\u{212A}", "é", "ß", "Σ", "_", "-x-", "\u{0}", "😀", "42",
    ];
    for a in pieces {
        for b in pieces {
            for c in pieces {
                let s = format!("{a}{b}{c}");
                assert_eq!(norm(&s), norm_by_the_letter(&s), "{s:?}");
                let mut appended = String::from("defect:");
                push_norm_for_test(&s, &mut appended);
                assert_eq!(appended, format!("defect:{}", norm_by_the_letter(&s)), "{s:?}");
            }
        }
    }
}

fn push_norm_for_test(s: &str, out: &mut String) {
    // Appending goes through semantic_fingerprint, the only caller.
    let fp = semantic_fingerprint("defect", Some(""), s);
    out.push_str(fp.trim_start_matches("defect::"));
}
