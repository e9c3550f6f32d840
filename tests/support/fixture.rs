//! Review sets built in code, without the loader: the test suite's screens and
//! the benchmark's inputs. Deterministic; every thread state appears.
//!
//! Not part of the library: the crate's unit tests include this file as
//! `tui::fixture` (under `cfg(test)`), the integration tests and benchmarks
//! as a module of their own, all reaching the crate as `triage`.
#![allow(dead_code)]

use triage::model::finding::{
    BlockingReason, Classification, Disposition, Evidence, Finding, FindingKey, HistoryRecord, Origin,
    ReviewGateFields, RiverFields, RiverSeverity, RiverStatus, Severity, Side, SubmittedDisposition, Thread,
    ThreadStatus, ThreadTransition, Verification, VerificationState,
};
use triage::model::review::{AngleError, Format, Projection, ReviewSet, ReviewStatus, RiverRunInfo, Scope, Stated};

/// The reviewed commit of the sample sets.
pub const SHA: &str = "9f2c4e1a7b3d5f60812a4c6e8b0d2f4a6c8e0b13";

/// The parts of a sample ReviewGate finding that vary.
struct Spec {
    sev: Severity,
    class: Classification,
    disp: Disposition,
    path: &'static str,
    line: u32,
    claim: &'static str,
    thread: ThreadTransition,
    outdated: bool,
}

fn status_of(t: ThreadTransition) -> ThreadStatus {
    use ThreadTransition as T;
    match t {
        T::NotPublished => ThreadStatus::NotPublished,
        T::Unknown => ThreadStatus::Unknown,
        T::Retained | T::Reopened | T::ResolutionPending => ThreadStatus::Open,
        _ => ThreadStatus::Resolved,
    }
}

fn record(disp: Disposition, submitted: Option<SubmittedDisposition>, actor: &str) -> HistoryRecord {
    HistoryRecord {
        disposition: disp,
        submitted,
        submission_id: submitted.map(|_| 7),
        evidence_summary: format!("{} on the reviewed head.", disp.as_str()),
        actor: actor.to_string(),
        reviewed_sha: "1a2b3c4d5e6f".to_string(),
        code_fingerprint: "c0ffee".repeat(10) + "abcd",
    }
}

fn finding(index: usize, s: &Spec) -> Finding {
    let blocking = (s.disp == Disposition::StillOpen
        && s.sev <= Severity::P2
        && matches!(
            s.class,
            Classification::Defect | Classification::Security | Classification::ReliabilityRisk
        ))
    .then_some(match s.class {
        Classification::Security => BlockingReason::ValidatedSecurity,
        Classification::ReliabilityRisk => BlockingReason::ValidatedReliabilityRisk,
        _ => BlockingReason::ValidatedDefect,
    });
    let key = format!("{}:{}:{}", s.class.as_str(), s.path.replace('/', "."), index);
    let mut history = Vec::new();
    if s.thread == ThreadTransition::Reopened {
        history.push(record(Disposition::Fixed, Some(SubmittedDisposition::Fixed), "alice"));
    }
    if s.disp != Disposition::StillOpen || !history.is_empty() {
        history.push(record(s.disp, None, "reviewgate"));
    }
    let evidence = vec![Evidence {
        path: s.path.to_string(),
        side: Side::New,
        line: s.line,
        excerpt: "if attempts >= max_attempts { return Ok(()) }".to_string(),
        reason: "The exhausted branch returns success.".to_string(),
    }];
    let verification = blocking.map(|_| Verification {
        state: VerificationState::Verified,
        reason: "The excerpt shows the early return.".to_string(),
        model: "verifier-model".to_string(),
        evidence: evidence.clone(),
        conflicting: Vec::new(),
    });
    let rg = ReviewGateFields {
        severity: s.sev,
        confidence: 0.9,
        classification: s.class,
        disposition: s.disp,
        blocking_reason: blocking,
        causal_evidence: Some("retry loop -> exhausted flag -> success returned".to_string()),
        reproduction: Some("cargo test retry_exhausted".to_string()),
        verification,
        thread: Thread {
            status: status_of(s.thread),
            transition: s.thread,
            outdated: s.outdated,
            id: matches!(status_of(s.thread), ThreadStatus::Open | ThreadStatus::Resolved)
                .then(|| format!("PRRT_kwDO{index:04}")),
            facts: None,
        },
        reopening_evidence: (s.thread == ThreadTransition::Reopened)
            .then(|| "The fix was reverted in a later commit.".to_string()),
        history,
        code_fingerprint: None,
    };
    Finding {
        index,
        id: format!("rg_{index}"),
        key: FindingKey::Semantic(key),
        rank: s.sev,
        title: None,
        claim: Some(s.claim.to_string()),
        suggested_fix: Some("Return an error once the attempts are exhausted.".to_string()),
        path: Some(s.path.to_string()),
        line: Some(s.line),
        evidence,
        origin: Origin::ReviewGate(rg),
    }
}

