//! Fingerprints of artifact findings (F1, F4), computed once per document
//! and shared by the rules, the projection and the model.

use super::artifact::{Artifact, ArtifactFinding, Grounding};
use crate::model::finding::Classification;
use crate::model::fingerprint::{CodeGrounding, CodeItem, code_fingerprint, semantic_fingerprint, semantic_key};

/// Which list of a v3 output a finding sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingSource {
    /// Top-level `findings`.
    Findings,
    /// The embedded `finding` of a `tracked_findings` entry.
    TrackedFindings,
}

/// Both fingerprints of one finding of a v3 output.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SourceFingerprint {
    pub source: FindingSource,
    /// Position in its list.
    pub index: usize,
    /// The finding's (per-run, display-only) id.
    pub id: String,
    /// F1.
    pub semantic_fingerprint: String,
    /// F4.
    pub code_fingerprint: String,
}

/// F1 and F4 of every top-level and tracked finding, in that order.
pub(crate) fn all(a: &Artifact<'_>, fps: &Fingerprints) -> Vec<SourceFingerprint> {
    let top = a
        .findings
        .iter()
        .zip(&fps.findings)
        .enumerate()
        .map(|(i, (f, fp))| (FindingSource::Findings, i, f, fp));
    let tracked = a
        .tracked_findings
        .iter()
        .zip(&fps.tracked)
        .enumerate()
        .map(|(j, (t, fp))| (FindingSource::TrackedFindings, j, &t.finding, fp));
    top.chain(tracked)
        .map(|(source, index, f, fp)| SourceFingerprint {
            source,
            index,
            id: f.id.to_owned(),
            semantic_fingerprint: fp.clone(),
            code_fingerprint: code_of(f),
        })
        .collect()
}

/// F1 of every top-level finding and of every tracked finding's embedded finding.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Fingerprints {
    pub findings: Vec<String>,
    pub tracked: Vec<String>,
}

impl Fingerprints {
    /// Computes them for one artifact.
    pub fn of(a: &Artifact<'_>) -> Fingerprints {
        Fingerprints {
            findings: a.findings.iter().map(semantic_of).collect(),
            tracked: a.tracked_findings.iter().map(|t| semantic_of(&t.finding)).collect(),
        }
    }
}

/// F1: classification, file (or `pr`), and the grounding's semantic key when
/// non-blank, else the title.
pub(crate) fn semantic(
    classification: Classification,
    file: Option<&str>,
    grounding_key: Option<&str>,
    title: &str,
) -> String {
    semantic_fingerprint(classification.as_str(), file, semantic_key(grounding_key, title))
}

/// F1 of an artifact finding.
pub(crate) fn semantic_of(f: &ArtifactFinding<'_>) -> String {
    semantic(
        f.classification,
        f.file,
        f.grounding.as_ref().map(|g| g.semantic_key),
        f.title,
    )
}

/// F4: file (or `pr`), and with grounding its causal path and the sorted
/// `path`/`side`/`excerpt` items of its evidence and related tests.
pub(crate) fn code(file: Option<&str>, grounding: Option<&Grounding<'_>>) -> String {
    let grounding = grounding.map(|g| CodeGrounding {
        causal_path: g.causal_path,
        items: g
            .evidence
            .iter()
            .chain(&g.related_tests)
            .map(|e| CodeItem {
                path: e.path,
                side: e.side.as_str(),
                excerpt: e.excerpt,
            })
            .collect(),
    });
    code_fingerprint(file, grounding)
}

/// F4 of an artifact finding.
pub(crate) fn code_of(f: &ArtifactFinding<'_>) -> String {
    code(f.file, f.grounding.as_ref())
}
