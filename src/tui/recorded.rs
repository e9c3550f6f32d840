//! What the pull request already holds: its decision ledger, loaded in the
//! background when the result is scoped to a pull request (opened with
//! `--pr`, or from a file) and a token is available, joined with the
//! findings by fingerprint when shown.
//!
//! A decision recorded on the reviewed head is "recorded, awaiting the next
//! review": the result file was produced before it and still shows the
//! canonical disposition ReviewGate computed then; ReviewGate's next run
//! replays the comment. When the finding's canonical disposition already is
//! the one the recorded decision maps to, nothing is awaited.

use super::app::{App, Level, SubmitState};
use super::effect::Effect;
pub use super::message::LedgerTarget;
use super::update::flash;
use crate::model::ledger::{Ledger, LedgerState, Recorded, Standing};
use crate::model::review::{Format, Scope};

/// The screen's view of the ledger.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum LedgerView {
    /// Not a pull-request result (or not read yet).
    #[default]
    NotApplicable,
    /// Being read (this generation). `held`: the fingerprints this
    /// session had recorded when the read started, which the ledger must
    /// still hold (a decision recorded after the read started may be
    /// missing from it without being gone).
    Loading { generation: u64, held: Vec<String> },
    /// Read and classified, joined with the findings.
    Known(Known),
    /// Could not be read: why (never shown as "nothing recorded").
    Unknown(String),
}

/// A ledger read for the loaded findings, with each finding's row mark
/// worked out once when it arrived ([`loaded`]), so that drawing a frame,
/// counting the header and filtering ask for a mark by index instead of
/// searching the ledger for every finding.
///
/// The marks depend only on the ledger and on the findings' canonical
/// dispositions; when the findings are replaced (a refresh), [`rejoin`]
/// works them out again for the new ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    pub ledger: Ledger,
    marks: Vec<Option<Standing>>,
}

impl Known {
    /// Joins `ledger` with `findings` (one pass over each).
    fn new(ledger: Ledger, findings: &[crate::model::finding::Finding]) -> Known {
        let latest = ledger.latest_each();
        let marks = findings
            .iter()
            .map(|f| crate::model::ledger::standing(f, latest.get(f.key.as_str()).copied()))
            .collect();
        Known { ledger, marks }
    }
}

fn target(app: &App) -> Option<LedgerTarget> {
    let set = app.doc.set.as_ref()?;
    if app.doc.read_only_reason().is_some() || matches!(set.format, Format::RiverArtifact | Format::RiverRun) {
        return None;
    }
    match (&set.scope, &set.reviewed_sha) {
        (
            Scope::PullRequest {
                repository,
                pull_request_number,
            },
            Some(sha),
        ) => Some(LedgerTarget {
            repository: repository.clone(),
            pull_request: *pull_request_number,
            head: sha.clone(),
        }),
        _ => None,
    }
}

/// Starts reading the ledger when the result is about a pull request.
pub fn load(app: &mut App) -> Vec<Effect> {
    let Some(target) = target(app) else {
        app.live.ledger = LedgerView::NotApplicable;
        return Vec::new();
    };
    let generation = app.next_generation;
    app.next_generation += 1;
    let held = app
        .doc
        .findings()
        .iter()
        .zip(&app.submit)
        .filter(|(_, state)| matches!(state, SubmitState::Recorded(_)))
        .map(|(f, _)| f.key.as_str().to_owned())
        .collect();
    app.live.ledger = LedgerView::Loading { generation, held };
    vec![Effect::LoadLedger { generation, target }]
}

/// The ledger was read; stale generations are dropped.
///
/// A decision this session recorded before the read started, which the
/// ledger no longer holds as an authorised decision for the head (its
/// comment was deleted on GitHub, say), is shown recorded no more: the
/// finding is undecided again, and the screen says so.
pub fn loaded(app: &mut App, generation: u64, state: LedgerState) {
    let held = match &mut app.live.ledger {
        LedgerView::Loading { generation: g, held } if *g == generation => std::mem::take(held),
        _ => return,
    };
    app.live.ledger = match state {
        LedgerState::Known(l) => LedgerView::Known(Known::new(l, app.doc.findings())),
        LedgerState::Unknown { reason } => LedgerView::Unknown(reason),
    };
    if let LedgerView::Known(known) = &app.live.ledger {
        let gone: Vec<usize> = app
            .doc
            .findings()
            .iter()
            .enumerate()
            .filter(|(i, f)| {
                let fp = f.key.as_str();
                matches!(app.submit.get(*i), Some(SubmitState::Recorded(_)))
                    && held.iter().any(|h| h == fp)
                    && !known.ledger.latest(fp).is_some_and(|r| r.authorised.is_authorised())
            })
            .map(|(i, _)| i)
            .collect();
        for &i in &gone {
            app.submit[i] = SubmitState::Idle;
        }
        if !gone.is_empty() {
            flash(
                app,
                Level::Warning,
                format!(
                    "{} decision(s) recorded in this session are no longer on the pull request (deleted on GitHub?): shown undecided again.",
                    gone.len()
                ),
            );
        }
    }
    app.detail.key = None;
    app.refilter();
}

/// Joins the shown ledger with the findings again after they were replaced
/// (a refresh keeps the ledger on screen until it is read again).
pub fn rejoin(app: &mut App) {
    app.live.ledger = match std::mem::take(&mut app.live.ledger) {
        LedgerView::Known(k) => LedgerView::Known(Known::new(k.ledger, app.doc.findings())),
        other => other,
    };
}

/// The ledger, when known.
pub fn ledger(app: &App) -> Option<&Ledger> {
    match &app.live.ledger {
        LedgerView::Known(k) => Some(&k.ledger),
        _ => None,
    }
}

/// Every decision recorded for finding `i`, oldest first.
pub fn for_finding(app: &App, i: usize) -> Vec<&Recorded> {
    let (Some(l), Some(f)) = (ledger(app), app.doc.findings().get(i)) else {
        return Vec::new();
    };
    l.for_fingerprint(f.key.as_str()).collect()
}

/// The row mark of finding `i`, if any: its standing, the one rule the
/// inbox counts by too ([`crate::model::ledger::standing`]).
pub fn row_mark(app: &App, i: usize) -> Option<Standing> {
    match &app.live.ledger {
        LedgerView::Known(k) => k.marks.get(i).copied().flatten(),
        _ => None,
    }
}

/// Findings whose recorded decisions are not applied on this head (the
/// drift lane lists them).
pub fn drifting(app: &App) -> Vec<usize> {
    (0..app.doc.findings().len())
        .filter(|&i| row_mark(app, i) == Some(Standing::Unauthorised))
        .collect()
}

/// Findings with a decision awaiting the next review, and ones with only
/// unauthorised or older-head decisions (for the header).
pub fn counts(app: &App) -> (usize, usize) {
    let mut out = (0, 0);
    for i in 0..app.doc.findings().len() {
        match row_mark(app, i) {
            Some(Standing::Awaiting) => out.0 += 1,
            Some(Standing::Unauthorised) => out.1 += 1,
            None => {}
        }
    }
    out
}
