//! River Review's closed string sets that the model reasons about, as enums:
//! the SDLC `phase` (of an artifact, a finding and a selected skill) and the
//! artifact `status`. Wire names are exact and case-sensitive, as River's
//! schema `enum` keywords are.

use serde::Serialize;

/// An SDLC phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RiverPhase {
    Upstream,
    Midstream,
    Downstream,
}

impl RiverPhase {
    /// Every value, in River's documented order.
    pub const ALL: [RiverPhase; 3] = [RiverPhase::Upstream, RiverPhase::Midstream, RiverPhase::Downstream];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            RiverPhase::Upstream => "upstream",
            RiverPhase::Midstream => "midstream",
            RiverPhase::Downstream => "downstream",
        }
    }

    /// Parses a wire name exactly.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

/// An artifact's run `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArtifactStatus {
    /// The review ran.
    Ok,
    /// Nothing changed, so nothing was reviewed.
    NoChanges,
    /// A pull-request label asked River to skip the review.
    SkippedByLabel,
    /// The review failed.
    Error,
}

impl ArtifactStatus {
    /// Every value, in River's documented order.
    pub const ALL: [ArtifactStatus; 4] = [
        ArtifactStatus::Ok,
        ArtifactStatus::NoChanges,
        ArtifactStatus::SkippedByLabel,
        ArtifactStatus::Error,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ArtifactStatus::Ok => "ok",
            ArtifactStatus::NoChanges => "no-changes",
            ArtifactStatus::SkippedByLabel => "skipped-by-label",
            ArtifactStatus::Error => "error",
        }
    }

    /// Parses a wire name exactly.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_round_trip_and_match_the_documented_sets() {
        for p in RiverPhase::ALL {
            assert_eq!(RiverPhase::parse(p.as_str()), Some(p));
            assert_eq!(serde_json::to_value(p).ok(), Some(serde_json::json!(p.as_str())));
        }
        for s in ArtifactStatus::ALL {
            assert_eq!(ArtifactStatus::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).ok(), Some(serde_json::json!(s.as_str())));
        }
        let phases: Vec<_> = RiverPhase::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(phases, super::super::types::PHASES);
        let statuses: Vec<_> = ArtifactStatus::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(statuses, super::super::types::STATUSES);
        assert_eq!(RiverPhase::parse("Midstream"), None);
        assert_eq!(ArtifactStatus::parse("OK"), None);
    }
}
