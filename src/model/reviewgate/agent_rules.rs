//! Agent result v1 rules (REVIEWGATE-RULES §6, R1–R21).

use super::agent::{AgentResult, MAX_BYTES, ResultFinding, SCHEMA_VERSION};
use super::common::RgStatus;
use super::shared_rules::{self as shared, Report, quote};
use crate::model::finding::{ThreadStatus, ThreadTransition, VerificationState};
// Finding ids are hashed with foldhash (seeded per process), a fraction of
// SipHash's cost on short keys; a hash is only a bucket, keys are compared exactly.
use foldhash::{HashMap, HashMapExt};
use std::collections::hash_map::Entry;

/// Checks every rule. `raw_len` is the size of the file the value was read
/// from (R1); a projection has none.
pub(crate) fn check(report: &mut Report, r: &AgentResult<'_>, raw_len: Option<usize>) {
    if let Some(n) = raw_len.filter(|&n| n > MAX_BYTES) {
        report.push(
            "R1",
            "",
            format!("the file is {n} bytes; an agent result is at most {MAX_BYTES} bytes"),
        );
    }
    match crate::model::json::canonical_len_within(r, MAX_BYTES) {
        Ok(Some(_)) => {}
        Ok(None) => report.push(
            "R2",
            "",
            format!("the canonical serialization is over {MAX_BYTES} bytes (the most an agent result may have)"),
        ),
        Err(e) => report.push(
            "R2",
            "",
            format!("the size of the canonical serialization is unknown: {e}"),
        ),
    }
    if r.schema_version != SCHEMA_VERSION {
        report.push(
            "R3",
            "/schema_version",
            format!(
                "schema_version must be {SCHEMA_VERSION:?}, not {}",
                quote(r.schema_version)
            ),
        );
    }
    report.non_blank("R4", "", "reviewed_sha", r.reviewed_sha);
    status_triad(report, r);
    shared::scope(report, "/scope", &r.scope);
    report.opt_cost("R7", "/costs", "estimated_total_usd", r.costs.estimated_total_usd);
    if let Some(summary) = &r.costs.summary {
        shared::cost_summary(report, "/costs/summary", summary);
    }
    shared::angle_errors(report, "/angle_errors", &r.angle_errors);
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(r.findings.len());
    // The pointers of a finding and of its lists are written into two
    // buffers reused from finding to finding (no allocation per finding).
    let (mut base, mut scratch) = (String::new(), String::new());
    for (i, f) in r.findings.iter().enumerate() {
        let base = shared::item_path(&mut base, "/findings", i);
        match seen.entry(f.semantic_fingerprint.as_ref()) {
            Entry::Occupied(first) => report.push(
                "R11",
                format!("{base}/semantic_fingerprint"),
                format!(
                    "semantic_fingerprint {} is already used by /findings/{}",
                    quote(&f.semantic_fingerprint),
                    first.get()
                ),
            ),
            Entry::Vacant(slot) => {
                slot.insert(i);
            }
        }
        finding(report, base, &mut scratch, f);
    }
}

/// R5: status, score and angle errors agree.
fn status_triad(report: &mut Report, r: &AgentResult<'_>) {
    match r.status {
        RgStatus::ReviewError => {
            if r.score.is_some() {
                report.push("R5", "/score", "a review_error result must have a null score");
            }
            if r.angle_errors.is_empty() {
                report.push(
                    "R5",
                    "/angle_errors",
                    "a review_error result needs at least one angle error",
                );
            }
        }
        RgStatus::Passed | RgStatus::NeedsChanges => {
            if !r.angle_errors.is_empty() {
                report.push(
                    "R5",
                    "/angle_errors",
                    format!("a {} result has no angle errors", r.status.as_str()),
                );
            }
            let ok = match (r.status, r.score) {
                (RgStatus::Passed, Some(s)) => s == 5,
                (_, Some(s)) => s <= 4,
                (_, None) => false,
            };
            if !ok {
                let want = if r.status == RgStatus::Passed { "5" } else { "0..4" };
                let got = r.score.map_or_else(|| "null".to_owned(), |s| s.to_string());
                report.push(
                    "R5",
                    "/score",
                    format!("a {} result needs score {want}, not {got}", r.status.as_str()),
                );
            }
        }
    }
}

