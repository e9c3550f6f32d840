//! Tests of the disposition payload: every conformance file's verdict, body,
//! digest, status context and evidence size; each D rule; reading bodies back.

use super::*;
use serde_json::json;
use std::path::PathBuf;

fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance")
}

fn sample() -> DispositionPayload {
    DispositionPayload::new(
        "LVTD-LLC/reviewgate",
        48,
        "abc123",
        "reliability_risk:app.webhooks.retry.py:webhook.retry.exhaustion.missing.regression",
        SubmittedDisposition::Accepted,
        "Accepted verified on the reviewed head.",
        "repair-agent",
    )
}

fn sample_value() -> Value {
    serde_json::to_value(sample()).unwrap_or(Value::Null)
}

/// The rules and pointers `validate_payload` reports for `value`.
fn rules(value: &Value) -> Vec<(String, String)> {
    match validate_payload(value) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.into_iter().map(|p| (p.rule, p.path)).collect(),
    }
}

fn pair(rule: &str, path: &str) -> (String, String) {
    (rule.to_string(), path.to_string())
}

#[test]
fn every_conformance_disposition_gets_its_verdict_body_and_digest() {
    let expected = std::fs::read_to_string(conformance_dir().join("expected.jsonl")).expect("expected.jsonl");
    let mut seen = 0;
    for line in expected.lines().filter(|l| !l.trim().is_empty()) {
        let entry: Value = serde_json::from_str(line).expect("expected line");
        if entry["kind"] != json!("disposition") {
            continue;
        }
        seen += 1;
        let file = entry["file"].as_str().unwrap_or_default();
        let bytes = std::fs::read(conformance_dir().join(file)).expect("fixture");
        let outcome = read_strict(&bytes, &ReadLimits::default())
            .map_err(|p| vec![p])
            .and_then(|value| validate_payload(&value));
        let valid = entry["valid"] == json!(true);
        assert_eq!(outcome.is_ok(), valid, "{file}: {outcome:?}");
        let Ok(payload) = outcome else { continue };
        let body = comment_body(&payload);
        assert_eq!(body, entry["body"].as_str().unwrap_or_default(), "{file}");
        assert_eq!(
            receipt_digest(&body),
            entry["digest"].as_str().unwrap_or_default(),
            "{file}"
        );
        assert_eq!(
            status_context(1),
            entry["status_context"].as_str().unwrap_or_default(),
            "{file}"
        );
        assert_eq!(
            Some(payload.evidence_bytes() as u64),
            entry["evidence_bytes"].as_u64(),
            "{file}"
        );
        assert_eq!(extract_payload(&body).as_ref(), Ok(&payload), "{file}");
        assert!(payload.problems().is_empty(), "{file}");
    }
    let on_disk = std::fs::read_dir(conformance_dir().join("disposition"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(seen, on_disk, "every disposition fixture has an expectation");
}

/// Invalid fixtures and the rule (and pointer) that rejects each.
const INVALID: &[(&str, &str, &str)] = &[
    ("invalid-actor-empty.json", "D5", "/submission/actor"),
    (
        "invalid-evidence-1024-emoji-plus-1-byte.json",
        "D6",
        "/submission/evidence",
    ),
    (
        "invalid-evidence-4096-two-byte-chars.json",
        "D6",
        "/submission/evidence",
    ),
    (
        "invalid-evidence-4097-bytes-ending-multibyte.json",
        "D6",
        "/submission/evidence",
    ),
    ("invalid-evidence-ideographic-space.json", "D6", "/submission/evidence"),
    ("invalid-evidence-nbsp.json", "D6", "/submission/evidence"),
    ("invalid-evidence-next-line.json", "D6", "/submission/evidence"),
    (
        "invalid-evidence-surrogate-pair-escapes-4097-bytes.json",
        "D6",
        "/submission/evidence",
    ),
    ("invalid-reviewed-sha-whitespace.json", "D3", "/reviewed_sha"),
    ("invalid-schema-version.json", "D2", "/schema_version"),
    ("invalid-scope-local-with-pr-fields.json", "D4", "/scope/kind"),
    ("invalid-scope-local.json", "D4", "/scope/kind"),
    ("invalid-scope-pr-number-0.json", "D4", "/scope/pull_request_number"),
    ("invalid-unknown-scope-field.json", "D1", "/scope/owner"),
    (
        "invalid-unknown-submission-field.json",
        "D1",
        "/submission/submission_id",
    ),
    ("valid-positional-array-form.json", "P10", ""),
];

#[test]
fn invalid_fixtures_name_their_rule_and_pointer() {
    for (file, rule, path) in INVALID {
        let bytes = std::fs::read(conformance_dir().join("disposition").join(file)).expect("fixture");
        let value = read_strict(&bytes, &ReadLimits::default()).unwrap_or_else(|p| panic!("{file}: {p}"));
        let found = rules(&value);
        assert!(found.contains(&pair(rule, path)), "{file}: {found:?}");
    }
}

#[test]
fn d1_unknown_members_everywhere() {
    let mut v = sample_value();
    v["extra"] = json!(1);
    v["scope"]["owner"] = json!("x");
    v["submission"]["submission_id"] = json!(1);
    let found = rules(&v);
    for path in ["/extra", "/scope/owner", "/submission/submission_id"] {
        assert!(found.contains(&pair("D1", path)), "{found:?}");
    }
}

#[test]
fn d2_to_d6_each_rule() {
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "/schema_version",
            json!("reviewgate-agent-dispositions/v2"),
            "D2",
            "/schema_version",
        ),
        ("/reviewed_sha", json!("\u{3000}"), "D3", "/reviewed_sha"),
        ("/reviewed_sha", json!(""), "D3", "/reviewed_sha"),
        ("/scope/kind", json!("local"), "D4", "/scope/kind"),
        ("/scope/repository", json!(" \u{2028}"), "D4", "/scope/repository"),
        (
            "/scope/pull_request_number",
            json!(0),
            "D4",
            "/scope/pull_request_number",
        ),
        (
            "/submission/semantic_fingerprint",
            json!("\t"),
            "D5",
            "/submission/semantic_fingerprint",
        ),
        ("/submission/actor", json!(""), "D5", "/submission/actor"),
        (
            "/submission/disposition",
            json!("still_open"),
            "D5",
            "/submission/disposition",
        ),
        (
            "/submission/disposition",
            json!("Fixed"),
            "D5",
            "/submission/disposition",
        ),
        ("/submission/evidence", json!("\u{85}"), "D6", "/submission/evidence"),
        (
            "/submission/evidence",
            json!("é".repeat(2049)),
            "D6",
            "/submission/evidence",
        ),
    ];
    for (at, replacement, rule, path) in cases {
        let mut v = sample_value();
        if let Some(slot) = v.pointer_mut(at) {
            *slot = replacement.clone();
        }
        assert_eq!(rules(&v), vec![pair(rule, path)], "{at} = {replacement}");
    }
}

