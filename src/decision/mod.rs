//! Decisions on findings as values: the draft a reviewer writes and its local
//! checks, the protocol's steps and refusals, and what a submission achieved.
//! No I/O: `github` performs the requests, `outbox` keeps these on disk.

pub mod decide;
pub mod draft;
pub mod outcome;
