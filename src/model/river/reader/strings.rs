//! String members: plain, non-empty, enumerated and date-time strings, and
//! arrays of strings.

use super::{Obj, Reader, is_rfc3339_date_time};
use crate::model::problem::push_pointer;
use serde_json::Value;

impl Reader {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