#[test]
fn evidence_bound_counts_bytes_and_blankness_follows_t1() {
    let with_evidence = |e: String| {
        let mut v = sample_value();
        v["submission"]["evidence"] = Value::String(e);
        rules(&v)
    };
    assert!(with_evidence("a".repeat(4096)).is_empty());
    assert!(with_evidence(format!("{}é", "a".repeat(4094))).is_empty());
    assert_eq!(
        with_evidence(format!("{}é", "a".repeat(4095))),
        vec![pair("D6", "/submission/evidence")]
    );
    assert!(with_evidence("😀".repeat(1024)).is_empty());
    assert!(with_evidence("\u{200B}".into()).is_empty());
    assert!(with_evidence("\u{FEFF}".into()).is_empty());
    assert!(with_evidence("\u{180E}".into()).is_empty());
}

#[test]
fn schema_shape_failures_are_problems_too() {
    let mut v = sample_value();
    v["scope"]["pull_request_number"] = json!(48.0);
    v["reviewed_sha"] = json!(7);
    v["submission"]["evidence"] = Value::Null;
    v.as_object_mut().map(|m| m.remove("schema_version"));
    let found = rules(&v);
    for expected in [
        pair("P8", "/scope/pull_request_number"),
        pair("schema", "/reviewed_sha"),
        pair("schema", "/submission/evidence"),
        pair("schema", ""),
    ] {
        assert!(found.contains(&expected), "{expected:?} not in {found:?}");
    }
    assert_eq!(rules(&json!([])), vec![pair("P10", "")]);
    assert_eq!(rules(&json!("x")), vec![pair("schema", "")]);
    let mut scope_array = sample_value();
    scope_array["scope"] = json!(["pull_request", "o/r", 1]);
    assert_eq!(rules(&scope_array), vec![pair("P10", "/scope")]);
    let mut negative = sample_value();
    negative["scope"]["pull_request_number"] = json!(-1);
    assert_eq!(rules(&negative), vec![pair("P8", "/scope/pull_request_number")]);
    let mut missing = sample_value();
    missing["submission"].as_object_mut().map(|m| m.remove("actor"));
    assert_eq!(rules(&missing), vec![pair("schema", "/submission")]);
}

#[test]
fn integer_literal_forms_are_read_strictly() {
    let doc = |n: &str| {
        format!(
            r#"{{"schema_version":"reviewgate-agent-dispositions/v1","scope":{{"kind":"pull_request","repository":"o/r","pull_request_number":{n}}},"reviewed_sha":"s","submission":{{"semantic_fingerprint":"f","disposition":"fixed","evidence":"e","actor":"a"}}}}"#
        )
    };
    let verdict = |n: &str| {
        let value = read_strict(doc(n).as_bytes(), &ReadLimits::default()).map_err(|p| p.rule)?;
        validate_payload(&value)
            .map(|p| p.scope.pull_request_number)
            .map_err(|p| p[0].rule.clone())
    };
    assert_eq!(verdict("9007199254740993"), Ok(9007199254740993));
    assert_eq!(verdict("18446744073709551615"), Ok(u64::MAX));
    assert_eq!(verdict("18446744073709551616"), Err("P8".to_string()));
    assert_eq!(verdict("48.0"), Err("P8".to_string()));
    assert_eq!(verdict("1e0"), Err("P8".to_string()));
    assert_eq!(verdict("-0"), Err("P8".to_string()));
    assert_eq!(verdict("0"), Err("D4".to_string()));
}

