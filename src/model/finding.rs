//! One finding, whatever review system produced it.
//!
//! Everything a reviewer sees about a finding lives here. Text fields hold the
//! producer's (untrusted) text unchanged; sanitising happens at the view.

mod evidence;
mod fields;
mod labels;
mod thread;

pub use evidence::{Evidence, Side, Verification, VerificationState};
pub use fields::{HistoryRecord, Origin, ReviewGateFields, RiverFields, RiverStatus};
pub use labels::{BlockingReason, Classification, Disposition, RiverSeverity, Severity, SubmittedDisposition};
pub use thread::{Thread, ThreadFacts, ThreadReply, ThreadStatus, ThreadTransition};

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
