//! Numeric members: positive integers (line numbers), non-negative counts and
//! bounded numbers.

use super::{Obj, Reader};
use serde_json::Value;

impl Reader {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
