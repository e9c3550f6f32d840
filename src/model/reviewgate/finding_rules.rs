//! Rules on one artifact finding, top-level or tracked (A13–A15), and on the
//! tracked findings as a whole (A24–A31).

use super::artifact::{Artifact, ArtifactFinding};
use super::common::RgStatus;
use super::policy::{expected_blocking_reason, is_blocker_candidate};
use super::shared_rules::{self as shared, Report, quote};
use crate::model::finding::{BlockingReason, Disposition, VerificationState};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

fn reason_name(r: Option<BlockingReason>) -> &'static str {
    r.map_or("null", BlockingReason::as_str)
}

/// A13–A15 on one finding at `base`.
pub(crate) fn check(report: &mut Report, base: &str, f: &ArtifactFinding<'_>) {
    if !(0.0..=1.0).contains(&f.confidence) {
        report.push(
            "A13",
            format!("{base}/confidence"),
            format!("confidence must be within 0..1, not {}", f.confidence),
        );
    }
    let expected = expected_blocking_reason(f);
    if f.blocking_reason != expected {
        report.push(
            "A14",
            format!("{base}/blocking_reason"),
            format!(
                "the blocking policy gives {} for this finding, not {}",
                reason_name(expected),
                reason_name(f.blocking_reason)
            ),
        );
    }
    if let Some(v) = &f.verification {
        if !is_blocker_candidate(f) {
            report.push(
                "A15",
                format!("{base}/verification"),
                "only a blocker candidate (P0–P3, confidence ≥ 0.85, defect/security/reliability_risk) may carry a verification",
            );
        }
        shared::verification(report, &format!("{base}/verification"), v);
    }
}

/// A24–A31. `finding_fps` holds F1 of each top-level finding and
/// `tracked_fps` F1 of each tracked finding's embedded finding.
pub(crate) fn tracked(report: &mut Report, a: &Artifact<'_>, finding_fps: &[String], tracked_fps: &[String]) {
    if a.tracked_findings.is_empty() {
        return;
    }
    let mut stored: HashMap<&str, usize> = HashMap::with_capacity(a.tracked_findings.len());
    for (j, t) in a.tracked_findings.iter().enumerate() {
        let base = format!("/tracked_findings/{j}");
        check(report, &format!("{base}/finding"), &t.finding);
        if tracked_fps.get(j).is_some_and(|fp| fp != t.semantic_fingerprint) {
            report.push(
                "A25",
                format!("{base}/semantic_fingerprint"),
                format!(
                    "semantic_fingerprint {} differs from the embedded finding's {}",
                    quote(t.semantic_fingerprint),
                    quote(&tracked_fps[j])
                ),
            );
        }
        history(report, &base, t.disposition, &t.disposition_history);
        match stored.entry(t.semantic_fingerprint) {
            Entry::Occupied(first) => report.push(
                "A27",
                format!("{base}/semantic_fingerprint"),
                format!(
                    "semantic_fingerprint is already tracked at /tracked_findings/{}",
                    first.get()
                ),
            ),
            Entry::Vacant(slot) => {
                slot.insert(j);
            }
        }
    }
    if a.status != RgStatus::ReviewError {
        open_set(report, a, finding_fps);
    }
}

/// A26: a non-empty, well-formed history whose last record agrees.
fn history(
    report: &mut Report,
    base: &str,
    disposition: Disposition,
    records: &[super::common::DispositionRecord<'_>],
) {
    let path = format!("{base}/disposition_history");
    shared::records(report, &path, records);
    match records.last() {
        None => report.push("A26", &path, "a tracked finding needs at least one history record"),
        Some(last) if last.disposition != disposition => report.push(
            "A26",
            format!("{path}/{}/disposition", records.len() - 1),
            format!(
                "the last history record is {} but the tracked disposition is {}",
                last.disposition.as_str(),
                disposition.as_str()
            ),
        ),
        Some(_) => {}
    }
}

/// A28–A30: the active top-level findings and the still-open tracked
/// findings are the same set, finding for finding.
fn open_set(report: &mut Report, a: &Artifact<'_>, finding_fps: &[String]) {
    let mut active: HashMap<&str, usize> = HashMap::new();
    for (i, f) in a.findings.iter().enumerate() {
        let rejected = f
            .verification
            .as_ref()
            .is_some_and(|v| v.state == VerificationState::Rejected);
        if let (false, Some(fp)) = (rejected, finding_fps.get(i)) {
            active.insert(fp.as_str(), i);
        }
    }
    let mut open: HashMap<&str, usize> = HashMap::new();
    for (j, t) in a.tracked_findings.iter().enumerate() {
        if t.disposition == Disposition::StillOpen {
            open.insert(t.semantic_fingerprint, j);
        }
    }
    let mut missing: Vec<usize> = active
        .iter()
        .filter(|(fp, _)| !open.contains_key(*fp))
        .map(|(_, &i)| i)
        .collect();
    missing.sort_unstable();
    for i in missing {
        report.push(
            "A29",
            format!("/findings/{i}"),
            "this active finding has no still_open tracked finding with its semantic fingerprint",
        );
    }
    let mut rest: Vec<(usize, Option<usize>)> = open.iter().map(|(fp, &j)| (j, active.get(fp).copied())).collect();
    rest.sort_unstable();
    for (j, i) in rest {
        match i {
            None => report.push(
                "A29",
                format!("/tracked_findings/{j}/semantic_fingerprint"),
                "this still_open tracked finding matches no active top-level finding",
            ),
            Some(i) if a.findings[i] != a.tracked_findings[j].finding => report.push(
                "A30",
                format!("/tracked_findings/{j}/finding"),
                format!("this still_open tracked copy differs from /findings/{i}"),
            ),
            Some(_) => {}
        }
    }
}
