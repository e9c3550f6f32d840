//! A serde `Deserializer` over a parsed `serde_json::Value` that is stricter
//! than serde_json's own and knows where it is.
//!
//! serde's derived structs also accept a JSON array of their members in
//! declaration order; the formats do not (P10), so a struct read from an
//! array is an error here. And when anything fails, the JSON pointer of the
//! deepest failing value is recorded, so a problem names its exact place.
//! Strings are lent out of the value (no copies); scalars are read exactly
//! as serde_json reads them.

use crate::model::problem::push_pointer;
use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Error, Map, Value};
use std::cell::RefCell;

/// One step of a path.
#[derive(Debug, Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// A path as a chain of steps on the stack (nothing is built unless needed).
#[derive(Debug, Clone, Copy)]
struct Node<'n, 'a> {
    parent: Option<&'n Node<'n, 'a>>,
    step: Step<'a>,
}

/// Where decoding started, and where it first failed.
#[derive(Debug)]
pub(crate) struct Trail<'b> {
    base: &'b str,
    failed_at: RefCell<Option<String>>,
}

impl<'b> Trail<'b> {
    /// A trail for a value found at pointer `base`.
    pub fn new(base: &'b str) -> Self {
        Trail {
            base,
            failed_at: RefCell::new(None),
        }
    }

    /// The pointer of the deepest failure (the base when none was recorded).
    pub fn failed_at(&self) -> String {
        self.failed_at.borrow().clone().unwrap_or_else(|| self.base.to_owned())
    }

    fn record(&self, node: Option<&Node<'_, '_>>) {
        let mut slot = self.failed_at.borrow_mut();
        if slot.is_none() {
            *slot = Some(self.render(node));
        }
    }

    fn render(&self, node: Option<&Node<'_, '_>>) -> String {
        let mut steps = Vec::new();
        let mut at = node;
        while let Some(n) = at {
            steps.push(n.step);
            at = n.parent;
        }
        steps.iter().rev().fold(self.base.to_owned(), |path, step| match step {
            Step::Key(k) => push_pointer(&path, k),
            Step::Index(i) => format!("{path}/{i}"),
        })
    }
}

/// Decodes `value` as `T`; on failure, `trail` knows where.
pub(crate) fn from_value<'a, T: de::Deserialize<'a>>(value: &'a Value, trail: &Trail<'_>) -> Result<T, Error> {
    let result = T::deserialize(Strict {
        value,
        node: None,
        trail,
    });
    if result.is_err() {
        trail.record(None);
    }
    result
}

/// The deserializer for one value at one place.
struct Strict<'a, 'n> {
    value: &'a Value,
    node: Option<&'n Node<'n, 'a>>,
    trail: &'n Trail<'n>,
}

impl<'a> Strict<'a, '_> {
    fn visit_object<V: Visitor<'a>>(self, map: &'a Map<String, Value>, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_map(Members {
            iter: map.iter(),
            pending: None,
            node: self.node,
            trail: self.trail,
        })
    }

    fn visit_array<V: Visitor<'a>>(self, list: &'a [Value], visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(Items {
            iter: list.iter().enumerate(),
            node: self.node,
            trail: self.trail,
        })
    }
}

impl<'de> Deserializer<'de> for Strict<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Object(map) => self.visit_object(map, visitor),
            Value::Array(list) => self.visit_array(list, visitor),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            Value::Object(map) => self.visit_object(map, visitor),
            Value::Array(_) => Err(de::Error::invalid_type(Unexpected::Seq, &visitor)),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Object(map) => self.visit_object(map, visitor),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Array(list) => self.visit_array(list, visitor),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        // Every enum of these formats is a plain string; serde_json would
        // also take `{"P2": null}` for the unit variant `P2`.
        match self.value {
            Value::String(_) => self.value.deserialize_enum(name, variants, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value.deserialize_bool(visitor)
    }

    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value.deserialize_u8(visitor)
    }

    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value.deserialize_u32(visitor)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value.deserialize_u64(visitor)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value.deserialize_f64(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value.deserialize_str(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value.deserialize_string(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value.deserialize_identifier(visitor)
    }

    forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u16 u128 f32 char bytes byte_buf unit unit_struct
    }
}

/// What serde calls a value it did not expect.
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// The members of one object, each handed out with its place.
struct Members<'a, 'n> {
    iter: serde_json::map::Iter<'a>,
    pending: Option<(&'a str, &'a Value)>,
    node: Option<&'n Node<'n, 'a>>,
    trail: &'n Trail<'n>,
}

