//! ReviewGate documents in the cross-format model: one [`ReviewSet`] built
//! from an agent result (a file, or the projection of a v3 artifact).

use super::agent::{AgentResult, ResultFinding};
use super::common::{Evidence, Verification};
use crate::model::finding::{self as model, Finding, FindingKey, Origin, ReviewGateFields, Thread};
use crate::model::review::{Format, Projection, ReviewSet};

/// What an agent result does not carry but its source artifact does.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Extra {
    /// The artifact finding's title.
    pub title: Option<String>,
    /// F4 of the artifact finding.
    pub code_fingerprint: Option<String>,
}

/// Builds the review set of an agent result, consuming it (computed
/// fingerprints move into the model). `extras` supplies the artifact-only
/// facts of each finding in order (none for an agent result file).
pub(crate) fn review_set(
    r: AgentResult<'_>,
    format: Format,
    projection: Projection,
    extras: &mut dyn Iterator<Item = Extra>,
) -> ReviewSet {
    let findings = r
        .findings
        .into_iter()
        .enumerate()
        .map(|(i, f)| finding(i, f, extras.next().unwrap_or_default()));
    ReviewSet {
        format,
        scope: r.scope.to_model(),
        reviewed_sha: Some(r.reviewed_sha.to_owned()),
        status: r.status.model(),
        score: r.score,
        angle_errors: r.angle_errors.iter().map(|e| e.to_model()).collect(),
        findings: findings.collect(),
        river: None,
        projection,
        notices: Vec::new(),
        estimated_cost_usd: r.costs.estimated_total_usd,
    }
}

/// One result finding in the model.
fn finding(index: usize, f: ResultFinding<'_>, extra: Extra) -> Finding {
    let thread = Thread {
        status: f.thread_status,
        transition: f.thread_transition.unwrap_or(model::ThreadTransition::Unknown),
        outdated: f.thread_outdated,
        id: f.thread_id.map(str::to_owned),
        ..Thread::default()
    };
    let fields = ReviewGateFields {
        severity: f.severity,
        confidence: f.confidence,
        classification: f.classification,
        disposition: f.disposition,
        blocking_reason: f.blocking_reason,
        causal_evidence: f.causal_evidence.map(str::to_owned),
        reproduction: f.reproduction.map(str::to_owned),
        verification: f.verification.as_ref().map(verification),
        thread,
        reopening_evidence: f.reopening_evidence.map(str::to_owned),
        history: f.prior_dispositions.iter().map(|r| r.to_model()).collect(),
        code_fingerprint: extra.code_fingerprint,
    };
    Finding {
        index,
        id: f.id.to_owned(),
        key: FindingKey::Semantic(f.semantic_fingerprint.into_owned()),
        rank: f.severity,
        title: extra.title,
        claim: f.claim.map(str::to_owned),
        suggested_fix: Some(f.suggested_fix.to_owned()),
        path: f.path.map(str::to_owned),
        line: f.line,
        evidence: evidence(&f.evidence),
        origin: Origin::ReviewGate(fields),
    }
}

/// Evidence items in the model.
pub(crate) fn evidence(items: &[Evidence<'_>]) -> Vec<model::Evidence> {
    items
        .iter()
        .map(|e| model::Evidence {
            path: e.path.to_owned(),
            side: e.side,
            line: e.line,
            excerpt: e.excerpt.to_owned(),
            reason: e.reason.to_owned(),
        })
        .collect()
}

/// A verification (and its conflicting decisions) in the model.
pub(crate) fn verification(v: &Verification<'_>) -> model::Verification {
    model::Verification {
        state: v.state,
        reason: v.reason.to_owned(),
        model: v.model.to_owned(),
        evidence: evidence(&v.evidence),
        conflicting: v
            .conflicting_decisions
            .iter()
            .map(|d| model::Verification {
                state: d.state,
                reason: d.reason.to_owned(),
                model: d.model.to_owned(),
                evidence: evidence(&d.evidence),
                conflicting: Vec::new(),
            })
            .collect(),
    }
}
