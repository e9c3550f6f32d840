//! A path-tracking reader for River Review JSON: typed access to members that
//! records every fault as a [`Problem`] (with its JSON pointer) and every
//! unknown member as a notice, so one walk over the document yields the typed
//! structs, the problems and the notices together.
//!
//! Rule ids used here (River Review has no numbered rule list):
//! `river-required` (a required member is absent), `river-type` (wrong JSON
//! type), `river-enum` (a value outside the documented set), `river-range`
//! (a number or length out of bounds), `river-format` (a malformed
//! date-time), `river-unique` (repeated items where they must be unique) and,
//! for notices only, `river-additive` (an unknown member, kept).

use crate::model::problem::{Problem, push_pointer};
use serde_json::{Map, Value};

/// Rule id of the notice reported for each unknown (additive) member.
pub const ADDITIVE_RULE: &str = "river-additive";

/// One JSON object together with its pointer.
#[derive(Debug, Clone, Copy)]
pub struct Obj<'a> {
    pub map: &'a Map<String, Value>,
    pub path: &'a str,
}

impl<'a> Obj<'a> {
    /// The pointer of one member.
    pub fn at(&self, key: &str) -> String {
        push_pointer(self.path, key)
    }

    /// The raw member, if present.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }
}

/// Collects problems and notices while typed values are read.
#[derive(Debug, Default)]
pub struct Reader {
    pub problems: Vec<Problem>,
    pub notices: Vec<Problem>,
}

