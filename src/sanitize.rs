//! Sanitising untrusted text for display (being written).
