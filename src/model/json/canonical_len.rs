//! The length of the canonical serialization (§8), counted without writing
//! it: a serde `Serializer` that adds up what [`super::write_canonical`]
//! would write. Strings are scanned for the few bytes C2 escapes, eight at a
//! time; only doubles are laid out (by the canonical formatter itself), so
//! the count is exact. A test holds it to the written length.

use super::canonical::CanonicalFormatter;
use super::scan::find_string_special;
use serde::Serialize;
use serde::ser;
use serde_json::ser::Formatter;
use std::fmt::Display;

/// The 8-, 16- and 32-bit integers of a `Serializer`, counted as their
/// 64-bit forms (serde_json writes them alike).
macro_rules! narrower_integers {
    () => {
        fn serialize_i8(self, v: i8) -> Result<(), CountError> {
            self.serialize_i64(i64::from(v))
        }
        fn serialize_i16(self, v: i16) -> Result<(), CountError> {
            self.serialize_i64(i64::from(v))
        }
        fn serialize_i32(self, v: i32) -> Result<(), CountError> {
            self.serialize_i64(i64::from(v))
        }
        fn serialize_u8(self, v: u8) -> Result<(), CountError> {
            self.serialize_u64(u64::from(v))
        }
        fn serialize_u16(self, v: u16) -> Result<(), CountError> {
            self.serialize_u64(u64::from(v))
        }
        fn serialize_u32(self, v: u32) -> Result<(), CountError> {
            self.serialize_u64(u64::from(v))
        }
    };
}

mod key;
use key::KeyCounter;

/// Why counting stopped: only a custom `Serialize` impl can fail.
#[derive(Debug)]
pub struct CountError(String);

impl Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CountError {}

impl ser::Error for CountError {
    fn custom<T: Display>(msg: T) -> Self {
        CountError(msg.to_string())
    }
}

/// The canonical length of `value`, or `None` when it cannot be serialized.
pub(crate) fn count<T: Serialize + ?Sized>(value: &T) -> Option<usize> {
    count_lent(value, "")
}

/// [`count`] for a value whose strings may be lent out of `raw`, the text of
/// a document the strict reader read. A string lying inside that text is the
/// whole content of a string token written without escapes (escaped strings
/// are decoded elsewhere), so it holds no byte C2 escapes and is not scanned.
pub(crate) fn count_lent<T: Serialize + ?Sized>(value: &T, raw: &str) -> Option<usize> {
    let mut n = 0usize;
    let start = raw.as_ptr() as usize;
    let lent = Lent {
        start,
        end: start + raw.len(),
    };
    value.serialize(Counter { n: &mut n, lent }).ok().map(|()| n)
}

/// The address range of a document's raw text.
#[derive(Clone, Copy)]
struct Lent {
    start: usize,
    end: usize,
}

impl Lent {
    fn string_len(self, s: &str) -> usize {
        let at = s.as_ptr() as usize;
        if self.start < self.end && self.start <= at && at + s.len() <= self.end {
            s.len() + 2
        } else {
            string_len(s)
        }
    }
}

/// Bytes a string takes in canonical form, quotes included.
fn string_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut n = bytes.len() + 2;
    let mut i = find_string_special(bytes, 0);
    while i < bytes.len() {
        n += match bytes[i] {
            b'"' | b'\\' | 0x08 | 0x09 | 0x0A | 0x0C | 0x0D => 1,
            _ => 5,
        };
        i = find_string_special(bytes, i + 1);
    }
    n
}

fn digits(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

fn signed(v: i64) -> usize {
    usize::from(v < 0) + digits(v.unsigned_abs())
}

fn float(v: f64) -> usize {
    if !v.is_finite() {
        return 4; // serde_json writes null
    }
    let mut w = LenWriter(0);
    match CanonicalFormatter.write_f64(&mut w, v) {
        Ok(()) => w.0,
        Err(_) => 0,
    }
}

struct LenWriter(usize);

impl std::io::Write for LenWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct Counter<'c> {
    n: &'c mut usize,
    lent: Lent,
}

