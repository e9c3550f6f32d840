//! Deriving River's `decision` and `suggestedLoopSignal` when a file lacks them.
//!
//! River derives `decision` deterministically from the findings: any critical
//! finding, or an overall score under 70, gives `human-review-required`;
//! `auto-approve` needs no critical and no major finding, an overall score of at
//! least 90 and a security axis score of at least 95; anything else is
//! `human-review-recommended`.
//!
//! River files do not carry the overall score, but River's score is itself
//! computed from the findings alone (it is not model-written), so `triage`
//! recomputes it the same way instead of guessing from severities: five axes
//! (readability, extensibility, performance, security, maintainability) start
//! at 100; each finding is put on one axis (a `category` naming an axis, else
//! the first keyword group its rule id matches at a word start, else
//! maintainability) and takes that axis's deduction for its severity (security
//! 50/30/15/5 for critical/major/minor/info, every other axis 30/20/10/3), never
//! below 0; the overall score is the rounded mean of the five axes.
//!
//! The loop signal then follows the first rule that applies: decision
//! `human-review-required` => `ESCALATE_HUMAN`; any critical or major finding
//! => `REVISE_REQUIRED`; decision `auto-approve` => `CONVERGED`; otherwise
//! `NO_SIGNAL`.

use super::types::{Decision, LoopSignal, RiverFinding};
use crate::model::finding::RiverSeverity;

/// The scoring axes, in River's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    Readability,
    Extensibility,
    Performance,
    Security,
    Maintainability,
}

impl Axis {
    const ALL: [Axis; 5] = [
        Axis::Readability,
        Axis::Extensibility,
        Axis::Performance,
        Axis::Security,
        Axis::Maintainability,
    ];

    fn name(self) -> &'static str {
        match self {
            Axis::Readability => "readability",
            Axis::Extensibility => "extensibility",
            Axis::Performance => "performance",
            Axis::Security => "security",
            Axis::Maintainability => "maintainability",
        }
    }

    /// Points taken from this axis for one finding of `severity`.
    fn deduction(self, severity: RiverSeverity) -> u32 {
        let table = if self == Axis::Security {
            [50, 30, 15, 5]
        } else {
            [30, 20, 10, 3]
        };
        match severity {
            RiverSeverity::Critical => table[0],
            RiverSeverity::Major => table[1],
            RiverSeverity::Minor => table[2],
            RiverSeverity::Info => table[3],
        }
    }
}

/// Rule-id keyword groups, checked in this order; a keyword matches where it
/// starts a word (ASCII letters, digits and `_` are word characters) and
/// case-insensitively. `n1` must also end a word.
const KEYWORDS: [(Axis, &[&str]); 5] = [
    (
        Axis::Security,
        &[
            "sec",
            "security",
            "auth",
            "authz",
            "authn",
            "injection",
            "xss",
            "csrf",
            "crypto",
        ],
    ),
    (
        Axis::Performance,
        &[
            "perf",
            "performance",
            "nplusone",
            "n-plusone",
            "nplus-one",
            "n-plus-one",
            "slow",
            "query",
            "memory",
        ],
    ),
    (
        Axis::Extensibility,
        &["arch", "architecture", "depend", "layer", "fat", "coupling", "boundary"],
    ),
    (
        Axis::Readability,
        &["read", "readability", "naming", "complexity", "style", "clarity"],
    ),
    (
        Axis::Maintainability,
        &["test", "coverage", "maint", "maintainability", "doc", "comment"],
    ),
];

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// True when `keyword` occurs in `text` at a word start (and, for the
/// whole-word keywords, also at a word end).
fn matches_at_word_start(text: &[u8], keyword: &str, whole_word: bool) -> bool {
    let k = keyword.as_bytes();
    (0..text.len()).any(|i| {
        let starts = i == 0 || !is_word(text[i - 1]);
        let end = i + k.len();
        starts
            && text.get(i..end).is_some_and(|w| w.eq_ignore_ascii_case(k))
            && (!whole_word || text.get(end).is_none_or(|c| !is_word(*c)))
    })
}

/// The axis River scores a finding on.
pub fn classify(rule_id: Option<&str>, category: Option<&str>) -> Axis {
    if let Some(axis) = category.and_then(|c| Axis::ALL.into_iter().find(|a| a.name() == c)) {
        return axis;
    }
    let text = rule_id.unwrap_or("").as_bytes();
    for (axis, words) in KEYWORDS {
        let hit = words.iter().any(|w| matches_at_word_start(text, w, false))
            || (axis == Axis::Performance && matches_at_word_start(text, "n1", true));
        if hit {
            return axis;
        }
    }
    Axis::Maintainability
}

/// River's scores for a set of findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    /// Rounded mean of the five axes (0..100).
    pub overall: u8,
    /// The security axis (0..100).
    pub security: u8,
    pub critical: usize,
    pub major: usize,
}

/// Scores findings as River does. A finding without a valid severity counts
/// as `info`, as River's own normalisation does.
pub fn score(findings: &[RiverFinding]) -> Score {
    let mut axes = [100u32; 5];
    let (mut critical, mut major) = (0, 0);
    for f in findings {
        let severity = f.severity.unwrap_or(RiverSeverity::Info);
        match severity {
            RiverSeverity::Critical => critical += 1,
            RiverSeverity::Major => major += 1,
            _ => {}
        }
        let axis = classify(f.rule_id.as_deref(), f.category.as_deref());
        let slot = Axis::ALL.iter().position(|a| *a == axis).unwrap_or(4);
        axes[slot] = axes[slot].saturating_sub(axis.deduction(severity));
    }
    let sum: u32 = axes.iter().sum();
    // The mean of five integers is never exactly .5, so rounding is unambiguous.
    let overall = ((sum * 2 + 5) / 10) as u8;
    Score {
        overall,
        security: axes[3] as u8,
        critical,
        major,
    }
}

