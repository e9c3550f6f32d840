//! The interactive screen (being written).
