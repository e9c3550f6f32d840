//! The canonical serialization (REVIEWGATE-RULES §8): compact UTF-8, members
//! in declaration order, only `"`, `\` and U+0000–U+001F escaped (C2), and
//! doubles in their shortest round-trip form (C3).
//!
//! One writer (`ser::Writer`, a serde `Serializer`) makes the bytes and,
//! into a sink that only counts, the size that rules R2 and J6 bound, so the
//! two can never disagree. It writes exactly what serde_json's compact writer
//! writes, numbers aside (module `c3`). Member order (C1) comes from the
//! types being serialized: struct fields in declaration order. A
//! `serde_json::Value` object is written in its map's order (sorted by name
//! in this build).

mod c3;
mod ser;

#[cfg(test)]
pub(crate) mod oracle_tests;

use ser::Writer;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt::Display;

/// Why a value could not be serialized (only a custom `Serialize` impl that
/// fails, or a map key that is not a string, a number or a boolean, can
/// cause this).
#[derive(Debug, thiserror::Error)]
#[error("cannot serialize canonically: {0}")]
pub struct CanonicalError(Cow<'static, str>);

impl CanonicalError {
    fn custom(msg: impl Display) -> Self {
        CanonicalError(Cow::Owned(msg.to_string()))
    }
}

impl serde::ser::Error for CanonicalError {
    fn custom<T: Display>(msg: T) -> Self {
        CanonicalError::custom(msg)
    }
}

/// Where the writer puts its bytes: a buffer, or a count.
trait Sink {
    /// Appends `bytes`; a counting sink fails once past its limit.
    fn put(&mut self, bytes: &[u8]) -> Result<(), CanonicalError>;
}

impl Sink for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) -> Result<(), CanonicalError> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

/// A sink that only counts, and fails once the count passes `limit`.
struct Counter {
    count: usize,
    limit: usize,
}

impl Sink for Counter {
    #[inline]
    fn put(&mut self, bytes: &[u8]) -> Result<(), CanonicalError> {
        self.count = self.count.saturating_add(bytes.len());
        if self.count > self.limit {
            return Err(CanonicalError(Cow::Borrowed("over the size limit")));
        }
        Ok(())
    }
}

/// The canonical bytes of `value`, or the serializer's error.
pub fn try_to_canonical_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, CanonicalError> {
    let mut writer = Writer::new(Vec::with_capacity(128));
    value.serialize(&mut writer)?;
    Ok(writer.into_sink())
}

/// The canonical bytes of `value`.
///
/// For `serde_json::Value` and derived structs with string-keyed maps the
/// serialization cannot fail. Should a custom `Serialize` impl fail anyway,
/// the result is empty (never valid JSON, so it cannot be mistaken for a
/// document); use [`try_to_canonical_vec`] to see the error.
pub fn to_canonical_vec<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    try_to_canonical_vec(value).unwrap_or_default()
}

