//! The artifact → agent-result projection (REVIEWGATE-RULES §5, J1–J7), done
//! the way ReviewGate does it, with an empty thread map: every projected
//! finding is `not_published`.

use super::agent::{AgentResult, Costs, ResultFinding, SCHEMA_VERSION};
use super::agent_rules;
use super::artifact::{Artifact, ArtifactFinding};
use super::common::{DispositionRecord, WireScope};
use super::fp::Fingerprints;
use super::shared_rules::Report;
use crate::model::finding::{Disposition, ThreadStatus, ThreadTransition, VerificationState};
use crate::model::problem::Problem;
use crate::model::review::Scope;
use crate::model::text::is_blank;
use std::borrow::Cow;

/// Where a projected finding came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// Index into the top-level `findings`.
    Finding(usize),
    /// Index into `tracked_findings`.
    Tracked(usize),
}

impl Source {
    /// JSON pointer of the source finding in the artifact.
    pub fn pointer(self) -> String {
        match self {
            Source::Finding(i) => format!("/findings/{i}"),
            Source::Tracked(j) => format!("/tracked_findings/{j}/finding"),
        }
    }

    /// The source finding itself.
    pub fn finding<'s, 'a>(self, a: &'s Artifact<'a>) -> &'s ArtifactFinding<'a> {
        match self {
            Source::Finding(i) => &a.findings[i],
            Source::Tracked(j) => &a.tracked_findings[j].finding,
        }
    }
}

/// A projected agent result and, per projected finding, its source.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Projected<'a> {
    pub result: AgentResult<'a>,
    pub sources: Vec<Source>,
}

/// J2–J5: builds the projection without checking it. `fps` holds the F1
/// fingerprints of the artifact's findings; they move into the projection.
pub(crate) fn project_typed<'a>(a: &Artifact<'a>, scope: &Scope, fps: Fingerprints) -> Projected<'a> {
    let mut findings = Vec::new();
    let mut sources = Vec::new();
    if a.tracked_findings.is_empty() {
        for ((i, f), fp) in a.findings.iter().enumerate().zip(fps.findings) {
            if f.verification
                .as_ref()
                .is_some_and(|v| v.state == VerificationState::Rejected)
            {
                continue;
            }
            findings.push(result_finding(f, fp, Disposition::StillOpen, Vec::new()));
            sources.push(Source::Finding(i));
        }
    } else {
        for ((j, t), fp) in a.tracked_findings.iter().enumerate().zip(fps.tracked) {
            findings.push(result_finding(
                &t.finding,
                fp,
                t.disposition,
                t.disposition_history.clone(),
            ));
            sources.push(Source::Tracked(j));
        }
    }
    let timings = a.metrics.as_ref().and_then(|m| m.timings.clone());
    let result = AgentResult {
        schema_version: SCHEMA_VERSION,
        scope: WireScope::from_model(scope),
        status: a.status,
        score: a.score,
        reviewed_sha: a.reviewed_sha,
        angle_errors: a.angle_errors().to_vec(),
        costs: Costs {
            estimated_total_usd: a.estimated_cost_usd,
            summary: a.cost_summary.clone(),
        },
        timings,
        findings,
    };
    Projected { result, sources }
}

/// J3 and J4 for one finding.
fn result_finding<'a>(
    f: &ArtifactFinding<'a>,
    fingerprint: String,
    disposition: Disposition,
    prior: Vec<DispositionRecord<'a>>,
) -> ResultFinding<'a> {
    let g = f.grounding.as_ref();
    ResultFinding {
        id: f.id,
        semantic_fingerprint: Cow::Owned(fingerprint),
        disposition,
        severity: f.severity,
        confidence: f.confidence,
        classification: f.classification,
        blocking_reason: if disposition == Disposition::StillOpen {
            f.blocking_reason
        } else {
            None
        },
        verification: f.verification.clone(),
        path: f.file,
        line: f.line,
        claim: g.map(|g| g.claim),
        causal_evidence: g.map(|g| g.causal_path),
        evidence: g.map(|g| g.evidence.clone()).unwrap_or_default(),
        reproduction: g.and_then(|g| g.reproduction),
        suggested_fix: f.agent_instruction,
        thread_id: None,
        thread_status: ThreadStatus::NotPublished,
        thread_transition: Some(ThreadTransition::NotPublished),
        thread_outdated: false,
        reopening_evidence: g.and_then(|g| g.reopening_evidence).filter(|s| !is_blank(s)),
        prior_dispositions: prior,
    }
}

/// J6: the projection must pass every agent-result rule (R2–R21). Each
/// problem is reported under rule J6 at the source finding, naming the
/// agent-result rule and the projected path it breaks.
pub(crate) fn check(p: &Projected<'_>) -> Vec<Problem> {
    let mut report = Report::default();
    agent_rules::check(&mut report, &p.result, None);
    report
        .problems
        .into_iter()
        .map(|problem| {
            let source = source_of(&problem.path, &p.sources);
            let message = format!(
                "the agent-result projection breaks {} at {}: {}",
                problem.rule,
                if problem.path.is_empty() {
                    "(document)"
                } else {
                    &problem.path
                },
                problem.message
            );
            Problem::new("J6", source.unwrap_or_default(), message)
        })
        .collect()
}

/// The artifact pointer behind a projected pointer `/findings/N/...`.
fn source_of(projected: &str, sources: &[Source]) -> Option<String> {
    let rest = projected.strip_prefix("/findings/")?;
    let index: usize = rest.split('/').next()?.parse().ok()?;
    sources.get(index).map(|s| s.pointer())
}
