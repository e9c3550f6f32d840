//! The count of `canonical_len` against the written length.
use super::*;
use crate::model::json::to_canonical_vec;
use proptest::prelude::*;
use serde_json::{Value, json};

#[test]
fn counts_what_is_written() {
    for v in [
        json!(null),
        json!({"a": [1, -2, 3.5, 1e16, 1e-7, 0.1, -0.0, 123456789.125], "b": {"c": "x\"y\\z\u{1}\n\t\u{7f}é😀"}}),
        json!([]),
        json!({}),
        json!([[], {}, [[]], true, false, "", u64::MAX, i64::MIN]),
    ] {
        assert_eq!(count(&v), Some(to_canonical_vec(&v).len()), "{v}");
    }
}

fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "\\PC{0,12}".prop_map(Value::String),
        prop::collection::vec(0u8..0x30, 0..6).prop_map(|b| Value::String(b.into_iter().map(char::from).collect())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("\\PC{0,6}", inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn the_count_is_the_written_length(v in any_value()) {
        prop_assert_eq!(count(&v), Some(to_canonical_vec(&v).len()));
    }
}
