//! The canonical writer against serde_json's compact writer with C3 number
//! layout (the oracle): the same bytes for everything serde_json writes, the
//! same rejections, and a count that agrees with the bytes at every limit.

use super::*;
use proptest::prelude::*;
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;
use serde_json::ser::Formatter;
use std::collections::BTreeMap;
use std::io;

/// serde_json's compact layout, numbers by C3.
struct OracleFormatter;

impl Formatter for OracleFormatter {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        let mut text = Vec::new();
        c3::write_f64(&mut text, value).map_err(io::Error::other)?;
        writer.write_all(&text)
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        let mut text = Vec::new();
        c3::write_f32(&mut text, value).map_err(io::Error::other)?;
        writer.write_all(&text)
    }
}

fn oracle<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::new();
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, OracleFormatter))?;
    Ok(out)
}

/// Asserts that `value` is written as the oracle writes it, and that
/// [`canonical_len_within`] gives its length at and above it and `None`
/// below it. A test helper for the types production serializes.
pub(crate) fn assert_matches_oracle<T: Serialize + ?Sized>(value: &T) {
    let ours = try_to_canonical_vec(value).expect("serializable");
    let theirs = oracle(value).expect("serde_json serializes it");
    assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&theirs));
    let len = ours.len();
    for limit in [0, len / 2, len.saturating_sub(1), len, len + 1, usize::MAX] {
        let want = (limit >= len).then_some(len);
        assert_eq!(
            canonical_len_within(value, limit).ok(),
            Some(want),
            "limit {limit} of {len}"
        );
    }
}

/// Text made of the pieces C2 cares about: every control character, quote,
/// backslash, characters on both sides of the escaped range, any character,
/// and long runs (which the writer copies a word at a time).
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        (0u32..0x20).prop_map(|c| char::from_u32(c).map(String::from).unwrap_or_default()),
        prop_oneof![
            Just("\""),
            Just("\\"),
            Just("/"),
            Just(" "),
            Just("\u{7f}"),
            Just("é"),
            Just("😀")
        ]
        .prop_map(String::from),
        any::<char>().prop_map(String::from),
        "[a-z0-9 ]{0,24}",
        (any::<char>(), 0usize..100).prop_map(|(c, n)| c.to_string().repeat(n)),
    ];
    proptest::collection::vec(piece, 0..10).prop_map(|pieces| pieces.concat())
}

/// Integers of every width and doubles of every magnitude, including
/// arbitrary bit patterns (subnormals, extremes).
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u32..64).prop_map(|shift| Value::from(1u64 << shift)),
        any::<u64>().prop_map(|bits| Value::from(f64::from_bits(bits))),
        (-9999i32..9999, -330i32..310).prop_map(|(m, e)| Value::from(f64::from(m) * 10f64.powi(e))),
        (-20i32..20).prop_map(|e| Value::from(10f64.powi(e))),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((text(), inner), 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn values_are_written_as_serde_json_writes_them(v in value()) {
        let ours = try_to_canonical_vec(&v).expect("a Value always serializes");
        let theirs = oracle(&v).expect("a Value always serializes");
        prop_assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&theirs));
        let len = ours.len();
        for limit in [0, len / 2, len.saturating_sub(2), len.saturating_sub(1), len, len + 1, len + 2] {
            let want = (limit >= len).then_some(len);
            prop_assert_eq!(canonical_len_within(&v, limit).ok(), Some(want), "limit {} of {}", limit, len);
        }
    }
}

#[derive(Serialize)]
enum Shape {
    Unit,
    Newtype(u8),
    Tuple(i8, f32),
    Struct { a: Option<char>, b: () },
}

#[derive(Serialize)]
struct UnitStruct;

#[derive(Serialize)]
struct TupleStruct(u16, i128);

#[derive(Serialize)]
struct Newtype<'a>(&'a str);

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
enum KeyName {
    First,
    Second,
}

/// Bytes, through `serialize_bytes`.
struct Bytes(&'static [u8]);

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// A map with keys of any type, in the order given.
struct Pairs<K>(Vec<K>);

impl<K: Serialize> Serialize for Pairs<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (i, key) in self.0.iter().enumerate() {
            map.serialize_entry(key, &i)?;
        }
        map.end()
    }
}

/// A value written through `collect_str`.
struct Shown(f64);

impl Serialize for Shown {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("{}\n\"{}\"", self.0, self.0))
    }
}

