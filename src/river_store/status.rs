//! The reviewer's decision statuses for River findings and how each is
//! recorded in River Review's own files.
//!
//! | status           | feedback log `feedbackType` | suppression (`context.feedbackType`) |
//! |------------------|-----------------------------|--------------------------------------|
//! | `accepted`       | `accepted`                  | none (the finding stays reported)    |
//! | `false_positive` | `false_positive`            | `false_positive`                     |
//! | `accepted_risk`  | `accepted_risk`             | `accepted_risk`                      |
//! | `wont_fix`       | `accepted_risk`             | `wont_fix`                           |
//! | `not_relevant`   | `false_positive`            | `not_relevant`                       |
//! | `duplicate`      | `duplicate`                 | `duplicate`                          |
//! | `not_actionable` | `not_actionable`            | none                                 |
//! | `unclear`        | `unclear`                   | none                                 |
//!
//! River's feedback log has no `wont_fix` or `not_relevant` type. `wont_fix`
//! ("the issue is real; fixing it is not worth it") is River's `accepted_risk`:
//! a known problem the project decides to live with. `not_relevant` ("this rule
//! does not apply here") is River's `false_positive`: the review reported
//! something that is not a problem in this code base, which is what River's
//! taxonomy routes to a guard fixture or a suppression. The suppression keeps
//! the precise reason, since River's suppression context has both values.
//!
//! A suppression is written only for the five statuses that mean "stop
//! reporting this". River applies a suppression to a `major` or `critical`
//! finding only when its type is `accepted_risk`, so for those findings every
//! other suppressing status records the feedback entry and no suppression,
//! and says why. `--no-suppress` records the feedback entry only.

use serde::Serialize;

/// A reviewer's decision on a River finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionStatus {
    Accepted,
    FalsePositive,
    AcceptedRisk,
    WontFix,
    NotRelevant,
    Duplicate,
    NotActionable,
    Unclear,
}

/// River's feedback log types (`feedbackType` of a `.river/feedback` line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FeedbackType {
    Accepted,
    FalsePositive,
    MissedIssue,
    NotActionable,
    Duplicate,
    AcceptedRisk,
    Unclear,
}

/// River's suppression reasons (`context.feedbackType` of a suppression).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SuppressionType {
    FalsePositive,
    AcceptedRisk,
    WontFix,
    NotRelevant,
    Duplicate,
}

impl DecisionStatus {
    /// Every status, in the order the help text lists them.
    pub const ALL: [DecisionStatus; 8] = [
        DecisionStatus::Accepted,
        DecisionStatus::FalsePositive,
        DecisionStatus::AcceptedRisk,
        DecisionStatus::WontFix,
        DecisionStatus::NotRelevant,
        DecisionStatus::Duplicate,
        DecisionStatus::NotActionable,
        DecisionStatus::Unclear,
    ];

    /// The command-line name.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionStatus::Accepted => "accepted",
            DecisionStatus::FalsePositive => "false_positive",
            DecisionStatus::AcceptedRisk => "accepted_risk",
            DecisionStatus::WontFix => "wont_fix",
            DecisionStatus::NotRelevant => "not_relevant",
            DecisionStatus::Duplicate => "duplicate",
            DecisionStatus::NotActionable => "not_actionable",
            DecisionStatus::Unclear => "unclear",
        }
    }

    /// Parses a command-line name exactly.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// The feedback log type this status is recorded as (see the module table).
    pub fn feedback_type(self) -> FeedbackType {
        match self {
            DecisionStatus::Accepted => FeedbackType::Accepted,
            DecisionStatus::FalsePositive | DecisionStatus::NotRelevant => FeedbackType::FalsePositive,
            DecisionStatus::AcceptedRisk | DecisionStatus::WontFix => FeedbackType::AcceptedRisk,
            DecisionStatus::Duplicate => FeedbackType::Duplicate,
            DecisionStatus::NotActionable => FeedbackType::NotActionable,
            DecisionStatus::Unclear => FeedbackType::Unclear,
        }
    }

    /// The suppression reason, for the statuses that mean "stop reporting this".
    pub fn suppression_type(self) -> Option<SuppressionType> {
        match self {
            DecisionStatus::FalsePositive => Some(SuppressionType::FalsePositive),
            DecisionStatus::AcceptedRisk => Some(SuppressionType::AcceptedRisk),
            DecisionStatus::WontFix => Some(SuppressionType::WontFix),
            DecisionStatus::NotRelevant => Some(SuppressionType::NotRelevant),
            DecisionStatus::Duplicate => Some(SuppressionType::Duplicate),
            DecisionStatus::Accepted | DecisionStatus::NotActionable | DecisionStatus::Unclear => None,
        }
    }

    /// One line on when to use this status (composer and help text).
    pub fn guidance(self) -> &'static str {
        match self {
            DecisionStatus::Accepted => "valid finding; it will be fixed (keeps being reported)",
            DecisionStatus::FalsePositive => "the finding is wrong: misdetection",
            DecisionStatus::AcceptedRisk => "real but consciously accepted by the project",
            DecisionStatus::WontFix => "real, but fixing is not worth the cost",
            DecisionStatus::NotRelevant => "the rule does not apply to this code base",
            DecisionStatus::Duplicate => "the same issue is already reported elsewhere",
            DecisionStatus::NotActionable => "correct, but there is no clear way to act on it",
            DecisionStatus::Unclear => "cannot tell what the finding means",
        }
    }
}

impl FeedbackType {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            FeedbackType::Accepted => "accepted",
            FeedbackType::FalsePositive => "false_positive",
            FeedbackType::MissedIssue => "missed_issue",
            FeedbackType::NotActionable => "not_actionable",
            FeedbackType::Duplicate => "duplicate",
            FeedbackType::AcceptedRisk => "accepted_risk",
            FeedbackType::Unclear => "unclear",
        }
    }
}

impl SuppressionType {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            SuppressionType::FalsePositive => "false_positive",
            SuppressionType::AcceptedRisk => "accepted_risk",
            SuppressionType::WontFix => "wont_fix",
            SuppressionType::NotRelevant => "not_relevant",
            SuppressionType::Duplicate => "duplicate",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_maps_as_the_table_says() {
        let table = [
            ("accepted", "accepted", None),
            ("false_positive", "false_positive", Some("false_positive")),
            ("accepted_risk", "accepted_risk", Some("accepted_risk")),
            ("wont_fix", "accepted_risk", Some("wont_fix")),
            ("not_relevant", "false_positive", Some("not_relevant")),
            ("duplicate", "duplicate", Some("duplicate")),
            ("not_actionable", "not_actionable", None),
            ("unclear", "unclear", None),
        ];
        assert_eq!(table.len(), DecisionStatus::ALL.len());
        for (name, feedback, suppression) in table {
            let status = DecisionStatus::parse(name).unwrap();
            assert_eq!(status.as_str(), name);
            assert_eq!(status.feedback_type().as_str(), feedback, "{name}");
            assert_eq!(
                status.suppression_type().map(SuppressionType::as_str),
                suppression,
                "{name}"
            );
        }
        assert_eq!(DecisionStatus::parse("False_Positive"), None);
        assert_eq!(DecisionStatus::parse("fixed"), None);
    }

    #[test]
    fn serde_names_match_wire_names() {
        for s in DecisionStatus::ALL {
            let ft = s.feedback_type();
            assert_eq!(serde_json::to_value(ft).unwrap(), ft.as_str());
            if let Some(st) = s.suppression_type() {
                assert_eq!(serde_json::to_value(st).unwrap(), st.as_str());
            }
        }
    }
}
