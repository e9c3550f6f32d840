//! What the headless commands and the screen both do with a pull request:
//! resolve it, fetch its result, read its threads and ledger, record
//! decisions through the outbox, and write files atomically.

pub mod batch;
pub mod fetch;