/// The JSON type name used in messages.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Reader {
    /// Records a problem.
    pub fn problem(&mut self, rule: &str, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem::new(rule, path, message));
    }

    fn wrong_type(&mut self, path: &str, expected: &str, got: &Value) {
        let message = format!("must be {expected}, found {}", type_name(got));
        self.problem("river-type", path, message);
    }

    /// `value` as an object, or a `river-type` problem.
    pub fn object<'a>(&mut self, value: &'a Value, path: &'a str) -> Option<Obj<'a>> {
        match value {
            Value::Object(map) => Some(Obj { map, path }),
            other => {
                self.wrong_type(path, "an object", other);
                None
            }
        }
    }

    /// Reports each absent required member and each unknown member (as a
    /// notice: River Review adds optional members without a version bump).
    pub fn members(&mut self, obj: Obj<'_>, known: &[&str], required: &[&str]) {
        for key in required {
            if !obj.map.contains_key(*key) {
                let message = format!("required member `{key}` is missing");
                self.problem("river-required", obj.path, message);
            }
        }
        for key in obj.map.keys() {
            if !known.contains(&key.as_str()) {
                let message = format!(
                    "unknown member `{}` kept and not interpreted (an additive field of a newer River Review?)",
                    key.escape_debug()
                );
                self.notices.push(Problem::new(ADDITIVE_RULE, obj.at(key), message));
            }
        }
    }

    /// An optional string member.
    pub fn string<'a>(&mut self, obj: Obj<'a>, key: &str) -> Option<&'a str> {
        match obj.get(key)? {
            Value::String(s) => Some(s),
            other => {
                self.wrong_type(&obj.at(key), "a string", other);
                None
            }
        }
    }

    /// A string member that, when present, must not be empty (`minLength: 1`).
    pub fn non_empty_string<'a>(&mut self, obj: Obj<'a>, key: &str) -> Option<&'a str> {
        let s = self.string(obj, key)?;
        if s.is_empty() {
            self.problem("river-range", obj.at(key), "must not be empty");
        }
        Some(s)
    }

    /// A string member restricted to `allowed` (exact, case-sensitive).
    pub fn one_of<'a>(&mut self, obj: Obj<'a>, key: &str, allowed: &[&str]) -> Option<&'a str> {
        let s = self.string(obj, key)?;
        if allowed.contains(&s) {
            Some(s)
        } else {
            let message = format!("`{}` is not one of: {}", s.escape_debug(), allowed.join(", "));
            self.problem("river-enum", obj.at(key), message);
            None
        }
    }

    /// A string member holding an RFC 3339 date-time.
    pub fn date_time<'a>(&mut self, obj: Obj<'a>, key: &str) -> Option<&'a str> {
        let s = self.string(obj, key)?;
        if !is_rfc3339_date_time(s) {
            let message = format!("`{}` is not an RFC 3339 date-time", s.escape_debug());
            self.problem("river-format", obj.at(key), message);
        }
        Some(s)
    }

    /// An optional integer member `>= 1` that fits in u32. As in JSON Schema,
    /// a number with a zero fraction (`4.0`) counts as an integer.
    pub fn positive_int(&mut self, obj: Obj<'_>, key: &str) -> Option<u32> {
        let value = obj.get(key)?;
        let path = obj.at(key);
        let Value::Number(n) = value else {
            self.wrong_type(&path, "an integer", value);
            return None;
        };
        let as_int = n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u64::MAX as f64)
                .map(|f| f as u64)
        });
        match as_int {
            None if n.as_i64().is_some() => {
                self.problem("river-range", path, format!("{n} is below the minimum 1"));
                None
            }
            None if n.as_f64().is_some_and(|f| f.fract() == 0.0) => {
                self.problem("river-range", path, format!("{n} is below the minimum 1"));
                None
            }
            None => {
                self.problem("river-type", path, format!("must be an integer, found {n}"));
                None
            }
            Some(0) => {
                self.problem("river-range", path, "0 is below the minimum 1");
                None
            }
            Some(v) => match u32::try_from(v) {
                Ok(v) => Some(v),
                Err(_) => {
                    self.problem("river-range", path, format!("{v} does not fit a line number"));
                    None
                }
            },
        }
    }

    /// An optional non-negative integer member (summary counts).
    pub fn count(&mut self, obj: Obj<'_>, key: &str) -> Option<u64> {
        let value = obj.get(key)?;
        let path = obj.at(key);
        match value.as_u64().or_else(|| {
            value
                .as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u64::MAX as f64)
                .map(|f| f as u64)
        }) {
            Some(v) => Some(v),
            None if value.is_number() => {
                self.problem("river-range", path, format!("{value} is not a non-negative integer"));
                None
            }
            None => {
                self.wrong_type(&path, "an integer", value);
                None
            }
        }
    }

    /// An optional number member within `[min, max]` (`max` may be infinite).
    pub fn number(&mut self, obj: Obj<'_>, key: &str, min: f64, max: f64) -> Option<f64> {
        let value = obj.get(key)?;
        let path = obj.at(key);
        let Some(f) = value.as_f64() else {
            self.wrong_type(&path, "a number", value);
            return None;
        };
        if f < min || f > max {
            let message = if max.is_finite() {
                format!("{value} is outside {min}..={max}")
            } else {
                format!("{value} is below the minimum {min}")
            };
            self.problem("river-range", path, message);
            return None;
        }
        Some(f)
    }

    /// An optional boolean member.
    pub fn boolean(&mut self, obj: Obj<'_>, key: &str) -> Option<bool> {
        match obj.get(key)? {
            Value::Bool(b) => Some(*b),
            other => {
                self.wrong_type(&obj.at(key), "a boolean", other);
                None
            }
        }
    }

    /// An optional array member (its items are read by the caller).
    pub fn array<'a>(&mut self, obj: Obj<'a>, key: &str) -> Option<&'a Vec<Value>> {
        match obj.get(key)? {
            Value::Array(items) => Some(items),
            other => {
                self.wrong_type(&obj.at(key), "an array", other);
                None
            }
        }
    }

    /// An optional object member.
    pub fn child<'a>(&mut self, obj: Obj<'a>, key: &str, path: &'a str) -> Option<Obj<'a>> {
        let value = obj.get(key)?;
        self.object(value, path)
    }

    /// An optional array of strings; `non_empty` and `unique` apply the
    /// schema's `minLength: 1` and `uniqueItems`.
    pub fn strings(&mut self, obj: Obj<'_>, key: &str, non_empty: bool, unique: bool) -> Vec<String> {
        let Some(items) = self.array(obj, key) else {
            return Vec::new();
        };
        let base = obj.at(key);
        let mut out: Vec<String> = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let path = push_pointer(&base, &i.to_string());
            match item {
                Value::String(s) => {
                    if non_empty && s.is_empty() {
                        self.problem("river-range", path.clone(), "must not be empty");
                    }
                    if unique && out.iter().any(|o| o == s) {
                        self.problem("river-unique", path, "repeats an earlier item (items must be unique)");
                    }
                    out.push(s.clone());
                }
                other => self.wrong_type(&path, "a string", other),
            }
        }
        out
    }
}

/// Compact JSON of a value for display, cut to `max_chars` characters.
pub fn compact(value: &Value, max_chars: usize) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.chars().count() <= max_chars {
        return text;
    }
    let mut cut: String = text.chars().take(max_chars).collect();
    cut.push('…');
    cut
}

