//! Deciding what a reviewer's decision writes (pure: no files, no clock).

use super::StoreError;
use super::entries::{FeedbackEntry, FingerprintAlgo, Note, SuppressionFacts, feedback_entry};
use super::lifecycle::{FindingIds, GateRun};
use super::status::{DecisionStatus, SuppressionType};
use crate::model::finding::{FindingKey, RiverSeverity};
use crate::model::fingerprint::js_trim;
use crate::model::review::ReviewSet;
use crate::time::UnixMillis;
use std::fmt;

/// The facts about one River finding a decision needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingFacts {
    pub fingerprint: String,
    pub rule_id: Option<String>,
    pub title: Option<String>,
    pub file: Option<String>,
    /// The most severe severity among the findings sharing the fingerprint
    /// (River's guard looks at each one; the strictest decides).
    pub severity: Option<RiverSeverity>,
    /// The run's phase (River filters suppressions by it).
    pub phase: Option<String>,
    /// The artifact's `context.repoRoot`, if any.
    pub repo_root: Option<String>,
    /// The line-anchored (v2) fingerprint of the occurrence decided on, and
    /// its line; `None` when it has no usable line. Findings sharing the v1
    /// fingerprint at other lines have other v2 fingerprints: [`Self::of`]
    /// and [`Self::at_line`] name the occurrence, [`Self::from_set`] takes
    /// the first.
    pub v2: Option<(String, String)>,
    /// The v2 fingerprints of every finding sharing the v1 fingerprint (what
    /// an undo looks for among v2 suppressions).
    pub v2_all: Vec<String>,
    /// The run's `context.changedFiles` (empty when the review names none).
    pub changed_files: Vec<String>,
}

/// True for River's 16 lowercase hex fingerprint.
pub fn is_fingerprint(s: &str) -> bool {
    s.len() == 16 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl FindingFacts {
    /// The fingerprints that identify the finding in the memory index.
    pub fn ids(&self) -> FindingIds<'_> {
        FindingIds {
            v1: &self.fingerprint,
            v2: &self.v2_all,
        }
    }

    /// The run River judges the finding's suppressions for.
    pub fn gate_run(&self) -> GateRun<'_> {
        GateRun {
            severity: self.severity,
            phase: self.phase.as_deref(),
            changed_files: &self.changed_files,
        }
    }

    /// The facts of the finding `fingerprint` in a River review set.
    pub fn from_set(set: &ReviewSet, fingerprint: &str) -> Result<Self, StoreError> {
        if !is_fingerprint(fingerprint) {
            return Err(StoreError::BadFingerprint(fingerprint.to_owned()));
        }
        let matching: Vec<_> = set
            .findings
            .iter()
            .filter(|f| matches!(&f.key, FindingKey::River(fp) if fp == fingerprint))
            .collect();
        let first = matching
            .first()
            .ok_or_else(|| StoreError::UnknownFinding(fingerprint.to_owned()))?;
        let river = first.river();
        let severity = matching
            .iter()
            .filter_map(|f| f.river().and_then(|r| r.severity))
            .min_by_key(|s| s.rank());
        let run = set.river.as_ref();
        let v2 = usable_v2(first);
        let mut v2_all: Vec<String> = matching.iter().filter_map(|f| v2_of(f)).map(|(fp, _)| fp).collect();
        v2_all.dedup();
        Ok(FindingFacts {
            fingerprint: fingerprint.to_owned(),
            rule_id: river.and_then(|r| r.rule_id.clone()),
            title: first.title.clone(),
            file: first.path.clone(),
            severity,
            phase: run
                .and_then(|r| r.phase.clone())
                .or_else(|| river.and_then(|r| r.phase.clone())),
            repo_root: run.and_then(|r| r.repo_root.clone()),
            v2,
            v2_all,
            changed_files: run.map(|r| r.changed_files.clone()).unwrap_or_default(),
        })
    }

    /// The facts of the finding at `index` of `set` (the row the screen
    /// decides on): those of its fingerprint, with the v2 fingerprint of
    /// this occurrence.
    pub fn of(set: &ReviewSet, index: usize) -> Result<Self, StoreError> {
        let finding = set
            .findings
            .get(index)
            .ok_or_else(|| StoreError::UnknownFinding(format!("#{index}")))?;
        let mut facts = Self::from_set(set, finding.key.as_str())?;
        facts.v2 = usable_v2(finding);
        Ok(facts)
    }

    /// The facts for `fingerprint` with the v2 fingerprint of its occurrence
    /// at `line` (as River writes the line), or of its only occurrence.
    /// Occurrences at several lines and no `line` (or none at `line`) is
    /// [`StoreError::Occurrence`], naming the lines.
    pub fn at_line(set: &ReviewSet, fingerprint: &str, line: Option<&str>) -> Result<Self, StoreError> {
        let mut facts = Self::from_set(set, fingerprint)?;
        let occurrences: Vec<(String, String)> = (set.findings.iter())
            .filter(|f| matches!(&f.key, FindingKey::River(fp) if fp == fingerprint))
            .filter_map(usable_v2)
            .collect();
        let mut lines: Vec<String> = occurrences.iter().map(|(_, l)| l.clone()).collect();
        lines.dedup();
        let chosen = match line {
            Some(line) => occurrences.into_iter().find(|(_, l)| l == line),
            None if lines.len() > 1 => None,
            None => occurrences.into_iter().next(),
        };
        if chosen.is_none() && (lines.len() > 1 || (line.is_some() && !lines.is_empty())) {
            return Err(StoreError::Occurrence {
                fingerprint: fingerprint.to_owned(),
                lines: lines.join(", "),
            });
        }
        facts.v2 = chosen;
        Ok(facts)
    }
}

