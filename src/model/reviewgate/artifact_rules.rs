//! v3 review output rules: top level, stages, metrics and angles
//! (REVIEWGATE-RULES §3.1–§3.4: A1–A23, P14).

use super::artifact::{AngleResult, Artifact, ArtifactFinding, Metrics, SemanticContext};
use super::common::RgStatus;
use super::finding_rules;
use super::policy::{compute_score, status_for_score};
use super::shared_rules::{self as shared, Report, quote};
use crate::model::finding::VerificationState;
use crate::model::review::ReviewStatus;
use std::collections::hash_map::Entry;
// foldhash (seeded per process) for the id maps: a fraction of SipHash's
// cost on short keys; a hash is only a bucket, keys are compared exactly.
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// Checks every §3.1–§3.4 rule (the tracked-finding rules are in
/// `tracked_rules`).
pub(crate) fn check(report: &mut Report, a: &Artifact<'_>) {
    if a.target_score.is_some() {
        report.push(
            "P14",
            "/target_score",
            "target_score is an input-only member; a review output may not carry it",
        );
    }
    report.non_blank("A1", "", "reviewed_sha", a.reviewed_sha);
    if let Some(s) = a.score.filter(|&s| s > 5) {
        report.push("A2", "/score", format!("score must be null or 0..5, not {s}"));
    }
    status_rules(report, a);
    report.opt_cost("A5", "", "estimated_cost_usd", a.estimated_cost_usd);
    if let Some(summary) = &a.cost_summary {
        shared::cost_summary(report, "/cost_summary", summary);
    }
    for (i, stage) in a.review_stages.iter().enumerate() {
        let base = format!("/review_stages/{i}");
        report.non_blank("A6", &base, "name", stage.name);
        report.non_blank("A6", &base, "model", stage.model);
        report.non_blank("A6", &base, "status", stage.status);
        report.non_blank("A6", &base, "reason", stage.reason);
        report.opt_cost("A6", &base, "estimated_cost_usd", stage.estimated_cost_usd);
    }
    if let Some(m) = &a.metrics {
        metrics(report, m);
    }
    let mut ids: HashMap<&str, usize> = HashMap::with_capacity(a.findings.len());
    for (i, f) in a.findings.iter().enumerate() {
        let base = format!("/findings/{i}");
        finding_rules::check(report, &base, f);
        match ids.entry(f.id) {
            Entry::Occupied(first) => report.push(
                "A17",
                format!("{base}/id"),
                format!(
                    "finding id {} is already used by /findings/{}",
                    quote(f.id),
                    first.get()
                ),
            ),
            Entry::Vacant(slot) => {
                slot.insert(i);
            }
        }
    }
    angles(report, a, &ids);
}

/// The era whose A4 score check runs: which score the status must follow,
/// and the wording of a mismatch (each era's messages are pinned by tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ScoreEra {
    /// The current artifact: the status follows the score as written.
    Artifact,
    /// Legacy v2 outputs: the status follows the score derived from the findings.
    Legacy,
}

/// A4 for a review that is not a `review_error`: it has a score, the score
/// is `derived` (the findings' score), and the status is the one its era's
/// score gives (`passed` at or above the target score, else `needs_changes`).
pub(super) fn score_and_status(
    report: &mut Report,
    era: ScoreEra,
    status: ReviewStatus,
    score: Option<u8>,
    derived: u8,
) {
    let Some(score) = score else {
        report.push("A4", "/score", format!("a {} review needs a score", status.as_str()));
        return;
    };
    if score != derived {
        let message = match era {
            ScoreEra::Artifact => format!("score is {score} but the findings give {derived}"),
            ScoreEra::Legacy => format!("score {score} does not match the score derived from the findings, {derived}"),
        };
        report.push("A4", "/score", message);
    }
    let basis = if era == ScoreEra::Artifact { score } else { derived };
    let expected = status_for_score(basis).model();
    if status != expected {
        let (expected, status) = (expected.as_str(), status.as_str());
        let message = match era {
            ScoreEra::Artifact => format!("score {score} means status {expected}, not {status}"),
            ScoreEra::Legacy => {
                format!("status {status} does not match the status derived from the findings, {expected}")
            }
        };
        report.push("A4", "/status", message);
    }
}