#[test]
fn canonical_payload_layout_is_c1() {
    let payload = DispositionPayload::new(
        "o/r",
        9007199254740993,
        "sha",
        "fp\"\u{1}",
        SubmittedDisposition::NeedsHuman,
        "ev/é",
        "a",
    );
    assert_eq!(
        String::from_utf8(payload.canonical_bytes()).unwrap_or_default(),
        r#"{"schema_version":"reviewgate-agent-dispositions/v1","scope":{"kind":"pull_request","repository":"o/r","pull_request_number":9007199254740993},"reviewed_sha":"sha","submission":{"semantic_fingerprint":"fp\"\u0001","disposition":"needs_human","evidence":"ev/é","actor":"a"}}"#
    );
}

/// The payloads of the conformance fixtures are written as serde_json's
/// compact writer (with C3 numbers) writes them.
#[test]
fn fixture_payloads_are_written_as_serde_json_writes_them() {
    let dir = conformance_dir().join("disposition");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("disposition fixtures") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if !(name.starts_with("valid") || name.starts_with("real")) {
            continue;
        }
        let bytes = std::fs::read(&path).expect("readable");
        let payload: DispositionPayload = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        crate::model::json::canonical::oracle_tests::assert_matches_oracle(&payload);
        seen += 1;
    }
    assert!(seen > 5, "{seen} payloads");
    crate::model::json::canonical::oracle_tests::assert_matches_oracle(&sample());
}

#[test]
fn body_keeps_the_fingerprint_raw_and_reads_back() {
    let mut payload = sample();
    payload.submission.semantic_fingerprint = "defect:x:`tick` -->\nnext <!-- reviewgate-agent-dispositions x".into();
    let body = comment_body(&payload);
    assert!(body.ends_with("recorded for `defect:x:`tick` -->\nnext <!-- reviewgate-agent-dispositions x`."));
    assert!(!body.ends_with('\n'));
    assert_eq!(extract_payload(&body), Ok(payload.clone()));
    // Text before the first prefix is ignored.
    assert_eq!(extract_payload(&format!("note\n{body}")), Ok(payload));
    let digest = receipt_digest("abc");
    assert_eq!(
        digest,
        "receipt-sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(status_context(u64::MAX), "reviewgate/disposition/18446744073709551615");
}

#[test]
fn malformed_bodies_are_d10() {
    let body = comment_body(&sample());
    let encoded = body[BODY_PREFIX.len()..body.find(BODY_PAYLOAD_END).unwrap_or(0)].to_string();
    let wrap = |payload: &str| format!("{BODY_PREFIX}{payload}{BODY_PAYLOAD_END}\ntext");
    assert!(extract_payload(&wrap(&encoded)).is_ok());
    let rule = |b: &str| extract_payload(b).map_err(|p| p.rule);
    assert_eq!(rule("no marker here"), Err("D10".into()));
    assert_eq!(rule(&format!("{BODY_PREFIX}{encoded}")), Err("D10".into()));
    // Padding, standard-alphabet characters and white space are foreign.
    let padded = base64::engine::general_purpose::URL_SAFE.encode(sample().canonical_bytes());
    if padded.ends_with('=') {
        assert_eq!(rule(&wrap(&padded)), Err("D10".into()));
    }
    assert_eq!(rule(&wrap(&format!("{encoded}+"))), Err("D10".into()));
    assert_eq!(rule(&wrap(&format!(" {encoded}"))), Err("D10".into()));
    // Non-zero trailing bits: "eA" decodes 'x' only with the low bits of 'A' clear.
    assert!(URL_SAFE_NO_PAD.decode("eA").is_ok());
    assert_eq!(rule(&wrap("eB")), Err("D10".into()));
    // A decodable payload that is not strict JSON or not a valid payload.
    assert_eq!(
        rule(&wrap(&URL_SAFE_NO_PAD.encode(b"{\"a\":1,\"a\":2}"))),
        Err("P4".into())
    );
    assert_eq!(
        rule(&wrap(&URL_SAFE_NO_PAD.encode(b"\xEF\xBB\xBF{}"))),
        Err("P2".into())
    );
    let mut invalid = sample_value();
    invalid["submission"]["evidence"] = json!(" ");
    let bytes = serde_json::to_vec(&invalid).unwrap_or_default();
    assert_eq!(rule(&wrap(&URL_SAFE_NO_PAD.encode(bytes))), Err("D6".into()));
    assert_eq!(rule(&wrap("")), Err("P3".into()));
}

#[test]
fn built_payloads_check_themselves() {
    assert!(sample().problems().is_empty());
    let mut bad = sample();
    bad.submission.evidence = "x".repeat(4097);
    bad.reviewed_sha = " ".into();
    let found: Vec<String> = bad.problems().into_iter().map(|p| p.rule).collect();
    assert_eq!(found, vec!["D3".to_string(), "D6".to_string()]);
}
