//! A decision before it is sent, and the local checks it must pass first
//! (INTEROP §4 step 1 and the payload rules): no network is involved here.

use super::decide::Target;
use crate::github::route::{RepoName, RepoNameError};
use crate::model::disposition::DispositionPayload;
use crate::model::finding::{FindingKey, SubmittedDisposition};
use crate::model::review::{Format, ReviewSet, Scope};
use crate::model::text::{byte_len, is_blank};
use serde::{Deserialize, Serialize};

/// The evidence limit in UTF-8 bytes (D6).
pub use crate::model::disposition::MAX_EVIDENCE_BYTES;

/// One decision on one finding of one pull request at one reviewed head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    /// `OWNER/NAME`, from the validated scope.
    pub repository: String,
    /// The pull request number, from the validated scope.
    pub pull_request: u64,
    /// The exact reviewed commit.
    pub reviewed_sha: String,
    /// The finding's semantic fingerprint.
    pub fingerprint: String,
    /// The submitted status.
    pub status: SubmittedDisposition,
    /// The reviewer's evidence, exactly as typed.
    pub evidence: String,
    /// Set for a ready payload (`submit --payload`): its actor, which must be
    /// the authenticated user. `None`: the authenticated user is the actor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
}

/// A local check that failed; nothing was sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalProblem {
    /// The status is not one of the six agent values.
    #[error(
        "status {given:?} is not one of accepted, fixed, rejected_with_evidence, already_implemented, intentional_contract, needs_human"
    )]
    UnknownStatus { given: String },
    /// The evidence is empty or only white space.
    #[error("the evidence is blank; say what on the reviewed head supports this decision")]
    EvidenceBlank,
    /// The evidence still holds a template placeholder.
    #[error("the evidence still holds the template placeholder {placeholder}; replace it with the fact it asks for")]
    EvidencePlaceholder { placeholder: &'static str },
    /// The evidence is over the byte limit.
    #[error("the evidence is {bytes} UTF-8 bytes; at most {MAX_EVIDENCE_BYTES} are allowed")]
    EvidenceTooLong { bytes: usize },
    /// The fingerprint is empty or only white space.
    #[error("the finding fingerprint is blank")]
    FingerprintBlank,
    /// The result was not reviewed for a pull request.
    #[error("the result's scope is local: only pull-request results can be recorded on GitHub")]
    NotPullRequest,
    /// The repository cannot be a GitHub repository.
    #[error("repository {repository:?}: {problem}")]
    Repository { repository: String, problem: RepoNameError },
    /// Pull request number 0.
    #[error("the pull request number must be at least 1")]
    PullRequestZero,
    /// The reviewed SHA is blank or not hexadecimal.
    #[error("the reviewed SHA {sha:?} is not a hexadecimal commit id")]
    ShaMalformed { sha: String },
    /// The result is not a ReviewGate result with an exact reviewed SHA.
    #[error("only ReviewGate agent results and v3 review outputs can be submitted to GitHub (this is {format})")]
    WrongFormat { format: &'static str },
    /// The fingerprint is not a finding of the result.
    #[error("no finding with fingerprint {fingerprint:?} in the result")]
    FingerprintNotInResult { fingerprint: String },
}

/// Parses a status name (exactly one of the six agent values).
pub fn parse_status(given: &str) -> Result<SubmittedDisposition, LocalProblem> {
    SubmittedDisposition::parse(given).ok_or_else(|| LocalProblem::UnknownStatus {
        given: given.to_owned(),
    })
}

/// Checks the evidence alone (for live counters in an editor, too).
pub fn check_evidence(evidence: &str) -> Result<(), LocalProblem> {
    if is_blank(evidence) {
        return Err(LocalProblem::EvidenceBlank);
    }
    let bytes = byte_len(evidence);
    if bytes > MAX_EVIDENCE_BYTES {
        return Err(LocalProblem::EvidenceTooLong { bytes });
    }
    if let Some(placeholder) = crate::model::placeholder::unfilled(evidence) {
        return Err(LocalProblem::EvidencePlaceholder { placeholder });
    }
    Ok(())
}

impl Draft {
    /// A decision on a finding of a validated ReviewGate result: repository,
    /// number and SHA come from the result, and the fingerprint must be one
    /// of its findings. The caller must only pass a result that validated.
    pub fn for_finding(
        set: &ReviewSet,
        fingerprint: &str,
        status: SubmittedDisposition,
        evidence: &str,
    ) -> Result<Draft, Vec<LocalProblem>> {
        if !matches!(set.format, Format::AgentResult | Format::ArtifactV3) {
            return Err(vec![LocalProblem::WrongFormat {
                format: set.format.label(),
            }]);
        }
        let (repository, pull_request) = match &set.scope {
            Scope::PullRequest {
                repository,
                pull_request_number,
            } => (repository.clone(), *pull_request_number),
            Scope::Local => return Err(vec![LocalProblem::NotPullRequest]),
        };
        let draft = Draft {
            repository,
            pull_request,
            reviewed_sha: set.reviewed_sha.clone().unwrap_or_default(),
            fingerprint: fingerprint.to_owned(),
            status,
            evidence: evidence.to_owned(),
            actor: None,
        };
        let mut problems = draft.problems();
        let key = FindingKey::Semantic(fingerprint.to_owned());
        if !set.findings.iter().any(|f| f.key == key) {
            problems.push(LocalProblem::FingerprintNotInResult {
                fingerprint: fingerprint.to_owned(),
            });
        }
        if problems.is_empty() { Ok(draft) } else { Err(problems) }
    }

    /// Every local check that does not need the result: evidence, blank
    /// fingerprint, repository, number and SHA shape.
    pub fn problems(&self) -> Vec<LocalProblem> {
        let mut out = Vec::new();
        if let Err(p) = check_evidence(&self.evidence) {
            out.push(p);
        }
        if is_blank(&self.fingerprint) {
            out.push(LocalProblem::FingerprintBlank);
        }
        if let Err(problem) = RepoName::parse(&self.repository) {
            out.push(LocalProblem::Repository {
                repository: self.repository.clone(),
                problem,
            });
        }
        if self.pull_request == 0 {
            out.push(LocalProblem::PullRequestZero);
        }
        let sha = &self.reviewed_sha;
        if sha.is_empty() || sha.len() > 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            out.push(LocalProblem::ShaMalformed { sha: sha.clone() });
        }
        out
    }

    /// Runs [`Draft::problems`]; on success the draft may be sent.
    pub fn check(self) -> Result<CheckedDraft, Vec<LocalProblem>> {
        let problems = self.problems();
        if !problems.is_empty() {
            return Err(problems);
        }
        match RepoName::parse(&self.repository) {
            Ok(repo) => Ok(CheckedDraft {
                target: Target {
                    repository: repo,
                    pull_request: self.pull_request,
                    reviewed_sha: self.reviewed_sha.clone(),
                },
                draft: self,
            }),
            Err(problem) => Err(vec![LocalProblem::Repository {
                repository: self.repository.clone(),
                problem,
            }]),
        }
    }

    /// The decision of a validated payload (its actor is kept: it must be
    /// the authenticated user when sent).
    pub fn from_payload(payload: &DispositionPayload) -> Draft {
        Draft {
            repository: payload.scope.repository.clone(),
            pull_request: payload.scope.pull_request_number,
            reviewed_sha: payload.reviewed_sha.clone(),
            fingerprint: payload.submission.semantic_fingerprint.clone(),
            status: payload.submission.disposition,
            evidence: payload.submission.evidence.clone(),
            actor: Some(payload.submission.actor.clone()),
        }
    }

    /// The payload this decision becomes when `actor` submits it.
    pub fn payload(&self, actor: &str) -> DispositionPayload {
        DispositionPayload::new(
            self.repository.clone(),
            self.pull_request,
            self.reviewed_sha.clone(),
            self.fingerprint.clone(),
            self.status,
            self.evidence.clone(),
            actor,
        )
    }

    /// True when this draft was made for another reviewed head than `current_sha`.
    pub fn is_stale(&self, current_sha: &str) -> bool {
        self.reviewed_sha != current_sha
    }
}

