//! [`Doc`] as a `jsonschema` instance representation, so a document is
//! validated where it was parsed, without building a `serde_json::Value`.
//!
//! Only the yes/no question is asked of this representation: when a document
//! does not conform, the loader builds its `Value` and the `serde_json`
//! validator words every problem (that is the rare, slow path).

use crate::model::json::doc::{Doc, DocNode, Items, Kind, Members};
use jsonschema::JsonType;
use jsonschema::json::{Array, Json, Node, NodeIdentity, Object};
use serde_json::{Number, Value};
use std::borrow::Cow;

/// The `jsonschema` representation marker for [`Doc`].
pub struct DocJson;

impl Json for DocJson {
    type Node<'a> = DocNode<'a>;
    type PreparedKey = Box<str>;
    type StringBuffer = Doc<'static>;

    // A lookup is a scan of the members, so a members pass wins early.
    const KEYS_PER_LOOKUP: usize = 16;
    const ACYCLIC: bool = true;

    fn prepare_key(key: &str) -> Box<str> {
        key.into()
    }

    fn with_string_node<T>(buffer: &mut Doc<'static>, string: &str, f: impl FnOnce(DocNode<'_>) -> T) -> T {
        buffer.set_single_string(string);
        f(buffer.root())
    }
}

/// An object of a [`Doc`].
#[derive(Clone, Copy)]
pub struct DocObject<'a>(DocNode<'a>);

/// An array of a [`Doc`].
#[derive(Clone, Copy)]
pub struct DocArray<'a>(DocNode<'a>);

impl<'a> Node<'a, DocJson> for DocNode<'a> {
    type Object = DocObject<'a>;
    type Array = DocArray<'a>;
    type Number = Number;

    fn as_object(&self) -> Option<DocObject<'a>> {
        (self.kind() == Kind::Object).then_some(DocObject(*self))
    }

    fn as_array(&self) -> Option<DocArray<'a>> {
        (self.kind() == Kind::Array).then_some(DocArray(*self))
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        DocNode::as_str(self).map(Cow::Borrowed)
    }

    fn as_number(&self) -> Option<Number> {
        DocNode::as_number(self)
    }

    fn as_boolean(&self) -> Option<bool> {
        self.as_bool()
    }

    fn is_null(&self) -> bool {
        DocNode::is_null(self)
    }

    fn is_number(&self) -> bool {
        self.kind() == Kind::Number
    }

    fn json_type(&self) -> JsonType {
        match self.kind() {
            Kind::Null => JsonType::Null,
            Kind::Bool => JsonType::Boolean,
            Kind::Number => JsonType::Number,
            Kind::String => JsonType::String,
            Kind::Array => JsonType::Array,
            Kind::Object => JsonType::Object,
        }
    }

    fn string_length(&self) -> Option<u64> {
        DocNode::as_str(self).map(|s| s.chars().count() as u64)
    }

    fn string_length_within(&self, min: u64, max: u64) -> Option<bool> {
        let s = DocNode::as_str(self)?;
        // A code point takes one to four bytes: the byte length often decides.
        let bytes = s.len() as u64;
        if bytes < min || bytes.div_ceil(4) > max {
            return Some(false);
        }
        if min <= bytes.div_ceil(4) && bytes <= max {
            return Some(true);
        }
        Some((min..=max).contains(&(s.chars().count() as u64)))
    }

    fn equals_value(&self, expected: &Value) -> bool {
        match (self.kind(), expected) {
            (Kind::String, Value::String(e)) => DocNode::as_str(self) == Some(e.as_str()),
            (Kind::String, _) => false,
            (Kind::Null, _) => expected.is_null(),
            (Kind::Bool, _) => self.as_bool() == expected.as_bool(),
            _ => jsonschema::json::cmp::equal(&self.to_value(), expected),
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(DocNode::to_value(self))
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::tagged(self.address(), self.at))
    }
}

impl<'a> Object<'a, DocJson> for DocObject<'a> {
    type Node = DocNode<'a>;
    type MemberName = &'a str;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn get(&self, key: &Box<str>) -> Option<DocNode<'a>> {
        self.0.get(key)
    }

    fn members(&self) -> Members<'a> {
        self.0.members()
    }
}

impl<'a> Array<'a, DocJson> for DocArray<'a> {
    type Node = DocNode<'a>;
    type ElementsIter = Items<'a>;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn elements(&self) -> Items<'a> {
        self.0.items()
    }
}