/// A finding's v2 fingerprint and its line, when it has them.
fn v2_of(f: &crate::model::finding::Finding) -> Option<(String, String)> {
    f.river()
        .filter(|r| !r.fingerprint_v2.is_empty())
        .map(|r| (r.fingerprint_v2.clone(), r.v2_line.clone()))
}

/// [`v2_of`], when the line is usable (River writes `0` for none).
fn usable_v2(f: &crate::model::finding::Finding) -> Option<(String, String)> {
    v2_of(f).filter(|(_, line)| line != "0")
}

/// Why a decision writes no suppression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoSuppression {
    /// `--no-suppress` was given.
    NotRequested,
    /// The status does not mean "stop reporting this".
    NotSuppressing(DecisionStatus),
    /// River applies suppressions to major/critical findings only with accepted_risk.
    HighSeverity {
        severity: RiverSeverity,
        status: DecisionStatus,
    },
    /// The run's phase is unknown; River ignores suppressions without one.
    NoPhase,
    /// The finding names no file; a file-scoped suppression needs one.
    NoFile,
    /// `--fingerprint-algo v2` for a finding without a line to anchor to.
    NoLine,
}

impl fmt::Display for NoSuppression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoSuppression::NotRequested => f.write_str("--no-suppress was given: feedback only"),
            NoSuppression::NotSuppressing(s) => {
                write!(
                    f,
                    "`{}` does not stop River Review reporting the finding, so no suppression is written",
                    s.as_str()
                )
            }
            NoSuppression::HighSeverity { severity, status } => write!(
                f,
                "the finding is {}: River Review suppresses major and critical findings only for accepted_risk, \
                 so a {} suppression would never apply and none was written (use accepted_risk to suppress it)",
                severity.as_str(),
                status.as_str()
            ),
            NoSuppression::NoPhase => f.write_str(
                "the review names no phase, and River Review ignores suppressions without one: none was written",
            ),
            NoSuppression::NoFile => {
                f.write_str("the finding names no file, so a file-scoped suppression cannot be written")
            }
            NoSuppression::NoLine => f.write_str(
                "the finding has no line, so a line-anchored (v2) suppression cannot be written (use --fingerprint-algo v1)",
            ),
        }
    }
}

/// The decision, as the reviewer gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecisionInput<'a> {
    pub status: DecisionStatus,
    pub note: Note<'a>,
    /// False with `--no-suppress`.
    pub suppress: bool,
    /// Which fingerprint the suppression stores (`--fingerprint-algo`).
    pub algo: FingerprintAlgo,
    /// `--expires`, already in `toISOString` form.
    pub expires_at: Option<&'a str>,
}

/// Everything a decision writes, except the suppression's id (which depends
/// on the index's current content and is chosen under the lock).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionPlan<'a> {
    pub feedback: FeedbackEntry,
    pub suppression: Result<(SuppressionType, SuppressionFacts<'a>), NoSuppression>,
}