/// A draft that passed its local checks: the only thing the protocol sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedDraft {
    draft: Draft,
    target: Target,
}

impl CheckedDraft {
    /// The decision.
    pub fn draft(&self) -> &Draft {
        &self.draft
    }

    /// The pull request and head it targets.
    pub fn target(&self) -> &Target {
        &self.target
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn draft(evidence: &str) -> Draft {
        Draft {
            repository: "o/r".into(),
            pull_request: 1,
            reviewed_sha: "abc123".into(),
            fingerprint: "defect:a.rs:k".into(),
            status: SubmittedDisposition::Fixed,
            evidence: evidence.into(),
            actor: None,
        }
    }

    #[test]
    fn evidence_is_counted_in_bytes() {
        assert_eq!(check_evidence(&"e".repeat(4096)), Ok(()));
        assert_eq!(
            check_evidence(&"e".repeat(4097)),
            Err(LocalProblem::EvidenceTooLong { bytes: 4097 })
        );
        let two_byte = "é".repeat(2049);
        assert_eq!(
            check_evidence(&two_byte),
            Err(LocalProblem::EvidenceTooLong { bytes: 4098 })
        );
        for blank in ["", " \n\t", "\u{3000}", "\u{00A0}", "\u{0085}"] {
            assert_eq!(check_evidence(blank), Err(LocalProblem::EvidenceBlank), "{blank:?}");
        }
        assert_eq!(check_evidence("\u{200B}"), Ok(()));
        let template = "Fixed on the reviewed head: <what changed> (src/a.rs@abc#L3).";
        let refused = check_evidence(template).unwrap_err();
        assert_eq!(
            refused,
            LocalProblem::EvidencePlaceholder {
                placeholder: "<what changed>"
            }
        );
        assert!(refused.to_string().contains("<what changed>"), "{refused}");
    }

    #[test]
    fn shape_checks_before_any_request() {
        assert!(draft("ok").check().is_ok());
        let mut bad = draft(" ");
        bad.repository = "noslash".into();
        bad.pull_request = 0;
        bad.reviewed_sha = "not hex".into();
        bad.fingerprint = "\t".into();
        let problems = bad.check().unwrap_err();
        assert_eq!(problems.len(), 5, "{problems:?}");
    }

    #[test]
    fn status_names_are_exact() {
        assert_eq!(parse_status("needs_human"), Ok(SubmittedDisposition::NeedsHuman));
        assert!(parse_status("still_open").is_err());
        assert!(parse_status("Fixed").is_err());
    }

    /// A validated ReviewGate result from the conformance fixtures.
    pub(crate) fn fixture_set(name: &str) -> ReviewSet {
        let path = format!(
            "{}/tests/fixtures/conformance/agent-result/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(path).unwrap();
        let doc = crate::model::json::read_doc(&bytes, &Default::default()).unwrap();
        let checked = crate::model::reviewgate::check_agent_result(doc.root(), bytes.len());
        assert!(checked.problems.is_empty(), "{:?}", checked.problems);
        checked.set.unwrap()
    }

    const FP: &str = "reliability_risk:app.webhooks.retry.py:webhook.retry.exhaustion.missing.regression";

    #[test]
    fn a_finding_of_a_pull_request_result_binds_its_scope_and_sha() {
        let set = fixture_set("valid-scope-pull-request.json");
        let d = Draft::for_finding(&set, FP, SubmittedDisposition::Accepted, "why").unwrap();
        assert_eq!(
            (d.repository.as_str(), d.pull_request, d.reviewed_sha.as_str()),
            ("LVTD-LLC/reviewgate", 48, "abc123")
        );
        assert_eq!(d.actor, None);
        let missing = Draft::for_finding(&set, "defect:x:y", SubmittedDisposition::Fixed, "why").unwrap_err();
        assert_eq!(
            missing,
            vec![LocalProblem::FingerprintNotInResult {
                fingerprint: "defect:x:y".into()
            }]
        );
        let both = Draft::for_finding(&set, "defect:x:y", SubmittedDisposition::Fixed, " ").unwrap_err();
        assert_eq!(both.len(), 2, "every problem is reported at once: {both:?}");
    }

    #[test]
    fn a_local_result_cannot_be_recorded_on_github() {
        let set = fixture_set("valid-line-u32-max.json");
        let fp = match &set.findings[0].key {
            FindingKey::Semantic(s) => s.clone(),
            FindingKey::River(s) => s.clone(),
        };
        let err = Draft::for_finding(&set, &fp, SubmittedDisposition::Fixed, "why").unwrap_err();
        assert_eq!(err, vec![LocalProblem::NotPullRequest]);
    }

    #[test]
    fn payload_round_trip_keeps_every_field() {
        let mut d = draft("evidence");
        let payload = d.payload("someone");
        assert_eq!(payload.submission.actor, "someone");
        d.actor = Some("someone".into());
        assert_eq!(Draft::from_payload(&payload), d);
    }

    #[test]
    fn staleness_compares_the_exact_sha() {
        assert!(!draft("x").is_stale("abc123"));
        assert!(draft("x").is_stale("abc124"));
    }
}
