//! Strict JSON reading (being written).