/// Whether (and how) a decision suppresses the finding.
pub fn suppression_for<'a>(
    facts: &'a FindingFacts,
    input: &DecisionInput<'a>,
) -> Result<(SuppressionType, SuppressionFacts<'a>), NoSuppression> {
    if !input.suppress {
        return Err(NoSuppression::NotRequested);
    }
    let kind = input
        .status
        .suppression_type()
        .ok_or(NoSuppression::NotSuppressing(input.status))?;
    if let Some(severity @ (RiverSeverity::Major | RiverSeverity::Critical)) = facts.severity
        && kind != SuppressionType::AcceptedRisk
    {
        return Err(NoSuppression::HighSeverity {
            severity,
            status: input.status,
        });
    }
    let phase = facts.phase.as_deref().ok_or(NoSuppression::NoPhase)?;
    let file = facts
        .file
        .as_deref()
        .filter(|f| !f.is_empty())
        .ok_or(NoSuppression::NoFile)?;
    let fingerprint = match input.algo {
        FingerprintAlgo::V1 => facts.fingerprint.as_str(),
        FingerprintAlgo::V2 => facts
            .v2
            .as_ref()
            .map(|(fp, _)| fp.as_str())
            .ok_or(NoSuppression::NoLine)?,
    };
    let suppression = SuppressionFacts {
        fingerprint,
        algo: input.algo,
        title: facts.title.as_deref(),
        file,
        phase,
        severity: facts.severity,
        rule_id: facts.rule_id.as_deref(),
        expires_at: input.expires_at,
    };
    Ok((kind, suppression))
}