/// RFC 3339 `date-time` (as JSON Schema's `format: date-time`):
/// `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`, `T`/`Z` in either case.
pub fn is_rfc3339_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 20 || !matches!(b[10], b'T' | b't') {
        return false;
    }
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(range)?;
        if part.iter().all(u8::is_ascii_digit) {
            Some(part.iter().fold(0u32, |acc, d| acc * 10 + u32::from(d - b'0')))
        } else {
            None
        }
    };
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    if b[4] != b'-' || b[7] != b'-' || !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (digits(11..13), digits(14..16), digits(17..19)) else {
        return false;
    };
    if b[13] != b':' || b[16] != b':' || hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match &b[i..] {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => {
            let ok = [h1, h2, m1, m2].iter().all(|d| d.is_ascii_digit());
            ok && (h1 - b'0') * 10 + (h2 - b'0') <= 23 && (m1 - b'0') * 10 + (m2 - b'0') <= 59
        }
        _ => false,
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn date_times() {
        assert!(is_rfc3339_date_time("2026-11-29T19:36:17.758Z"));
        assert!(is_rfc3339_date_time("2025-01-01T00:00:00Z"));
        assert!(is_rfc3339_date_time("2024-02-29t23:59:60+09:00"));
        assert!(!is_rfc3339_date_time("2025-02-29T00:00:00Z"));
        assert!(!is_rfc3339_date_time("2025-01-01 00:00:00Z"));
        assert!(!is_rfc3339_date_time("2025-01-01T00:00:00"));
        assert!(!is_rfc3339_date_time("2025-01-01T00:00:00.Z"));
        assert!(!is_rfc3339_date_time("2025-13-01T00:00:00Z"));
        assert!(!is_rfc3339_date_time("yesterday"));
    }

    #[test]
    fn members_report_missing_and_unknown() {
        let v = json!({"a": 1, "zz": 2});
        let mut r = Reader::default();
        let obj = r.object(&v, "/x").unwrap();
        r.members(obj, &["a", "b"], &["a", "b"]);
        assert_eq!(r.problems.len(), 1);
        assert_eq!(r.problems[0].rule, "river-required");
        assert!(r.problems[0].message.contains("`b`"));
        assert_eq!(r.notices.len(), 1);
        assert_eq!(r.notices[0].rule, ADDITIVE_RULE);
        assert_eq!(r.notices[0].path, "/x/zz");
    }

    #[test]
    fn positive_int_rules() {
        let v = json!({"a": 4, "b": 4.0, "c": 0, "d": -3, "e": 1.5, "f": "4", "g": 5_000_000_000u64});
        let mut r = Reader::default();
        let obj = r.object(&v, "").unwrap();
        assert_eq!(r.positive_int(obj, "a"), Some(4));
        assert_eq!(r.positive_int(obj, "b"), Some(4));
        assert_eq!(r.positive_int(obj, "c"), None);
        assert_eq!(r.positive_int(obj, "d"), None);
        assert_eq!(r.positive_int(obj, "e"), None);
        assert_eq!(r.positive_int(obj, "f"), None);
        assert_eq!(r.positive_int(obj, "g"), None);
        let rules: Vec<_> = r.problems.iter().map(|p| (p.rule.as_str(), p.path.as_str())).collect();
        assert_eq!(
            rules,
            [
                ("river-range", "/c"),
                ("river-range", "/d"),
                ("river-type", "/e"),
                ("river-type", "/f"),
                ("river-range", "/g")
            ]
        );
    }

    #[test]
    fn enums_and_strings() {
        let v = json!({"p": "Midstream", "q": 3, "l": ["a", "a", ""]});
        let mut r = Reader::default();
        let obj = r.object(&v, "").unwrap();
        assert_eq!(r.one_of(obj, "p", &["midstream"]), None);
        assert_eq!(r.string(obj, "q"), None);
        assert_eq!(r.strings(obj, "l", true, true), ["a", "a", ""]);
        let rules: Vec<_> = r.problems.iter().map(|p| (p.rule.as_str(), p.path.as_str())).collect();
        assert_eq!(
            rules,
            [
                ("river-enum", "/p"),
                ("river-type", "/q"),
                ("river-unique", "/l/1"),
                ("river-range", "/l/2")
            ]
        );
    }

    #[test]
    fn compact_cuts_on_char_boundaries() {
        assert_eq!(compact(&json!("日本語テキスト"), 3), "日本語…");
        assert_eq!(compact(&json!({"a": 1}), 10), "{\"a\":1}");
    }
}
