//! Wire types shared by the agent result and the v3 review output: evidence,
//! verifier decisions, costs, timings, angle errors, disposition records and
//! the scope (REVIEWGATE-RULES §2, layout §8).
//!
//! Every struct borrows its strings from the parsed document, denies unknown
//! members (P11) and declares its fields in canonical order (C1), so the same
//! type both reads strictly and writes canonically.

use super::serde_util::{nullable, present};
use crate::model::finding::{Disposition, Side, SubmittedDisposition, VerificationState};
use crate::model::review::{ReviewStatus, Scope};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The ReviewGate review status (P7: exactly these three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RgStatus {
    Passed,
    NeedsChanges,
    ReviewError,
}

impl RgStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        self.model().as_str()
    }

    /// The cross-format status.
    pub fn model(self) -> ReviewStatus {
        match self {
            RgStatus::Passed => ReviewStatus::Passed,
            RgStatus::NeedsChanges => ReviewStatus::NeedsChanges,
            RgStatus::ReviewError => ReviewStatus::ReviewError,
        }
    }
}

/// One exact evidence excerpt (S1).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence<'a> {
    pub path: &'a str,
    pub side: Side,
    pub line: u32,
    pub excerpt: &'a str,
    pub reason: &'a str,
}

/// A verifier decision inside `conflicting_decisions` (S2; it has no
/// `conflicting_decisions` of its own, S3).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Decision<'a> {
    pub state: VerificationState,
    pub reason: &'a str,
    pub model: &'a str,
    #[serde(borrow)]
    pub evidence: Vec<Evidence<'a>>,
}

/// A finding's `verification` (S2, S3). An absent `conflicting_decisions`
/// equals an empty one and is not written.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Verification<'a> {
    pub state: VerificationState,
    pub reason: &'a str,
    pub model: &'a str,
    #[serde(borrow)]
    pub evidence: Vec<Evidence<'a>>,
    #[serde(borrow, default, skip_serializing_if = "Vec::is_empty")]
    pub conflicting_decisions: Vec<Decision<'a>>,
}

/// Where a cost figure came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CostSource {
    OpenRouterUsage,
    FallbackPricing,
    Unknown,
}

/// One priced model call (S4).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CostComponent<'a> {
    pub label: &'a str,
    pub model: &'a str,
    #[serde(default)]
    pub prompt_tokens: Option<u64>,
    #[serde(default)]
    pub completion_tokens: Option<u64>,
    pub estimated_cost_usd: f64,
}

/// A cost summary (S4). `source` may be absent (written as null).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CostSummary<'a> {
    pub current_run_usd: f64,
    #[serde(borrow)]
    pub components: Vec<CostComponent<'a>>,
    #[serde(default)]
    pub source: Option<CostSource>,
}

/// Stage timings in milliseconds (S5).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Timings {
    #[serde(deserialize_with = "nullable")]
    pub queue_ms: Option<u64>,
    pub startup_ms: u64,
    pub model_ms: u64,
    pub publish_ms: u64,
}

/// Why an angle failed (S6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AngleErrorKind {
    Timeout,
    MalformedResponse,
    EmptyResponse,
    ProviderError,
    TransportError,
    VerificationInconclusive,
}

impl AngleErrorKind {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            AngleErrorKind::Timeout => "timeout",
            AngleErrorKind::MalformedResponse => "malformed_response",
            AngleErrorKind::EmptyResponse => "empty_response",
            AngleErrorKind::ProviderError => "provider_error",
            AngleErrorKind::TransportError => "transport_error",
            AngleErrorKind::VerificationInconclusive => "verification_inconclusive",
        }
    }
}

/// A typed angle failure (S6).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AngleError<'a> {
    pub angle_id: &'a str,
    pub angle_name: &'a str,
    pub kind: AngleErrorKind,
    pub retryable: bool,
    pub message: &'a str,
    pub model: &'a str,
}

impl AngleError<'_> {
    /// The cross-format model of this error.
    pub fn to_model(&self) -> crate::model::review::AngleError {
        crate::model::review::AngleError {
            angle_id: self.angle_id.to_owned(),
            angle_name: self.angle_name.to_owned(),
            kind: self.kind.as_str().to_owned(),
            retryable: self.retryable,
            message: self.message.to_owned(),
            model: self.model.to_owned(),
        }
    }
}

/// One prior disposition (S7). `submitted_disposition` and `submission_id`
/// may be absent (not written then) but never null (P13).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DispositionRecord<'a> {
    pub disposition: Disposition,
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub submitted_disposition: Option<SubmittedDisposition>,
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub submission_id: Option<u64>,
    pub evidence_summary: &'a str,
    pub actor: &'a str,
    pub reviewed_sha: &'a str,
    pub code_fingerprint: &'a str,
}

impl DispositionRecord<'_> {
    /// The cross-format history record.
    pub fn to_model(&self) -> crate::model::finding::HistoryRecord {
        crate::model::finding::HistoryRecord {
            disposition: self.disposition,
            submitted: self.submitted_disposition,
            submission_id: self.submission_id,
            evidence_summary: self.evidence_summary.to_owned(),
            actor: self.actor.to_owned(),
            reviewed_sha: self.reviewed_sha.to_owned(),
            code_fingerprint: self.code_fingerprint.to_owned(),
        }
    }
}

/// The scope tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScopeKind {
    Local,
    PullRequest,
}

/// A scope as written (S8). Read flat so that rule S8 can say exactly what is
/// wrong with a mixed-up scope; written as `{"kind":"local"}` or
/// `{"kind":"pull_request","repository":…,"pull_request_number":…}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WireScope<'a> {
    pub kind: ScopeKind,
    #[serde(
        borrow,
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub repository: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub pull_request_number: Option<u64>,
}

impl<'a> WireScope<'a> {
    /// The wire form of a model scope.
    pub fn from_model(scope: &Scope) -> WireScope<'a> {
        match scope {
            Scope::Local => WireScope {
                kind: ScopeKind::Local,
                repository: None,
                pull_request_number: None,
            },
            Scope::PullRequest {
                repository,
                pull_request_number,
            } => WireScope {
                kind: ScopeKind::PullRequest,
                repository: Some(Cow::Owned(repository.clone())),
                pull_request_number: Some(*pull_request_number),
            },
        }
    }

    /// The model scope. A pull-request scope missing its members (already
    /// reported by S8) falls back to what is there.
    pub fn to_model(&self) -> Scope {
        match self.kind {
            ScopeKind::Local => Scope::Local,
            ScopeKind::PullRequest => Scope::PullRequest {
                repository: self.repository.as_deref().unwrap_or_default().to_owned(),
                pull_request_number: self.pull_request_number.unwrap_or_default(),
            },
        }
    }
}
