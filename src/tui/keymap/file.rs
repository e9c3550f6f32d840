//! The keymap file's shape (mode -> key name -> action, read in file order) and
//! the error for a file that cannot be used.

use super::key::BadKey;
use super::mode::KeyMode;
use crate::tui::action::Action;
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;

/// A keymap file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum KeymapError {
    /// Not JSON of the expected shape.
    #[error("keymap is not valid: {0}")]
    Json(#[from] serde_json::Error),
    /// A key name is unknown.
    #[error("keymap: {0}")]
    Key(#[from] BadKey),
}

/// One mode's bindings as written: key name -> action (`null` unbinds), in file order.
pub(super) struct Bindings(pub(super) Vec<(String, Option<Action>)>);

impl<'de> Deserialize<'de> for Bindings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Bindings;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object mapping key names to actions")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Bindings, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, Option<Action>>()? {
                    out.push(entry);
                }
                Ok(Bindings(out))
            }
        }
        d.deserialize_map(InOrder)
    }
}

/// The file shape: mode -> bindings.
pub(super) type KeymapFile = BTreeMap<KeyMode, Bindings>;
