//! Rules on the objects both ReviewGate formats share (REVIEWGATE-RULES §2,
//! S1–S8), plus the small reporting helpers every rule module uses.

use super::common::{
    AngleError, CostSummary, Decision, DispositionRecord, Evidence, ScopeKind, Verification, WireScope,
};
use crate::model::finding::VerificationState;
use crate::model::problem::Problem;
use crate::model::text::{chars_at_most, is_blank};

/// The most chars a verifier `reason` may hold (S2).
pub const MAX_REASON_CHARS: usize = 4000;

/// The most `conflicting_decisions` a verification may hold (S3).
pub const MAX_CONFLICTING: usize = 8;

/// Collects problems for one document.
#[derive(Debug, Default)]
pub(crate) struct Report {
    pub problems: Vec<Problem>,
}

impl Report {
    /// Records one problem.
    pub fn push(&mut self, rule: &str, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem::new(rule, path, message));
    }

    /// Requires `value` to be non-blank (T1).
    pub fn non_blank(&mut self, rule: &str, base: &str, field: &str, value: &str) {
        if is_blank(value) {
            self.push(rule, format!("{base}/{field}"), format!("{field} must not be blank"));
        }
    }

    /// Requires an optional string to be absent/null or non-blank.
    pub fn null_or_non_blank(&mut self, rule: &str, base: &str, field: &str, value: Option<&str>) {
        if value.is_some_and(is_blank) {
            self.push(
                rule,
                format!("{base}/{field}"),
                format!("{field} must be null or not blank"),
            );
        }
    }

    /// Requires a cost to be finite and ≥ 0 (`-0.0` passes).
    pub fn cost(&mut self, rule: &str, base: &str, field: &str, value: f64) {
        if !(value.is_finite() && value >= 0.0) {
            self.push(
                rule,
                format!("{base}/{field}"),
                format!("{field} must be a finite number ≥ 0, not {value}"),
            );
        }
    }

    /// Requires an optional cost to be null or finite and ≥ 0.
    pub fn opt_cost(&mut self, rule: &str, base: &str, field: &str, value: Option<f64>) {
        if let Some(v) = value {
            self.cost(rule, base, field, v);
        }
    }
}

/// Producer text quoted in a message: escaped and cut to a readable length.
pub(crate) fn quote(s: &str) -> String {
    const MAX: usize = 80;
    if chars_at_most(s, MAX) {
        format!("{s:?}")
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut:?}…")
    }
}

