//! River Review formats: the review artifact v1 and `river run --output json`.
//!
//! Each document is read once into typed structs ([`types`]) by a reader that
//! checks every known member strictly (types, enums, ranges, required members)
//! and keeps unknown members, reporting each as a `river-additive` notice in
//! [`ReviewSet::notices`] (River adds optional members without a version
//! bump). The known newer members of `RIVER.md` (`suggestedLoopSignal`, `gate`,
//! finding `scope`, ...) are read and shown, not reported.
//!
//! Findings are keyed by River's own fingerprint, never by their positional
//! `id`. `decision` and `suggestedLoopSignal` are shown as stated when the file
//! has them and derived (and marked so) otherwise; see [`verdict`].
//!
//! Status of run output: `river run` prints its JSON only for a completed
//! review (it returns before printing for `no-changes` and `skipped-by-label`
//! and prints no JSON when it fails), so a run output always has status `ok`.
//! A failed artifact (`status: error`) gets no derived decision or loop
//! signal: a verdict derived from the findings of a run that did not complete
//! would present an error as a pass.

mod artifact;
pub mod enums;
mod finding;
pub mod fingerprint_v2;
pub mod memory_formats;
mod newer;
mod reader;
mod run_output;
pub mod types;
pub mod verdict;

#[cfg(test)]
mod tests;

use super::finding::RiverSeverity;
use super::json::Infinite;
use super::review::{Checked, Format, Projection, ReviewSet, ReviewStatus, RiverRunInfo, Scope, Stated};
use reader::Reader;
use serde_json::Value;
use types::{ArtifactStatus, Decision, LoopSignal, RiverArtifact, RiverFinding, RunOutput};

pub use artifact::read_artifact;
pub use reader::{ADDITIVE_RULE, DateTimeParts, days_from_civil, is_rfc3339_date_time, parse_date, parse_date_time};
pub use run_output::read_run_output;

/// Checks a River review artifact and builds its model. The value was read
/// in JavaScript-number mode: the numbers at `infinite` are the infinities
/// `JSON.parse` made of their literals.
pub fn check_artifact(value: &Value, infinite: &[Infinite]) -> Checked {
    let mut reader = Reader::with_infinities(infinite);
    let set = read_artifact(&mut reader, value).map(|a| artifact_set(&a, reader.notices.clone()));
    Checked {
        set,
        problems: reader.problems,
    }
}

/// Checks `river run --output json` output (read as [`check_artifact`]'s) and builds its model.
pub fn check_run_output(value: &Value, infinite: &[Infinite]) -> Checked {
    let mut reader = Reader::with_infinities(infinite);
    let set = read_run_output(&mut reader, value).map(|r| run_set(&r, reader.notices.clone()));
    Checked {
        set,
        problems: reader.problems,
    }
}

/// Names the infinities in the schema's problems: the schema sees the
/// placeholder `±f64::MAX` where `JSON.parse` has an infinity, so a message
/// about one of those numbers says `Infinity` instead of the placeholder's digits.
pub fn name_infinities(problems: &mut [super::problem::Problem], infinite: &[Infinite]) {
    for p in problems.iter_mut() {
        if let Some(i) = infinite.iter().find(|i| i.pointer == p.path) {
            let (shown, digits) = if i.negative {
                ("-Infinity", format!("{}", -f64::MAX))
            } else {
                ("Infinity", format!("{}", f64::MAX))
            };
            // Rust's and JavaScript's exponent forms (`e308`, `e+308`).
            let exp = format!("{:e}", if i.negative { -f64::MAX } else { f64::MAX });
            let js_exp = exp.replace("e308", "e+308");
            p.message = p
                .message
                .replace(&digits, shown)
                .replace(&js_exp, shown)
                .replace(&exp, shown);
        }
    }
}

/// The review status of an artifact `status` value (absent or unknown: error).
fn review_status(status: Option<ArtifactStatus>) -> ReviewStatus {
    match status {
        Some(ArtifactStatus::Ok) => ReviewStatus::Ok,
        Some(ArtifactStatus::NoChanges) => ReviewStatus::NoChanges,
        Some(ArtifactStatus::SkippedByLabel) => ReviewStatus::SkippedByLabel,
        Some(ArtifactStatus::Error) | None => ReviewStatus::Error,
    }
}

/// Stated or derived decision and loop signal, plus the recomputed score.
fn verdicts(
    stated_decision: Option<Decision>,
    stated_signal: Option<LoopSignal>,
    findings: &[RiverFinding],
    status: ReviewStatus,
) -> (Option<Stated<String>>, Option<Stated<String>>, u8) {
    let score = verdict::score(findings);
    let derive = !status.is_error();
    let decision = match stated_decision {
        Some(d) => Some(Stated::Stated(d)),
        None if derive => Some(Stated::Derived(verdict::decision_for(&score))),
        None => None,
    };
    let signal = match (stated_signal, &decision) {
        (Some(s), _) => Some(Stated::Stated(s)),
        (None, Some(d)) => Some(Stated::Derived(verdict::loop_signal_for(*d.value(), findings))),
        (None, None) => None,
    };
    let decision_text = decision.map(|d| map_stated(d, |d| d.as_str().to_owned()));
    let signal_text = signal.map(|s| map_stated(s, |s| s.as_str().to_owned()));
    (decision_text, signal_text, score.overall)
}

