//! Map keys for the canonical size count: serde_json writes string keys as
//! strings and numbers and booleans quoted; anything else is an error.

use super::{CountError, digits, signed, string_len};
use serde::Serialize;
use serde::ser::{self, Impossible};

/// Map keys: serde_json accepts strings (and writes numbers and booleans
/// quoted); anything else is an error, as in serde_json.
pub(super) struct KeyCounter<'c> {
    pub(super) n: &'c mut usize,
}

fn key_error() -> CountError {
    CountError("key must be a string".into())
}

impl ser::Serializer for KeyCounter<'_> {
    type Ok = ();
    type Error = CountError;
    type SerializeSeq = Impossible<(), CountError>;
    type SerializeTuple = Impossible<(), CountError>;
    type SerializeTupleStruct = Impossible<(), CountError>;
    type SerializeTupleVariant = Impossible<(), CountError>;
    type SerializeMap = Impossible<(), CountError>;
    type SerializeStruct = Impossible<(), CountError>;
    type SerializeStructVariant = Impossible<(), CountError>;

    fn serialize_str(self, v: &str) -> Result<(), CountError> {
        *self.n += string_len(v);
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), CountError> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), CountError> {
        value.serialize(self)
    }
    fn serialize_bool(self, v: bool) -> Result<(), CountError> {
        *self.n += if v { 6 } else { 7 };
        Ok(())
    }
    narrower_integers!();
    fn serialize_i64(self, v: i64) -> Result<(), CountError> {
        *self.n += signed(v) + 2;
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), CountError> {
        *self.n += digits(v) + 2;
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), CountError> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_f32(self, _: f32) -> Result<(), CountError> {
        Err(key_error())
    }
    fn serialize_f64(self, _: f64) -> Result<(), CountError> {
        Err(key_error())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), CountError> {
        Err(key_error())
    }
    fn serialize_none(self) -> Result<(), CountError> {
        Err(key_error())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), CountError> {
        Err(key_error())
    }
    fn serialize_unit(self) -> Result<(), CountError> {
        Err(key_error())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), CountError> {
        Err(key_error())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), CountError> {
        Err(key_error())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, CountError> {
        Err(key_error())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, CountError> {
        Err(key_error())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, CountError> {
        Err(key_error())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, CountError> {
        Err(key_error())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, CountError> {
        Err(key_error())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, CountError> {
        Err(key_error())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, CountError> {
        Err(key_error())
    }
}
