//! Reading one River finding (artifact `findings[]`, run output `issues[]`)
//! and turning it into the cross-format [`Finding`].

use super::fingerprint_v2::{river_fingerprint_v2, v2_line};
use super::reader::{Reader, compact};
use super::types::{
    CONFIDENCES, FINDING_SCOPES, PHASES, RiverFinding, RiverPhase, SOURCE_KINDS, VALIDATED_STATUSES, parse_severity,
    parse_status,
};
use crate::model::finding::{Finding, FindingKey, Origin, RiverFields, Severity};
use crate::model::fingerprint::river_fingerprint;
use crate::model::problem::push_pointer;
use serde_json::Value;

/// Which document the finding sits in (their member sets differ slightly).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingKind {
    /// `findings[]` of a review artifact.
    Artifact,
    /// `issues[]` of `river run --output json`.
    RunIssue,
}

const REQUIRED: [&str; 7] = ["id", "ruleId", "title", "message", "severity", "phase", "file"];
const COMMON: [&str; 15] = [
    "id",
    "ruleId",
    "title",
    "message",
    "severity",
    "phase",
    "file",
    "line",
    "lineEnd",
    "confidence",
    "status",
    "evidence",
    "reviewer",
    "suggestion",
    "scope",
];
/// Members only the artifact's finding definition has.
const ARTIFACT_ONLY: [&str; 3] = ["sourceKind", "agreement", "validatedStatus"];
/// Newer additive members River documents but does not describe in detail.
const NEWER_OPAQUE: [&str; 3] = ["criterionRefs", "artifactRefs", "consensusLevel"];

/// The longest display form kept of an opaque newer member.
const EXTRA_CHARS: usize = 300;

/// Reads one finding at `path`; problems and notices go to `reader`.
pub fn read_finding(reader: &mut Reader, value: &Value, path: &str, kind: FindingKind) -> RiverFinding {
    let Some(obj) = reader.object(value, path) else {
        return RiverFinding {
            fingerprint: river_fingerprint(None, None, None, None),
            ..RiverFinding::default()
        };
    };
    let mut known: Vec<&str> = COMMON.iter().chain(NEWER_OPAQUE.iter()).copied().collect();
    match kind {
        FindingKind::Artifact => known.extend(ARTIFACT_ONLY),
        FindingKind::RunIssue => known.extend(["actionability", "reviewerRole"]),
    }
    reader.members(obj, &known, &REQUIRED);

    let mut f = RiverFinding {
        id: reader.non_empty_string(obj, "id").map(str::to_owned),
        rule_id: reader.non_empty_string(obj, "ruleId").map(str::to_owned),
        title: reader.non_empty_string(obj, "title").map(str::to_owned),
        message: reader.non_empty_string(obj, "message").map(str::to_owned),
        file: reader.non_empty_string(obj, "file").map(str::to_owned),
        phase: reader.one_of(obj, "phase", &PHASES).and_then(RiverPhase::parse),
        line: reader.positive_int(obj, "line"),
        line_end: reader.positive_int(obj, "lineEnd"),
        confidence: reader.one_of(obj, "confidence", &CONFIDENCES).map(str::to_owned),
        evidence: reader.strings(obj, "evidence", false, false),
        reviewer: reader.string(obj, "reviewer").map(str::to_owned),
        suggestion: reader.string(obj, "suggestion").map(str::to_owned),
        scope: reader.one_of(obj, "scope", &FINDING_SCOPES).map(str::to_owned),
        ..RiverFinding::default()
    };
    f.severity = reader
        .one_of(obj, "severity", &["info", "minor", "major", "critical"])
        .and_then(parse_severity);
    f.status = reader
        .one_of(obj, "status", &["open", "suppressed", "verified"])
        .and_then(parse_status);
    if kind == FindingKind::Artifact {
        f.source_kind = reader.one_of(obj, "sourceKind", &SOURCE_KINDS).map(str::to_owned);
        f.agreement = reader.strings(obj, "agreement", true, true);
        f.validated_status = reader
            .one_of(obj, "validatedStatus", &VALIDATED_STATUSES)
            .map(str::to_owned);
    } else {
        if let Some(a) = reader.number(obj, "actionability", 0.0, 1.0) {
            f.extra.push(("actionability".to_owned(), a.to_string()));
        }
        if let Some(role) = reader.non_empty_string(obj, "reviewerRole") {
            f.extra.push(("reviewerRole".to_owned(), role.to_owned()));
        }
    }
    super::newer::read_finding_members(reader, obj);
    for key in NEWER_OPAQUE {
        if let Some(v) = obj.get(key) {
            f.extra.push((key.to_owned(), compact(v, EXTRA_CHARS)));
        }
    }
    f.category = obj.get("category").and_then(Value::as_str).map(str::to_owned);
    // River hashes the members as they are, valid or not.
    let raw = |key: &str| obj.get(key).and_then(Value::as_str);
    f.fingerprint = river_fingerprint(raw("ruleId"), raw("file"), raw("message"), raw("title"));
    // An infinity is present and not an integer to `Number.isInteger`: it
    // stands in as a non-number, which gives `L0` and does not fall through.
    let not_integer = Value::String("Infinity".to_owned());
    let as_js = |key: &str| match reader.infinity_at(&obj.at(key)) {
        Some(_) => Some(&not_integer),
        None => obj.get(key),
    };
    f.v2_line = v2_line(as_js("lineStart"), as_js("line"));
    f.fingerprint_v2 = river_fingerprint_v2(raw("ruleId"), raw("file"), raw("message"), raw("title"), &f.v2_line);
    f
}

/// Reads every item of a findings/issues array.
pub fn read_findings(reader: &mut Reader, items: &[Value], base: &str, kind: FindingKind) -> Vec<RiverFinding> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| read_finding(reader, item, &push_pointer(base, &i.to_string()), kind))
        .collect()
}

/// The cross-format finding for a River finding at position `index`.
pub fn to_finding(index: usize, f: &RiverFinding) -> Finding {
    // A finding without a valid severity is invalid anyway; it sorts last.
    let rank = f.severity.map_or(Severity::P4, |s| s.rank());
    let fields = RiverFields {
        rule_id: f.rule_id.clone(),
        phase: f.phase.map(|p| p.as_str().to_owned()),
        severity: f.severity,
        confidence: f.confidence.clone(),
        status: f.status,
        evidence: f.evidence.clone(),
        suggestion: f.suggestion.clone(),
        reviewer: f.reviewer.clone(),
        source_kind: f.source_kind.clone(),
        agreement: (!f.agreement.is_empty()).then(|| f.agreement.join(", ")),
        validated_status: f.validated_status.clone(),
        scope: f.scope.clone(),
        line_end: f.line_end,
        fingerprint_v2: f.fingerprint_v2.clone(),
        v2_line: f.v2_line.clone(),
        message: f.message.clone(),
        extra: f.extra.clone(),
    };
    Finding {
        index,
        id: f.id.clone().unwrap_or_default(),
        key: FindingKey::River(f.fingerprint.clone()),
        rank,
        title: f.title.clone(),
        claim: f.message.clone(),
        suggested_fix: f.suggestion.clone(),
        path: f.file.clone(),
        line: f.line,
        evidence: Vec::new(),
        origin: Origin::River(fields),
    }
}