/// A3 and A4: status, score, angle errors and the derived score agree.
fn status_rules(report: &mut Report, a: &Artifact<'_>) {
    if a.status == RgStatus::ReviewError {
        if a.score.is_some() {
            report.push("A3", "/score", "a review_error output must have a null score");
        }
        match &a.angle_errors {
            Some(errors) if errors.is_empty() => report.push(
                "A3",
                "/angle_errors",
                "a review_error output needs at least one angle error",
            ),
            None => report.push(
                "A3",
                "",
                "a review_error output needs at least one angle error (angle_errors is absent)",
            ),
            Some(_) => {}
        }
        return;
    }
    if !a.angle_errors().is_empty() {
        report.push(
            "A4",
            "/angle_errors",
            format!("a {} review has no angle errors", a.status.as_str()),
        );
    }
    for (i, f) in a.findings.iter().enumerate() {
        if f.verification
            .as_ref()
            .is_some_and(|v| v.state == VerificationState::Inconclusive)
        {
            report.push(
                "A4",
                format!("/findings/{i}/verification/state"),
                format!(
                    "an inconclusive verification means the review did not complete, so it cannot be {}",
                    a.status.as_str()
                ),
            );
        }
    }
    score_and_status(
        report,
        ScoreEra::Artifact,
        a.status.model(),
        a.score,
        compute_score(&a.findings),
    );
}

/// A7 and A8.
fn metrics(report: &mut Report, m: &Metrics<'_>) {
    report.opt_cost("A7", "/metrics", "current_run_cost_usd", m.current_run_cost_usd);
    if let Some(c) = &m.semantic_context {
        semantic_context(report, c);
    }
}

fn semantic_context(report: &mut Report, c: &SemanticContext<'_>) {
    let base = "/metrics/semantic_context";
    report.non_blank("A8", base, "reviewed_sha", c.reviewed_sha);
    report.non_blank("A8", base, "parser", c.parser);
    if usize::try_from(c.selected_count).ok() != Some(c.excerpts.len()) {
        report.push(
            "A8",
            format!("{base}/selected_count"),
            format!(
                "selected_count is {} but there are {} excerpts",
                c.selected_count,
                c.excerpts.len()
            ),
        );
    }
    for (i, e) in c.excerpts.iter().enumerate() {
        let path = format!("{base}/excerpts/{i}");
        report.non_blank("A8", &path, "path", e.path);
        report.non_blank("A8", &path, "reason", e.reason);
        report.non_blank("A8", &path, "relation", e.relation);
        if e.start_line < 1 {
            report.push("A8", format!("{path}/start_line"), "start_line must be ≥ 1");
        }
        if e.end_line < e.start_line {
            report.push(
                "A8",
                format!("{path}/end_line"),
                format!("end_line {} is before start_line {}", e.end_line, e.start_line),
            );
        }
        if e.reviewed_sha != c.reviewed_sha {
            report.push(
                "A8",
                format!("{path}/reviewed_sha"),
                "an excerpt's reviewed_sha must equal the semantic context's",
            );
        }
    }
}

