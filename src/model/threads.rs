//! Live thread state: what GitHub shows for ReviewGate's review threads, and
//! how it changes each finding's `thread_status`, `thread_outdated` and
//! `thread_transition` (INTEROP.md section 3, rule R19).
//!
//! Pure: the GitHub layer observes the threads, this module applies them.

mod apply;
mod observation;

pub use apply::{ThreadSync, apply_threads, previously_settled};
pub use observation::{ObservedThread, OrphanThread, ThreadObservation};
