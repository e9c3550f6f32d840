//! What the headless commands and the screen both do with a pull request:
//! resolve it, fetch its result, read its threads and ledger, record
//! decisions through the outbox, and write files atomically.

pub mod batch;
pub mod fetch;
pub mod load;
pub mod rate;
pub mod thread_attempt;

pub use fetch::{PrTarget, write_atomic};
pub use load::OpenOptions;

/// The longest River decision evidence accepted, in UTF-8 bytes (River sets
/// no bound of its own; this keeps the feedback log and the screen's
/// composer to one size).
pub const RIVER_MAX_EVIDENCE_BYTES: usize = 64 * 1024;
