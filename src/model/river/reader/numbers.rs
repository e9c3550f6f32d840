//! Numeric members: positive integers (line numbers), non-negative counts and
//! bounded numbers, judged as River's validator judges them: Ajv 8 with
//! `strict: false`, which turns `strictNumbers` off, so an infinity (what
//! `JSON.parse` makes of `1e400`) passes `type: number` and `type: integer`
//! (`Infinity % 1` is `NaN`, which counts as no fraction), and then meets
//! `minimum`/`maximum` as the infinity it is: `1e400` is a valid `line`,
//! `-1e400` is below its minimum and `1e400` is above a `maximum: 1`.

use super::{Obj, Reader};
use serde_json::Value;

/// The rule id of the notice about a line beyond any file.
pub const LINE_NOTICE: &str = "river-line";

impl Reader {
    /// An optional integer member `>= 1` (`line`, `lineEnd`), judged as
    /// River's validator judges it: Ajv's `integer` is any JavaScript number
    /// without a fraction (`4.0`, 2^32 and `1e20` are integers), and
    /// `minimum: 1` has no upper bound. A valid value beyond `u32` is kept as
    /// `None` here (no checkout has such a line), with a notice saying so
    /// (the finding is then shown without a line, and the file stays valid);
    /// the v2 fingerprint reads the raw number itself.
    pub fn positive_int(&mut self, obj: Obj<'_>, key: &str) -> Option<u32> {
        let value = obj.get(key)?;
        let path = obj.at(key);
        let Value::Number(n) = value else {
            self.wrong_type(&path, "an integer", value);
            return None;
        };
        if let Some(negative) = self.infinity_at(&path) {
            // Valid when positive, and like 2^32 no line of any checkout.
            if negative {
                self.problem("river-range", path, "-Infinity is below the minimum 1");
            } else {
                self.beyond_any_line(path, "Infinity");
            }
            return None;
        }
        let exact = n.as_u64().map(|u| u as f64).or_else(|| n.as_i64().map(|i| i as f64));
        let Some(x) = exact.or_else(|| n.as_f64()) else {
            self.wrong_type(&path, "an integer", value);
            return None;
        };
        if x.fract() != 0.0 {
            self.problem(
                "river-type",
                path,
                format!("must be an integer, found {}", js_display(x)),
            );
            return None;
        }
        if x < 1.0 {
            self.problem("river-range", path, format!("{} is below the minimum 1", js_display(x)));
            return None;
        }
        let line = u32::try_from(n.as_u64().unwrap_or(u64::MAX)).ok().or_else(|| {
            // A float-written integer within u32 (`4.0`, `1e3`).
            (x <= f64::from(u32::MAX)).then_some(x as u32)
        });
        if line.is_none() {
            self.beyond_any_line(path, &js_display(x));
        }
        line
    }

    /// The notice of a valid line number no file has (shown as no line).
    fn beyond_any_line(&mut self, path: String, shown: &str) {
        let message =
            format!("{shown} is a valid line to River Review but beyond any file; the finding is shown without a line");
        self.notices
            .push(crate::model::problem::Problem::new(LINE_NOTICE, path, message));
    }