/// The length of the canonical serialization of `value` when it is at most
/// `limit` bytes, `Ok(None)` when it is longer (rules R2 and J6).
///
/// The bytes are the canonical writer's own (the writer of
/// [`to_canonical_vec`]), counted as they are written and never kept;
/// writing stops as soon as the count passes `limit`, so an oversize value
/// costs no more than `limit` bytes of writing. A failure to serialize is an
/// error, never a length.
pub fn canonical_len_within<T: Serialize + ?Sized>(value: &T, limit: usize) -> Result<Option<usize>, CanonicalError> {
    let mut writer = Writer::new(Counter { count: 0, limit });
    let written = value.serialize(&mut writer);
    let count = writer.into_sink().count;
    match written {
        Ok(()) => Ok(Some(count)),
        Err(_) if count > limit => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn canon(v: &Value) -> String {
        String::from_utf8(to_canonical_vec(v)).expect("canonical output is UTF-8")
    }

    #[test]
    fn floats_follow_c3() {
        let cases: [(f64, &str); 16] = [
            (1.0, "1.0"),
            (0.86, "0.86"),
            (0.00001, "0.00001"),
            (1e-7, "1e-7"),
            (1e16, "1e16"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1e15, "1000000000000000.0"),
            (123456789012345680.0, "1.2345678901234568e17"),
            (0.0001234, "0.0001234"),
            (0.000001234, "1.234e-6"),
            (12.5, "12.5"),
            (-3.25, "-3.25"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e308"),
            (0.1 + 0.2, "0.30000000000000004"),
        ];
        // Two shortest candidates, equally close: ryu (and so ReviewGate) picks the even digit.
        // 29641020380728.5625 exactly (2^-4 fraction).
        assert_eq!(canon(&json!(f64::from_bits(0x42baf5567d963890))), "29641020380728.562");
        assert_eq!(canon(&json!(-1.5e300)), "-1.5e300");
        assert_eq!(canon(&json!(123456.0)), "123456.0");
        assert_eq!(canon(&json!(1.5e-5)), "0.000015");
        for (f, expected) in cases {
            assert_eq!(canon(&json!(f)), expected, "{f:?}");
        }
    }

    #[test]
    fn integers_are_plain_decimal() {
        assert_eq!(canon(&json!(u64::MAX)), "18446744073709551615");
        assert_eq!(canon(&json!(i64::MIN)), "-9223372036854775808");
        assert_eq!(canon(&json!(9007199254740993u64)), "9007199254740993");
        assert_eq!(canon(&json!(0)), "0");
    }

    #[test]
    fn strings_escape_only_quote_backslash_and_c0() {
        let mut input = String::new();
        let mut expected = String::from("\"");
        for c in (0u32..0x20).filter_map(char::from_u32) {
            input.push(c);
            expected.push_str(&match c {
                '\u{8}' => "\\b".to_string(),
                '\t' => "\\t".to_string(),
                '\n' => "\\n".to_string(),
                '\u{c}' => "\\f".to_string(),
                '\r' => "\\r".to_string(),
                c => format!("\\u{:04x}", c as u32),
            });
        }
        let raw = "\"\\/\u{7f}\u{80}\u{2028}\u{2029}é😀<>&'";
        input.push_str(raw);
        expected.push_str("\\\"\\\\/\u{7f}\u{80}\u{2028}\u{2029}é😀<>&'\"");
        assert_eq!(canon(&Value::String(input)), expected);
        // Lowercase hex in \u00xx escapes.
        assert_eq!(canon(&json!("\u{1b}\u{1f}")), "\"\\u001b\\u001f\"");
    }

    #[test]
    fn compact_layout_and_counting_agree() {
        let v = json!({"b": [1, 2.5, null, true], "a": {"x": "y\n"}});
        let bytes = to_canonical_vec(&v);
        assert_eq!(
            String::from_utf8(bytes.clone()).unwrap(),
            r#"{"a":{"x":"y\n"},"b":[1,2.5,null,true]}"#
        );
        let len = bytes.len();
        assert_eq!(canonical_len_within(&v, len).ok(), Some(Some(len)));
        assert_eq!(canonical_len_within(&v, len - 1).ok(), Some(None));
        let big = json!({"s": "é".repeat(5000), "f": [0.1, 1e300, -0.0]});
        let len = to_canonical_vec(&big).len();
        assert_eq!(canonical_len_within(&big, usize::MAX).ok(), Some(Some(len)));
        assert_eq!(canonical_len_within(&big, 100).ok(), Some(None));
    }

    #[test]
    fn struct_members_keep_declaration_order() {
        #[derive(Serialize)]
        struct Ordered {
            zeta: u8,
            alpha: Option<&'static str>,
            mid: f64,
        }
        let v = Ordered {
            zeta: 1,
            alpha: None,
            mid: 0.5,
        };
        assert_eq!(to_canonical_vec(&v), br#"{"zeta":1,"alpha":null,"mid":0.5}"#.to_vec());
        let len = try_to_canonical_vec(&v).unwrap().len();
        assert_eq!(canonical_len_within(&v, len).ok(), Some(Some(len)));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 5000, ..Default::default() })]

        /// Any finite double: the text reads back to the same bits, has no more
        /// digits than the standard library's shortest form, and is laid out
        /// the way serde_json lays it out, minus the `+` in exponents.
        #[test]
        fn every_double_round_trips(bits in proptest::prelude::any::<u64>()) {
            let f = f64::from_bits(bits);
            proptest::prop_assume!(f.is_finite());
            let ours = canon(&json!(f));
            let back: f64 = ours.parse().unwrap_or(f64::NAN);
            proptest::prop_assert_eq!(back.to_bits(), f.to_bits(), "{}", ours);
            let digit_count = |s: &str| s.split('e').next().unwrap_or("").trim_start_matches('-')
                .replace('.', "").trim_matches('0').len().max(1);
            let shortest = format!("{:e}", f);
            proptest::prop_assert_eq!(digit_count(&ours), digit_count(&shortest), "{} vs {}", ours, shortest);
            let theirs = serde_json::to_string(&f).unwrap_or_default().replace("e+", "e");
            proptest::prop_assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn failing_serialization_is_reported() {
        let mut map = std::collections::BTreeMap::new();
        map.insert((1u8, 2u8), 3u8);
        assert!(try_to_canonical_vec(&map).is_err());
        assert!(to_canonical_vec(&map).is_empty());
        // The size rules see the failure, not a length of 0.
        assert!(canonical_len_within(&map, usize::MAX).is_err());
    }
}
