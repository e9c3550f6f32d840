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

use crate::model::json::Infinite;
use crate::model::json::type_name;
use crate::model::problem::{Problem, push_pointer};
use serde_json::{Map, Value};

mod date_time;
mod display;
mod numbers;
mod strings;
mod uri;

pub use date_time::{DateTimeParts, days_from_civil, is_rfc3339_date_time, parse_date, parse_date_time};
pub use display::compact;
pub use numbers::js_display;
pub use uri::is_ajv_uri;

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
    /// Pointers of the numbers that are infinities (see
    /// [`crate::model::json::read_as_javascript`]), with their sign.
    infinite: Vec<(String, bool)>,
}

impl Reader {
    /// A reader that judges the numbers at `infinite` as infinities.
    pub fn with_infinities(infinite: &[Infinite]) -> Self {
        Reader {
            infinite: infinite.iter().map(|i| (i.pointer.clone(), i.negative)).collect(),
            ..Reader::default()
        }
    }

    /// `Some(negative)` when the number at `path` is an infinity.
    pub fn infinity_at(&self, path: &str) -> Option<bool> {
        self.infinite
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, negative)| *negative)
    }

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
