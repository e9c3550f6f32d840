//! River Review's line-anchored fingerprint (`fingerprintAlgo: "v2"`, newer
//! line 1.110.x): the first 16 hex digits of SHA-256 of
//! `ruleId::file::msg60::L<line>`, where the base `ruleId::file::msg60` is
//! the one of the v1 fingerprint ([`river_message_key`]) and `<line>` is
//! `lineStart`, else `line` (JavaScript `??`: only an absent or null member
//! falls through), when that is an integer >= 1 as JavaScript's
//! `Number.isInteger` judges it, and `0` otherwise. The number is written as
//! JavaScript's `String(number)` writes it (`1e+21` from 10^21 on).
//!
//! River 1.15.0 has no v2: there a v2 suppression matches nothing.

use crate::model::fingerprint::river_message_key;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The line segment's number for a finding's `lineStart` / `line` members.
pub fn v2_line(line_start: Option<&Value>, line: Option<&Value>) -> String {
    let chosen = match line_start {
        Some(v) if !v.is_null() => Some(v),
        _ => line,
    };
    match chosen.and_then(Value::as_f64) {
        Some(x) if x.is_finite() && x.fract() == 0.0 && x >= 1.0 => js_integer(x),
        _ => "0".to_owned(),
    }
}

/// JavaScript's `String(x)` for a finite integral double >= 1.
fn js_integer(x: f64) -> String {
    if x < 1e21 {
        // Rust's shortest round-trip digits, padded with zeros like JavaScript.
        format!("{x}")
    } else {
        let e = format!("{x:e}");
        match e.split_once('e') {
            Some((mantissa, exp)) => format!("{mantissa}e+{exp}"),
            None => e,
        }
    }
}

/// The v2 fingerprint of the members as they are (`line` is [`v2_line`]'s text).
pub fn river_fingerprint_v2(
    rule_id: Option<&str>,
    file: Option<&str>,
    message: Option<&str>,
    title: Option<&str>,
    line: &str,
) -> String {
    let key = river_message_key(message.or(title).unwrap_or(""));
    let text = format!(
        "{}::{}::{}::L{line}",
        rule_id.unwrap_or("unknown"),
        file.unwrap_or(""),
        key
    );
    let digest = Sha256::digest(text.as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn line_segment_follows_javascript() {
        let l = |start: Option<Value>, line: Option<Value>| v2_line(start.as_ref(), line.as_ref());
        assert_eq!(l(None, Some(json!(12))), "12");
        assert_eq!(l(Some(json!(7)), Some(json!(12))), "7");
        assert_eq!(l(Some(Value::Null), Some(json!(12))), "12");
        // A present but unusable lineStart does not fall through to line.
        assert_eq!(l(Some(json!("7")), Some(json!(12))), "0");
        assert_eq!(l(None, None), "0");
        assert_eq!(l(None, Some(json!(0))), "0");
        assert_eq!(l(None, Some(json!(1.5))), "0");
        assert_eq!(l(None, Some(json!(4.0))), "4");
        assert_eq!(l(None, Some(json!(4_294_967_296u64))), "4294967296");
        assert_eq!(l(None, Some(json!(1e20))), "100000000000000000000");
        assert_eq!(
            l(None, Some(json!(18_446_744_073_709_551_615u64))),
            "18446744073709552000"
        );
        assert_eq!(l(None, Some(json!(1e21))), "1e+21");
        assert_eq!(l(None, Some(json!(1.5e300))), "1.5e+300");
    }

    /// Vectors computed by running River's own key and hash expressions
    /// (`fingerprintKeyBase` + `computeFingerprintV2` of s977043/river-review)
    /// under Node on these findings; v1 alongside as a cross-check.
    #[test]
    fn v2_vectors_from_rivers_code() {
        let emoji = format!("{}\u{1F600} tail", "x".repeat(59));
        let cases: [(Value, &str, &str); 8] = [
            (
                json!({"ruleId": "rr-midstream-security-001", "file": "src/config.mjs", "message": "Hardcoded API key detected", "line": 12}),
                "333be486c0c537ac",
                "e4f01f9ff5fe618b",
            ),
            (
                json!({"file": "README.md", "title": "Only a title, no ruleId and no message"}),
                "6e5a6fd694f79a5b",
                "e15f11cc3930fd57",
            ),
            (
                json!({"ruleId": "r1", "file": "src/x.ts", "message": "  Leak\tDETECTED \n in   handler  ", "line": 3, "lineStart": null}),
                "2d551902b02b28ee",
                "4893dd58abf81a25",
            ),
            (
                json!({"ruleId": "r-emoji", "file": "a.js", "message": emoji, "lineStart": "7", "line": 9}),
                "83d0e791e107712f",
                "44b1dea991e52c43",
            ),
            (
                json!({"ruleId": "rr-x", "file": "src/a.js", "message": "m", "line": 4_294_967_296u64}),
                "38be118b251fa995",
                "673bd8d15175f295",
            ),
            (
                json!({"ruleId": "rr-x", "file": "src/a.js", "message": "m", "line": 1e20}),
                "38be118b251fa995",
                "4b7ce1e0073872c3",
            ),
            (
                json!({"ruleId": "rr-x", "file": "src/a.js", "message": "m", "line": 1e21}),
                "38be118b251fa995",
                "3948b661d4948394",
            ),
            // No usable line: the segment is L0.
            (
                json!({"ruleId": "rr-x", "file": "src/a.js", "message": "m"}),
                "38be118b251fa995",
                "a54f8f9e14c90281",
            ),
        ];
        for (finding, v1, v2) in cases {
            let s = |k: &str| finding.get(k).and_then(Value::as_str);
            let line = v2_line(finding.get("lineStart"), finding.get("line"));
            let got_v1 = crate::model::fingerprint::river_fingerprint(s("ruleId"), s("file"), s("message"), s("title"));
            assert_eq!(got_v1, v1, "{finding}");
            assert_eq!(
                river_fingerprint_v2(s("ruleId"), s("file"), s("message"), s("title"), &line),
                v2,
                "{finding}"
            );
        }
    }
}
