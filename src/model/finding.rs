//! One finding, whatever review system produced it.
//!
//! Everything a reviewer sees about a finding lives here. Text fields hold the
//! producer's (untrusted) text unchanged; sanitising happens at the view.

use serde::{Deserialize, Serialize};

/// Severity rank shared by every format. `Ord` is the sort order: P0 first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Severity {
    P0,
    P1,
    P2,
    P3,
    P4,
}

impl Severity {
    /// All ranks, most severe first.
    pub const ALL: [Severity; 5] = [Severity::P0, Severity::P1, Severity::P2, Severity::P3, Severity::P4];

    /// The label as ReviewGate writes it (`P0` .. `P4`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::P0 => "P0",
            Severity::P1 => "P1",
            Severity::P2 => "P2",
            Severity::P3 => "P3",
            Severity::P4 => "P4",
        }
    }

    /// Parses `P0`..`P4` exactly (case-sensitive, as the formats require).
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// River Review's own severity scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RiverSeverity {
    Critical,
    Major,
    Minor,
    Info,
}

impl RiverSeverity {
    /// River's priority labels: critical ranks with P1 (River never emits P0).
    pub fn rank(self) -> Severity {
        match self {
            RiverSeverity::Critical => Severity::P1,
            RiverSeverity::Major => Severity::P2,
            RiverSeverity::Minor => Severity::P3,
            RiverSeverity::Info => Severity::P4,
        }
    }

    /// The label as River writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            RiverSeverity::Critical => "critical",
            RiverSeverity::Major => "major",
            RiverSeverity::Minor => "minor",
            RiverSeverity::Info => "info",
        }
    }
}

/// ReviewGate's canonical (tracked) disposition of a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Disposition {
    StillOpen,
    Fixed,
    RejectedWithEvidence,
    IntentionalContract,
    Disputed,
    Superseded,
}

impl Disposition {
    /// Every tracked state, in the order the formats list them.
    pub const ALL: [Disposition; 6] = [
        Disposition::Fixed,
        Disposition::StillOpen,
        Disposition::RejectedWithEvidence,
        Disposition::IntentionalContract,
        Disposition::Disputed,
        Disposition::Superseded,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Disposition::StillOpen => "still_open",
            Disposition::Fixed => "fixed",
            Disposition::RejectedWithEvidence => "rejected_with_evidence",
            Disposition::IntentionalContract => "intentional_contract",
            Disposition::Disputed => "disputed",
            Disposition::Superseded => "superseded",
        }
    }

    /// Parses a wire name exactly.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// "Settled" in the thread lifecycle: fixed, rejected_with_evidence,
    /// intentional_contract, superseded.
    pub fn is_settled(self) -> bool {
        matches!(
            self,
            Disposition::Fixed
                | Disposition::RejectedWithEvidence
                | Disposition::IntentionalContract
                | Disposition::Superseded
        )
    }
}

/// The status a reviewer submits to ReviewGate (a different enum from the
/// tracked one; ReviewGate maps it, see [`SubmittedDisposition::canonical`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubmittedDisposition {
    Accepted,
    Fixed,
    RejectedWithEvidence,
    AlreadyImplemented,
    IntentionalContract,
    NeedsHuman,
}

impl SubmittedDisposition {
    /// The six agent values in the order ReviewGate documents them.
    pub const ALL: [SubmittedDisposition; 6] = [
        SubmittedDisposition::Accepted,
        SubmittedDisposition::Fixed,
        SubmittedDisposition::RejectedWithEvidence,
        SubmittedDisposition::AlreadyImplemented,
        SubmittedDisposition::IntentionalContract,
        SubmittedDisposition::NeedsHuman,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            SubmittedDisposition::Accepted => "accepted",
            SubmittedDisposition::Fixed => "fixed",
            SubmittedDisposition::RejectedWithEvidence => "rejected_with_evidence",
            SubmittedDisposition::AlreadyImplemented => "already_implemented",
            SubmittedDisposition::IntentionalContract => "intentional_contract",
            SubmittedDisposition::NeedsHuman => "needs_human",
        }
    }

    /// Parses a wire name exactly.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// The canonical state ReviewGate records for this submission.
    pub fn canonical(self) -> Disposition {
        match self {
            SubmittedDisposition::Accepted => Disposition::StillOpen,
            SubmittedDisposition::Fixed | SubmittedDisposition::AlreadyImplemented => Disposition::Fixed,
            SubmittedDisposition::RejectedWithEvidence => Disposition::RejectedWithEvidence,
            SubmittedDisposition::IntentionalContract => Disposition::IntentionalContract,
            SubmittedDisposition::NeedsHuman => Disposition::Disputed,
        }
    }

    /// One line on when to use this status (shown in the composer and help).
    pub fn guidance(self) -> &'static str {
        match self {
            SubmittedDisposition::Accepted => "valid finding, fix planned but not on this head",
            SubmittedDisposition::Fixed => "the reviewed head contains a verified fix",
            SubmittedDisposition::RejectedWithEvidence => "repository or platform evidence disproves it",
            SubmittedDisposition::AlreadyImplemented => "the requested behaviour already exists on the reviewed head",
            SubmittedDisposition::IntentionalContract => "deliberate, evidenced contract",
            SubmittedDisposition::NeedsHuman => "cannot safely choose: route to a human",
        }
    }
}

