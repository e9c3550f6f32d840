//! A serde `Deserializer` over a parsed [`Doc`] that is stricter than
//! serde_json's own and knows where it is.
//!
//! serde's derived structs also accept a JSON array of their members in
//! declaration order; the formats do not (P10), so a struct read from an
//! array is an error here. And when anything fails, the JSON pointer of the
//! deepest failing value is recorded, so a problem names its exact place.
//! Strings are lent out of the document (no copies); scalars reach serde as
//! the same u64/i64/f64 and through the same visitor calls as from a
//! `serde_json::Value`, so every message is the one serde_json gives.
//!
//! [`Doc`]: crate::model::json::Doc

use crate::model::json::doc::{DocNode, Items, Members, Strings, Tok};
use crate::model::problem::push_pointer;
use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::Error;
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
pub(crate) fn from_doc<'a, T: de::Deserialize<'a>>(value: DocNode<'a>, trail: &Trail<'_>) -> Result<T, Error> {
    from_doc_lent(value, value.strings(), trail)
}

/// [`from_doc`] lending the strings of `strings` (those of the document
/// `value` belongs to, or the strings it was split from, see
/// `Doc::split`): the decoded value borrows only them, so the document's
/// tape can be freed while it lives.
pub(crate) fn from_doc_lent<'s, T: de::Deserialize<'s>>(
    value: DocNode<'_>,
    strings: Strings<'s>,
    trail: &Trail<'_>,
) -> Result<T, Error> {
    let result = T::deserialize(Strict {
        value,
        strings,
        node: None,
        trail,
    });
    if result.is_err() {
        trail.record(None);
    }
    result
}

/// The deserializer for one value at one place.
struct Strict<'t, 's, 'n> {
    value: DocNode<'t>,
    strings: Strings<'s>,
    node: Option<&'n Node<'n, 't>>,
    trail: &'n Trail<'n>,
}

impl<'t, 's> Strict<'t, 's, '_> {
    fn visit_object<V: Visitor<'s>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_map(MembersAccess {
            iter: self.value.members(),
            strings: self.strings,
            pending: None,
            node: self.node,
            trail: self.trail,
        })
    }

    fn visit_array<V: Visitor<'s>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(ItemsAccess {
            iter: self.value.items().enumerate(),
            strings: self.strings,
            node: self.node,
            trail: self.trail,
        })
    }

    fn invalid_type<V: Visitor<'s>>(&self, visitor: &V) -> Error {
        de::Error::invalid_type(unexpected(self.value), visitor)
    }

    /// The string this value is, lent from the strings.
    fn lent_str(&self) -> Option<&'s str> {
        self.strings.of(self.value.tok())
    }
}

impl<'de> Deserializer<'de> for Strict<'_, 'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value.tok() {
            Tok::Null => visitor.visit_unit(),
            Tok::True => visitor.visit_bool(true),
            Tok::False => visitor.visit_bool(false),
            Tok::U64(n) => visitor.visit_u64(n),
            Tok::I64(n) => visitor.visit_i64(n),
            Tok::F64(f) => visitor.visit_f64(f),
            Tok::Raw { .. } | Tok::Esc { .. } => match self.lent_str() {
                Some(s) => visitor.visit_borrowed_str(s),
                None => Err(de::Error::custom("a string outside the document's strings")),
            },
            Tok::Arr { .. } => self.visit_array(visitor),
            Tok::Obj { .. } => self.visit_object(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.value.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value.tok() {
            // P10: objects written as positional arrays are not accepted.
            Tok::Arr { .. } => Err(de::Error::invalid_type(Unexpected::Seq, &visitor)),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        // Every enum of these formats is a plain string; serde_json would
        // also take `{"P2": null}` for the unit variant `P2`.
        match self.lent_str() {
            Some(s) => visitor.visit_enum(BorrowedStrDeserializer::<Error>::new(s)),
            None => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    // A string where a string is asked for, and anything else where a
    // scalar is: the visitor's own call decides, as it does for a `Value`.
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map identifier
    }
}

/// What serde calls a value it did not expect.
fn unexpected(value: DocNode<'_>) -> Unexpected<'_> {
    match value.tok() {
        Tok::Null => Unexpected::Unit,
        Tok::True => Unexpected::Bool(true),
        Tok::False => Unexpected::Bool(false),
        Tok::U64(u) => Unexpected::Unsigned(u),
        Tok::I64(i) => Unexpected::Signed(i),
        Tok::F64(f) => Unexpected::Float(f),
        Tok::Raw { .. } | Tok::Esc { .. } => Unexpected::Str(value.as_str().unwrap_or_default()),
        Tok::Arr { .. } => Unexpected::Seq,
        Tok::Obj { .. } => Unexpected::Map,
    }
}

/// The members of one object, each handed out with its place.
struct MembersAccess<'t, 's, 'n> {
    iter: Members<'t>,
    strings: Strings<'s>,
    pending: Option<(&'t str, DocNode<'t>)>,
    node: Option<&'n Node<'n, 't>>,
    trail: &'n Trail<'n>,
}

impl<'s> MapAccess<'s> for MembersAccess<'_, 's, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'s>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.iter.next() else {
            return Ok(None);
        };
        self.pending = Some((key, value));
        let lent = self.strings.of(value.name_tok()).unwrap_or_default();
        let result = seed.deserialize(BorrowedStrDeserializer::<Error>::new(lent));
        if result.is_err() {
            let node = Node {
                parent: self.node,
                step: Step::Key(key),
            };
            self.trail.record(Some(&node));
        }
        result.map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'s>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let Some((key, value)) = self.pending.take() else {
            return Err(de::Error::custom("a member value was requested before its name"));
        };
        child(seed, value, self.strings, self.node, Step::Key(key), self.trail)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// Decodes `value`, the member or item at `step` below `parent`, recording
