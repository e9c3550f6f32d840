//! ReviewGate formats (being written).
