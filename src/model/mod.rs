//! The domain: formats, validation and the one cross-format model.
//! No terminal, async runtime or network code lives here.

pub mod disposition;
pub mod escalation;
pub mod finding;
pub mod fingerprint;
pub mod json;
pub mod ledger;
pub mod load;
pub mod placeholder;
pub mod problem;
pub mod review;
pub mod reviewgate;
pub mod river;
pub mod schema;
pub mod text;
pub mod threads;