fn specs() -> Vec<Spec> {
    use Classification as C;
    use Disposition as D;
    use Severity as S;
    use ThreadTransition as T;
    let spec = |sev, class, disp, path, line, claim, thread, outdated| Spec {
        sev,
        class,
        disp,
        path,
        line,
        claim,
        thread,
        outdated,
    };
    vec![
        spec(
            S::P1,
            C::ReliabilityRisk,
            D::StillOpen,
            "app/webhooks/retry.py",
            88,
            "Retry exhaustion reports success to the caller.",
            T::Retained,
            false,
        ),
        spec(
            S::P0,
            C::Security,
            D::StillOpen,
            "src/auth/session.rs",
            41,
            "Session token compared with a non-constant-time equality.",
            T::NotPublished,
            false,
        ),
        spec(
            S::P2,
            C::Defect,
            D::StillOpen,
            "web/src/Login.tsx",
            17,
            "Login form submits twice on Enter.",
            T::ResolvedExternally,
            false,
        ),
        spec(
            S::P1,
            C::Defect,
            D::StillOpen,
            "cmd/cli/main.go",
            120,
            "Exit code is 0 when the upload fails.",
            T::Reopened,
            false,
        ),
        spec(
            S::P3,
            C::ContractAmbiguity,
            D::Fixed,
            "docs/api.md",
            9,
            "Pagination cursor semantics are undocumented.",
            T::ResolutionPending,
            false,
        ),
        spec(
            S::P2,
            C::ReliabilityRisk,
            D::StillOpen,
            "lib/parser/tokens.c",
            233,
            "Buffer index can pass the end on a trailing backslash.",
            T::Unknown,
            false,
        ),
        spec(
            S::P3,
            C::Defect,
            D::StillOpen,
            "src/cache.rs",
            77,
            "Cache entry expires one second late.",
            T::Retained,
            true,
        ),
        spec(
            S::P4,
            C::Suggestion,
            D::IntentionalContract,
            "src/config.rs",
            12,
            "Consider naming the default timeout.",
            T::ResolvedIntentionalContract,
            false,
        ),
        spec(
            S::P2,
            C::Defect,
            D::Disputed,
            "src/server/handler.rs",
            301,
            "Handler ignores the deadline header.",
            T::Retained,
            false,
        ),
        spec(
            S::P4,
            C::Suggestion,
            D::RejectedWithEvidence,
            ".github/workflows/release.yml",
            5,
            "Pin the checkout action to a commit.",
            T::NotPublished,
            false,
        ),
    ]
}

/// A pull-request agent result with ten findings and every thread state.
pub fn sample_set() -> ReviewSet {
    let findings: Vec<Finding> = specs().iter().enumerate().map(|(i, s)| finding(i, s)).collect();
    ReviewSet {
        format: Format::AgentResult,
        scope: Scope::PullRequest {
            repository: "acme/webhooks".to_string(),
            pull_request_number: 42,
        },
        reviewed_sha: Some(SHA.to_string()),
        status: ReviewStatus::NeedsChanges,
        score: Some(1),
        angle_errors: Vec::new(),
        findings,
        river: None,
        projection: Projection::NotApplicable,
        notices: Vec::new(),
        estimated_cost_usd: Some(0.12),
    }
}

