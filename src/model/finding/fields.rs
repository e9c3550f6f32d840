//! The format-specific parts of a finding: ReviewGate fields with their
//! history, and River Review fields.

use serde::{Deserialize, Serialize};

use super::{
    BlockingReason, Classification, Disposition, RiverSeverity, Severity, SubmittedDisposition, Thread, Verification,
};

/// One prior disposition of a finding (its history).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryRecord {
    pub disposition: Disposition,
    pub submitted: Option<SubmittedDisposition>,
    pub submission_id: Option<u64>,
    pub evidence_summary: String,
    pub actor: String,
    pub reviewed_sha: String,
    pub code_fingerprint: String,
}

/// Fields only ReviewGate findings have.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewGateFields {
    pub severity: Severity,
    pub confidence: f64,
    pub classification: Classification,
    pub disposition: Disposition,
    pub blocking_reason: Option<BlockingReason>,
    pub causal_evidence: Option<String>,
    pub reproduction: Option<String>,
    pub verification: Option<Verification>,
    pub thread: Thread,
    pub reopening_evidence: Option<String>,
    pub history: Vec<HistoryRecord>,
    /// Code fingerprint (F4), when the finding came from a v3 artifact.
    pub code_fingerprint: Option<String>,
}

/// River finding `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RiverStatus {
    Open,
    Suppressed,
    Verified,
}

/// Fields only River Review findings have.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RiverFields {
    pub rule_id: Option<String>,
    pub phase: Option<String>,
    pub severity: Option<RiverSeverity>,
    pub confidence: Option<String>,
    pub status: Option<RiverStatus>,
    pub evidence: Vec<String>,
    pub suggestion: Option<String>,
    pub reviewer: Option<String>,
    pub source_kind: Option<String>,
    pub agreement: Option<String>,
    pub validated_status: Option<String>,
    /// Newer additive `scope` (in-diff / pre-existing).
    pub scope: Option<String>,
    pub line_end: Option<u32>,
    /// River's line-anchored (v2) fingerprint and the line number it hashes.
    pub fingerprint_v2: String,
    pub v2_line: String,
    /// The original message (River) — `Finding::claim` holds the same text.
    pub message: Option<String>,
    /// Known members without a dedicated field (newer `criterionRefs`,
    /// `artifactRefs`, `consensusLevel`; run-output `actionability`), as
    /// (name, compact value) for the detail pane.
    pub extra: Vec<(String, String)>,
}

/// Format-specific part of a finding.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    ReviewGate(ReviewGateFields),
    River(RiverFields),
}
