//! ReviewGate formats: agent result v1, review output v3 (and legacy v1/v2),
//! their code-level rules and the artifact → agent-result projection.
//!
//! Each document is decoded once into borrowed, strictly typed structs
//! (unknown members, missing members, wrong types and non-integer integers
//! are problems), then every rule of REVIEWGATE-RULES §2, §3 and §6 runs on
//! the typed value and reports all it finds. The JSON Schema check is the
//! loader's job; nothing here depends on it having run.

mod agent;
mod agent_rules;
mod artifact;
mod artifact_rules;
mod common;
mod decode;
mod finding_rules;
mod fp;
mod legacy;
mod legacy_rules;
mod locate;
mod model;
mod policy;
mod projection;
mod serde_util;
mod shared_rules;
mod strict_doc;

#[cfg(test)]
mod tests;

pub use agent::{AgentResult, Costs, MAX_BYTES, ResultFinding, SCHEMA_VERSION};
pub use common::{
    AngleError, AngleErrorKind, CostComponent, CostSource, CostSummary, Decision, DispositionRecord, Evidence,
    RgStatus, ScopeKind, Timings, Verification, WireScope,
};
pub use fp::{FindingSource, SourceFingerprint};
pub use policy::{HIGH_CONFIDENCE_THRESHOLD, TARGET_SCORE};

use super::json::{Doc, DocNode, Strings};
use super::problem::Problem;
use super::review::{Checked, Format, Projection, Scope};
use artifact::Artifact;
use shared_rules::Report;

/// Checks an agent result (rules R1–R21) and builds its model.
///
/// `raw_len` is the size in bytes of the file the value was read from (R1).
pub fn check_agent_result(value: DocNode<'_>, raw_len: usize) -> Checked {
    let mut report = Report::default();
    let result = match decode::decode::<AgentResult>(value, locate::agent_result) {
        Ok(r) => r,
        Err(problems) => {
            if raw_len > MAX_BYTES {
                report.push(
                    "R1",
                    "",
                    format!("the file is {raw_len} bytes; an agent result is at most {MAX_BYTES} bytes"),
                );
            }
            report.problems.extend(problems);
            return Checked {
                set: None,
                problems: report.problems,
            };
        }
    };
    agent_checked(report, result, raw_len)
}

fn agent_checked(mut report: Report, result: AgentResult<'_>, raw_len: usize) -> Checked {
    agent_rules::check(&mut report, &result, Some(raw_len));
    let set = model::review_set(
        result,
        Format::AgentResult,
        Projection::NotApplicable,
        &mut std::iter::empty(),
    );
    Checked {
        set: Some(set),
        problems: report.problems,
    }
}

/// Checks a v3 review output (rules A1–A31), projects it (J1–J7) and builds
/// its model through the projection.
///
/// A projection that fails J6 does not make the output invalid: the problems
/// stay empty and the set's `projection` is [`Projection::Failed`]. Findings
/// are still built from the (unvalidated) projection so they can be shown.
pub fn check_artifact(value: DocNode<'_>) -> Checked {
    match decode::decode::<Artifact>(value, locate::artifact) {
        Ok(artifact) => artifact_checked(artifact),
        Err(problems) => Checked { set: None, problems },
    }
}

/// [`check_artifact`] of a document it owns, over the strings of another
/// (the halves `Doc::split` gives): the document's tape is freed as soon as
/// the typed structs are decoded, before the model grows, since they borrow
/// only `strings`.
pub fn check_artifact_freeing<'s>(doc: Doc<'_>, strings: Strings<'s>) -> Checked {
    let decoded = decode::decode_lent::<Artifact<'s>>(doc.root(), strings, locate::artifact);
    drop(doc);
    match decoded {
        Ok(artifact) => artifact_checked(artifact),
        Err(problems) => Checked { set: None, problems },
    }
}

/// Decodes `doc` lending `strings` (for the document's own tests); the doc
/// is dropped before the value is returned.
#[cfg(test)]
pub(crate) fn test_decode_lent<'s, T: serde::Deserialize<'s>>(doc: Doc<'_>, strings: Strings<'s>) -> T {
    let decoded = strict_doc::from_doc_lent(doc.root(), strings, &strict_doc::Trail::new(""));
    drop(doc);
    decoded.expect("decodes")
}

/// The problems [`check_artifact`] finds, without building the model or the
/// projection (a J6 failure is not a problem of the file): for commands that
/// read the value itself and must not hold a model of a large file beside it.
pub fn artifact_rule_problems(value: DocNode<'_>) -> Vec<Problem> {
    match decode::decode::<Artifact>(value, locate::artifact) {
        Ok(artifact) => {
            let fps = fp::Fingerprints::of(&artifact);
            artifact_problems(&artifact, &fps)
        }
        Err(problems) => problems,
    }
}