/// S1 content rule, applied inside verifications (S2) and result findings
/// (R13): non-blank path, excerpt, reason and line ≥ 1.
pub(crate) fn evidence_items(report: &mut Report, rule: &str, base: &str, items: &[Evidence<'_>]) {
    let mut buf = String::new();
    for (i, e) in items.iter().enumerate() {
        let path = item_path(&mut buf, base, i);
        report.non_blank(rule, path, "path", e.path);
        report.non_blank(rule, path, "excerpt", e.excerpt);
        report.non_blank(rule, path, "reason", e.reason);
        if e.line < 1 {
            report.push(rule, format!("{path}/line"), "evidence line must be ≥ 1");
        }
    }
}

/// S2 on one decision's common members.
fn decision_rules(
    report: &mut Report,
    base: &str,
    state: VerificationState,
    reason: &str,
    model: &str,
    evidence: &[Evidence<'_>],
) {
    report.non_blank("S2", base, "reason", reason);
    if !chars_at_most(reason, MAX_REASON_CHARS) {
        let n = reason.chars().count();
        report.push(
            "S2",
            format!("{base}/reason"),
            format!("reason has {n} chars; at most {MAX_REASON_CHARS} are allowed"),
        );
    }
    report.non_blank("S2", base, "model", model);
    if state != VerificationState::Inconclusive && evidence.is_empty() {
        report.push(
            "S2",
            format!("{base}/evidence"),
            format!("a {} decision must cite at least one evidence item", state.as_str()),
        );
    }
    evidence_items(report, "S2", &format!("{base}/evidence"), evidence);
}

/// S2 and S3 on a verification and its conflicting decisions.
pub(crate) fn verification(report: &mut Report, base: &str, v: &Verification<'_>) {
    decision_rules(report, base, v.state, v.reason, v.model, &v.evidence);
    if v.conflicting_decisions.len() > MAX_CONFLICTING {
        report.push(
            "S3",
            format!("{base}/conflicting_decisions"),
            format!(
                "{} conflicting decisions; at most {MAX_CONFLICTING} are allowed",
                v.conflicting_decisions.len()
            ),
        );
    }
    for (i, d) in v.conflicting_decisions.iter().enumerate() {
        let Decision {
            state,
            reason,
            model,
            evidence,
        } = d;
        decision_rules(
            report,
            &format!("{base}/conflicting_decisions/{i}"),
            *state,
            reason,
            model,
            evidence,
        );
    }
}

/// S4 on a cost summary.
pub(crate) fn cost_summary(report: &mut Report, base: &str, s: &CostSummary<'_>) {
    report.cost("S4", base, "current_run_usd", s.current_run_usd);
    for (i, c) in s.components.iter().enumerate() {
        let path = format!("{base}/components/{i}");
        report.non_blank("S4", &path, "label", c.label);
        report.non_blank("S4", &path, "model", c.model);
        report.cost("S4", &path, "estimated_cost_usd", c.estimated_cost_usd);
    }
}

/// S6 on a list of angle errors.
pub(crate) fn angle_errors(report: &mut Report, base: &str, errors: &[AngleError<'_>]) {
    for (i, e) in errors.iter().enumerate() {
        let path = format!("{base}/{i}");
        report.non_blank("S6", &path, "angle_id", e.angle_id);
        report.non_blank("S6", &path, "angle_name", e.angle_name);
        report.non_blank("S6", &path, "message", e.message);
        report.non_blank("S6", &path, "model", e.model);
    }
}

/// S7 on a list of disposition records.
pub(crate) fn records(report: &mut Report, base: &str, records: &[DispositionRecord<'_>]) {
    let mut buf = String::new();
    for (i, r) in records.iter().enumerate() {
        let path = item_path(&mut buf, base, i);
        report.non_blank("S7", path, "evidence_summary", r.evidence_summary);
        report.non_blank("S7", path, "actor", r.actor);
        report.non_blank("S7", path, "reviewed_sha", r.reviewed_sha);
        report.non_blank("S7", path, "code_fingerprint", r.code_fingerprint);
        match (r.submitted_disposition, r.submission_id) {
            (Some(_), None) => report.push("S7", path, "submitted_disposition requires submission_id"),
            (None, Some(_)) => report.push("S7", path, "submission_id requires submitted_disposition"),
            _ => {}
        }
        if r.submission_id == Some(0) {
            report.push("S7", format!("{path}/submission_id"), "submission_id must be ≥ 1");
        }
    }
}

/// S8 on a scope.
pub(crate) fn scope(report: &mut Report, base: &str, s: &WireScope<'_>) {
    match s.kind {
        ScopeKind::Local => {
            if s.repository.is_some() || s.pull_request_number.is_some() {
                report.push("S8", base, "a local scope has only kind");
            }
        }
        ScopeKind::PullRequest => {
            match s.repository.as_deref() {
                None => report.push("S8", base, "a pull_request scope needs repository"),
                Some(r) => report.non_blank("S8", base, "repository", r),
            }
            match s.pull_request_number {
                None => report.push("S8", base, "a pull_request scope needs pull_request_number"),
                Some(0) => report.push(
                    "S8",
                    format!("{base}/pull_request_number"),
                    "pull_request_number must be ≥ 1",
                ),
                Some(_) => {}
            }
        }
    }
}

/// `base/index` written into `buf` (reused from item to item, so a list of
/// valid items allocates one pointer, not one per item).
pub(crate) fn item_path<'b>(buf: &'b mut String, base: &str, index: usize) -> &'b str {
    use std::fmt::Write as _;
    buf.clear();
    // Writing into a String cannot fail.
    let _ = write!(buf, "{base}/{index}");
    buf
}

/// `base/member` written into `buf` (reused, see [`item_path`]).
pub(crate) fn member_path<'b>(buf: &'b mut String, base: &str, member: &str) -> &'b str {
    buf.clear();
    buf.push_str(base);
    buf.push('/');
    buf.push_str(member);
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reused_pointers_are_what_formatting_gives() {
        let mut buf = String::from("left over");
        for i in [0, 7, 9, 10, 99, 100, 12_345, usize::MAX] {
            assert_eq!(item_path(&mut buf, "/findings", i), format!("/findings/{i}"));
        }
        assert_eq!(member_path(&mut buf, "/findings/3", "evidence"), "/findings/3/evidence");
        assert_eq!(item_path(&mut buf, "", 4), "/4");
    }
}
