//! Review outputs that predate v3 (v1 and v2), read-only.
//!
//! v1 and v2 findings have no `classification`, `evidence_gate_result`,
//! `blocking_reason`, `grounding` or `verification`, and the outputs have no
//! `tracked_findings` or `disposition_updates`. One type reads both: v2 only
//! adds `angle_errors`, the `review_error` status and a nullable score.
//!
//! Detection ([`is_legacy`]) is conservative: a document is legacy only when
//! it has at least one finding and nothing at all that only v3 has. A
//! findings-free document reads as v3, which accepts every v1/v2 shape without
//! findings; a v3 document that omits the v3 finding members is reported
//! against v3 (P12), never waved through as legacy.

use super::artifact::{AngleResult, FindingScope, ReviewStage};
use super::common::{AngleError, CostSource, CostSummary};
use super::serde_util::nullable;
use crate::model::finding::{
    Classification, Disposition, Finding, FindingKey, Origin, ReviewGateFields, Severity, Thread,
};
use crate::model::json::DocNode;
use crate::model::review::ReviewStatus;
use crate::model::review::{Format, Projection, ReviewSet, Scope};
use serde::Deserialize;

/// A v1/v2 review output.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacyArtifact<'a> {
    #[serde(deserialize_with = "nullable")]
    pub score: Option<u8>,
    pub reviewed_sha: &'a str,
    pub status: LegacyStatus,
    pub verdict: &'a str,
    #[serde(borrow)]
    pub models: Vec<&'a str>,
    #[serde(default)]
    pub estimated_cost_usd: Option<f64>,
    #[serde(borrow, default)]
    pub cost_summary: Option<CostSummary<'a>>,
    #[serde(default)]
    pub metrics: Option<LegacyMetrics>,
    #[serde(borrow, default)]
    pub review_stages: Vec<ReviewStage<'a>>,
    #[serde(borrow, default)]
    pub angle_results: Vec<AngleResult<'a>>,
    /// Present (even empty) only in v2 outputs; see [`Era`].
    #[serde(borrow, default)]
    pub angle_errors: Option<Vec<AngleError<'a>>>,
    #[serde(borrow)]
    pub findings: Vec<LegacyFinding<'a>>,
    #[serde(borrow)]
    pub notes: Vec<&'a str>,
}

/// The status of a v1/v2 output. Both eras read `failed` (the name v1
/// writers used before `needs_changes`) as `needs_changes`; v1 had no
/// `review_error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LegacyStatus {
    Passed,
    #[serde(alias = "failed")]
    NeedsChanges,
    ReviewError,
}

impl LegacyStatus {
    /// The wire name (`failed` is read as, and named, `needs_changes`).
    pub fn as_str(self) -> &'static str {
        self.model().as_str()
    }

    /// The cross-format status.
    pub fn model(self) -> ReviewStatus {
        match self {
            LegacyStatus::Passed => ReviewStatus::Passed,
            LegacyStatus::NeedsChanges => ReviewStatus::NeedsChanges,
            LegacyStatus::ReviewError => ReviewStatus::ReviewError,
        }
    }
}

/// Which ReviewGate era wrote a legacy output, told from what only v2 has:
/// the `angle_errors` member, a null score or the `review_error` status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// Before ReviewGate derived the score from the findings (upstream
    /// b836e29): only ranges, costs, stages, angle fields and confidence
    /// were checked.
    V1,
    /// The version that derived the score and status from the findings and
    /// rejected an output that disagreed (upstream 5afc45d).
    V2,
}

impl LegacyArtifact<'_> {
    /// The era that wrote this output.
    pub fn era(&self) -> Era {
        if self.angle_errors.is_some() || self.score.is_none() || self.status == LegacyStatus::ReviewError {
            Era::V2
        } else {
            Era::V1
        }
    }

    /// The angle errors (none in a v1 output).
    pub fn angle_errors(&self) -> &[AngleError<'_>] {
        self.angle_errors.as_deref().unwrap_or_default()
    }
}

/// v1/v2 metrics (no timings, semantic context or verifier time).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacyMetrics {
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
}

/// A v1/v2 finding.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacyFinding<'a> {
    pub id: &'a str,
    #[serde(borrow, default)]
    pub angle_id: Option<&'a str>,
    pub scope: FindingScope,
    pub severity: Severity,
    pub confidence: f64,
    #[serde(borrow, deserialize_with = "nullable")]
    pub file: Option<&'a str>,
    #[serde(deserialize_with = "nullable")]
    pub line: Option<u32>,
    pub title: &'a str,
    #[serde(borrow, deserialize_with = "nullable")]
    pub detail: Option<&'a str>,
    pub agent_instruction: &'a str,
}

/// Top-level members only v3 has.
const V3_TOP: [&str; 2] = ["tracked_findings", "disposition_updates"];
/// Finding members only v3 has.
const V3_FINDING: [&str; 5] = [
    "classification",
    "evidence_gate_result",
    "blocking_reason",
    "grounding",
    "verification",
];
/// Metrics members only v3 has.
const V3_METRICS: [&str; 3] = ["timings", "semantic_context", "verifier_ms"];

/// True when a review-output object predates v3 (see the module docs).
pub fn is_legacy(root: DocNode<'_>) -> bool {
    let has = |v: DocNode<'_>, k: &str| v.has(k);
    if V3_TOP.iter().any(|k| has(root, k)) {
        return false;
    }
    if let Some(m) = root.get("metrics")
        && V3_METRICS.iter().any(|k| has(m, k))
    {
        return false;
    }
    match root.get("findings") {
        Some(list) if list.is_array() && !list.is_empty() => list
            .items()
            .all(|f| f.is_object() && !V3_FINDING.iter().any(|k| has(f, k))),
        _ => false,
    }
}

/// The model of a legacy output: every finding `still_open`, not blocking,
/// thread unknown, classified `defect` (the default ReviewGate gives these
/// files) for its semantic fingerprint (F1).
pub(crate) fn review_set(a: &LegacyArtifact<'_>) -> ReviewSet {
    let findings = a
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let classification = Classification::Defect;
            let fields = ReviewGateFields {
                severity: f.severity,
                confidence: f.confidence,
                classification,
                disposition: Disposition::StillOpen,
                blocking_reason: None,
                causal_evidence: None,
                reproduction: None,
                verification: None,
                thread: Thread::default(),
                reopening_evidence: None,
                history: Vec::new(),
                code_fingerprint: Some(super::fp::code(f.file, None)),
            };
            Finding {
                index: i,
                id: f.id.to_owned(),
                key: FindingKey::Semantic(super::fp::semantic(classification, f.file, None, f.title)),
                rank: f.severity,
                title: Some(f.title.to_owned()),
                claim: f.detail.map(str::to_owned),
                suggested_fix: Some(f.agent_instruction.to_owned()),
                path: f.file.map(str::to_owned),
                line: f.line,
                evidence: Vec::new(),
                origin: Origin::ReviewGate(fields),
            }
        })
        .collect();
    ReviewSet {
        format: Format::ArtifactLegacy,
        scope: Scope::Local,
        reviewed_sha: Some(a.reviewed_sha.to_owned()),
        status: a.status.model(),
        score: a.score,
        angle_errors: a.angle_errors().iter().map(|e| e.to_model()).collect(),
        findings,
        river: None,
        projection: Projection::NotApplicable,
        notices: Vec::new(),
        estimated_cost_usd: a.estimated_cost_usd,
    }
}