fn map_stated<T, U>(s: Stated<T>, f: impl FnOnce(T) -> U) -> Stated<U> {
    match s {
        Stated::Stated(v) => Stated::Stated(f(v)),
        Stated::Derived(v) => Stated::Derived(f(v)),
    }
}

/// The most severe finding severity.
fn worst(findings: &[RiverFinding]) -> Option<RiverSeverity> {
    findings.iter().filter_map(|f| f.severity).min_by_key(|s| s.rank())
}

fn base_set(
    format: Format,
    status: ReviewStatus,
    findings: &[RiverFinding],
    notices: Vec<super::problem::Problem>,
) -> ReviewSet {
    ReviewSet {
        format,
        scope: Scope::Local,
        reviewed_sha: None,
        status,
        score: None,
        angle_errors: Vec::new(),
        findings: findings
            .iter()
            .enumerate()
            .map(|(i, f)| finding::to_finding(i, f))
            .collect(),
        river: None,
        projection: Projection::NotApplicable,
        notices,
        estimated_cost_usd: None,
    }
}

/// Builds the review set of an artifact.
fn artifact_set(a: &RiverArtifact, notices: Vec<super::problem::Problem>) -> ReviewSet {
    let status = review_status(a.status);
    let mut set = base_set(Format::RiverArtifact, status, &a.findings, notices);
    let (decision, loop_signal, overall) = verdicts(a.decision, a.loop_signal, &a.findings, status);
    let mut info = RiverRunInfo {
        phase: a.phase.map(|p| p.as_str().to_owned()),
        timestamp: a.timestamp.clone(),
        decision,
        loop_signal,
        run_id: a.run_id.clone(),
        worst: worst(&a.findings),
        overall_score: Some(overall),
        extra: a.extra.clone(),
        ..RiverRunInfo::default()
    };
    if let Some(u) = &a.usage {
        info.provider = u.provider.clone();
        info.model = u.model.clone();
        let numbers = [
            ("input_tokens", u.input_tokens),
            ("output_tokens", u.output_tokens),
            ("estimated_cost_usd", u.estimated_cost_usd),
        ];
        info.usage = [("provider", u.provider.clone()), ("model", u.model.clone())]
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
            .chain(
                numbers
                    .into_iter()
                    .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v.to_string()))),
            )
            .collect();
        set.estimated_cost_usd = u.estimated_cost_usd;
    }
    if let Some(p) = &a.plan {
        info.selected_skills = p.selected.iter().map(|s| (s.id.clone(), s.name.clone())).collect();
        info.skipped_skills = p.skipped.clone();
        info.planner_mode = p.planner_mode.clone();
        info.planner_reasons = p.planner_reasons.clone();
        info.impact_tags = p.impact_tags.clone();
        info.extra
            .extend(p.extra.iter().map(|(k, v)| (format!("plan.{k}"), v.clone())));
    }
    if let Some(c) = &a.context {
        info.repo_root = c.repo_root.clone();
        info.default_branch = c.default_branch.clone();
        info.merge_base = c.merge_base.clone();
        info.changed_files = c.changed_files.clone();
        info.token_estimate = c.token_estimate;
        info.raw_token_estimate = c.raw_token_estimate;
        info.reduction = c.reduction;
    }
    if let Some(g) = &a.gate {
        let parts = [
            ("decision", &g.decision),
            ("reasonCode", &g.reason_code),
            ("tier", &g.tier),
        ];
        info.gate = parts
            .into_iter()
            .filter_map(|(k, v)| v.clone().map(|v| (k.to_owned(), v)))
            .collect();
    }
    set.river = Some(info);
    set
}

/// The phase every issue shares (run output has no run-level phase).
fn common_phase(issues: &[RiverFinding]) -> Option<String> {
    let first = issues.first()?.phase?;
    issues
        .iter()
        .all(|f| f.phase == Some(first))
        .then(|| first.as_str().to_owned())
}

/// Builds the review set of a run output.
fn run_set(r: &RunOutput, notices: Vec<super::problem::Problem>) -> ReviewSet {
    let status = ReviewStatus::Ok;
    let mut set = base_set(Format::RiverRun, status, &r.issues, notices);
    let (decision, loop_signal, overall) = verdicts(r.decision, r.loop_signal, &r.issues, status);
    let mut info = RiverRunInfo {
        phase: common_phase(&r.issues),
        decision,
        loop_signal,
        worst: worst(&r.issues),
        overall_score: Some(overall),
        extra: r.extra.clone(),
        ..RiverRunInfo::default()
    };
    if let Some(s) = &r.summary {
        let counts = |label: &str, list: &[(String, u64)]| {
            list.iter()
                .map(|(k, n)| (format!("{label}.{k}"), n.to_string()))
                .collect::<Vec<_>>()
        };
        info.extra.extend(counts("issueCountBySeverity", &s.by_severity));
        info.extra.extend(counts("issueCountByPhase", &s.by_phase));
        info.extra
            .extend(s.notes.iter().map(|n| ("notes".to_owned(), n.clone())));
        info.extra
            .extend(s.risk.iter().map(|(k, v)| (format!("riskSummary.{k}"), v.clone())));
        info.extra.extend(
            s.priority
                .iter()
                .map(|(k, v)| (format!("prioritySummary.{k}"), v.clone())),
        );
    }
    set.river = Some(info);
    set
}
