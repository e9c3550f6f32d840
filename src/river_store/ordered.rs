//! An order-preserving JSON value for River's memory index.
//!
//! The index is rewritten whole, and every entry `triage` did not write must
//! come back exactly as River Review (JavaScript) would write it: members in
//! their original order, numbers in JavaScript's `Number#toString` form.
//! `serde_json::Value` sorts members, so the index goes through this type.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// A JSON number, kept exactly (integers) or as the double JavaScript holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Unsigned(u64),
    Signed(i64),
    Float(f64),
}

/// A JSON value whose objects keep their member order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(Num),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// A member of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A member of an object, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(members) => members.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// Converts a `serde_json::Value` (whose member order is already lost).
    pub fn from_value(value: &serde_json::Value) -> Json {
        use serde_json::Value;
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(if let Some(u) = n.as_u64() {
                Num::Unsigned(u)
            } else if let Some(i) = n.as_i64() {
                Num::Signed(i)
            } else {
                Num::Float(n.as_f64().unwrap_or(0.0))
            }),
            Value::String(s) => Json::String(s.clone()),
            Value::Array(items) => Json::Array(items.iter().map(Json::from_value).collect()),
            Value::Object(map) => Json::Object(map.iter().map(|(k, v)| (k.clone(), Json::from_value(v))).collect()),
        }
    }
}

/// JavaScript's `Number#toString` for a finite double (what `JSON.stringify`
/// writes), from Rust's shortest round-trip digits.
pub fn js_number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        // JSON.stringify writes NaN and infinities as null; they never parse in.
        return if x == 0.0 { "0".to_owned() } else { "null".to_owned() };
    }
    if x < 0.0 {
        return format!("-{}", js_number(-x));
    }
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i64;
    let n = exp.parse::<i64>().unwrap_or(0) + 1;
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let sign = if e < 0 { '-' } else { '+' };
        match digits.len() {
            1 => format!("{digits}e{sign}{}", e.abs()),
            _ => format!("{}.{}e{sign}{}", &digits[..1], &digits[1..], e.abs()),
        }
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Json, E> {
        Ok(Json::Number(Num::Unsigned(u)))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Json, E> {
        Ok(Json::Number(Num::Signed(i)))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Json, E> {
        Ok(Json::Number(Num::Float(f)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members: Vec<(String, Json)> = Vec::new();
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format_args!("duplicate member {key:?}")));
            }
            let value = map.next_value()?;
            members.push((key, value));
        }
        Ok(Json::Object(members))
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

/// `JSON.stringify(value, null, 2) + "\n"`: two-space indentation, `": "`
/// between name and value, `[]`/`{}` for empty containers, a final newline.
pub fn to_pretty(value: &Json) -> String {
    let mut out = String::new();
    write_value(value, Some(0), &mut out);
    out.push('\n');
    out
}

/// `JSON.stringify(value)`: no whitespace at all.
pub fn to_compact(value: &Json) -> String {
    let mut out = String::new();
    write_value(value, None, &mut out);
    out
}

/// A JSON string literal, escaped as `JSON.stringify` escapes it (`"`, `\\`,
/// the short escapes and `\u00xx` for other control characters; nothing else).
fn write_string(s: &str, out: &mut String) {
    out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned()));
}

fn newline(indent: Option<usize>, out: &mut String) {
    if let Some(level) = indent {
        out.push('\n');
        out.push_str(&"  ".repeat(level));
    }
}

/// Writes one value; `indent` is the current level (pretty) or `None` (compact).
fn write_value(value: &Json, indent: Option<usize>, out: &mut String) {
    let inner = indent.map(|l| l + 1);
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(Num::Unsigned(u)) => out.push_str(&u.to_string()),
        Json::Number(Num::Signed(i)) => out.push_str(&i.to_string()),
        Json::Number(Num::Float(f)) => out.push_str(&js_number(*f)),
        Json::String(s) => write_string(s, out),
        Json::Array(items) if items.is_empty() => out.push_str("[]"),
        Json::Object(members) if members.is_empty() => out.push_str("{}"),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(inner, out);
                write_value(item, inner, out);
            }
            newline(indent, out);
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(inner, out);
                write_string(k, out);
                out.push_str(if indent.is_some() { ": " } else { ":" });
                write_value(v, inner, out);
            }
            newline(indent, out);
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_javascript_does() {
        let cases = [
            (1.0, "1"),
            (0.5, "0.5"),
            (-2.25, "-2.25"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789.125, "123456789.125"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (-0.0, "0"),
            (33.333333333333336, "33.333333333333336"),
        ];
        for (x, want) in cases {
            assert_eq!(js_number(x), want, "{x}");
        }
    }

    #[test]
    fn round_trip_keeps_member_order_and_layout() {
        let text = "{\n  \"entries\": [\n    {\n      \"z\": 1,\n      \"a\": [],\n      \"m\": {},\n      \"f\": 2.5,\n      \"s\": \"\\u0001 \\\"q\\\" é\"\n    }\n  ],\n  \"version\": \"1\"\n}\n";
        let v: Json = serde_json::from_str(text).unwrap();
        assert_eq!(to_pretty(&v), text);
    }

    #[test]
    fn floats_written_with_an_integral_value_print_as_integers() {
        let v: Json = serde_json::from_str("{\"a\": 1.0, \"b\": 1e5}").unwrap();
        assert_eq!(to_compact(&v), "{\"a\":1,\"b\":100000}");
    }

    #[test]
    fn duplicate_members_are_an_error() {
        let err = serde_json::from_str::<Json>("{\"a\": {\"b\": 1, \"b\": 2}}").unwrap_err();
        assert!(err.to_string().contains("duplicate member \"b\""), "{err}");
    }
}