    /// An optional non-negative integer member (summary counts).
    pub fn count(&mut self, obj: Obj<'_>, key: &str) -> Option<u64> {
        let value = obj.get(key)?;
        let path = obj.at(key);
        if let Some(negative) = self.infinity_at(&path) {
            // `Infinity` is a valid count to River, but no count `triage` can show.
            if negative {
                self.problem("river-range", path, "-Infinity is not a non-negative integer");
            }
            return None;
        }
        match value.as_u64().or_else(|| {
            value
                .as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u64::MAX as f64)
                .map(|f| f as u64)
        }) {
            Some(v) => Some(v),
            None if value.is_number() => {
                let shown = value.as_f64().map_or_else(|| value.to_string(), js_display);
                self.problem("river-range", path, format!("{shown} is not a non-negative integer"));
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
        let f = match self.infinity_at(&path) {
            Some(true) => f64::NEG_INFINITY,
            Some(false) => f64::INFINITY,
            None => f,
        };
        if f < min || f > max {
            let message = if max.is_finite() {
                format!("{} is outside {min}..={max}", js_display(f))
            } else {
                format!("{} is below the minimum {min}", js_display(f))
            };
            self.problem("river-range", path, message);
            return None;
        }
        Some(f)
    }
}

/// A number as JavaScript's `String(number)` shows it (the form River's own
/// messages use): plain digits below 10^21, exponent form with a sign beyond.
pub fn js_display(x: f64) -> String {
    if x.is_infinite() {
        return if x < 0.0 { "-Infinity" } else { "Infinity" }.to_owned();
    }
    let abs = x.abs();
    if abs == 0.0 || (1e-7..1e21).contains(&abs) {
        return format!("{x}");
    }
    let e = format!("{x:e}");
    match e.split_once('e') {
        Some((m, exp)) if !exp.starts_with('-') => format!("{m}e+{exp}"),
        Some((m, exp)) => format!("{m}e{exp}"),
        None => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::json::{ReadLimits, read_as_javascript};
    use serde_json::json;

    #[test]
    fn infinities_are_judged_as_ajv_judges_them() {
        let text = br#"{"a": 1e400, "b": -1e400, "c": 1e400, "d": 1e400, "e": -1e400, "f": 1e400, "g": 2e308}"#;
        let text = std::str::from_utf8(text).expect("UTF-8");
        let (doc, infinite) = read_as_javascript(text.into(), &ReadLimits::default()).expect("read");
        let v = doc.root().to_value();
        assert_eq!(infinite.len(), 7, "{infinite:?}");
        let mut r = Reader::with_infinities(&infinite);
        let obj = r.object(&v, "").unwrap();
        assert_eq!(r.positive_int(obj, "a"), None);
        assert_eq!(r.positive_int(obj, "b"), None);
        assert_eq!(r.number(obj, "c", 0.0, 1.0), None);
        assert_eq!(r.number(obj, "d", 0.0, f64::INFINITY), Some(f64::INFINITY));
        assert_eq!(r.count(obj, "e"), None);
        assert_eq!(r.count(obj, "f"), None);
        assert_eq!(r.positive_int(obj, "g"), None);
        let got: Vec<_> = r
            .problems
            .iter()
            .map(|p| (p.path.as_str(), p.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("/b", "-Infinity is below the minimum 1"),
                ("/c", "Infinity is outside 0..=1"),
                ("/e", "-Infinity is not a non-negative integer"),
            ]
        );
        // A literal that is f64::MAX itself stays a finite number.
        let (doc, infinite) =
            read_as_javascript(r#"{"m": 1.7976931348623157e308}"#.into(), &ReadLimits::default()).unwrap();
        let v = doc.root().to_value();
        assert!(infinite.is_empty());
        let mut r = Reader::with_infinities(&infinite);
        let obj = r.object(&v, "").unwrap();
        assert_eq!(r.number(obj, "m", 0.0, f64::INFINITY), Some(f64::MAX));
    }

    #[test]
    fn positive_int_rules() {
        let v = json!({"a": 4, "b": 4.0, "c": 0, "d": -3, "e": 1.5, "f": "4", "g": 5_000_000_000u64,
            "h": 4_294_967_296u64, "i": 1e20, "j": 1e3, "k": -1e20, "l": 0.5});
        let mut r = Reader::default();
        let obj = r.object(&v, "").unwrap();
        assert_eq!(r.positive_int(obj, "a"), Some(4));
        assert_eq!(r.positive_int(obj, "b"), Some(4));
        assert_eq!(r.positive_int(obj, "c"), None);
        assert_eq!(r.positive_int(obj, "d"), None);
        assert_eq!(r.positive_int(obj, "e"), None);
        assert_eq!(r.positive_int(obj, "f"), None);
        // River accepts these: integers >= 1 have no upper bound.
        assert_eq!(r.positive_int(obj, "g"), None);
        assert_eq!(r.positive_int(obj, "h"), None);
        assert_eq!(r.positive_int(obj, "i"), None);
        assert_eq!(r.positive_int(obj, "j"), Some(1000));
        assert_eq!(r.positive_int(obj, "k"), None);
        assert_eq!(r.positive_int(obj, "l"), None);
        let rules: Vec<_> = r
            .problems
            .iter()
            .map(|p| (p.rule.as_str(), p.path.as_str(), p.message.as_str()))
            .collect();
        assert_eq!(
            rules,
            [
                ("river-range", "/c", "0 is below the minimum 1"),
                ("river-range", "/d", "-3 is below the minimum 1"),
                ("river-type", "/e", "must be an integer, found 1.5"),
                ("river-type", "/f", "must be an integer, found a string"),
                ("river-range", "/k", "-100000000000000000000 is below the minimum 1"),
                ("river-type", "/l", "must be an integer, found 0.5"),
            ]
        );
    }
}
