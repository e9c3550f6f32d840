//! Field adapters that make serde as strict as the schemas (P12, P13).
//!
//! serde treats a missing `Option` member as `None`; the schemas instead
//! require most nullable members to be written. These adapters give each
//! field exactly the presence and null rules its schema states.

use serde::{Deserialize, Deserializer};

/// A member that must be present and may be null (`"type": [..., "null"]` and
/// listed in `required`). Used with `deserialize_with`, which makes serde
/// report a missing member instead of defaulting it (P12).
pub(crate) fn nullable<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d)
}

/// A member that may be absent but, when present, must not be null (P13).
/// Used with `default` (absent = `None`) and `deserialize_with`.
pub(crate) fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}
