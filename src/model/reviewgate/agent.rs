//! Wire types of the agent result v1 (`reviewgate-agent-result/v1`).
//!
//! Field order is the canonical layout (C1). Members the schema requires are
//! required here even when nullable (P12); the thread members that older
//! files omit take the R20 defaults and are always written.

use super::common::{AngleError, CostSummary, DispositionRecord, Evidence, RgStatus, Timings, Verification, WireScope};
use super::serde_util::{nullable, present};
use crate::model::finding::{BlockingReason, Classification, Disposition, Severity, ThreadStatus, ThreadTransition};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The only accepted `schema_version` (R3).
pub const SCHEMA_VERSION: &str = "reviewgate-agent-result/v1";

/// The size bound of rules R1 and R2, in bytes.
pub const MAX_BYTES: usize = 1_048_576;

/// A whole agent result.
/// An absent transition is written as ReviewGate's default, `unknown`.
fn unknown_when_absent<S: serde::Serializer>(t: &Option<ThreadTransition>, s: S) -> Result<S::Ok, S::Error> {
    t.unwrap_or(ThreadTransition::Unknown).serialize(s)
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AgentResult<'a> {
    pub schema_version: &'a str,
    #[serde(borrow)]
    pub scope: WireScope<'a>,
    pub status: RgStatus,
    #[serde(deserialize_with = "nullable")]
    pub score: Option<u8>,
    pub reviewed_sha: &'a str,
    #[serde(borrow)]
    pub angle_errors: Vec<AngleError<'a>>,
    #[serde(borrow)]
    pub costs: Costs<'a>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timings: Option<Timings>,
    #[serde(borrow)]
    pub findings: Vec<ResultFinding<'a>>,
}

/// The `costs` member: both members required, both nullable.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Costs<'a> {
    #[serde(deserialize_with = "nullable")]
    pub estimated_total_usd: Option<f64>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub summary: Option<CostSummary<'a>>,
}

fn unknown_status() -> ThreadStatus {
    ThreadStatus::Unknown
}

/// One result finding.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ResultFinding<'a> {
    pub id: &'a str,
    #[serde(borrow)]
    pub semantic_fingerprint: Cow<'a, str>,
    pub disposition: Disposition,
    pub severity: Severity,
    pub confidence: f64,
    pub classification: Classification,
    #[serde(deserialize_with = "nullable")]
    pub blocking_reason: Option<BlockingReason>,
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub path: Option<&'a str>,
    #[serde(deserialize_with = "nullable")]
    pub line: Option<u32>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub claim: Option<&'a str>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub causal_evidence: Option<&'a str>,
    #[serde(borrow)]
    pub evidence: Vec<Evidence<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub reproduction: Option<&'a str>,
    pub suggested_fix: &'a str,
    #[serde(borrow, deserialize_with = "nullable")]
    pub thread_id: Option<&'a str>,
    #[serde(default = "unknown_status")]
    pub thread_status: ThreadStatus,
    /// `None` when the member is absent: read, and written (so counted by
    /// R2), as `unknown`, as ReviewGate's default makes it. Null is refused
    /// (P13): ReviewGate's field is a plain enum with a default, which
    /// serde does not read from null.
    #[serde(default, deserialize_with = "present", serialize_with = "unknown_when_absent")]
    pub thread_transition: Option<ThreadTransition>,
    #[serde(default)]
    pub thread_outdated: bool,
    #[serde(borrow, default)]
    pub reopening_evidence: Option<&'a str>,
    #[serde(borrow)]
    pub prior_dispositions: Vec<DispositionRecord<'a>>,
}