impl<'a> MapAccess<'a> for Members<'a, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.iter.next() else {
            return Ok(None);
        };
        self.pending = Some((key.as_str(), value));
        let result = seed.deserialize(BorrowedStrDeserializer::<Error>::new(key));
        if result.is_err() {
            let node = Node {
                parent: self.node,
                step: Step::Key(key),
            };
            self.trail.record(Some(&node));
        }
        result.map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let Some((key, value)) = self.pending.take() else {
            return Err(de::Error::custom("a member value was requested before its name"));
        };
        let node = Node {
            parent: self.node,
            step: Step::Key(key),
        };
        let result = seed.deserialize(Strict {
            value,
            node: Some(&node),
            trail: self.trail,
        });
        if result.is_err() {
            self.trail.record(Some(&node));
        }
        result
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The items of one array, each handed out with its place.
struct Items<'a, 'n> {
    iter: std::iter::Enumerate<std::slice::Iter<'a, Value>>,
    node: Option<&'n Node<'n, 'a>>,
    trail: &'n Trail<'n>,
}

impl<'a> SeqAccess<'a> for Items<'a, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some((index, value)) = self.iter.next() else {
            return Ok(None);
        };
        let node = Node {
            parent: self.node,
            step: Step::Index(index),
        };
        let result = seed.deserialize(Strict {
            value,
            node: Some(&node),
            trail: self.trail,
        });
        if result.is_err() {
            self.trail.record(Some(&node));
        }
        result.map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Inner<'a> {
        name: &'a str,
        n: u8,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Outer<'a> {
        #[serde(borrow)]
        items: Vec<Inner<'a>>,
        flag: Option<bool>,
    }

    fn fail(v: &Value) -> (String, String) {
        let trail = Trail::new("/base");
        let err = from_value::<Outer>(v, &trail).expect_err("must fail");
        (trail.failed_at(), err.to_string())
    }

    #[test]
    fn reads_and_borrows() {
        let v = json!({"items": [{"name": "a", "n": 1}], "flag": null});
        let trail = Trail::new("");
        let outer: Outer = from_value(&v, &trail).expect("valid");
        assert_eq!(outer.items, vec![Inner { name: "a", n: 1 }]);
        let Value::String(s) = &v["items"][0]["name"] else {
            panic!()
        };
        assert!(
            std::ptr::eq(outer.items[0].name.as_ptr(), s.as_ptr()),
            "strings are lent, not copied"
        );
    }

    #[test]
    fn failures_name_the_deepest_place() {
        let (at, msg) = fail(&json!({"items": [{"name": "a", "n": 1}, {"name": "b", "n": 3.0}], "flag": true}));
        assert_eq!(at, "/base/items/1/n");
        assert!(msg.contains("expected u8"), "{msg}");
        let (at, msg) = fail(&json!({"items": [{"name": "a", "n": 1, "x/y": 0}], "flag": true}));
        assert_eq!(
            (at.as_str(), msg.starts_with("unknown field")),
            ("/base/items/0/x~1y", true)
        );
        let (at, msg) = fail(&json!({"items": [{"name": "a"}], "flag": true}));
        assert_eq!((at.as_str(), msg.as_str()), ("/base/items/0", "missing field `n`"));
    }

    #[test]
    fn structs_are_never_read_from_arrays() {
        let (at, msg) = fail(&json!({"items": [["a", 1]], "flag": true}));
        assert_eq!(at, "/base/items/0");
        assert!(
            msg.starts_with("invalid type: sequence, expected struct Inner"),
            "{msg}"
        );
        let (at, _) = fail(&json!([[], true]));
        assert_eq!(at, "/base");
    }

    #[test]
    fn enums_are_plain_strings() {
        use crate::model::finding::Severity;
        let trail = Trail::new("");
        assert_eq!(from_value::<Severity>(&json!("P2"), &trail).ok(), Some(Severity::P2));
        for bad in [json!({"P2": null}), json!(["P2"]), json!(null), json!(2)] {
            assert!(
                from_value::<Severity>(&bad, &Trail::new("")).is_err(),
                "{bad} was read as a severity"
            );
        }
        let err = from_value::<Severity>(&json!(null), &Trail::new("")).expect_err("null");
        assert!(err.to_string().starts_with("invalid type: null"), "{err}");
    }
}