#[derive(Serialize)]
struct EveryShape {
    shapes: Vec<Shape>,
    unit: UnitStruct,
    tuple_struct: TupleStruct,
    pair: (u128, i16),
    empty: (Vec<u8>, BTreeMap<String, u8>, Option<u8>),
    bytes: Bytes,
    #[serde(rename = "quo\"te\\ \u{1}")]
    renamed: f32,
    floats: [f64; 5],
    singles: [f32; 4],
    extremes: (i128, u128, i64, u64),
    shown: Shown,
    string_keys: Pairs<Newtype<'static>>,
    variant_keys: BTreeMap<KeyName, u8>,
    int_keys: Pairs<i128>,
    uint_keys: Pairs<u128>,
    bool_keys: Pairs<bool>,
    char_keys: Pairs<char>,
    float_keys: Pairs<f64>,
    single_keys: Pairs<f32>,
    some_keys: Pairs<Option<i8>>,
}

#[test]
fn every_shape_of_the_data_model_is_written_as_serde_json_writes_it() {
    let v = EveryShape {
        shapes: vec![
            Shape::Unit,
            Shape::Newtype(7),
            Shape::Tuple(-1, 0.1),
            Shape::Struct {
                a: Some('\u{2028}'),
                b: (),
            },
            Shape::Struct { a: None, b: () },
        ],
        unit: UnitStruct,
        tuple_struct: TupleStruct(65535, i128::MIN),
        pair: (u128::MAX, i16::MIN),
        empty: (Vec::new(), BTreeMap::new(), None),
        bytes: Bytes(b"\x00\xffab"),
        renamed: 1e20,
        floats: [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 1e-300],
        singles: [f32::NAN, f32::MAX, f32::MIN_POSITIVE, 16777216.0],
        extremes: (i128::from(i64::MIN) - 1, u128::from(u64::MAX) + 1, i64::MIN, u64::MAX),
        shown: Shown(0.5),
        string_keys: Pairs(vec![Newtype("a\"b"), Newtype("")]),
        variant_keys: BTreeMap::from([(KeyName::First, 1), (KeyName::Second, 2)]),
        int_keys: Pairs(vec![-5, i128::MIN, 0]),
        uint_keys: Pairs(vec![u128::MAX, 3]),
        bool_keys: Pairs(vec![true, false]),
        char_keys: Pairs(vec!['\n', 'x']),
        float_keys: Pairs(vec![1e16, 0.5, -0.0, 5e-324]),
        single_keys: Pairs(vec![0.1, 3e38]),
        some_keys: Pairs(vec![Some(1), Some(-1)]),
    };
    assert_matches_oracle(&v);
}

/// A value whose serialization fails.
struct Failing;

impl Serialize for Failing {
    fn serialize<S: Serializer>(&self, _serializer: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("refused"))
    }
}

/// Asserts that serde_json and the canonical writer (both entry points)
/// reject `value`.
fn assert_rejected<T: Serialize>(value: &T) {
    assert!(oracle(value).is_err(), "the oracle accepts it");
    assert!(try_to_canonical_vec(value).is_err());
    assert!(canonical_len_within(value, usize::MAX).is_err());
}

#[test]
fn what_serde_json_rejects_is_rejected() {
    assert_rejected(&Pairs(vec![()]));
    assert_rejected(&Pairs(vec![None::<u8>]));
    assert_rejected(&Pairs(vec![UnitStruct]));
    assert_rejected(&Pairs(vec![vec![1u8]]));
    assert_rejected(&Pairs(vec![(1u8, 2u8)]));
    assert_rejected(&Pairs(vec![Bytes(b"k")]));
    assert_rejected(&Pairs(vec![Shape::Newtype(1)]));
    assert_rejected(&Pairs(vec![Shape::Tuple(1, 1.0)]));
    assert_rejected(&Pairs(vec![Shape::Struct { a: None, b: () }]));
    assert_rejected(&Pairs(vec![TupleStruct(1, 2)]));
    assert_rejected(&Pairs(vec![Pairs(vec![1u8])]));
    assert_rejected(&Pairs(vec![f64::NAN]));
    assert_rejected(&Pairs(vec![f32::INFINITY]));
    assert_rejected(&(1u8, Failing));
    assert_rejected(&Pairs(vec![Failing]));
    let err = try_to_canonical_vec(&Failing).err().map(|e| e.to_string());
    assert_eq!(err.as_deref(), Some("cannot serialize canonically: refused"));
}
