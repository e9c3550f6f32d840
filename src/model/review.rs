//! A loaded review: one result of one review system, in the cross-format model.

use super::finding::{Finding, RiverSeverity};
use super::problem::Problem;
use serde::Serialize;

/// Every input format `triage` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// `reviewgate-agent-result/v1`.
    AgentResult,
    /// ReviewGate full review output v3 (no version member).
    ArtifactV3,
    /// ReviewGate review output v1/v2 (read-only, predates v3).
    ArtifactLegacy,
    /// `reviewgate-agent-dispositions/v1` payload.
    Disposition,
    /// River Review review artifact (`version: "1"`).
    RiverArtifact,
    /// `river run --output json` output (`{issues, summary}`).
    RiverRun,
}

impl Format {
    /// Every format, for `--kind` and help text.
    pub const ALL: [Format; 6] = [
        Format::AgentResult,
        Format::ArtifactV3,
        Format::ArtifactLegacy,
        Format::Disposition,
        Format::RiverArtifact,
        Format::RiverRun,
    ];

    /// The name used on the command line and in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::AgentResult => "agent-result",
            Format::ArtifactV3 => "artifact",
            Format::ArtifactLegacy => "artifact-legacy",
            Format::Disposition => "disposition",
            Format::RiverArtifact => "river-artifact",
            Format::RiverRun => "river-run",
        }
    }

    /// Parses a command-line name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == s)
    }

    /// A human label for headers.
    pub fn label(self) -> &'static str {
        match self {
            Format::AgentResult => "ReviewGate agent result v1",
            Format::ArtifactV3 => "ReviewGate review output v3",
            Format::ArtifactLegacy => "ReviewGate review output (legacy v1/v2)",
            Format::Disposition => "ReviewGate agent disposition v1",
            Format::RiverArtifact => "River Review artifact v1",
            Format::RiverRun => "River Review run output",
        }
    }
}

/// What the review is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Scope {
    /// A local review (no pull request).
    Local,
    /// A pull request.
    PullRequest {
        repository: String,
        pull_request_number: u64,
    },
}

/// Overall status, per system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewStatus {
    /// ReviewGate: score 5, nothing blocks.
    Passed,
    /// ReviewGate: score 0..4.
    NeedsChanges,
    /// ReviewGate: the review did not complete (never a pass).
    ReviewError,
    /// River: completed.
    Ok,
    /// River: no diff to review.
    NoChanges,
    /// River: skipped by a PR label.
    SkippedByLabel,
    /// River: the run failed.
    Error,
}

impl ReviewStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewStatus::Passed => "passed",
            ReviewStatus::NeedsChanges => "needs_changes",
            ReviewStatus::ReviewError => "review_error",
            ReviewStatus::Ok => "ok",
            ReviewStatus::NoChanges => "no-changes",
            ReviewStatus::SkippedByLabel => "skipped-by-label",
            ReviewStatus::Error => "error",
        }
    }

    /// True for a review that did not complete (shown as an error, never a pass).
    pub fn is_error(self) -> bool {
        matches!(self, ReviewStatus::ReviewError | ReviewStatus::Error)
    }
}

/// A typed ReviewGate angle error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AngleError {
    pub angle_id: String,
    pub angle_name: String,
    pub kind: String,
    pub retryable: bool,
    pub message: String,
    pub model: String,
}

/// A value that is either stated by the file or derived by `triage`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "source", content = "value", rename_all = "snake_case")]
pub enum Stated<T> {
    /// Written in the file.
    Stated(T),
    /// Absent from the file; computed the way the producer would.
    Derived(T),
}

impl<T> Stated<T> {
    /// The value, whichever its source.
    pub fn value(&self) -> &T {
        match self {
            Stated::Stated(v) | Stated::Derived(v) => v,
        }
    }

    /// True when `triage` computed it.
    pub fn is_derived(&self) -> bool {
        matches!(self, Stated::Derived(_))
    }
}

/// River run-level facts shown in the header and detail pane.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RiverRunInfo {
    pub phase: Option<String>,
    pub timestamp: Option<String>,
    pub decision: Option<Stated<String>>,
    pub loop_signal: Option<Stated<String>>,
    pub run_id: Option<String>,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub selected_skills: Vec<(String, String)>,
    pub skipped_skills: Vec<(String, Vec<String>)>,
    pub planner_mode: Option<String>,
    pub planner_reasons: Vec<(String, String)>,
    pub impact_tags: Vec<String>,
    pub repo_root: Option<String>,
    pub default_branch: Option<String>,
    pub merge_base: Option<String>,
    pub changed_files: Vec<String>,
    pub token_estimate: Option<f64>,
    pub raw_token_estimate: Option<f64>,
    pub reduction: Option<f64>,
    /// Free-form `usage` lines (`key: value`), already flattened.
    pub usage: Vec<(String, String)>,
    /// Newer `gate` facts (decision, reasonCode, tier), if present.
    pub gate: Vec<(String, String)>,
    /// Worst finding severity (for decision derivation and the header).
    pub worst: Option<RiverSeverity>,
    /// River's overall score (0..100), recomputed from the findings the way
    /// River's scoring engine does; the basis of a derived `decision`.
    pub overall_score: Option<u8>,
    /// Known members without a dedicated field (newer top-level and plan
    /// members such as `executionManifest`, `flow`, `steps`, `contextLift`;
    /// run-output summary facts), as (name, compact value).
    pub extra: Vec<(String, String)>,
}

/// Whether the v3 artifact could be projected to an agent-result view.
#[derive(Debug, Clone, PartialEq)]
pub enum Projection {
    /// Not a v3 artifact.
    NotApplicable,
    /// The projection exists and passes the agent-result rules.
    Ok,
    /// The projection fails (J6); findings are still shown from the artifact.
    Failed(Vec<Problem>),
}

/// One loaded review, whatever the format.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewSet {
    pub format: Format,
    pub scope: Scope,
    /// The exact reviewed commit (ReviewGate); River artifacts have none
    /// (`context.mergeBase` is not the head).
    pub reviewed_sha: Option<String>,
    pub status: ReviewStatus,
    pub score: Option<u8>,
    pub angle_errors: Vec<AngleError>,
    /// Findings in file order. Sort with [`ReviewSet::ranked`].
    pub findings: Vec<Finding>,
    pub river: Option<RiverRunInfo>,
    pub projection: Projection,
    /// Non-fatal remarks (unknown additive River fields, projection notes).
    pub notices: Vec<Problem>,
    pub estimated_cost_usd: Option<f64>,
}

impl ReviewSet {
    /// Indices of `findings` sorted by rank, stable (file order within a rank).
    pub fn ranked(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.findings.len()).collect();
        order.sort_by_key(|&i| (self.findings[i].rank, self.findings[i].index));
        order
    }
}

/// The outcome of checking one document of a known format: every problem
/// found, and the model when the document could be read into it.
///
/// `set` may be present while `problems` is non-empty: an invalid file can
/// still be shown read-only, clearly marked, but never submitted from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Checked {
    pub set: Option<ReviewSet>,
    pub problems: Vec<Problem>,
}
