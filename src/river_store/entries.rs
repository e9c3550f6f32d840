//! The entries `triage` writes into River Review's files, built by pure
//! functions (time and ids come in as parameters), serialised with their
//! members in River's order.

use super::status::{FeedbackType, SuppressionType};
use crate::model::finding::RiverSeverity;
use crate::model::fingerprint::js_trim;
use crate::time::{UnixMillis, iso_millis};
use serde::Serialize;

/// The `trigger` of every feedback line `triage` writes: a human reviewer's
/// decision on a review's finding (River's default trigger for such feedback).
pub const TRIGGER: &str = "pr-comment";

/// Every feedback `trigger` River knows: 1.15.0's four and the newer line's
/// `fix-pr` (feedback recorded from a fixing pull request). `triage` writes
/// only [`TRIGGER`]; lines with any of these are kept as they are.
pub const TRIGGERS: [&str; 5] = [
    "pr-comment",
    "self-review",
    "eval-regression",
    "retrospective",
    "fix-pr",
];

/// One line of `.river/feedback/<YYYY-MM>.jsonl`, members in River's order;
/// absent values are written as `null`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FeedbackEntry {
    pub timestamp: String,
    pub trigger: &'static str,
    pub feedback_type: FeedbackType,
    pub skill_id: String,
    pub finding_fingerprint: Option<String>,
    pub evidence: Option<String>,
    pub pr: Option<u64>,
}

impl FeedbackEntry {
    /// The compact JSON line (without the final newline).
    pub fn to_line(&self) -> String {
        // Serialising plain strings, numbers and nulls cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// True when the last line of `log` about this entry's finding records
    /// this very decision (every member but `timestamp` equal): the line an
    /// attempt that failed after its feedback append left behind, which a
    /// second attempt must not double. River 1.15.0 counts feedback lines
    /// (`feedback-rule-candidates` groups them by skill and type, and
    /// `feedback:apply` scaffolds one action per line), so a doubled line
    /// reads as a problem seen twice. Only the finding's last line counts:
    /// a decision taken again after a different one (false positive, then
    /// accepted, then false positive) is a new line. Lines River could not
    /// read (it skips them too) and entries without a fingerprint never
    /// match.
    pub fn repeats_last_of_its_finding(&self, log: &str) -> bool {
        let Some(fingerprint) = self.finding_fingerprint.as_deref() else {
            return false;
        };
        let Ok(serde_json::Value::Object(mut mine)) = serde_json::to_value(self) else {
            return false;
        };
        mine.remove("timestamp");
        let last = log
            .lines()
            .rev()
            .filter_map(|line| serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(line).ok())
            .find(|entry| entry.get("findingFingerprint").and_then(|f| f.as_str()) == Some(fingerprint));
        last.is_some_and(|mut last| {
            last.remove("timestamp");
            last == mine
        })
    }
}

/// What the reviewer said with a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Note<'a> {
    /// Evidence / rationale text.
    pub evidence: &'a str,
    /// Who decided (recorded in memory entries).
    pub author: &'a str,
    /// The pull request the decision belongs to, if any.
    pub pr: Option<u64>,
}

/// Builds a feedback entry. `skill_id` and the evidence are trimmed as River's
/// own writer trims them; blank evidence and a PR number of 0 become `null`.
pub fn feedback_entry(
    feedback_type: FeedbackType,
    skill_id: &str,
    fingerprint: &str,
    note: &Note<'_>,
    now: UnixMillis,
) -> FeedbackEntry {
    let evidence = js_trim(note.evidence);
    FeedbackEntry {
        timestamp: iso_millis(now),
        trigger: TRIGGER,
        feedback_type,
        skill_id: js_trim(skill_id).to_owned(),
        finding_fingerprint: Some(fingerprint.to_owned()),
        evidence: (!evidence.is_empty()).then(|| evidence.to_owned()),
        pr: note.pr.filter(|n| *n > 0),
    }
}

/// `metadata` of a suppression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SuppressionMetadata {
    pub created_at: String,
    pub author: String,
    pub phase: String,
    pub tags: [&'static str; 3],
    pub related_files: Vec<String>,
}

