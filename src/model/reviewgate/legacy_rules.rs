//! The rules a v1/v2 review output is judged by: those ReviewGate itself
//! applied in the era that wrote it (see [`Era`]), under this project's
//! rule ids.
//!
//! - v1 (upstream b836e29, `ReviewArtifact::validate`): the score is 0..5;
//!   costs are finite and not negative (top level, cost summary, metrics,
//!   stages); stage and angle fields are non-blank and angle scores 0..5;
//!   finding confidence is within 0..1. Nothing else: the score and status
//!   were recomputed from the findings later, never compared, and `failed`
//!   was read as `needs_changes`.
//! - v2 (upstream 5afc45d): everything v1 checked, plus a non-blank
//!   `reviewed_sha`; the status triad; the score equal to the one derived
//!   from the findings (the lowest severity ceiling, P0 1 .. P4 5, or 5 with
//!   no findings) and the status equal to the derived one (`passed` at 5);
//!   unique finding and angle ids; every angle owning exactly the findings
//!   it lists, its score and status derived from them; findings owned only
//!   by known angles; angle errors non-blank, unique and never for an angle
//!   that succeeded.
//!
//! Upstream stopped at the first fault; here every fault is reported.

use super::artifact_rules::{ScoreEra, score_and_status};
use super::legacy::{Era, LegacyArtifact, LegacyFinding, LegacyStatus};
use super::shared_rules::{self as shared, Report, quote};
use crate::model::finding::Severity;
use std::collections::{HashMap, HashSet};

/// Every rule of the output's era.
pub(crate) fn check(report: &mut Report, a: &LegacyArtifact<'_>) {
    let era = a.era();
    if era == Era::V2 {
        report.non_blank("A1", "", "reviewed_sha", a.reviewed_sha);
    }
    if let Some(s) = a.score.filter(|&s| s > 5) {
        report.push("A2", "/score", format!("score must be null or 0..5, not {s}"));
    }
    if era == Era::V2 {
        status_rules(report, a);
    }
    report.opt_cost("A5", "", "estimated_cost_usd", a.estimated_cost_usd);
    if let Some(summary) = &a.cost_summary {
        shared::cost_summary(report, "/cost_summary", summary);
    }
    if let Some(m) = &a.metrics {
        report.opt_cost("A7", "/metrics", "current_run_cost_usd", m.current_run_cost_usd);
    }
    for (i, stage) in a.review_stages.iter().enumerate() {
        let base = format!("/review_stages/{i}");
        for (field, value) in [
            ("name", stage.name),
            ("model", stage.model),
            ("status", stage.status),
            ("reason", stage.reason),
        ] {
            report.non_blank("A6", &base, field, value);
        }
        report.opt_cost("A6", &base, "estimated_cost_usd", stage.estimated_cost_usd);
    }
    for (k, angle) in a.angle_results.iter().enumerate() {
        let base = format!("/angle_results/{k}");
        for (field, value) in [
            ("id", angle.id),
            ("name", angle.name),
            ("verdict", angle.verdict),
            ("model", angle.model),
        ] {
            report.non_blank("A18", &base, field, value);
        }
        if angle.score > 5 {
            report.push(
                "A18",
                format!("{base}/score"),
                format!("an angle score must be 0..5, not {}", angle.score),
            );
        }
    }
    for (i, f) in a.findings.iter().enumerate() {
        if !(0.0..=1.0).contains(&f.confidence) {
            report.push(
                "A13",
                format!("/findings/{i}/confidence"),
                format!("confidence must be within 0..1, not {}", f.confidence),
            );
        }
    }
    if era == Era::V2 {
        ownership(report, a);
        angle_errors(report, a);
    }
}

/// The v2 score of a list of findings: the lowest severity ceiling, 5 for none.
fn derived_score<'f>(findings: impl IntoIterator<Item = &'f LegacyFinding<'f>>) -> u8 {
    findings
        .into_iter()
        .map(|f| match f.severity {
            Severity::P0 => 1,
            Severity::P1 => 2,
            Severity::P2 => 3,
            Severity::P3 => 4,
            Severity::P4 => 5,
        })
        .min()
        .unwrap_or(5)
}

/// The v2 status of a score: `passed` at 5, else `needs_changes`.
fn derived_status(score: u8) -> LegacyStatus {
    if score >= 5 {
        LegacyStatus::Passed
    } else {
        LegacyStatus::NeedsChanges
    }
}

