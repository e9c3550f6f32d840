//! Outbox of decisions (being written).
