//! The statuses a decision can take, per review system: the one line on when
//! to use each, what recording it does, and the evidence template it starts
//! from.

use crate::model::finding::{RiverSeverity, SubmittedDisposition};
use crate::river_store::DecisionStatus;

/// Where a decision is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum System {
    /// ReviewGate: a disposition comment on the pull request.
    ReviewGate,
    /// River Review: its feedback log and memory index.
    River,
}

impl System {
    /// The statuses offered, in the order their system documents them.
    pub fn choices(self) -> Vec<Choice> {
        match self {
            System::ReviewGate => SubmittedDisposition::ALL.into_iter().map(Choice::ReviewGate).collect(),
            System::River => DecisionStatus::ALL.into_iter().map(Choice::River).collect(),
        }
    }

    /// The evidence limit in UTF-8 bytes: ReviewGate's payload rule, or the
    /// bound the River command line applies.
    pub fn evidence_limit(self) -> usize {
        match self {
            System::ReviewGate => crate::github::draft::MAX_EVIDENCE_BYTES,
            System::River => crate::session::RIVER_MAX_EVIDENCE_BYTES,
        }
    }
}

/// One status of one system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// A ReviewGate agent status.
    ReviewGate(SubmittedDisposition),
    /// A River Review decision status.
    River(DecisionStatus),
}

/// Where a template puts the evidence permalink when none is known.
pub const LINK_PLACEHOLDER: &str = "<path@sha#Lnn>";

impl Choice {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Choice::ReviewGate(d) => d.as_str(),
            Choice::River(s) => s.as_str(),
        }
    }

    /// When to use it (one line).
    pub fn guidance(self) -> &'static str {
        match self {
            Choice::ReviewGate(d) => d.guidance(),
            Choice::River(s) => s.guidance(),
        }
    }

    /// What recording it does, for a finding of `severity` (River only).
    pub fn effect(self, severity: Option<RiverSeverity>) -> String {
        match self {
            Choice::ReviewGate(d) => format!("ReviewGate records {}", d.canonical().as_str()),
            Choice::River(s) => {
                let feedback = format!("feedback {}", s.feedback_type().as_str());
                match s.suppression_type() {
                    None => format!("{feedback}, no suppression"),
                    Some(t) if is_high(severity) && t.as_str() != "accepted_risk" => {
                        format!("{feedback}, no suppression (major/critical)")
                    }
                    Some(t) => format!("{feedback} + suppression {}", t.as_str()),
                }
            }
        }
    }

    /// The evidence text to start from; `link` fills the permalink slot.
    pub fn template(self, link: Option<&str>) -> String {
        let text = match self {
            Choice::ReviewGate(d) => reviewgate_template(d),
            Choice::River(s) => river_template(s),
        };
        text.replace(LINK_PLACEHOLDER, link.unwrap_or(LINK_PLACEHOLDER))
    }
}

/// True for River's major and critical severities (suppressed only with accepted_risk).
pub fn is_high(severity: Option<RiverSeverity>) -> bool {
    matches!(severity, Some(RiverSeverity::Major | RiverSeverity::Critical))
}

fn reviewgate_template(d: SubmittedDisposition) -> &'static str {
    match d {
        SubmittedDisposition::Accepted => {
            "Valid finding. The fix is planned for a later change: <where and when>. Until then it stays open."
        }
        SubmittedDisposition::Fixed => {
            "Fixed on the reviewed head: <what changed> (<path@sha#Lnn>). Verified by <test or check>."
        }
        SubmittedDisposition::RejectedWithEvidence => {
            "The finding does not hold: <the repository or platform fact that disproves it> (<path@sha#Lnn>)."
        }
        SubmittedDisposition::AlreadyImplemented => {
            "Already implemented on the reviewed head: <where the behaviour exists> (<path@sha#Lnn>)."
        }
        SubmittedDisposition::IntentionalContract => {
            "Intentional contract: <the behaviour and why it is deliberate>, documented in <path@sha#Lnn>."
        }
        SubmittedDisposition::NeedsHuman => {
            "I cannot safely decide: <what is unclear>. Question for <owner>: <the question>."
        }
    }
}

fn river_template(s: DecisionStatus) -> &'static str {
    match s {
        DecisionStatus::Accepted => "Valid finding; it will be fixed in <change>.",
        DecisionStatus::FalsePositive => "Misdetection: <why the code is correct> (<path@sha#Lnn>).",
        DecisionStatus::AcceptedRisk => "Real, and accepted by <who>: <the risk and why it is acceptable>.",
        DecisionStatus::WontFix => "Real, but not worth fixing: <cost against benefit>.",
        DecisionStatus::NotRelevant => "The rule does not apply to this code base: <why>.",
        DecisionStatus::Duplicate => "Duplicate of <the other finding or issue>.",
        DecisionStatus::NotActionable => "Correct, but there is no clear action: <why>.",
        DecisionStatus::Unclear => "Unclear what the finding means: <what is missing>.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_system_offers_its_own_statuses() {
        let rg = System::ReviewGate.choices();
        assert_eq!(rg.len(), 6);
        assert_eq!(
            rg.iter().map(|c| c.name()).collect::<Vec<_>>(),
            [
                "accepted",
                "fixed",
                "rejected_with_evidence",
                "already_implemented",
                "intentional_contract",
                "needs_human"
            ]
        );
        assert_eq!(System::River.choices().len(), 8);
        assert_eq!(System::ReviewGate.evidence_limit(), 4096);
    }

    #[test]
    fn effects_say_what_is_recorded() {
        let accepted = Choice::ReviewGate(SubmittedDisposition::Accepted);
        assert_eq!(accepted.effect(None), "ReviewGate records still_open");
        let wont = Choice::River(DecisionStatus::WontFix);
        assert_eq!(
            wont.effect(Some(RiverSeverity::Minor)),
            "feedback accepted_risk + suppression wont_fix"
        );
        assert!(wont.effect(Some(RiverSeverity::Major)).contains("no suppression"));
        let risk = Choice::River(DecisionStatus::AcceptedRisk);
        assert!(risk.effect(Some(RiverSeverity::Critical)).contains("+ suppression"));
    }

    #[test]
    fn every_template_placeholder_is_known_to_the_check() {
        for c in System::ReviewGate.choices().into_iter().chain(System::River.choices()) {
            let mut text = c.template(None);
            while let Some(start) = text.find('<') {
                let end = text[start..].find('>').map_or(text.len(), |e| start + e + 1);
                let p = &text[start..end];
                assert!(
                    crate::model::placeholder::PLACEHOLDERS.contains(&p),
                    "{p} of {}",
                    c.name()
                );
                text.replace_range(start..end, "");
            }
            assert!(crate::model::placeholder::unfilled(&c.template(Some("a@b#L1"))).is_some());
        }
    }

    #[test]
    fn templates_take_the_link_when_known() {
        let fixed = Choice::ReviewGate(SubmittedDisposition::Fixed);
        assert!(fixed.template(None).contains(LINK_PLACEHOLDER));
        let t = fixed.template(Some("src/a.rs@abc#L3"));
        assert!(t.contains("(src/a.rs@abc#L3)") && !t.contains(LINK_PLACEHOLDER));
        for c in System::ReviewGate.choices().into_iter().chain(System::River.choices()) {
            assert!(!c.template(None).trim().is_empty(), "{}", c.name());
        }
    }
}