impl<'c> Counter<'c> {
    /// Opens a container whose opening and closing text is `brackets` bytes.
    fn open(self, brackets: usize) -> Result<Compound<'c>, CountError> {
        *self.n += brackets;
        Ok(Compound {
            n: self.n,
            lent: self.lent,
            first: true,
        })
    }
}

/// A container being counted: its brackets are counted when it opens, a
/// comma before every element but the first.
struct Compound<'c> {
    n: &'c mut usize,
    lent: Lent,
    first: bool,
}

impl Compound<'_> {
    fn comma(&mut self) {
        if self.first {
            self.first = false;
        } else {
            *self.n += 1;
        }
    }

    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CountError> {
        value.serialize(Counter {
            n: self.n,
            lent: self.lent,
        })
    }

    /// `"key":` then the value.
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), CountError> {
        self.comma();
        *self.n += string_len(key) + 1;
        self.value(value)
    }
}

impl<'c> ser::Serializer for Counter<'c> {
    type Ok = ();
    type Error = CountError;
    type SerializeSeq = Compound<'c>;
    type SerializeTuple = Compound<'c>;
    type SerializeTupleStruct = Compound<'c>;
    type SerializeTupleVariant = Compound<'c>;
    type SerializeMap = Compound<'c>;
    type SerializeStruct = Compound<'c>;
    type SerializeStructVariant = Compound<'c>;

    fn serialize_bool(self, v: bool) -> Result<(), CountError> {
        *self.n += if v { 4 } else { 5 };
        Ok(())
    }
    narrower_integers!();
    fn serialize_i64(self, v: i64) -> Result<(), CountError> {
        *self.n += signed(v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), CountError> {
        *self.n += v.to_string().len();
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), CountError> {
        *self.n += digits(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), CountError> {
        *self.n += v.to_string().len();
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), CountError> {
        let mut w = LenWriter(0);
        *self.n += if !v.is_finite() {
            4
        } else {
            CanonicalFormatter.write_f32(&mut w, v).map_or(0, |()| w.0)
        };
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), CountError> {
        *self.n += float(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), CountError> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), CountError> {
        *self.n += self.lent.string_len(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), CountError> {
        // serde_json writes bytes as an array of numbers.
        *self.n += 2 + v.len().saturating_sub(1) + v.iter().map(|&b| digits(u64::from(b))).sum::<usize>();
        Ok(())
    }
    fn serialize_none(self) -> Result<(), CountError> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), CountError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), CountError> {
        *self.n += 4;
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), CountError> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), CountError> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), CountError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), CountError> {
        // {"variant":value}
        *self.n += 2 + string_len(variant) + 1;
        value.serialize(self)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'c>, CountError> {
        self.open(2)
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'c>, CountError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'c>, CountError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'c>, CountError> {
        // {"variant":[...]}
        self.open(2 + string_len(variant) + 1 + 2)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'c>, CountError> {
        self.open(2)
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'c>, CountError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'c>, CountError> {
        // {"variant":{...}}
        self.open(2 + string_len(variant) + 1 + 2)
    }
}

/// The containers whose elements are plain values: a comma before every
/// element but the first.
macro_rules! element_containers {
    ($($container:ident :: $method:ident),*) => {$(
        impl ser::$container for Compound<'_> {
            type Ok = ();
            type Error = CountError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CountError> {
                self.comma();
                self.value(value)
            }
            fn end(self) -> Result<(), CountError> {
                Ok(())
            }
        }
    )*};
}

element_containers!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = CountError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), CountError> {
        self.comma();
        key.serialize(KeyCounter { n: self.n })?;
        *self.n += 1;
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CountError> {
        self.value(value)
    }
    fn end(self) -> Result<(), CountError> {
        Ok(())
    }
}

/// The containers whose elements are named fields: `"name":value`.
macro_rules! field_containers {
    ($($container:ident),*) => {$(
        impl ser::$container for Compound<'_> {
            type Ok = ();
            type Error = CountError;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), CountError> {
                self.field(key, value)
            }
            fn end(self) -> Result<(), CountError> {
                Ok(())
            }
        }
    )*};
}

field_containers!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
#[path = "canonical_len_tests.rs"]
mod tests;
