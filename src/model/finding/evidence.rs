//! Evidence excerpts and verifier decisions attached to a finding.

use serde::{Deserialize, Serialize};

/// Which side of the diff an evidence excerpt quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    New,
    Old,
}

impl Side {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::New => "new",
            Side::Old => "old",
        }
    }
}

/// One exact evidence excerpt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    pub path: String,
    pub side: Side,
    pub line: u32,
    pub excerpt: String,
    pub reason: String,
}

/// Verifier verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerificationState {
    Verified,
    Rejected,
    Inconclusive,
}

impl VerificationState {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            VerificationState::Verified => "verified",
            VerificationState::Rejected => "rejected",
            VerificationState::Inconclusive => "inconclusive",
        }
    }
}

/// A verifier decision (and the decisions it conflicted with).
#[derive(Debug, Clone, PartialEq)]
pub struct Verification {
    pub state: VerificationState,
    pub reason: String,
    pub model: String,
    pub evidence: Vec<Evidence>,
    pub conflicting: Vec<Verification>,
}