/// A18–A23: angle results, ownership of findings, and angle errors.
fn angles(report: &mut Report, a: &Artifact<'_>, ids: &HashMap<&str, usize>) {
    let mut angle_index: HashMap<&str, usize> = HashMap::with_capacity(a.angle_results.len());
    let mut listed: Vec<HashSet<&str>> = Vec::with_capacity(a.angle_results.len());
    for (i, angle) in a.angle_results.iter().enumerate() {
        let base = format!("/angle_results/{i}");
        match angle_index.entry(angle.id) {
            Entry::Occupied(first) => report.push(
                "A19",
                format!("{base}/id"),
                format!(
                    "angle id {} is already used by /angle_results/{}",
                    quote(angle.id),
                    first.get()
                ),
            ),
            Entry::Vacant(slot) => {
                slot.insert(i);
            }
        }
        listed.push(angle_result(report, &base, angle, &a.findings, ids));
    }
    for (i, f) in a.findings.iter().enumerate() {
        let Some(angle_id) = f.angle_id else { continue };
        match angle_index.get(angle_id) {
            None => report.push(
                "A22",
                format!("/findings/{i}/angle_id"),
                format!("angle_id {} names no angle in angle_results", quote(angle_id)),
            ),
            Some(&k) if !listed[k].contains(f.id) => report.push(
                "A20",
                format!("/angle_results/{k}/finding_ids"),
                format!(
                    "finding {} (/findings/{i}) belongs to this angle but is not listed",
                    quote(f.id)
                ),
            ),
            Some(_) => {}
        }
    }
    shared::angle_errors(report, "/angle_errors", a.angle_errors());
    let mut error_ids: HashMap<&str, usize> = HashMap::with_capacity(a.angle_errors().len());
    for (i, e) in a.angle_errors().iter().enumerate() {
        let path = format!("/angle_errors/{i}/angle_id");
        if let Some(first) = error_ids.get(e.angle_id) {
            report.push(
                "A23",
                &path,
                format!(
                    "angle {} already has an error at /angle_errors/{first}",
                    quote(e.angle_id)
                ),
            );
        } else {
            error_ids.insert(e.angle_id, i);
        }
        if angle_index.contains_key(e.angle_id) {
            report.push(
                "A23",
                &path,
                format!("angle {} cannot both succeed and fail", quote(e.angle_id)),
            );
        }
    }
}

/// A18, A20 (listed ids) and A21 for one angle; returns its listed ids.
fn angle_result<'a>(
    report: &mut Report,
    base: &str,
    angle: &AngleResult<'a>,
    findings: &[ArtifactFinding<'_>],
    ids: &HashMap<&str, usize>,
) -> HashSet<&'a str> {
    report.non_blank("A18", base, "id", angle.id);
    report.non_blank("A18", base, "name", angle.name);
    report.non_blank("A18", base, "verdict", angle.verdict);
    report.non_blank("A18", base, "model", angle.model);
    if angle.score > 5 {
        report.push(
            "A18",
            format!("{base}/score"),
            format!("an angle score must be 0..5, not {}", angle.score),
        );
    }
    if angle.status == RgStatus::ReviewError {
        report.push(
            "A18",
            format!("{base}/status"),
            "a completed angle cannot have status review_error",
        );
    }
    let mut listed = HashSet::with_capacity(angle.finding_ids.len());
    let mut owned = Vec::with_capacity(angle.finding_ids.len());
    for (j, &id) in angle.finding_ids.iter().enumerate() {
        let path = format!("{base}/finding_ids/{j}");
        if !listed.insert(id) {
            report.push("A20", &path, format!("finding id {} is listed twice", quote(id)));
            continue;
        }
        match ids.get(id).map(|&k| (k, &findings[k])) {
            None => report.push("A20", &path, format!("no top-level finding has id {}", quote(id))),
            Some((k, f)) => {
                if f.angle_id != Some(angle.id) {
                    report.push(
                        "A20",
                        &path,
                        format!("finding /findings/{k} does not belong to angle {}", quote(angle.id)),
                    );
                }
                owned.push(f);
            }
        }
    }
    let derived = compute_score(owned);
    if angle.score != derived {
        report.push(
            "A21",
            format!("{base}/score"),
            format!("angle score is {} but its findings give {derived}", angle.score),
        );
    }
    let status = status_for_score(angle.score);
    if angle.status != status && angle.status != RgStatus::ReviewError {
        report.push(
            "A21",
            format!("{base}/status"),
            format!(
                "angle score {} means status {}, not {}",
                angle.score,
                status.as_str(),
                angle.status.as_str()
            ),
        );
    }
    listed
}
