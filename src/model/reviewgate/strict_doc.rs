//! The strict typed decoding of `strict_de`, over a [`Doc`] instead of a
//! `serde_json::Value`: the fast path for documents that conform.
//!
//! It accepts exactly what `strict_de` accepts (a struct is never read from
//! an array, an enum only from a plain string, strings are lent out of the
//! document, numbers reach serde as the same u64/i64/f64 they are in a
//! `Value`), and it only answers whether decoding worked: when it does not,
//! the loader decodes the document's `Value` with `strict_de`, which names
//! every fault and its place.
//!
//! [`Doc`]: crate::model::json::Doc

use crate::model::json::doc::{DocNode, Items, Members, Tok};
use serde::de::value::{BorrowedStrDeserializer, Error};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::forward_to_deserialize_any;

/// Decodes `node` as `T`, or says that it could not.
pub(crate) fn from_doc<'a, T: de::Deserialize<'a>>(node: DocNode<'a>) -> Option<T> {
    T::deserialize(Strict(node)).ok()
}

/// The deserializer for one value.
struct Strict<'a>(DocNode<'a>);

impl<'de> Deserializer<'de> for Strict<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let node = self.0;
        match node.tok() {
            Tok::Null => visitor.visit_unit(),
            Tok::True => visitor.visit_bool(true),
            Tok::False => visitor.visit_bool(false),
            Tok::U64(n) => visitor.visit_u64(n),
            Tok::I64(n) => visitor.visit_i64(n),
            Tok::F64(f) => visitor.visit_f64(f),
            Tok::Raw { .. } | Tok::Esc { .. } => visitor.visit_borrowed_str(node.as_str().unwrap_or_default()),
            Tok::Arr { .. } => visitor.visit_seq(ItemsAccess(node.items())),
            Tok::Obj { .. } => visitor.visit_map(MembersAccess {
                members: node.members(),
                pending: None,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.0.is_null() {
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
        match self.0.tok() {
            // P10: objects written as positional arrays are not accepted.
            Tok::Arr { .. } => Err(de::Error::invalid_type(Unexpected::Seq, &visitor)),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        // Every enum of these formats is a plain string.
        match self.0.as_str() {
            Some(s) => visitor.visit_enum(BorrowedStrDeserializer::<Error>::new(s)),
            None => Err(de::Error::invalid_type(Unexpected::Other("a non-string"), &visitor)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map identifier
    }
}

/// The members of one object.
struct MembersAccess<'a> {
    members: Members<'a>,
    pending: Option<DocNode<'a>>,
}

impl<'a> MapAccess<'a> for MembersAccess<'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((name, value)) = self.members.next() else {
            return Ok(None);
        };
        self.pending = Some(value);
        seed.deserialize(BorrowedStrDeserializer::<Error>::new(name)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.pending.take() {
            Some(value) => seed.deserialize(Strict(value)),
            None => Err(de::Error::custom("a member value was requested before its name")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

/// The items of one array.
struct ItemsAccess<'a>(Items<'a>);

impl<'a> SeqAccess<'a> for ItemsAccess<'a> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        match self.0.next() {
            Some(item) => seed.deserialize(Strict(item)).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}