fn artifact_checked(artifact: Artifact<'_>) -> Checked {
    let fps = fp::Fingerprints::of(&artifact);
    let problems = artifact_problems(&artifact, &fps);
    let projected = projection::project_typed(&artifact, &Scope::Local, fps);
    let state = if problems.is_empty() {
        match projection::check(&projected) {
            p if p.is_empty() => Projection::Ok,
            p => Projection::Failed(p),
        }
    } else {
        Projection::Failed(vec![Problem::new(
            "J1",
            "",
            "the review output is invalid, so it has no agent-result projection",
        )])
    };
    let extras: Vec<model::Extra> = projected
        .sources
        .iter()
        .map(|s| {
            let source = s.finding(&artifact);
            model::Extra {
                title: Some(source.title.to_owned()),
                code_fingerprint: Some(fp::code_of(source)),
            }
        })
        .collect();
    // The typed views are not needed any more; free them before the model grows.
    drop(artifact);
    let set = model::review_set(projected.result, Format::ArtifactV3, state, &mut extras.into_iter());
    Checked {
        set: Some(set),
        problems,
    }
}

/// Every §3 problem of a decoded v3 output.
fn artifact_problems(artifact: &Artifact<'_>, fps: &fp::Fingerprints) -> Vec<Problem> {
    let mut report = Report::default();
    artifact_rules::check(&mut report, artifact);
    finding_rules::tracked(&mut report, artifact, &fps.findings, &fps.tracked);
    report.problems
}

/// Checks a legacy v1/v2 review output and builds its model (read-only).
pub fn check_legacy_artifact(value: DocNode<'_>) -> Checked {
    let artifact = match decode::decode::<legacy::LegacyArtifact>(value, locate::legacy) {
        Ok(a) => a,
        Err(problems) => return Checked { set: None, problems },
    };
    let mut report = Report::default();
    legacy_rules::check(&mut report, &artifact);
    Checked {
        set: Some(legacy::review_set(&artifact)),
        problems: report.problems,
    }
}

/// True when a review-output object predates v3: it has findings and none
/// of the members only v3 has (see `legacy` for the exact test).
pub fn is_legacy_artifact(root: DocNode<'_>) -> bool {
    legacy::is_legacy(root)
}

/// Projects a v3 review output for `scope` with an empty thread map.
///
/// The output must pass every §3 rule (J1) and the projection every §6 rule
/// (J6); otherwise every problem is returned. The schema is not checked here.
pub fn project<'a>(value: DocNode<'a>, scope: &Scope) -> Result<AgentResult<'a>, Vec<Problem>> {
    let artifact = decode::decode::<Artifact>(value, locate::artifact)?;
    project_decoded(artifact, scope)
}

/// [`project`] of a document it owns, over the strings of another (see
/// [`check_artifact_freeing`]): the tape is freed before the projection is built.
pub fn project_freeing<'s>(doc: Doc<'_>, strings: Strings<'s>, scope: &Scope) -> Result<AgentResult<'s>, Vec<Problem>> {
    let decoded = decode::decode_lent::<Artifact<'s>>(doc.root(), strings, locate::artifact);
    drop(doc);
    project_decoded(decoded?, scope)
}

fn project_decoded<'a>(artifact: Artifact<'a>, scope: &Scope) -> Result<AgentResult<'a>, Vec<Problem>> {
    let fps = fp::Fingerprints::of(&artifact);
    let problems = artifact_problems(&artifact, &fps);
    if !problems.is_empty() {
        return Err(problems);
    }
    let projected = projection::project_typed(&artifact, scope, fps);
    let problems = projection::check(&projected);
    if problems.is_empty() {
        Ok(projected.result)
    } else {
        Err(problems)
    }
}

/// The semantic (F1) and code (F4) fingerprints of every finding of a v3
/// output, top-level findings first, then tracked findings. Only typed
/// decoding must succeed; the rules are not checked.
pub fn finding_fingerprints(value: DocNode<'_>) -> Result<Vec<SourceFingerprint>, Vec<Problem>> {
    let artifact = decode::decode::<Artifact>(value, locate::artifact)?;
    let fps = fp::Fingerprints::of(&artifact);
    Ok(fp::all(&artifact, &fps))
}

/// The canonical (§8) bytes of an agent result, without a trailing newline.
pub fn canonical_projection(result: &AgentResult<'_>) -> Vec<u8> {
    super::json::to_canonical_vec(result)
}