/// ReviewGate finding classification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Classification {
    Defect,
    Security,
    ReliabilityRisk,
    ContractAmbiguity,
    Suggestion,
}

impl Classification {
    /// Every classification.
    pub const ALL: [Classification; 5] = [
        Classification::Defect,
        Classification::Security,
        Classification::ReliabilityRisk,
        Classification::ContractAmbiguity,
        Classification::Suggestion,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Classification::Defect => "defect",
            Classification::Security => "security",
            Classification::ReliabilityRisk => "reliability_risk",
            Classification::ContractAmbiguity => "contract_ambiguity",
            Classification::Suggestion => "suggestion",
        }
    }

    /// Parses a wire name exactly.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// Why a finding blocks the merge (ReviewGate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockingReason {
    ValidatedDefect,
    ValidatedSecurity,
    ValidatedReliabilityRisk,
}

impl BlockingReason {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            BlockingReason::ValidatedDefect => "validated_defect",
            BlockingReason::ValidatedSecurity => "validated_security",
            BlockingReason::ValidatedReliabilityRisk => "validated_reliability_risk",
        }
    }
}

/// What GitHub shows for the finding's review thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThreadStatus {
    Unknown,
    NotPublished,
    Open,
    Resolved,
}

impl ThreadStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ThreadStatus::Unknown => "unknown",
            ThreadStatus::NotPublished => "not_published",
            ThreadStatus::Open => "open",
            ThreadStatus::Resolved => "resolved",
        }
    }
}

/// The derived relation between thread status and canonical disposition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThreadTransition {
    NotPublished,
    Unknown,
    Retained,
    Reopened,
    ResolutionPending,
    ResolvedFixed,
    ResolvedRejectedWithEvidence,
    ResolvedIntentionalContract,
    ResolvedSuperseded,
    ResolvedExternally,
}

impl ThreadTransition {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ThreadTransition::NotPublished => "not_published",
            ThreadTransition::Unknown => "unknown",
            ThreadTransition::Retained => "retained",
            ThreadTransition::Reopened => "reopened",
            ThreadTransition::ResolutionPending => "resolution_pending",
            ThreadTransition::ResolvedFixed => "resolved_fixed",
            ThreadTransition::ResolvedRejectedWithEvidence => "resolved_rejected_with_evidence",
            ThreadTransition::ResolvedIntentionalContract => "resolved_intentional_contract",
            ThreadTransition::ResolvedSuperseded => "resolved_superseded",
            ThreadTransition::ResolvedExternally => "resolved_externally",
        }
    }

    /// The transition ReviewGate derives (INTEROP.md section 3, rule R19).
    ///
    /// `previously_settled`: some history record other than the last is settled.
    pub fn derive(
        status: ThreadStatus,
        disposition: Disposition,
        previously_settled: bool,
        has_reopening_evidence: bool,
    ) -> ThreadTransition {
        use Disposition as D;
        match status {
            ThreadStatus::Unknown => ThreadTransition::Unknown,
            ThreadStatus::NotPublished => ThreadTransition::NotPublished,
            ThreadStatus::Open => match disposition {
                D::StillOpen if previously_settled && has_reopening_evidence => ThreadTransition::Reopened,
                D::StillOpen | D::Disputed => ThreadTransition::Retained,
                _ => ThreadTransition::ResolutionPending,
            },
            ThreadStatus::Resolved => match disposition {
                D::Fixed => ThreadTransition::ResolvedFixed,
                D::RejectedWithEvidence => ThreadTransition::ResolvedRejectedWithEvidence,
                D::IntentionalContract => ThreadTransition::ResolvedIntentionalContract,
                D::Superseded => ThreadTransition::ResolvedSuperseded,
                D::StillOpen | D::Disputed => ThreadTransition::ResolvedExternally,
            },
        }
    }
}

/// Thread facts for one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thread {
    pub status: ThreadStatus,
    pub transition: ThreadTransition,
    pub outdated: bool,
    /// GitHub's node id of the thread (untrusted text until validated).
    pub id: Option<String>,
    /// What a live read of GitHub added (who resolved, last reply, link);
    /// `None` when the thread state came from the file alone.
    pub facts: Option<ThreadFacts>,
}

impl Default for Thread {
    fn default() -> Self {
        Thread {
            status: ThreadStatus::Unknown,
            transition: ThreadTransition::Unknown,
            outdated: false,
            id: None,
            facts: None,
        }
    }
}

/// Facts from a live GitHub read of one thread, for the drift lane. Every
/// string is GitHub-provided text (logins, comment bodies): sanitise before display.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ThreadFacts {
    /// Login of whoever resolved the thread.
    pub resolved_by: Option<String>,
    /// When it was resolved (RFC 3339), when GitHub reports it.
    pub resolved_at: Option<String>,
    /// The newest reply after the finding's own comment.
    pub last_reply: Option<ThreadReply>,
    /// Web link to the thread's first comment (GitHub's own URL, shown, never fetched).
    pub url: Option<String>,
}