/// `context` of a suppression (River's suppression-context shape).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SuppressionContext {
    pub scope: &'static str,
    pub active: bool,
    pub fingerprint: String,
    pub fingerprint_algo: FingerprintAlgo,
    pub feedback_type: SuppressionType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<RiverSeverity>,
    /// When the newer River line stops applying the suppression (UTC,
    /// `toISOString` form). River 1.15.0 ignores it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// The pull request the decision was made on, when one was given.
    #[serde(rename = "sourcePR", skip_serializing_if = "Option::is_none")]
    pub source_pr: Option<u64>,
    /// The finding's `ruleId` (the skill that produced it), recorded as the
    /// newer River line's provenance; left out when unknown, as River does.
    /// `skillVersion` and `rulesDigest` are not written: `triage` cannot know
    /// the skill's version, and River reads a missing digest as "not judged".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_id: Option<String>,
}

/// Which fingerprint a suppression stores (`context.fingerprintAlgo`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FingerprintAlgo {
    /// Line-independent: every same-kind finding in the file (the default,
    /// and the only one River 1.15.0 knows).
    #[default]
    V1,
    /// Line-anchored (newer River line only): the occurrence at one line.
    V2,
}

impl FingerprintAlgo {
    /// The wire and command-line name.
    pub fn as_str(self) -> &'static str {
        match self {
            FingerprintAlgo::V1 => "v1",
            FingerprintAlgo::V2 => "v2",
        }
    }

    /// Parses a wire name exactly.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "v1" => Some(FingerprintAlgo::V1),
            "v2" => Some(FingerprintAlgo::V2),
            _ => None,
        }
    }
}

/// A `type: "suppression"` memory entry, scoped to the finding's file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SuppressionEntry {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub title: String,
    pub content: String,
    pub metadata: SuppressionMetadata,
    pub context: SuppressionContext,
}

/// What a suppression needs to know about the finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuppressionFacts<'a> {
    /// The fingerprint of `algo` (v1 key or v2 line-anchored value).
    pub fingerprint: &'a str,
    pub algo: FingerprintAlgo,
    pub title: Option<&'a str>,
    pub file: &'a str,
    pub phase: &'a str,
    pub severity: Option<RiverSeverity>,
    pub rule_id: Option<&'a str>,
    /// `context.expiresAt`, already in `toISOString` form.
    pub expires_at: Option<&'a str>,
}

/// Builds a suppression entry (the caller picks a free `id`, see [`free_id`]).
pub fn suppression_entry(
    facts: &SuppressionFacts<'_>,
    feedback_type: SuppressionType,
    note: &Note<'_>,
    id: String,
    now: UnixMillis,
) -> SuppressionEntry {
    SuppressionEntry {
        id,
        kind: "suppression",
        title: format!("Suppress: {}", facts.title.unwrap_or("finding")),
        content: js_trim(note.evidence).to_owned(),
        metadata: SuppressionMetadata {
            created_at: iso_millis(now),
            author: note.author.to_owned(),
            phase: facts.phase.to_owned(),
            tags: ["suppression", "active", "file"],
            related_files: vec![facts.file.to_owned()],
        },
        context: SuppressionContext {
            scope: "file",
            active: true,
            fingerprint: facts.fingerprint.to_owned(),
            fingerprint_algo: facts.algo,
            feedback_type,
            severity: facts.severity,
            expires_at: facts.expires_at.map(str::to_owned),
            source_pr: note.pr.filter(|n| *n > 0),
            skill_id: facts
                .rule_id
                .map(str::trim)
                .filter(|r| !r.is_empty() && *r != "unknown")
                .map(str::to_owned),
        },
    }
}

/// `metadata` of a resurface (revocation) entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResurfaceMetadata {
    pub created_at: String,
    pub author: String,
    pub tags: [&'static str; 2],
}

/// `context` of a resurface entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResurfaceContext {
    pub suppression_id: String,
    pub action: &'static str,
}

/// A `type: "resurface"` memory entry revoking one suppression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResurfaceEntry {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub title: String,
    pub content: String,
    pub metadata: ResurfaceMetadata,
    pub context: ResurfaceContext,
}

