//! Typed River Review documents: the review artifact v1 and the output of
//! `river run --output json`, as read (and checked) by [`super::artifact`] and
//! [`super::run_output`]. Every member is optional here because an invalid file
//! is still read as far as it goes; the problems list says what is wrong.

pub use super::enums::{ArtifactStatus, RiverPhase};
use crate::model::finding::{RiverSeverity, RiverStatus};
use serde::Serialize;

/// SDLC phases (`upstream`, `midstream`, `downstream`).
pub const PHASES: [&str; 3] = ["upstream", "midstream", "downstream"];
/// Artifact `status` values.
pub const STATUSES: [&str; 4] = ["ok", "no-changes", "skipped-by-label", "error"];
/// Finding `confidence` values.
pub const CONFIDENCES: [&str; 3] = ["high", "medium", "low"];
/// Finding `sourceKind` values.
pub const SOURCE_KINDS: [&str; 3] = ["ai-review", "human-review", "self-review"];
/// Finding `validatedStatus` values.
pub const VALIDATED_STATUSES: [&str; 4] = [
    "confirmed",
    "dismissed-hallucination",
    "dismissed-duplicate",
    "needs-human-judgment",
];
/// Newer finding `scope` values.
pub const FINDING_SCOPES: [&str; 2] = ["in-diff", "pre-existing"];
/// Plan `plannerMode` values.
pub const PLANNER_MODES: [&str; 3] = ["off", "order", "prune"];
/// Selected skill `modelHint` values.
pub const MODEL_HINTS: [&str; 3] = ["cheap", "balanced", "high-accuracy"];
/// Newer `gate.decision` values.
pub const GATE_DECISIONS: [&str; 4] = ["GO", "GO_WITH_OBSERVATION", "NO_GO", "ESCALATE"];
/// Newer `gate.tier` values.
pub const GATE_TIERS: [&str; 3] = ["cliff", "hill", "field"];

/// River's advisory run-level verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    AutoApprove,
    HumanReviewRecommended,
    HumanReviewRequired,
}

impl Decision {
    /// Every value, in River's documented order.
    pub const ALL: [Decision; 3] = [
        Decision::AutoApprove,
        Decision::HumanReviewRecommended,
        Decision::HumanReviewRequired,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::AutoApprove => "auto-approve",
            Decision::HumanReviewRecommended => "human-review-recommended",
            Decision::HumanReviewRequired => "human-review-required",
        }
    }

    /// Parses a wire name exactly.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.as_str() == s)
    }
}

/// River's layer-1 loop signal for agentic fix loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum LoopSignal {
    NoSignal,
    ReviseRequired,
    Converged,
    EscalateHuman,
}

impl LoopSignal {
    /// Every value, in River's documented order.
    pub const ALL: [LoopSignal; 4] = [
        LoopSignal::NoSignal,
        LoopSignal::ReviseRequired,
        LoopSignal::Converged,
        LoopSignal::EscalateHuman,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            LoopSignal::NoSignal => "NO_SIGNAL",
            LoopSignal::ReviseRequired => "REVISE_REQUIRED",
            LoopSignal::Converged => "CONVERGED",
            LoopSignal::EscalateHuman => "ESCALATE_HUMAN",
        }
    }

    /// Parses a wire name exactly.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.as_str() == s)
    }
}

/// Parses River's severity names exactly.
pub fn parse_severity(s: &str) -> Option<RiverSeverity> {
    match s {
        "critical" => Some(RiverSeverity::Critical),
        "major" => Some(RiverSeverity::Major),
        "minor" => Some(RiverSeverity::Minor),
        "info" => Some(RiverSeverity::Info),
        _ => None,
    }
}

/// Parses River's finding lifecycle status exactly.
pub fn parse_status(s: &str) -> Option<RiverStatus> {
    match s {
        "open" => Some(RiverStatus::Open),
        "suppressed" => Some(RiverStatus::Suppressed),
        "verified" => Some(RiverStatus::Verified),
        _ => None,
    }
}