/// A3, A4 and the derived score and status (v2).
fn status_rules(report: &mut Report, a: &LegacyArtifact<'_>) {
    let errors = a.angle_errors();
    if a.status == LegacyStatus::ReviewError {
        if a.score.is_some() {
            report.push("A3", "/score", "a review_error output must have a null score");
        }
        if errors.is_empty() {
            // An absent member points at the document, where it is missing.
            let (path, absent) = match a.angle_errors {
                Some(_) => ("/angle_errors", ""),
                None => ("", " (angle_errors is absent)"),
            };
            report.push(
                "A3",
                path,
                format!("a review_error output needs at least one angle error{absent}"),
            );
        }
        return;
    }
    if !errors.is_empty() {
        report.push(
            "A4",
            "/angle_errors",
            format!("a {} review has no angle errors", a.status.as_str()),
        );
    }
    let derived = derived_score(&a.findings);
    score_and_status(report, ScoreEra::Legacy, a.status.model(), a.score, derived);
}

/// A17 and A19–A22 (v2): ids, ownership and each angle's derived outcome.
fn ownership(report: &mut Report, a: &LegacyArtifact<'_>) {
    let mut ids: HashMap<&str, usize> = HashMap::with_capacity(a.findings.len());
    for (i, f) in a.findings.iter().enumerate() {
        if let Some(&first) = ids.get(f.id) {
            report.push(
                "A17",
                format!("/findings/{i}/id"),
                format!("finding id {} is already used by /findings/{first}", quote(f.id)),
            );
        } else {
            ids.insert(f.id, i);
        }
    }
    let mut angle_ids = HashSet::new();
    for (k, angle) in a.angle_results.iter().enumerate() {
        let base = format!("/angle_results/{k}");
        if !angle_ids.insert(angle.id) {
            report.push(
                "A19",
                format!("{base}/id"),
                format!("angle id {} is used twice", quote(angle.id)),
            );
        }
        let mut listed = HashSet::new();
        let mut owned = Vec::new();
        for (j, &id) in angle.finding_ids.iter().enumerate() {
            let path = format!("{base}/finding_ids/{j}");
            if !listed.insert(id) {
                report.push("A20", &path, format!("finding id {} is listed twice", quote(id)));
                continue;
            }
            match ids.get(id).map(|&i| &a.findings[i]) {
                Some(f) if f.angle_id == Some(angle.id) => owned.push(f),
                Some(_) => report.push(
                    "A20",
                    &path,
                    format!("finding {} does not belong to angle {}", quote(id), quote(angle.id)),
                ),
                None => report.push("A20", &path, format!("no finding has id {}", quote(id))),
            }
        }
        for (i, f) in a.findings.iter().enumerate() {
            if f.angle_id == Some(angle.id) && !listed.contains(f.id) {
                report.push(
                    "A20",
                    format!("/findings/{i}"),
                    format!("angle {} does not list its finding {}", quote(angle.id), quote(f.id)),
                );
            }
        }
        let derived = derived_score(owned);
        if angle.score != derived || angle.status.as_str() != derived_status(derived).as_str() {
            report.push(
                "A21",
                base,
                format!(
                    "angle {} has score {} and status {}, but its findings give {derived} and {}",
                    quote(angle.id),
                    angle.score,
                    angle.status.as_str(),
                    derived_status(derived).as_str()
                ),
            );
        }
    }
    for (i, f) in a.findings.iter().enumerate() {
        if let Some(angle_id) = f.angle_id.filter(|id| !angle_ids.contains(id)) {
            report.push(
                "A22",
                format!("/findings/{i}/angle_id"),
                format!("angle_id {} names no angle", quote(angle_id)),
            );
        }
    }
}

/// A23 (v2): angle errors non-blank, one per angle, never for a successful one.
fn angle_errors(report: &mut Report, a: &LegacyArtifact<'_>) {
    let errors = a.angle_errors();
    shared::angle_errors(report, "/angle_errors", errors);
    let succeeded: HashSet<&str> = a.angle_results.iter().map(|r| r.id).collect();
    let mut failed = HashSet::new();
    for (i, e) in errors.iter().enumerate() {
        let path = format!("/angle_errors/{i}/angle_id");
        if !failed.insert(e.angle_id) {
            report.push("A23", &path, format!("angle {} has two errors", quote(e.angle_id)));
        }
        if succeeded.contains(e.angle_id) {
            report.push(
                "A23",
                &path,
                format!("angle {} cannot both succeed and fail", quote(e.angle_id)),
            );
        }
    }
}
