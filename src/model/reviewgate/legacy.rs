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
use super::common::{AngleError, CostSource, CostSummary, RgStatus};
use super::serde_util::nullable;
use super::shared_rules::{self as shared, Report, quote};
use crate::model::finding::{
    Classification, Disposition, Finding, FindingKey, Origin, ReviewGateFields, Severity, Thread,
};
use crate::model::json::{DocNode, Kind};
use crate::model::review::{Format, Projection, ReviewSet, Scope};
use serde::Deserialize;
use std::collections::HashMap;

/// A v1/v2 review output.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacyArtifact<'a> {
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
    #[serde(default)]
    pub metrics: Option<LegacyMetrics>,
    #[serde(borrow, default)]
    pub review_stages: Vec<ReviewStage<'a>>,
    #[serde(borrow, default)]
    pub angle_results: Vec<AngleResult<'a>>,
    #[serde(borrow, default)]
    pub angle_errors: Vec<AngleError<'a>>,
    #[serde(borrow)]
    pub findings: Vec<LegacyFinding<'a>>,
    #[serde(borrow)]
    pub notes: Vec<&'a str>,
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
    if V3_TOP.iter().any(|k| root.has(k)) {
        return false;
    }
    if let Some(m) = root.get("metrics")
        && V3_METRICS.iter().any(|k| m.has(k))
    {
        return false;
    }
    match root.get("findings") {
        Some(list) if list.kind() == Kind::Array && !list.is_empty() => list
            .items()
            .all(|f| f.kind() == Kind::Object && !V3_FINDING.iter().any(|k| f.has(k))),
        _ => false,
    }
}

/// The code-level rules that carry over to v1/v2: A1–A8 minus the derived
/// score (which needs the v3 policy members), A13, A17–A20 minus A21, A22, A23.
pub(crate) fn check(report: &mut Report, a: &LegacyArtifact<'_>) {
    report.non_blank("A1", "", "reviewed_sha", a.reviewed_sha);
    if let Some(s) = a.score.filter(|&s| s > 5) {
        report.push("A2", "/score", format!("score must be null or 0..5, not {s}"));
    }
    match (a.status, a.score) {
        (RgStatus::ReviewError, score) => {
            if score.is_some() {
                report.push("A3", "/score", "a review_error output must have a null score");
            }
            if a.angle_errors.is_empty() {
                report.push(
                    "A3",
                    "/angle_errors",
                    "a review_error output needs at least one angle error",
                );
            }
        }
        (status, score) => {
            if !a.angle_errors.is_empty() {
                report.push(
                    "A4",
                    "/angle_errors",
                    format!("a {} review has no angle errors", status.as_str()),
                );
            }
            if score.is_none() {
                report.push("A4", "/score", format!("a {} review needs a score", status.as_str()));
            }
        }
    }
    report.opt_cost("A5", "", "estimated_cost_usd", a.estimated_cost_usd);
    if let Some(summary) = &a.cost_summary {
        shared::cost_summary(report, "/cost_summary", summary);
    }
    if let Some(m) = &a.metrics {
        report.opt_cost("A7", "/metrics", "current_run_cost_usd", m.current_run_cost_usd);
    }
    for (i, stage) in a.review_stages.iter().enumerate() {
        let base = format!("/review_stages/{i}");
        for (field, value) in [
            ("name", stage.name),
            ("model", stage.model),
            ("status", stage.status),
            ("reason", stage.reason),
        ] {
            report.non_blank("A6", &base, field, value);
        }
        report.opt_cost("A6", &base, "estimated_cost_usd", stage.estimated_cost_usd);
    }
    let mut ids: HashMap<&str, usize> = HashMap::with_capacity(a.findings.len());
    for (i, f) in a.findings.iter().enumerate() {
        if !(0.0..=1.0).contains(&f.confidence) {
            report.push(
                "A13",
                format!("/findings/{i}/confidence"),
                format!("confidence must be within 0..1, not {}", f.confidence),
            );
        }
        if let Some(first) = ids.insert(f.id, i) {
            ids.insert(f.id, first);
            report.push(
                "A17",
                format!("/findings/{i}/id"),
                format!("finding id {} is already used by /findings/{first}", quote(f.id)),
            );
        }
    }
    angles(report, a, &ids);
    shared::angle_errors(report, "/angle_errors", &a.angle_errors);
}

/// A18–A20 and A22 without the derived angle score.
fn angles(report: &mut Report, a: &LegacyArtifact<'_>, ids: &HashMap<&str, usize>) {
    let mut angle_ids: HashMap<&str, usize> = HashMap::new();
    for (k, angle) in a.angle_results.iter().enumerate() {
        let base = format!("/angle_results/{k}");
        for (field, value) in [
            ("id", angle.id),
            ("name", angle.name),
            ("verdict", angle.verdict),
            ("model", angle.model),
        ] {
            report.non_blank("A18", &base, field, value);
        }
        if angle.score > 5 {
            report.push(
                "A18",
                format!("{base}/score"),
                format!("an angle score must be 0..5, not {}", angle.score),
            );
        }
        if angle_ids.insert(angle.id, k).is_some() {
            report.push(
                "A19",
                format!("{base}/id"),
                format!("angle id {} is used twice", quote(angle.id)),
            );
        }
        for (j, id) in angle.finding_ids.iter().enumerate() {
            let owner = ids.get(id).and_then(|&i| a.findings[i].angle_id);
            if owner != Some(angle.id) {
                report.push(
                    "A20",
                    format!("{base}/finding_ids/{j}"),
                    format!("no finding of this angle has id {}", quote(id)),
                );
            }
        }
    }
    for (i, f) in a.findings.iter().enumerate() {
        if let Some(angle_id) = f.angle_id.filter(|id| !angle_ids.contains_key(id)) {
            report.push(
                "A22",
                format!("/findings/{i}/angle_id"),
                format!("angle_id {} names no angle", quote(angle_id)),
            );
        }
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
        angle_errors: a.angle_errors.iter().map(|e| e.to_model()).collect(),
        findings,
        river: None,
        projection: Projection::NotApplicable,
        notices: Vec::new(),
        estimated_cost_usd: a.estimated_cost_usd,
    }
}
