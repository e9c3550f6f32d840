//! Severity ranks and the label enums a finding carries: dispositions,
//! classification and blocking reason.

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

#[cfg(test)]
mod tests {
    use super::*;

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