/// One reply in a review thread.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ThreadReply {
    /// The reply's author login.
    pub author: String,
    /// The start of the reply's body (bounded excerpt).
    pub excerpt: String,
    /// When it was written (RFC 3339), if known.
    pub created_at: Option<String>,
}

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

/// The identity a decision on this finding must target.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FindingKey {
    /// ReviewGate semantic fingerprint (`classification:file:key`).
    Semantic(String),
    /// River Review fingerprint (16 lowercase hex).
    River(String),
}

impl FindingKey {
    /// The fingerprint text.
    pub fn as_str(&self) -> &str {
        match self {
            FindingKey::Semantic(s) | FindingKey::River(s) => s,
        }
    }
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

/// One finding in the single cross-format model.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Position in the source file (stable tiebreak for sorting).
    pub index: usize,
    /// The producer's per-run display id (never a disposition target).
    pub id: String,
    /// The disposition target.
    pub key: FindingKey,
    /// Cross-format severity rank.
    pub rank: Severity,
    /// Title (v3/River title; agent results have none).
    pub title: Option<String>,
    /// Claim (ReviewGate claim, River message).
    pub claim: Option<String>,
    /// Suggested fix (ReviewGate suggested_fix / agent_instruction, River suggestion).
    pub suggested_fix: Option<String>,
    pub path: Option<String>,
    pub line: Option<u32>,
    pub evidence: Vec<Evidence>,
    pub origin: Origin,
}

impl Finding {
    /// ReviewGate fields, if this is a ReviewGate finding.
    pub fn reviewgate(&self) -> Option<&ReviewGateFields> {
        match &self.origin {
            Origin::ReviewGate(r) => Some(r),
            Origin::River(_) => None,
        }
    }

    /// River fields, if this is a River finding.
    pub fn river(&self) -> Option<&RiverFields> {
        match &self.origin {
            Origin::River(r) => Some(r),
            Origin::ReviewGate(_) => None,
        }
    }

    /// In the repair set: ReviewGate `still_open` with a blocking reason; River
    /// not suppressed and critical or major (River's "must fix" priorities).
    pub fn in_repair_set(&self) -> bool {
        match &self.origin {
            Origin::ReviewGate(r) => r.disposition == Disposition::StillOpen && r.blocking_reason.is_some(),
            Origin::River(r) => {
                r.status != Some(RiverStatus::Suppressed)
                    && matches!(r.severity, Some(RiverSeverity::Critical | RiverSeverity::Major))
            }
        }
    }

    /// The one-line headline: title, else claim, else suggested fix.
    pub fn headline(&self) -> &str {
        self.title
            .as_deref()
            .or(self.claim.as_deref())
            .or(self.suggested_fix.as_deref())
            .unwrap_or("")
    }

    /// Severity label as the source format writes it.
    pub fn severity_label(&self) -> &'static str {
        match &self.origin {
            Origin::ReviewGate(r) => r.severity.as_str(),
            Origin::River(r) => r.severity.map_or("-", RiverSeverity::as_str),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transition_table_matches_interop() {
        use Disposition as D;
        use ThreadStatus as S;
        use ThreadTransition as T;
        assert_eq!(ThreadTransition::derive(S::Unknown, D::Fixed, true, true), T::Unknown);
        assert_eq!(ThreadTransition::derive(S::NotPublished, D::StillOpen, false, false), T::NotPublished);
        assert_eq!(ThreadTransition::derive(S::Open, D::StillOpen, true, true), T::Reopened);
        assert_eq!(ThreadTransition::derive(S::Open, D::StillOpen, true, false), T::Retained);
        assert_eq!(ThreadTransition::derive(S::Open, D::StillOpen, false, true), T::Retained);
        assert_eq!(ThreadTransition::derive(S::Open, D::Disputed, true, true), T::Retained);
        assert_eq!(ThreadTransition::derive(S::Open, D::Superseded, false, false), T::ResolutionPending);
        assert_eq!(ThreadTransition::derive(S::Resolved, D::StillOpen, false, false), T::ResolvedExternally);
        assert_eq!(ThreadTransition::derive(S::Resolved, D::Disputed, false, false), T::ResolvedExternally);
        assert_eq!(ThreadTransition::derive(S::Resolved, D::IntentionalContract, false, false), T::ResolvedIntentionalContract);
    }

    #[test]
    fn river_ranks_with_reviewgate() {
        assert_eq!(RiverSeverity::Critical.rank(), Severity::P1);
        assert_eq!(RiverSeverity::Info.rank(), Severity::P4);
        assert!(Severity::P0 < RiverSeverity::Critical.rank());
    }

    #[test]
    fn submitted_maps_to_canonical() {
        assert_eq!(SubmittedDisposition::Accepted.canonical(), Disposition::StillOpen);
        assert_eq!(SubmittedDisposition::AlreadyImplemented.canonical(), Disposition::Fixed);
        assert_eq!(SubmittedDisposition::NeedsHuman.canonical(), Disposition::Disputed);
    }
}