/// One finding (artifact `findings[]` or run output `issues[]`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RiverFinding {
    pub id: Option<String>,
    pub rule_id: Option<String>,
    pub title: Option<String>,
    pub message: Option<String>,
    pub severity: Option<RiverSeverity>,
    pub phase: Option<RiverPhase>,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub line_end: Option<u32>,
    pub confidence: Option<String>,
    pub status: Option<RiverStatus>,
    pub evidence: Vec<String>,
    pub reviewer: Option<String>,
    pub suggestion: Option<String>,
    pub source_kind: Option<String>,
    pub agreement: Vec<String>,
    pub validated_status: Option<String>,
    /// Newer `scope` (`in-diff` / `pre-existing`).
    pub scope: Option<String>,
    /// An unknown `category` member naming a scoring axis; River's scoring
    /// prefers it over the rule id, so the derivation honours it too.
    pub category: Option<String>,
    /// Known members without a dedicated field (`actionability`,
    /// `criterionRefs`, `artifactRefs`, `consensusLevel`), as `name`, compact value.
    pub extra: Vec<(String, String)>,
    /// River's own fingerprint of this finding (computed from the raw members).
    pub fingerprint: String,
    /// The newer line's line-anchored fingerprint (`fingerprintAlgo: "v2"`).
    pub fingerprint_v2: String,
    /// The line number the v2 fingerprint hashes (`0` when the finding has
    /// no usable line), as River writes it.
    pub v2_line: String,
}

/// A skill the plan selected.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelectedSkill {
    pub id: String,
    pub name: String,
    pub phase: Option<RiverPhase>,
    pub model_hint: Option<String>,
}

/// The artifact's `plan`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    pub selected: Vec<SelectedSkill>,
    pub skipped: Vec<(String, Vec<String>)>,
    pub planner_mode: Option<String>,
    pub planner_reasons: Vec<(String, String)>,
    pub impact_tags: Vec<String>,
    /// Newer plan members (`executionOrder`, `contextLift`, `estimatedCost`).
    pub extra: Vec<(String, String)>,
}

/// The artifact's `context`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Context {
    pub repo_root: Option<String>,
    pub default_branch: Option<String>,
    pub merge_base: Option<String>,
    pub changed_files: Vec<String>,
    pub token_estimate: Option<f64>,
    pub raw_token_estimate: Option<f64>,
    pub reduction: Option<f64>,
}

/// The artifact's `usage`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Usage {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub input_tokens: Option<f64>,
    pub output_tokens: Option<f64>,
    pub estimated_cost_usd: Option<f64>,
}

/// Newer `gate` facts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Gate {
    pub decision: Option<String>,
    pub reason_code: Option<String>,
    pub tier: Option<String>,
}

/// A River review artifact v1.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RiverArtifact {
    pub version: Option<String>,
    pub timestamp: Option<String>,
    pub phase: Option<RiverPhase>,
    pub status: Option<ArtifactStatus>,
    pub decision: Option<Decision>,
    pub loop_signal: Option<LoopSignal>,
    pub usage: Option<Usage>,
    pub run_id: Option<String>,
    pub plan: Option<Plan>,
    pub findings: Vec<RiverFinding>,
    pub context: Option<Context>,
    pub gate: Option<Gate>,
    /// Newer top-level members without a dedicated field
    /// (`executionManifest`, `flow`, `evidenceRequirements`, `steps`).
    pub extra: Vec<(String, String)>,
}

/// `summary` of `river run --output json`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunSummary {
    /// `issueCountBySeverity` as (severity, count), in River's key order.
    pub by_severity: Vec<(String, u64)>,
    /// `issueCountByPhase` as (phase, count).
    pub by_phase: Vec<(String, u64)>,
    pub notes: Option<String>,
    /// `riskSummary.aggregateAction` and the file lists, flattened for display.
    pub risk: Vec<(String, String)>,
    /// `prioritySummary` flattened (`P1: 0`, ..., `requiresImmediateAttention: false`).
    pub priority: Vec<(String, String)>,
}

/// The output of `river run --output json`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunOutput {
    pub issues: Vec<RiverFinding>,
    pub summary: Option<RunSummary>,
    pub decision: Option<Decision>,
    /// A `suggestedLoopSignal` member, should a newer release add one here too.
    pub loop_signal: Option<LoopSignal>,
    /// Newer members shown as they are (`timedOutRoles`, `teamLeadReport`).
    pub extra: Vec<(String, String)>,
}