/// Plans a decision. Fails when River could not use the feedback entry
/// (no rule id to attribute it to) or the evidence is blank.
pub fn plan_decision<'a>(
    facts: &'a FindingFacts,
    input: &DecisionInput<'a>,
    now: UnixMillis,
) -> Result<DecisionPlan<'a>, StoreError> {
    if js_trim(input.note.evidence).is_empty() {
        return Err(StoreError::MissingEvidence);
    }
    let skill = facts
        .rule_id
        .as_deref()
        .filter(|r| !js_trim(r).is_empty())
        .ok_or(StoreError::MissingRuleId)?;
    let feedback = feedback_entry(
        input.status.feedback_type(),
        skill,
        &facts.fingerprint,
        &input.note,
        now,
    );
    Ok(DecisionPlan {
        feedback,
        suppression: suppression_for(facts, input),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(severity: RiverSeverity) -> FindingFacts {
        FindingFacts {
            fingerprint: "98103dc8dd71c74c".into(),
            rule_id: Some("rr-x".into()),
            title: Some("t".into()),
            file: Some("src/a.js".into()),
            severity: Some(severity),
            phase: Some("midstream".into()),
            repo_root: None,
            v2: None,
            v2_all: Vec::new(),
            changed_files: Vec::new(),
        }
    }

    fn input(status: DecisionStatus) -> DecisionInput<'static> {
        DecisionInput {
            status,
            note: Note {
                evidence: "because",
                author: "me",
                pr: None,
            },
            suppress: true,
            algo: FingerprintAlgo::V1,
            expires_at: None,
        }
    }

    #[test]
    fn v2_needs_a_line_and_stores_the_line_anchored_fingerprint() {
        let mut f = facts(RiverSeverity::Minor);
        let v2 = DecisionInput {
            algo: FingerprintAlgo::V2,
            ..input(DecisionStatus::FalsePositive)
        };
        assert_eq!(suppression_for(&f, &v2).unwrap_err(), NoSuppression::NoLine);
        f.v2 = Some(("e4f01f9ff5fe618b".into(), "12".into()));
        let (_, s) = suppression_for(&f, &v2).unwrap();
        assert_eq!((s.fingerprint, s.algo), ("e4f01f9ff5fe618b", FingerprintAlgo::V2));
        let (_, s) = suppression_for(&f, &input(DecisionStatus::FalsePositive)).unwrap();
        assert_eq!((s.fingerprint, s.algo), ("98103dc8dd71c74c", FingerprintAlgo::V1));
    }

    #[test]
    fn high_severity_needs_accepted_risk() {
        for sev in [RiverSeverity::Major, RiverSeverity::Critical] {
            let f = facts(sev);
            for status in DecisionStatus::ALL {
                let got = suppression_for(&f, &input(status));
                match status.suppression_type() {
                    Some(SuppressionType::AcceptedRisk) => assert!(got.is_ok()),
                    Some(_) => assert_eq!(got.unwrap_err(), NoSuppression::HighSeverity { severity: sev, status }),
                    None => assert_eq!(got.unwrap_err(), NoSuppression::NotSuppressing(status)),
                }
            }
        }
        let reason = NoSuppression::HighSeverity {
            severity: RiverSeverity::Major,
            status: DecisionStatus::WontFix,
        };
        assert!(reason.to_string().contains("only for accepted_risk"));
    }

    #[test]
    fn minor_findings_suppress_for_every_suppressing_status() {
        let f = facts(RiverSeverity::Minor);
        for status in DecisionStatus::ALL {
            let got = suppression_for(&f, &input(status)).map(|(k, _)| k);
            assert_eq!(got.ok(), status.suppression_type(), "{}", status.as_str());
        }
        let no = DecisionInput {
            suppress: false,
            ..input(DecisionStatus::FalsePositive)
        };
        assert_eq!(suppression_for(&f, &no).unwrap_err(), NoSuppression::NotRequested);
    }

    #[test]
    fn missing_phase_or_file_blocks_the_suppression_not_the_feedback() {
        let mut f = facts(RiverSeverity::Info);
        f.phase = None;
        let plan = plan_decision(&f, &input(DecisionStatus::FalsePositive), 0).unwrap();
        assert_eq!(plan.suppression.unwrap_err(), NoSuppression::NoPhase);
        f.phase = Some("midstream".into());
        f.file = None;
        assert_eq!(
            suppression_for(&f, &input(DecisionStatus::Duplicate)).unwrap_err(),
            NoSuppression::NoFile
        );
    }

    #[test]
    fn blank_evidence_and_missing_rule_are_refused() {
        let f = facts(RiverSeverity::Info);
        let mut i = input(DecisionStatus::Accepted);
        i.note.evidence = " \t";
        assert!(matches!(plan_decision(&f, &i, 0), Err(StoreError::MissingEvidence)));
        let mut f = facts(RiverSeverity::Info);
        f.rule_id = Some(" ".into());
        assert!(matches!(
            plan_decision(&f, &input(DecisionStatus::Accepted), 0),
            Err(StoreError::MissingRuleId)
        ));
    }

    #[test]
    fn fingerprints_are_16_lowercase_hex() {
        assert!(is_fingerprint("98103dc8dd71c74c"));
        assert!(!is_fingerprint("98103DC8DD71C74C"));
        assert!(!is_fingerprint("98103dc8dd71c74"));
        assert!(!is_fingerprint("98103dc8dd71c74g"));
    }

    /// Two findings with one ruleId, file and message at lines 4 and 20
    /// share the v1 fingerprint but not the line-anchored v2 one.
    fn two_occurrences() -> ReviewSet {
        let artifact = r#"{"version":"1","timestamp":"2026-11-29T19:36:17.758Z","phase":"midstream","status":"ok",
          "findings":[
            {"id":"rr-1","ruleId":"rr-x","title":"t","message":"Swallowed error","severity":"minor","phase":"midstream","file":"src/util.js","line":4},
            {"id":"rr-2","ruleId":"rr-x","title":"t","message":"Swallowed error","severity":"minor","phase":"midstream","file":"src/util.js","line":20}
          ]}"#;
        crate::model::load::load_bytes(artifact.as_bytes(), None)
            .set
            .expect("a River set")
    }

    fn v2_at(line: &str) -> String {
        crate::model::river::fingerprint_v2::river_fingerprint_v2(
            Some("rr-x"),
            Some("src/util.js"),
            Some("Swallowed error"),
            None,
            line,
        )
    }

    /// The screen decides on a row: a v2 suppression anchors that row's line,
    /// not the first occurrence's.
    #[test]
    fn a_v2_suppression_anchors_the_chosen_occurrence() {
        let set = two_occurrences();
        assert_eq!(set.findings[0].key, set.findings[1].key, "one v1 fingerprint for both");
        let v2 = DecisionInput {
            algo: FingerprintAlgo::V2,
            ..input(DecisionStatus::FalsePositive)
        };
        for (row, line) in [(0, "4"), (1, "20")] {
            let facts = FindingFacts::of(&set, row).unwrap();
            let (_, s) = suppression_for(&facts, &v2).unwrap();
            assert_eq!(s.fingerprint, v2_at(line), "row {row}");
        }
    }

    /// By fingerprint (the command line), a v2 suppression names its line
    /// when the fingerprint stands at several.
    #[test]
    fn by_fingerprint_a_v2_suppression_needs_the_line_of_a_repeated_finding() {
        let set = two_occurrences();
        let fp = set.findings[0].key.as_str().to_owned();
        let err = FindingFacts::at_line(&set, &fp, None).unwrap_err().to_string();
        assert!(err.contains("occurs at lines 4, 20") && err.contains("--line"), "{err}");
        let facts = FindingFacts::at_line(&set, &fp, Some("20")).unwrap();
        assert_eq!(facts.v2.map(|(fp, _)| fp), Some(v2_at("20")));
        assert!(matches!(
            FindingFacts::at_line(&set, &fp, Some("7")),
            Err(StoreError::Occurrence { .. })
        ));
    }
}