/// its place in the trail when it fails.
fn child<'t, 's, T: DeserializeSeed<'s>>(
    seed: T,
    value: DocNode<'t>,
    strings: Strings<'s>,
    parent: Option<&Node<'_, 't>>,
    step: Step<'t>,
    trail: &Trail<'_>,
) -> Result<T::Value, Error> {
    let node = Node { parent, step };
    let result = seed.deserialize(Strict {
        value,
        strings,
        node: Some(&node),
        trail,
    });
    if result.is_err() {
        trail.record(Some(&node));
    }
    result
}

/// The items of one array, each handed out with its place.
struct ItemsAccess<'t, 's, 'n> {
    iter: std::iter::Enumerate<Items<'t>>,
    strings: Strings<'s>,
    node: Option<&'n Node<'n, 't>>,
    trail: &'n Trail<'n>,
}

impl<'s> SeqAccess<'s> for ItemsAccess<'_, 's, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'s>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some((index, value)) = self.iter.next() else {
            return Ok(None);
        };
        child(seed, value, self.strings, self.node, Step::Index(index), self.trail).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::json::{Doc, ReadLimits, read_doc_owned};
    use serde::Deserialize;
    use serde_json::{Value, json};

    fn doc(v: &Value) -> Doc<'static> {
        read_doc_owned(v.to_string().into_bytes(), &ReadLimits::default()).expect("JSON")
    }

    fn from_value<'a, T: Deserialize<'a>>(d: &'a Doc<'a>, trail: &Trail<'_>) -> Result<T, Error> {
        from_doc(d.root(), trail)
    }

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
        let d = doc(v);
        let err = from_value::<Outer>(&d, &trail).expect_err("must fail");
        (trail.failed_at(), err.to_string())
    }

    #[test]
    fn reads_and_borrows() {
        let d = doc(&json!({"items": [{"name": "a", "n": 1}], "flag": null}));
        let trail = Trail::new("");
        let outer: Outer = from_value(&d, &trail).expect("valid");
        assert_eq!(outer.items, vec![Inner { name: "a", n: 1 }]);
        let at = d.text.find("\"a\"").expect("the name") + 1;
        assert!(
            std::ptr::eq(outer.items[0].name.as_ptr(), d.text[at..].as_ptr()),
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
        assert_eq!(
            from_value::<Severity>(&doc(&json!("P2")), &trail).ok(),
            Some(Severity::P2)
        );
        for bad in [json!({"P2": null}), json!(["P2"]), json!(null), json!(2)] {
            assert!(
                from_value::<Severity>(&doc(&bad), &Trail::new("")).is_err(),
                "{bad} was read as a severity"
            );
        }
        let err = from_value::<Severity>(&doc(&json!(null)), &Trail::new("")).expect_err("null");
        assert!(err.to_string().starts_with("invalid type: null"), "{err}");
    }

    /// Every fault is worded exactly as serde_json words it for the same
    /// document read into a `Value` (enums aside: only a plain string is one
    /// here, see `enums_are_plain_strings`).
    #[test]
    fn messages_are_serde_jsons() {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Typed<'a> {
            n: u8,
            w: u32,
            s: &'a str,
            f: f64,
            o: Option<u64>,
            e: crate::model::finding::Severity,
        }
        let good = json!({"n": 1, "w": 2, "s": "x", "f": 1.5, "o": null, "e": "P1"});
        for (member, bad) in [
            ("n", json!(3.0)),
            ("n", json!(256)),
            ("n", json!(-1)),
            ("n", json!("1")),
            ("w", json!([1])),
            ("s", json!(2)),
            ("s", json!({"a": 1})),
            ("s", json!(null)),
            ("f", json!("1.5")),
            ("f", json!(true)),
            ("o", json!(-2)),
            ("e", json!("P9")),
        ] {
            let mut v = good.clone();
            v[member] = bad.clone();
            let want = Typed::deserialize(&v).expect_err("serde_json refuses it");
            let d = doc(&v);
            let trail = Trail::new("");
            let got = from_value::<Typed>(&d, &trail).expect_err("refused");
            assert_eq!(got.to_string(), want.to_string(), "{member} = {bad}");
            assert_eq!(trail.failed_at(), format!("/{member}"), "{member} = {bad}");
        }
    }
}
