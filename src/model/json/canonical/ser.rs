//! The canonical writer: a serde `Serializer` with serde_json's compact
//! layout, writing into a [`Sink`].
//!
//! It accepts what serde_json's writer accepts and writes the same bytes
//! (numbers by [`c3`]): `None`, unit and non-finite floats are `null`, bytes
//! are an array of numbers, an enum variant with data is a one-member object
//! named by the variant. Map keys are strings, or numbers and booleans
//! written as strings; any other key is an error.

use super::c3;
use super::{CanonicalError, Sink};
use crate::model::json::find_string_special;
use serde::ser::{self, Impossible, Serialize};
use std::borrow::Cow;

type Result<T = ()> = std::result::Result<T, CanonicalError>;

/// The serializer: everything it writes goes to `sink`.
pub(super) struct Writer<S> {
    sink: S,
}

impl<S: Sink> Writer<S> {
    pub(super) fn new(sink: S) -> Self {
        Writer { sink }
    }

    pub(super) fn into_sink(self) -> S {
        self.sink
    }

    /// Writes `{"variant":`, the opening of an enum variant with data.
    fn open_variant(&mut self, variant: &str) -> Result {
        self.sink.put(b"{")?;
        write_str(&mut self.sink, variant)?;
        self.sink.put(b":")
    }
}

/// Writes `text` as a JSON string (C2): the runs between bytes that need an
/// escape are written whole, found a word at a time.
fn write_str<S: Sink>(sink: &mut S, text: &str) -> Result {
    let bytes = text.as_bytes();
    sink.put(b"\"")?;
    let mut start = 0;
    loop {
        let at = find_string_special(bytes, start);
        if at == bytes.len() {
            sink.put(&bytes[start..])?;
            return sink.put(b"\"");
        }
        if at > start {
            sink.put(&bytes[start..at])?;
        }
        write_escape(sink, bytes[at])?;
        start = at + 1;
    }
}

/// The escape of a `"`, `\` or control byte, as serde_json writes it:
/// a short form where JSON has one, else `\u00xx` in lowercase hex.
fn write_escape<S: Sink>(sink: &mut S, byte: u8) -> Result {
    let short: &[u8] = match byte {
        b'"' => b"\\\"",
        b'\\' => b"\\\\",
        0x08 => b"\\b",
        0x0c => b"\\f",
        b'\n' => b"\\n",
        b'\r' => b"\\r",
        b'\t' => b"\\t",
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let escape = [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ];
            return sink.put(&escape);
        }
    };
    sink.put(short)
}

impl<'a, S: Sink> ser::Serializer for &'a mut Writer<S> {
    type Ok = ();
    type Error = CanonicalError;
    type SerializeSeq = Compound<'a, S>;
    type SerializeTuple = Compound<'a, S>;
    type SerializeTupleStruct = Compound<'a, S>;
    type SerializeTupleVariant = Compound<'a, S>;
    type SerializeMap = Compound<'a, S>;
    type SerializeStruct = Compound<'a, S>;
    type SerializeStructVariant = Compound<'a, S>;

    fn serialize_bool(self, value: bool) -> Result {
        self.sink.put(if value { b"true" } else { b"false" })
    }

    fn serialize_i8(self, value: i8) -> Result {
        c3::write_i64(&mut self.sink, value.into())
    }

    fn serialize_i16(self, value: i16) -> Result {
        c3::write_i64(&mut self.sink, value.into())
    }

    fn serialize_i32(self, value: i32) -> Result {
        c3::write_i64(&mut self.sink, value.into())
    }

    fn serialize_i64(self, value: i64) -> Result {
        c3::write_i64(&mut self.sink, value)
    }

    fn serialize_i128(self, value: i128) -> Result {
        c3::write_i128(&mut self.sink, value)
    }

    fn serialize_u8(self, value: u8) -> Result {
        c3::write_u64(&mut self.sink, value.into())
    }