/// River's decision for a score.
pub fn decision_for(s: &Score) -> Decision {
    if s.critical > 0 || s.overall < 70 {
        Decision::HumanReviewRequired
    } else if s.overall >= 90 && s.security >= 95 && s.major == 0 {
        Decision::AutoApprove
    } else {
        Decision::HumanReviewRecommended
    }
}

/// River's layer-1 loop signal, given the (stated or derived) decision.
pub fn loop_signal_for(decision: Decision, findings: &[RiverFinding]) -> LoopSignal {
    let severe = findings
        .iter()
        .any(|f| matches!(f.severity, Some(RiverSeverity::Critical | RiverSeverity::Major)));
    if decision == Decision::HumanReviewRequired {
        LoopSignal::EscalateHuman
    } else if severe {
        LoopSignal::ReviseRequired
    } else if decision == Decision::AutoApprove {
        LoopSignal::Converged
    } else {
        LoopSignal::NoSignal
    }
}

/// River's run-level decision and loop signal as JSON for `validate` and
/// `list` (`--format json`): each as `{"value": ..., "derived": bool}`
/// (`derived`: absent from the file and computed the way River does), or
/// `null` when there is none (a failed run gets no derived verdict).
pub fn verdict_json(info: &crate::model::review::RiverRunInfo) -> serde_json::Value {
    use crate::model::review::Stated;
    let one = |s: &Option<Stated<String>>| match s {
        Some(Stated::Stated(v)) => serde_json::json!({ "value": v, "derived": false }),
        Some(Stated::Derived(v)) => serde_json::json!({ "value": v, "derived": true }),
        None => serde_json::Value::Null,
    };
    serde_json::json!({ "decision": one(&info.decision), "loop_signal": one(&info.loop_signal) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(rule: &str, severity: RiverSeverity) -> RiverFinding {
        RiverFinding {
            rule_id: Some(rule.to_owned()),
            severity: Some(severity),
            ..RiverFinding::default()
        }
    }

    #[test]
    fn classification_follows_keyword_order_and_word_starts() {
        assert_eq!(classify(Some("rr-midstream-security-001"), None), Axis::Security);
        assert_eq!(
            classify(Some("rr-midstream-logging-observability-001"), None),
            Axis::Maintainability
        );
        // "sec" only at a word start: "insecure" does not count, "SecretScan" does.
        assert_eq!(classify(Some("insecure"), None), Axis::Maintainability);
        assert_eq!(classify(Some("x-SecretScan"), None), Axis::Security);
        assert_eq!(classify(Some("rr-n-plus-one"), None), Axis::Performance);
        assert_eq!(classify(Some("rr-n1"), None), Axis::Performance);
        assert_eq!(classify(Some("rr-n12"), None), Axis::Maintainability);
        assert_eq!(classify(Some("rr-layering"), None), Axis::Extensibility);
        assert_eq!(classify(Some("rr-docs"), None), Axis::Maintainability);
        assert_eq!(classify(Some("rr-style-guide"), None), Axis::Readability);
        // `_` is a word character: "x_sec" has no word start before "sec".
        assert_eq!(classify(Some("x_sec"), None), Axis::Maintainability);
        assert_eq!(classify(Some("rr-security"), Some("performance")), Axis::Performance);
        assert_eq!(classify(Some("rr-security"), Some("bogus")), Axis::Security);
    }

    #[test]
    fn scores_and_decisions() {
        // Two minor maintainability findings: 80 on one axis, overall 96.
        let two_minor = [f("rr-a", RiverSeverity::Minor), f("rr-b", RiverSeverity::Minor)];
        let s = score(&two_minor);
        assert_eq!((s.overall, s.security), (96, 100));
        assert_eq!(decision_for(&s), Decision::AutoApprove);
        assert_eq!(
            loop_signal_for(Decision::AutoApprove, &two_minor),
            LoopSignal::Converged
        );

        let one_major = [f("rule-1", RiverSeverity::Major)];
        let s = score(&one_major);
        assert_eq!(s.overall, 96);
        assert_eq!(decision_for(&s), Decision::HumanReviewRecommended);
        assert_eq!(
            loop_signal_for(Decision::HumanReviewRecommended, &one_major),
            LoopSignal::ReviseRequired
        );

        // A minor security finding drops security to 85 (< 95): recommended.
        let sec = [f("rr-security-x", RiverSeverity::Minor)];
        assert_eq!(decision_for(&score(&sec)), Decision::HumanReviewRecommended);
        assert_eq!(
            loop_signal_for(Decision::HumanReviewRecommended, &sec),
            LoopSignal::NoSignal
        );

        let crit = [f("rr-x", RiverSeverity::Critical)];
        assert_eq!(decision_for(&score(&crit)), Decision::HumanReviewRequired);
        assert_eq!(
            loop_signal_for(Decision::HumanReviewRequired, &crit),
            LoopSignal::EscalateHuman
        );

        // Low overall without criticals: 8 major security findings floor the axis at 0 -> 80 overall;
        // add majors elsewhere to fall under 70.
        let mut many: Vec<RiverFinding> = (0..4).map(|_| f("rr-sec", RiverSeverity::Major)).collect();
        many.extend((0..5).map(|_| f("rr-perf", RiverSeverity::Major)));
        let s = score(&many);
        assert_eq!(s.overall, 60);
        assert_eq!(decision_for(&s), Decision::HumanReviewRequired);

        assert_eq!(decision_for(&score(&[])), Decision::AutoApprove);
    }
}