/// Builds a resurface entry for `suppression_id`; a blank reason is
/// recorded as `revoked`.
pub fn resurface_entry(
    suppression_id: &str,
    reason: &str,
    author: &str,
    id: String,
    now: UnixMillis,
) -> ResurfaceEntry {
    let reason = js_trim(reason);
    ResurfaceEntry {
        id,
        kind: "resurface",
        title: format!("Revoke: {suppression_id}"),
        content: if reason.is_empty() {
            "revoked".to_owned()
        } else {
            reason.to_owned()
        },
        metadata: ResurfaceMetadata {
            created_at: iso_millis(now),
            author: author.to_owned(),
            tags: ["resurface", "revocation"],
        },
        context: ResurfaceContext {
            suppression_id: suppression_id.to_owned(),
            action: "revoke",
        },
    }
}

/// `<prefix>-<unix ms>` with the milliseconds bumped until no entry has the id.
pub fn free_id(prefix: &str, now: UnixMillis, taken: impl Fn(&str) -> bool) -> String {
    let mut ms = now;
    loop {
        let id = format!("{prefix}-{ms}");
        if !taken(&id) {
            return id;
        }
        ms = ms.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: UnixMillis = 1_795_980_984_116;

    #[test]
    fn a_repeat_is_the_same_decision_as_the_findings_last_line() {
        let note = Note {
            evidence: "generated file",
            author: "alice",
            pr: Some(7),
        };
        let fp = feedback_entry(FeedbackType::FalsePositive, "r1", "0123456789abcdef", &note, NOW);
        let later = feedback_entry(
            FeedbackType::FalsePositive,
            "r1",
            "0123456789abcdef",
            &note,
            NOW + 86_400_000,
        );
        let accepted = feedback_entry(FeedbackType::Accepted, "r1", "0123456789abcdef", &note, NOW);
        let other = feedback_entry(FeedbackType::FalsePositive, "r1", "fedcba9876543210", &note, NOW);
        let log = |lines: &[&FeedbackEntry]| lines.iter().map(|e| e.to_line() + "\n").collect::<String>();
        assert!(later.repeats_last_of_its_finding(&log(&[&fp])), "only the time differs");
        assert!(
            later.repeats_last_of_its_finding(&log(&[&fp, &other])),
            "another finding's line after it"
        );
        assert!(
            !later.repeats_last_of_its_finding(&log(&[&fp, &accepted])),
            "decided otherwise since"
        );
        assert!(!later.repeats_last_of_its_finding(&log(&[&other])));
        assert!(!later.repeats_last_of_its_finding(""));
        assert!(
            !later.repeats_last_of_its_finding(&(fp.to_line()[..20].to_owned() + "\n")),
            "a torn line"
        );
        let mut other_words = fp.clone();
        other_words.evidence = Some("vendored".into());
        assert!(!other_words.repeats_last_of_its_finding(&log(&[&fp])));
    }

    #[test]
    fn feedback_line_matches_rivers_example_byte_for_byte() {
        let e = feedback_entry(
            FeedbackType::FalsePositive,
            "rr-midstream-logging-observability-001",
            "98103dc8dd71c74c",
            &Note {
                evidence: "intentional null on parse failure",
                author: "river-review",
                pr: Some(42),
            },
            NOW,
        );
        let example = include_str!("../../tests/fixtures/reference/river-review/examples/feedback-2026-11.jsonl");
        assert_eq!(format!("{}\n", e.to_line()), example);
    }

    #[test]
    fn absent_values_are_null_and_text_is_trimmed() {
        let note = Note {
            evidence: " \n ",
            author: "a",
            pr: Some(0),
        };
        let e = feedback_entry(FeedbackType::Unclear, "  r1 ", "0123456789abcdef", &note, 0);
        assert_eq!(
            e.to_line(),
            r#"{"timestamp":"1970-01-01T00:00:00.000Z","trigger":"pr-comment","feedbackType":"unclear","skillId":"r1","findingFingerprint":"0123456789abcdef","evidence":null,"pr":null}"#
        );
        // Trimmed as JavaScript's trim() trims: U+FEFF goes, U+0085 stays.
        let note = Note {
            evidence: "\u{FEFF} why\u{85}",
            author: "a",
            pr: None,
        };
        let e = feedback_entry(FeedbackType::Unclear, "\u{FEFF}r1\u{85}", "0123456789abcdef", &note, 0);
        assert_eq!(e.evidence.as_deref(), Some("why\u{85}"));
        assert_eq!(e.skill_id, "r1\u{85}");
        let blank = Note {
            evidence: "\u{FEFF}",
            author: "a",
            pr: None,
        };
        assert_eq!(
            feedback_entry(FeedbackType::Unclear, "r1", "0123456789abcdef", &blank, 0).evidence,
            None
        );
    }

    #[test]
    fn suppression_shape_and_member_order() {
        let facts = SuppressionFacts {
            fingerprint: "98103dc8dd71c74c",
            algo: FingerprintAlgo::V1,
            title: Some("catch swallows"),
            file: "src/util.js",
            phase: "midstream",
            severity: Some(RiverSeverity::Minor),
            rule_id: None,
            expires_at: None,
        };
        let note = Note {
            evidence: " why ",
            author: "alice",
            pr: None,
        };
        let e = suppression_entry(
            &facts,
            SuppressionType::FalsePositive,
            &note,
            "suppression-98103dc8dd71c74c-1".into(),
            NOW,
        );
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            concat!(
                r#"{"id":"suppression-98103dc8dd71c74c-1","type":"suppression","title":"Suppress: catch swallows","content":"why","#,
                r#""metadata":{"createdAt":"2026-11-29T19:36:24.116Z","author":"alice","phase":"midstream","tags":["suppression","active","file"],"relatedFiles":["src/util.js"]},"#,
                r#""context":{"scope":"file","active":true,"fingerprint":"98103dc8dd71c74c","fingerprintAlgo":"v1","feedbackType":"false_positive","severity":"minor"}}"#
            )
        );
        let note = Note {
            evidence: "x",
            author: "a",
            pr: Some(7),
        };
        let with_pr = suppression_entry(&facts, SuppressionType::AcceptedRisk, &note, "i".into(), NOW);
        let text = serde_json::to_string(&with_pr.context).unwrap();
        assert!(
            text.ends_with(r#""feedbackType":"accepted_risk","severity":"minor","sourcePR":7}"#),
            "{text}"
        );
        let v2 = SuppressionFacts {
            fingerprint: "e4f01f9ff5fe618b",
            algo: FingerprintAlgo::V2,
            rule_id: Some("rr-midstream-security-001"),
            expires_at: Some("2027-01-01T00:00:00.000Z"),
            ..facts
        };
        let e = suppression_entry(&v2, SuppressionType::AcceptedRisk, &note, "i".into(), NOW);
        assert_eq!(
            serde_json::to_string(&e.context).unwrap(),
            concat!(
                r#"{"scope":"file","active":true,"fingerprint":"e4f01f9ff5fe618b","fingerprintAlgo":"v2","#,
                r#""feedbackType":"accepted_risk","severity":"minor","expiresAt":"2027-01-01T00:00:00.000Z","#,
                r#""sourcePR":7,"skillId":"rr-midstream-security-001"}"#
            )
        );
    }

    #[test]
    fn resurface_shape() {
        let e = resurface_entry("suppression-x-1", "", "bob", "resurface-suppression-x-1-5".into(), 0);
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            concat!(
                r#"{"id":"resurface-suppression-x-1-5","type":"resurface","title":"Revoke: suppression-x-1","content":"revoked","#,
                r#""metadata":{"createdAt":"1970-01-01T00:00:00.000Z","author":"bob","tags":["resurface","revocation"]},"#,
                r#""context":{"suppressionId":"suppression-x-1","action":"revoke"}}"#
            )
        );
    }

    #[test]
    fn ids_skip_taken_milliseconds() {
        let taken = ["s-10", "s-11"];
        assert_eq!(free_id("s", 10, |id| taken.contains(&id)), "s-12");
        assert_eq!(free_id("s", 9, |id| taken.contains(&id)), "s-9");
    }
}