    fn serialize_u16(self, value: u16) -> Result {
        c3::write_u64(&mut self.sink, value.into())
    }

    fn serialize_u32(self, value: u32) -> Result {
        c3::write_u64(&mut self.sink, value.into())
    }

    fn serialize_u64(self, value: u64) -> Result {
        c3::write_u64(&mut self.sink, value)
    }

    fn serialize_u128(self, value: u128) -> Result {
        c3::write_u128(&mut self.sink, value)
    }

    fn serialize_f32(self, value: f32) -> Result {
        if value.is_finite() {
            c3::write_f32(&mut self.sink, value)
        } else {
            self.sink.put(b"null")
        }
    }

    fn serialize_f64(self, value: f64) -> Result {
        if value.is_finite() {
            c3::write_f64(&mut self.sink, value)
        } else {
            self.sink.put(b"null")
        }
    }

    fn serialize_char(self, value: char) -> Result {
        write_str(&mut self.sink, value.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, value: &str) -> Result {
        write_str(&mut self.sink, value)
    }

    fn serialize_bytes(self, value: &[u8]) -> Result {
        self.sink.put(b"[")?;
        for (i, &byte) in value.iter().enumerate() {
            if i > 0 {
                self.sink.put(b",")?;
            }
            c3::write_u64(&mut self.sink, byte.into())?;
        }
        self.sink.put(b"]")
    }

    fn serialize_none(self) -> Result {
        self.sink.put(b"null")
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result {
        self.sink.put(b"null")
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.sink.put(b"null")
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result {
        write_str(&mut self.sink, variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.open_variant(variant)?;
        value.serialize(&mut *self)?;
        self.sink.put(b"}")
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, S>> {
        Compound::open(self, b"[", b"]")
    }

    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a, S>> {
        Compound::open(self, b"[", b"]")
    }

    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a, S>> {
        Compound::open(self, b"[", b"]")
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, S>> {
        self.open_variant(variant)?;
        Compound::open(self, b"[", b"]}")
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, S>> {
        Compound::open(self, b"{", b"}")
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'a, S>> {
        Compound::open(self, b"{", b"}")
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, S>> {
        self.open_variant(variant)?;
        Compound::open(self, b"{", b"}}")
    }
}

/// An array or object being written: its items are separated by commas and
/// `close` ends it (with the variant object's brace for an enum variant).
pub(super) struct Compound<'a, S> {
    writer: &'a mut Writer<S>,
    first: bool,
    close: &'static [u8],
}

impl<'a, S: Sink> Compound<'a, S> {
    fn open(writer: &'a mut Writer<S>, open: &'static [u8], close: &'static [u8]) -> Result<Self> {
        writer.sink.put(open)?;
        Ok(Compound {
            writer,
            first: true,
            close,
        })
    }

    /// The comma before every item but the first.
    fn separate(&mut self) -> Result {
        if self.first {
            self.first = false;
            Ok(())
        } else {
            self.writer.sink.put(b",")
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.separate()?;
        value.serialize(&mut *self.writer)
    }

    fn member<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> Result {
        self.separate()?;
        write_str(&mut self.writer.sink, name)?;
        self.writer.sink.put(b":")?;
        value.serialize(&mut *self.writer)
    }

    fn close(self) -> Result {
        self.writer.sink.put(self.close)
    }
}

/// The compound impls that only write elements (`[a,b]`).
macro_rules! elements {
    ($($trait:ident :: $method:ident),*) => {$(
        impl<S: Sink> ser::$trait for Compound<'_, S> {
            type Ok = ();
            type Error = CanonicalError;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
                self.element(value)
            }

            fn end(self) -> Result {
                self.close()
            }
        }
    )*};
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl<S: Sink> ser::SerializeMap for Compound<'_, S> {
    type Ok = ();
    type Error = CanonicalError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        self.separate()?;
        key.serialize(KeyWriter(&mut *self.writer))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.writer.sink.put(b":")?;
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result {
        self.close()
    }
}

/// The compound impls that write named members (`{"a":1}`).
macro_rules! members {
    ($($trait:ident),*) => {$(
        impl<S: Sink> ser::$trait for Compound<'_, S> {
            type Ok = ();
            type Error = CanonicalError;

            fn serialize_field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result {
                self.member(name, value)
            }

            fn end(self) -> Result {
                self.close()
            }
        }
    )*};
}

members!(SerializeStruct, SerializeStructVariant);

/// Writes a map key: a string as it is, a number or boolean inside quotes
/// (the keys serde_json accepts); anything else is an error.
struct KeyWriter<'a, S>(&'a mut Writer<S>);

impl<S: Sink> KeyWriter<'_, S> {
    /// Writes `value` between quotes.
    fn quoted(self, value: impl FnOnce(&mut Writer<S>) -> Result) -> Result {
        self.0.sink.put(b"\"")?;
        value(&mut *self.0)?;
        self.0.sink.put(b"\"")
    }
}

fn key_must_be_a_string() -> CanonicalError {
    CanonicalError(Cow::Borrowed("key must be a string"))
}

fn finite_float_key(value: bool) -> Result {
    if value {
        Ok(())
    } else {
        Err(CanonicalError(Cow::Borrowed(
            "float key must be finite (got NaN or +/-inf)",
        )))
    }
}

impl<S: Sink> ser::Serializer for KeyWriter<'_, S> {
    type Ok = ();
    type Error = CanonicalError;
    type SerializeSeq = Impossible<(), CanonicalError>;
    type SerializeTuple = Impossible<(), CanonicalError>;
    type SerializeTupleStruct = Impossible<(), CanonicalError>;
    type SerializeTupleVariant = Impossible<(), CanonicalError>;
    type SerializeMap = Impossible<(), CanonicalError>;
    type SerializeStruct = Impossible<(), CanonicalError>;
    type SerializeStructVariant = Impossible<(), CanonicalError>;

    fn serialize_str(self, value: &str) -> Result {
        self.0.serialize_str(value)
    }

    fn serialize_char(self, value: char) -> Result {
        self.0.serialize_char(value)
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result {
        self.0.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_bool(self, value: bool) -> Result {
        self.quoted(|w| w.serialize_bool(value))
    }

    fn serialize_i8(self, value: i8) -> Result {
        self.quoted(|w| w.serialize_i8(value))
    }

    fn serialize_i16(self, value: i16) -> Result {
        self.quoted(|w| w.serialize_i16(value))
    }

    fn serialize_i32(self, value: i32) -> Result {
        self.quoted(|w| w.serialize_i32(value))
    }

    fn serialize_i64(self, value: i64) -> Result {
        self.quoted(|w| w.serialize_i64(value))
    }

    fn serialize_i128(self, value: i128) -> Result {
        self.quoted(|w| w.serialize_i128(value))
    }

    fn serialize_u8(self, value: u8) -> Result {
        self.quoted(|w| w.serialize_u8(value))
    }

    fn serialize_u16(self, value: u16) -> Result {
        self.quoted(|w| w.serialize_u16(value))
    }

    fn serialize_u32(self, value: u32) -> Result {
        self.quoted(|w| w.serialize_u32(value))
    }

    fn serialize_u64(self, value: u64) -> Result {
        self.quoted(|w| w.serialize_u64(value))
    }

    fn serialize_u128(self, value: u128) -> Result {
        self.quoted(|w| w.serialize_u128(value))
    }

    fn serialize_f32(self, value: f32) -> Result {
        finite_float_key(value.is_finite())?;
        self.quoted(|w| w.serialize_f32(value))
    }

    fn serialize_f64(self, value: f64) -> Result {
        finite_float_key(value.is_finite())?;
        self.quoted(|w| w.serialize_f64(value))
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_unit(self) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeTupleStruct> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_must_be_a_string())
    }
}
