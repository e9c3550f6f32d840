//! ReviewGate's deterministic blocking policy and score (A10, A11, A14).

use super::artifact::{ArtifactFinding, GateResult};
use super::common::RgStatus;
use crate::model::finding::{BlockingReason, Classification, Severity, VerificationState};

/// `HIGH_CONFIDENCE_THRESHOLD`: a blocker candidate needs at least this
/// confidence (inclusive, compared as doubles).
pub const HIGH_CONFIDENCE_THRESHOLD: f64 = 0.85;

/// `DEFAULT_TARGET_SCORE`: the score at and above which a review passes.
pub const TARGET_SCORE: u8 = 5;

/// A14: severity P0–P3, confidence ≥ 0.85 and a blocking classification.
pub fn is_blocker_candidate(f: &ArtifactFinding<'_>) -> bool {
    f.severity <= Severity::P3 && f.confidence >= HIGH_CONFIDENCE_THRESHOLD && class_reason(f.classification).is_some()
}

/// The blocking reason a classification maps to, if it can block at all.
fn class_reason(c: Classification) -> Option<BlockingReason> {
    match c {
        Classification::Defect => Some(BlockingReason::ValidatedDefect),
        Classification::Security => Some(BlockingReason::ValidatedSecurity),
        Classification::ReliabilityRisk => Some(BlockingReason::ValidatedReliabilityRisk),
        Classification::ContractAmbiguity | Classification::Suggestion => None,
    }
}

/// A14: the blocking reason the policy assigns: the class-mapped reason for a
/// candidate whose evidence gate passed and whose verification is absent or
/// verified; otherwise none.
pub fn expected_blocking_reason(f: &ArtifactFinding<'_>) -> Option<BlockingReason> {
    let verified_or_none = f
        .verification
        .as_ref()
        .is_none_or(|v| v.state == VerificationState::Verified);
    if is_blocker_candidate(f) && f.evidence_gate_result == GateResult::Passed && verified_or_none {
        class_reason(f.classification)
    } else {
        None
    }
}

/// The severity ceiling of a blocking finding: P0 → 1 … P4 → 5.
fn ceiling(s: Severity) -> u8 {
    match s {
        Severity::P0 => 1,
        Severity::P1 => 2,
        Severity::P2 => 3,
        Severity::P3 => 4,
        Severity::P4 => 5,
    }
}

/// A10: the minimum ceiling over the findings the policy makes blocking, or
/// 5 when none blocks. Never 0.
pub fn compute_score<'f, 'a: 'f>(findings: impl IntoIterator<Item = &'f ArtifactFinding<'a>>) -> u8 {
    findings
        .into_iter()
        .filter(|f| expected_blocking_reason(f).is_some())
        .map(|f| ceiling(f.severity))
        .min()
        .unwrap_or(TARGET_SCORE)
}

/// A11: `passed` at or above the target score, `needs_changes` below it.
pub fn status_for_score(score: u8) -> RgStatus {
    if score >= TARGET_SCORE {
        RgStatus::Passed
    } else {
        RgStatus::NeedsChanges
    }
}