/// R10, R12–R19 on one result finding.
fn finding(report: &mut Report, base: &str, scratch: &mut String, f: &ResultFinding<'_>) {
    report.non_blank("R10", base, "id", f.id);
    report.non_blank("R10", base, "semantic_fingerprint", &f.semantic_fingerprint);
    report.non_blank("R10", base, "suggested_fix", f.suggested_fix);
    if !(0.0..=1.0).contains(&f.confidence) {
        report.push(
            "R12",
            format!("{base}/confidence"),
            format!("confidence must be within 0..1, not {}", f.confidence),
        );
    }
    if f.line == Some(0) {
        report.push("R12", format!("{base}/line"), "line must be null or ≥ 1");
    }
    shared::evidence_items(
        report,
        "R13",
        shared::member_path(scratch, base, "evidence"),
        &f.evidence,
    );
    if let Some(v) = &f.verification {
        shared::verification(report, shared::member_path(scratch, base, "verification"), v);
        if v.state != VerificationState::Verified && f.blocking_reason.is_some() {
            report.push(
                "R14",
                format!("{base}/blocking_reason"),
                format!("a finding whose verification is {} cannot block", v.state.as_str()),
            );
        }
    }
    if f.blocking_reason.is_some() && f.disposition != crate::model::finding::Disposition::StillOpen {
        report.push(
            "R15",
            format!("{base}/blocking_reason"),
            format!(
                "only a still_open finding may block; this one is {}",
                f.disposition.as_str()
            ),
        );
    }
    shared::records(
        report,
        shared::member_path(scratch, base, "prior_dispositions"),
        &f.prior_dispositions,
    );
    if let Some(last) = f.prior_dispositions.last().filter(|l| l.disposition != f.disposition) {
        report.push(
            "R16",
            format!(
                "{base}/prior_dispositions/{}/disposition",
                f.prior_dispositions.len() - 1
            ),
            format!(
                "the last prior disposition is {} but the finding is {}",
                last.disposition.as_str(),
                f.disposition.as_str()
            ),
        );
    }
    report.null_or_non_blank("R17", base, "thread_id", f.thread_id);
    report.null_or_non_blank("R17", base, "reopening_evidence", f.reopening_evidence);
    thread(report, base, f);
}

/// R18 and R19: thread identity and the derived transition.
fn thread(report: &mut Report, base: &str, f: &ResultFinding<'_>) {
    match f.thread_status {
        ThreadStatus::Unknown | ThreadStatus::NotPublished if f.thread_outdated => report.push(
            "R18",
            format!("{base}/thread_outdated"),
            format!(
                "thread_outdated must be false when thread_status is {}",
                f.thread_status.as_str()
            ),
        ),
        _ => {}
    }
    match f.thread_status {
        ThreadStatus::NotPublished if f.thread_id.is_some() => report.push(
            "R18",
            format!("{base}/thread_id"),
            "a not_published finding has no thread_id",
        ),
        ThreadStatus::Open | ThreadStatus::Resolved if f.thread_id.is_none() => report.push(
            "R18",
            format!("{base}/thread_id"),
            format!("thread_status {} needs a thread_id", f.thread_status.as_str()),
        ),
        _ => {}
    }
    let expected = expected_transition(f);
    let given = f.thread_transition.unwrap_or(ThreadTransition::Unknown);
    if given != expected {
        // An absent member is read as `unknown`; the problem then points at
        // the finding, where the member is missing.
        let (path, got) = match f.thread_transition {
            Some(t) => (format!("{base}/thread_transition"), t.as_str().to_owned()),
            None => (base.to_owned(), "absent (read as unknown)".to_owned()),
        };
        report.push(
            "R19",
            path,
            format!(
                "thread_transition must be {} for thread_status {} and disposition {}, not {got}",
                expected.as_str(),
                f.thread_status.as_str(),
                f.disposition.as_str(),
            ),
        );
    }
}

/// The R19 transition of a result finding.
pub(crate) fn expected_transition(f: &ResultFinding<'_>) -> ThreadTransition {
    let earlier = f.prior_dispositions.len().saturating_sub(1);
    let previously_settled = f.prior_dispositions[..earlier]
        .iter()
        .any(|r| r.disposition.is_settled());
    ThreadTransition::derive(
        f.thread_status,
        f.disposition,
        previously_settled,
        f.reopening_evidence.is_some(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R2 counts what the canonical writer writes: a result whose canonical
    /// form is one byte over the limit fails, at the limit it passes.
    #[test]
    fn r2_counts_the_canonical_bytes() {
        let value = serde_json::json!({
            "schema_version": SCHEMA_VERSION, "scope": {"kind": "local"}, "status": "passed", "score": 5,
            "reviewed_sha": "é\u{1}", "angle_errors": [], "costs": {"estimated_total_usd": 1e-7, "summary": null},
            "findings": []
        });
        let doc = crate::model::json::Doc::of_value(&value).expect("readable");
        let r: AgentResult = crate::model::reviewgate::strict_doc::from_doc(
            doc.root(),
            &crate::model::reviewgate::strict_doc::Trail::new(""),
        )
        .expect("valid");
        let len = crate::model::json::to_canonical_vec(&r).len();
        let within = |limit| crate::model::json::canonical_len_within(&r, limit).expect("serializable");
        assert_eq!(within(len), Some(len));
        assert_eq!(within(len - 1), None);
        let mut report = Report::default();
        check(&mut report, &r, None);
        assert!(report.problems.iter().all(|p| p.rule != "R2"), "{:?}", report.problems);
    }
}
