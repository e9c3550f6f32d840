//! The canonical serialization (REVIEWGATE-RULES §8): compact UTF-8, members
//! in declaration order, only `"`, `\` and U+0000–U+001F escaped (C2), and
//! doubles in their shortest round-trip form (C3).
//!
//! serde_json's compact writer escapes strings exactly as C2 says, and its
//! float writer (serde_json 1.0.154) picks the same shortest round-trip digits
//! as ryu, but it puts a `+` into positive exponents (`1e+16`), which C3 does
//! not. [`CanonicalFormatter`] therefore takes the digits from serde_json's
//! writer and lays them out by the C3 rules itself. Member order (C1) comes
//! from the types being serialized: struct fields in declaration order. A
//! `serde_json::Value` object is written in its map's order (sorted by name in
//! this build).

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};
use std::io;

/// Why a value could not be serialized (only a custom `Serialize` impl that
/// fails, or a map with non-string keys, can cause this).
#[derive(Debug, thiserror::Error)]
#[error("cannot serialize canonically: {0}")]
pub struct CanonicalError(#[from] serde_json::Error);

/// The canonical bytes of `value`, or the serializer's error.
pub fn try_to_canonical_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, CanonicalError> {
    let mut out = Vec::with_capacity(128);
    write_canonical(&mut out, value)?;
    Ok(out)
}

/// Writes the canonical serialization of `value` to `writer`.
pub fn write_canonical<W: io::Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<(), CanonicalError> {
    let mut serializer = serde_json::Serializer::with_formatter(writer, CanonicalFormatter);
    value.serialize(&mut serializer)?;
    Ok(())
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
/// The bytes are the canonical writer's own ([`write_canonical`]), counted
/// as they are written and never kept; writing stops as soon as the count
/// passes `limit`, so an oversize value costs no more than `limit` bytes of
/// writing. A failure to serialize is an error, never a length.
pub fn canonical_len_within<T: Serialize + ?Sized>(value: &T, limit: usize) -> Result<Option<usize>, CanonicalError> {
    let mut counter = Counter { count: 0, limit };
    match write_canonical(&mut counter, value) {
        Ok(()) => Ok(Some(counter.count)),
        Err(_) if counter.count > limit => Ok(None),
        Err(e) => Err(e),
    }
}

/// A writer that only counts, and fails once the count passes `limit`.
struct Counter {
    count: usize,
    limit: usize,
}

impl io::Write for Counter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.count = self.count.saturating_add(bytes.len());
        if self.count > self.limit {
            return Err(io::Error::other("over the size limit"));
        }
        Ok(bytes.len())
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.write(bytes).map(drop)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// serde_json's compact layout with C3 number formatting.
#[derive(Debug, Clone, Copy, Default)]
pub struct CanonicalFormatter;

impl Formatter for CanonicalFormatter {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        let mut raw = StackText::default();
        CompactFormatter.write_f64(&mut raw, value)?;
        write_c3(writer, raw.as_str())
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        let mut raw = StackText::default();
        CompactFormatter.write_f32(&mut raw, value)?;
        write_c3(writer, raw.as_str())
    }
}

/// Shortest digits of a number and the decimal exponent of its first digit:
/// value = 0.d1d2..dn x 10^(point), digits without leading or trailing zeros
/// (`"0"` for zero).
struct Decimal<'a> {
    negative: bool,
    int: &'a str,
    frac: &'a str,
    exp: i32,
}

impl<'a> Decimal<'a> {
    /// Splits number text such as `-12.5`, `0.00001` or `1.5e+16`.
    fn parse(text: &'a str) -> Self {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exp) = rest.split_once(['e', 'E']).unwrap_or((rest, "0"));
        let exp = exp.trim_start_matches('+').parse().unwrap_or(0);
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        Decimal {
            negative,
            int,
            frac,
            exp,
        }
    }

    /// The significant digits (into `out`) and p = position of the decimal
    /// point relative to the first significant digit (value = 0.digits x 10^p).
    fn digits(&self, out: &mut StackText) -> i32 {
        for part in [self.int, self.frac] {
            let _ = io::Write::write_all(out, part.as_bytes());
        }
        let all = out.as_str();
        let leading = all.len() - all.trim_start_matches('0').len();
        let significant = all.trim_matches('0').len();
        if significant == 0 {
            out.set("0");
            return 1;
        }
        out.keep(leading, leading + significant);
        self.int.len() as i32 - leading as i32 + self.exp
    }
}

/// Lays out serde_json's number text by C3: digits d (n of them) with
/// value d x 10^k and p = n + k.
fn write_c3<W: ?Sized + io::Write>(writer: &mut W, raw: &str) -> io::Result<()> {
    let decimal = Decimal::parse(raw);
    let mut buffer = StackText::default();
    let p = decimal.digits(&mut buffer);
    let digits = buffer.as_str();
    let n = digits.len() as i32;
    let k = p - n;
    if decimal.negative {
        writer.write_all(b"-")?;
    }
    if k >= 0 && p <= 16 {
        writer.write_all(digits.as_bytes())?;
        for _ in 0..k {
            writer.write_all(b"0")?;
        }
        writer.write_all(b".0")
    } else if 0 < p && p <= 16 {
        let (int, frac) = digits.split_at(p as usize);
        writer.write_all(int.as_bytes())?;
        writer.write_all(b".")?;
        writer.write_all(frac.as_bytes())
    } else if -5 < p && p <= 0 {
        writer.write_all(b"0.")?;
        for _ in 0..-p {
            writer.write_all(b"0")?;
        }
        writer.write_all(digits.as_bytes())
    } else {
        let (first, rest) = digits.split_at(1);
        writer.write_all(first.as_bytes())?;
        if !rest.is_empty() {
            writer.write_all(b".")?;
            writer.write_all(rest.as_bytes())?;
        }
        write!(writer, "e{}", p - 1)
    }
}

/// A small fixed buffer for number text (no allocation while serializing).
struct StackText {
    buf: [u8; 48],
    len: usize,
}

impl Default for StackText {
    fn default() -> Self {
        StackText { buf: [0; 48], len: 0 }
    }
}

impl StackText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }

    fn set(&mut self, s: &str) {
        self.len = 0;
        let _ = io::Write::write_all(self, s.as_bytes());
    }

    /// Keeps only bytes `start..end`.
    fn keep(&mut self, start: usize, end: usize) {
        self.buf.copy_within(start..end, 0);
        self.len = end - start;
    }
}

impl io::Write for StackText {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let end = self.len + bytes.len();
        if end > self.buf.len() {
            return Err(io::Error::other("number text too long"));
        }
        self.buf[self.len..end].copy_from_slice(bytes);
        self.len = end;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
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
