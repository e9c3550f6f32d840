//! Where a typed decoding failure is: one locator per wire type, probing its
//! parts so that the problem names the deepest failing object.

use super::agent::{AgentResult, Costs, ResultFinding};
use super::artifact::{
    AngleResult, Artifact, ArtifactFinding, DispositionUpdate, Excerpt, Grounding, Metrics, ReviewStage,
    SemanticContext, TrackedFinding,
};
use super::common::{
    AngleError, CostComponent, CostSummary, Decision, DispositionRecord, Evidence, Timings, Verification, WireScope,
};
use super::decode::{items, leaf, member, probe};
use super::legacy::{LegacyArtifact, LegacyFinding, LegacyMetrics};
use crate::model::json::DocNode;
use crate::model::problem::Problem;

/// Locates faults in an agent result.
pub(crate) fn agent_result(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<AgentResult>(v, path, out, |m, out| {
        member(m, path, "scope", out, leaf::<WireScope>);
        items(m, path, "angle_errors", out, leaf::<AngleError>);
        member(m, path, "costs", out, costs);
        member(m, path, "timings", out, leaf::<Timings>);
        items(m, path, "findings", out, result_finding);
    });
}

fn costs(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<Costs>(v, path, out, |m, out| member(m, path, "summary", out, cost_summary));
}

fn result_finding(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<ResultFinding>(v, path, out, |m, out| {
        member(m, path, "verification", out, verification);
        items(m, path, "evidence", out, leaf::<Evidence>);
        items(m, path, "prior_dispositions", out, leaf::<DispositionRecord>);
    });
}

fn cost_summary(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<CostSummary>(v, path, out, |m, out| {
        items(m, path, "components", out, leaf::<CostComponent>)
    });
}

fn verification(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<Verification>(v, path, out, |m, out| {
        items(m, path, "evidence", out, leaf::<Evidence>);
        items(m, path, "conflicting_decisions", out, decision);
    });
}

fn decision(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<Decision>(v, path, out, |m, out| items(m, path, "evidence", out, leaf::<Evidence>));
}

/// Locates faults in a v3 review output.
pub(crate) fn artifact(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<Artifact>(v, path, out, |m, out| {
        member(m, path, "cost_summary", out, cost_summary);
        member(m, path, "metrics", out, metrics);
        items(m, path, "review_stages", out, leaf::<ReviewStage>);
        items(m, path, "angle_results", out, leaf::<AngleResult>);
        items(m, path, "angle_errors", out, leaf::<AngleError>);
        items(m, path, "findings", out, finding);
        items(m, path, "disposition_updates", out, update);
        items(m, path, "tracked_findings", out, tracked);
    });
}

fn metrics(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<Metrics>(v, path, out, |m, out| {
        member(m, path, "timings", out, leaf::<Timings>);
        member(m, path, "semantic_context", out, semantic_context);
    });
}

fn semantic_context(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<SemanticContext>(v, path, out, |m, out| items(m, path, "excerpts", out, leaf::<Excerpt>));
}

fn finding(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<ArtifactFinding>(v, path, out, |m, out| {
        member(m, path, "verification", out, verification);
        member(m, path, "grounding", out, grounding);
    });
}

fn grounding(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<Grounding>(v, path, out, |m, out| {
        items(m, path, "evidence", out, leaf::<Evidence>);
        items(m, path, "related_tests", out, leaf::<Evidence>);
    });
}

fn tracked(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<TrackedFinding>(v, path, out, |m, out| {
        member(m, path, "finding", out, finding);
        items(m, path, "disposition_history", out, leaf::<DispositionRecord>);
    });
}

fn update(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<DispositionUpdate>(v, path, out, |m, out| member(m, path, "resolution", out, finding));
}

/// Locates faults in a legacy (v1/v2) review output.
pub(crate) fn legacy(v: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    probe::<LegacyArtifact>(v, path, out, |m, out| {
        member(m, path, "cost_summary", out, cost_summary);
        member(m, path, "metrics", out, leaf::<LegacyMetrics>);
        items(m, path, "review_stages", out, leaf::<ReviewStage>);
        items(m, path, "angle_results", out, leaf::<AngleResult>);
        items(m, path, "angle_errors", out, leaf::<AngleError>);
        items(m, path, "findings", out, leaf::<LegacyFinding>);
    });
}
