//! Wire types of the v3 review output ("artifact"; it has no version member).
//!
//! Members the schema requires are required here even when nullable (P12);
//! optional members that the schema does not let be null reject null (P13).
//! Derived `PartialEq` is the typed equality of A30: absent optional members
//! equal null, absent `conflicting_decisions` equals `[]`, numbers compare as
//! doubles and strings exactly.

use super::common::{
    AngleError, CostSource, CostSummary, DispositionRecord, Evidence, RgStatus, Timings, Verification,
};
use super::serde_util::{nullable, present};
use crate::model::finding::{BlockingReason, Classification, Disposition, Severity};
use serde::Deserialize;
use serde::de::IgnoredAny;

/// A whole v3 review output.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Artifact<'a> {
    #[serde(deserialize_with = "nullable")]
    pub score: Option<u8>,
    pub reviewed_sha: &'a str,
    pub status: RgStatus,
    pub verdict: &'a str,
    #[serde(borrow)]
    pub models: Vec<&'a str>,
    #[serde(default)]
    pub estimated_cost_usd: Option<f64>,
    #[serde(borrow, default)]
    pub cost_summary: Option<CostSummary<'a>>,
    #[serde(borrow, default)]
    pub metrics: Option<Metrics<'a>>,
    #[serde(borrow, default)]
    pub review_stages: Vec<ReviewStage<'a>>,
    #[serde(borrow, default)]
    pub angle_results: Vec<AngleResult<'a>>,
    /// `None` when the member is absent (read as no errors). Null is
    /// refused (P13): ReviewGate's field is a `Vec` with a default, which
    /// serde does not read from null, so such an output has no projection.
    #[serde(borrow, default, deserialize_with = "present")]
    pub angle_errors: Option<Vec<AngleError<'a>>>,
    #[serde(borrow)]
    pub findings: Vec<ArtifactFinding<'a>>,
    #[serde(borrow, default)]
    pub disposition_updates: Vec<DispositionUpdate<'a>>,
    #[serde(borrow, default)]
    pub tracked_findings: Vec<TrackedFinding<'a>>,
    #[serde(borrow)]
    pub notes: Vec<&'a str>,
    /// The producer's input-only `target_score`. Read only so that rule P14
    /// can reject it by name, whatever its value.
    #[serde(default, deserialize_with = "present")]
    pub target_score: Option<IgnoredAny>,
}

impl<'a> Artifact<'a> {
    /// The angle errors (none when the member is absent).
    pub fn angle_errors(&self) -> &[AngleError<'a>] {
        self.angle_errors.as_deref().unwrap_or_default()
    }
}

/// `finding.scope`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingScope {
    Line,
    File,
    Pr,
}

/// `finding.evidence_gate_result`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GateResult {
    Passed,
    Failed,
    NotRequired,
}

/// One artifact finding (top-level, tracked, or a disposition update's resolution).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtifactFinding<'a> {
    pub id: &'a str,
    #[serde(borrow, default)]
    pub angle_id: Option<&'a str>,
    pub scope: FindingScope,
    pub severity: Severity,
    pub confidence: f64,
    pub classification: Classification,
    pub evidence_gate_result: GateResult,
    #[serde(deserialize_with = "nullable")]
    pub blocking_reason: Option<BlockingReason>,
    #[serde(borrow, default)]
    pub verification: Option<Verification<'a>>,
    #[serde(borrow, default)]
    pub grounding: Option<Grounding<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub file: Option<&'a str>,
    #[serde(deserialize_with = "nullable")]
    pub line: Option<u32>,
    pub title: &'a str,
    #[serde(borrow, deserialize_with = "nullable")]
    pub detail: Option<&'a str>,
    pub agent_instruction: &'a str,
}

/// `grounding.resolution_disposition` (P16: `fixed` or null).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResolutionDisposition {
    Fixed,
}

/// A finding's grounding: every member required (P12).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grounding<'a> {
    pub semantic_key: &'a str,
    #[serde(deserialize_with = "nullable")]
    pub resolution_disposition: Option<ResolutionDisposition>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub resolution_evidence_summary: Option<&'a str>,
    pub claim: &'a str,
    pub causal_path: &'a str,
    pub test_assessment: &'a str,
    #[serde(borrow)]
    pub evidence: Vec<Evidence<'a>>,
    #[serde(borrow)]
    pub related_tests: Vec<Evidence<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub reproduction: Option<&'a str>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub proof: Option<&'a str>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub novelty_evidence: Option<&'a str>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub reopening_evidence: Option<&'a str>,
}

/// Run metrics (A7). The counters are not compared with the findings.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Metrics<'a> {
    pub finding_count: u32,
    pub blocking_finding_count: u32,
    pub inline_eligible_count: u32,
    pub p0_count: u32,
    pub p1_count: u32,
    pub p2_count: u32,
    pub p3_count: u32,
    pub p4_count: u32,
    #[serde(default)]
    pub analyzed_line_count: Option<u32>,
    #[serde(default)]
    pub current_run_cost_usd: Option<f64>,
    pub cost_source: CostSource,
    #[serde(default)]
    pub timings: Option<Timings>,
    #[serde(borrow, default, deserialize_with = "present")]
    pub semantic_context: Option<SemanticContext<'a>>,
    #[serde(default)]
    pub verifier_ms: Option<u64>,
}

/// `semantic_context.status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContextStatus {
    Collected,
    Fallback,
    Unavailable,
}

/// Semantic repository context provenance (A8).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SemanticContext<'a> {
    pub status: ContextStatus,
    pub reviewed_sha: &'a str,
    pub parser: &'a str,
    pub changed_symbol_count: u32,
    pub candidate_count: u32,
    pub selected_count: u32,
    pub rg_calls: u32,
    pub rg_output_bytes: u32,
    pub selected_bytes: u32,
    pub truncated: bool,
    #[serde(borrow, default)]
    pub fallback_reason: Option<&'a str>,
    #[serde(borrow)]
    pub excerpts: Vec<Excerpt<'a>>,
}

/// One selected context excerpt (A8).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Excerpt<'a> {
    pub path: &'a str,
    pub start_line: u32,
    pub end_line: u32,
    pub reason: &'a str,
    pub relation: &'a str,
    pub bytes: u32,
    pub truncated: bool,
    pub reviewed_sha: &'a str,
}

/// One review stage (A6).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewStage<'a> {
    pub name: &'a str,
    pub model: &'a str,
    pub status: &'a str,
    pub reason: &'a str,
    #[serde(deserialize_with = "nullable")]
    pub estimated_cost_usd: Option<f64>,
}

/// One completed angle (A18–A21). `status` is read with the full status
/// enum so that A18 can name a `review_error` angle.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AngleResult<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub score: u8,
    pub status: RgStatus,
    pub verdict: &'a str,
    pub model: &'a str,
    #[serde(borrow)]
    pub finding_ids: Vec<&'a str>,
}

/// Canonical semantic finding state (A24–A31).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackedFinding<'a> {
    pub semantic_fingerprint: &'a str,
    #[serde(borrow)]
    pub finding: ArtifactFinding<'a>,
    pub disposition: Disposition,
    #[serde(borrow)]
    pub disposition_history: Vec<DispositionRecord<'a>>,
}

/// A convergence transition (A9: schema checks only).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DispositionUpdate<'a> {
    pub semantic_fingerprint: &'a str,
    pub disposition: Disposition,
    pub evidence_summary: &'a str,
    pub actor: &'a str,
    pub reviewed_sha: &'a str,
    pub code_fingerprint: &'a str,
    #[serde(borrow)]
    pub resolution: ArtifactFinding<'a>,
}