/// A review that did not complete: `review_error` with two angle errors.
pub fn review_error_set() -> ReviewSet {
    let mut set = sample_set();
    set.status = ReviewStatus::ReviewError;
    set.score = None;
    set.findings.truncate(2);
    let err = |id: &str, kind: &str, retryable: bool, message: &str| AngleError {
        angle_id: id.to_string(),
        angle_name: format!("{id} review"),
        kind: kind.to_string(),
        retryable,
        message: message.to_string(),
        model: "model-a".to_string(),
    };
    set.angle_errors = vec![
        err("security", "timeout", true, "The security angle timed out after 600 s."),
        err(
            "tests",
            "malformed_response",
            false,
            "The tests angle returned JSON that did not match the schema.",
        ),
    ];
    set
}

/// A River Review artifact with derived decision and loop signal.
pub fn river_set() -> ReviewSet {
    let river = |i: usize, sev: RiverSeverity, file: &str, title: &str| Finding {
        index: i,
        id: format!("rr-{}", i + 1),
        key: FindingKey::River(format!("{:016x}", 0x5eed_0000_u64 + i as u64)),
        rank: sev.rank(),
        title: Some(title.to_string()),
        claim: Some(format!("Finding: {title} Impact: data loss. Fix: guard it.")),
        suggested_fix: Some("Guard the call.".to_string()),
        path: Some(file.to_string()),
        line: Some(10 + i as u32),
        evidence: Vec::new(),
        origin: Origin::River(RiverFields {
            rule_id: Some("rr-midstream-security-001".to_string()),
            phase: Some("midstream".to_string()),
            severity: Some(sev),
            confidence: Some("high".to_string()),
            status: Some(RiverStatus::Open),
            evidence: vec!["const KEY = \"sk-live\"".to_string()],
            suggestion: Some("Read the key from the environment.".to_string()),
            ..RiverFields::default()
        }),
    };
    ReviewSet {
        format: Format::RiverArtifact,
        scope: Scope::Local,
        reviewed_sha: None,
        status: ReviewStatus::Ok,
        score: None,
        angle_errors: Vec::new(),
        findings: vec![
            river(0, RiverSeverity::Major, "src/config.mjs", "Hardcoded API key detected"),
            river(1, RiverSeverity::Minor, "src/lib/runner.mjs", "Missing error handling"),
        ],
        river: Some(RiverRunInfo {
            phase: Some("midstream".to_string()),
            decision: Some(Stated::Derived("human-review-recommended".to_string())),
            loop_signal: Some(Stated::Derived("REVISE_REQUIRED".to_string())),
            ..RiverRunInfo::default()
        }),
        projection: Projection::NotApplicable,
        notices: Vec::new(),
        estimated_cost_usd: None,
    }
}

/// A finding of the sample set with a chosen thread transition.
pub fn with_thread(transition: ThreadTransition, outdated: bool) -> Finding {
    let mut f = finding(0, &specs()[0]);
    if let Origin::ReviewGate(rg) = &mut f.origin {
        rg.thread.transition = transition;
        rg.thread.status = status_of(transition);
        rg.thread.outdated = outdated;
    }
    f
}

/// `n` findings cycling through the sample's shapes (benchmarks).
pub fn scaled(n: usize) -> ReviewSet {
    let specs = specs();
    let mut set = sample_set();
    set.findings = (0..n).map(|i| finding(i, &specs[i % specs.len()])).collect();
    set
}

/// A screen on `set` (file source, built-in keys, coloured theme) at a size.
pub fn app(set: ReviewSet, size: (u16, u16)) -> triage::tui::app::App {
    use triage::tui::app::{Document, Source};
    let doc = Document::new(
        Source::File("review.json".to_string()),
        Some(set.format),
        Some(set),
        Vec::new(),
    );
    app_on(doc, size)
}

/// A screen on a document (built-in keys, coloured theme) at a size.
pub fn app_on(doc: triage::tui::app::Document, size: (u16, u16)) -> triage::tui::app::App {
    use triage::tui::app::{App, Settings};
    let settings = Settings {
        keymap: triage::tui::keymap::Keymap::builtin().unwrap_or_default(),
        theme: triage::tui::theme::Theme::colored(),
        color: true,
        split_shift: 0,
    };
    let mut app = App::new(doc, settings, size);
    triage::tui::update::update(&mut app, triage::tui::update::Msg::Resize(size.0, size.1));
    app
}
