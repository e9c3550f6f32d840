//! GitHub client (being written).
