//! The pull request behind a `--pr` result: `R` re-fetches result and
//! threads in the background, keeping selection, marks and drafts (matched by
//! fingerprint); a moved head makes the loaded result stale and turns
//! submission off; unreadable threads make every finding `unknown` and the
//! banner says why.

use super::app::{App, Document, Level, SubmitState};
use super::composer::Composer;
use super::decision_state::SentDecision;
use super::effect::Effect;
pub use super::message::RefreshOutcome;
use super::update::flash;
use crate::model::threads::{OrphanThread, apply_threads};
use crate::sanitize::clean_line;
use std::collections::{BTreeMap, HashMap};

/// What the screen knows about the live pull request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Live {
    /// Opened with `--pr`: `R` can refresh.
    pub pr: bool,
    /// The generation of the refresh running, if one is.
    pub refreshing: Option<u64>,
    /// The pull request's head, when it moved past the loaded result.
    pub stale_head: Option<String>,
    /// Why thread state is unknown, when it could not be read.
    pub threads_unavailable: Option<String>,
    /// ReviewGate threads whose fingerprint matches no finding of the result
    /// (listed in the drift lane, never dropped).
    pub orphans: Vec<OrphanThread>,
    /// The thread action being composed or sent.
    pub thread: super::thread_act::ThreadUi,
    /// The decisions the pull request already holds.
    pub ledger: super::recorded::LedgerView,
}

/// `R`: starts a refresh (opened with `--pr` only, never while sending).
pub fn refresh(app: &mut App) -> Vec<Effect> {
    if !app.live.pr {
        flash(app, Level::Info, "R refreshes a result opened with --pr N.");
        return Vec::new();
    }
    if app.live.refreshing.is_some() {
        flash(app, Level::Info, "A refresh is already running.");
        return Vec::new();
    }
    if app.decide.batch.is_some() {
        flash(
            app,
            Level::Warning,
            "Decisions are being sent; refresh once their outcomes are in.",
        );
        return Vec::new();
    }
    let generation = app.next_generation;
    app.next_generation += 1;
    app.live.refreshing = Some(generation);
    flash(app, Level::Info, "Refreshing the result and threads…");
    let reviewed_sha = app.doc.set.as_ref().and_then(|s| s.reviewed_sha.clone());
    vec![Effect::Refresh {
        generation,
        reviewed_sha,
    }]
}

/// A refresh finished.
pub fn refreshed(app: &mut App, generation: u64, outcome: RefreshOutcome) {
    if app.live.refreshing != Some(generation) {
        return;
    }
    app.live.refreshing = None;
    match outcome {
        RefreshOutcome::Loaded {
            doc,
            threads_unavailable,
            orphans,
        } => {
            let moved = doc.set.as_ref().and_then(|s| s.reviewed_sha.clone())
                != app.doc.set.as_ref().and_then(|s| s.reviewed_sha.clone());
            replace_document(app, *doc);
            app.live.stale_head = None;
            let threads_unknown = threads_unavailable.is_some();
            app.live.threads_unavailable = threads_unavailable;
            app.live.orphans = orphans;
            // The line never says threads are current when they could not be read.
            let (level, text) = match (moved, threads_unknown) {
                (true, false) => (
                    Level::Info,
                    "Loaded the result for the new head; selection, marks and drafts kept.",
                ),
                (true, true) => (
                    Level::Warning,
                    "Loaded the result for the new head, but its threads could not be read: thread state is unknown.",
                ),
                (false, false) => (Level::Info, "Refreshed: result and threads are current."),
                (false, true) => (
                    Level::Warning,
                    "Refreshed the result, but the threads could not be read: thread state is unknown.",
                ),
            };
            flash(app, level, text);
        }
        RefreshOutcome::HeadMoved { head, reason } => {
            let short: String = head.chars().take(12).collect();
            app.live.stale_head = Some(head);
            let text = format!(
                "The head moved to {}: {}",
                clean_line(&short),
                clean_line(&super::present::failure::head_moved(&reason))
            );
            flash(app, Level::Warning, text);
        }
        RefreshOutcome::Threads { observation, warning } => {
            if let Some(set) = app.doc.set.as_mut() {
                app.live.orphans = apply_threads(set, &observation).orphan_threads;
            }
            app.live.threads_unavailable = observation.unavailable_reason().map(str::to_owned);
            let old = &app.doc;
            let doc = Document::new(old.source.clone(), old.format, old.set.clone(), old.problems.clone());
            replace_document(app, doc);
            let text = format!(
                "Threads refreshed; the result was not fetched again: {}",
                clean_line(&warning.to_string())
            );
            flash(app, Level::Warning, text);
        }
        RefreshOutcome::Failed { reason } => {
            flash(
                app,
                Level::Warning,
                format!("Refresh failed: {}", clean_line(&reason.to_string())),
            );
        }
    }
}

/// Old finding index -> new index, by fingerprint.
fn index_map(old: &Document, new: &Document) -> HashMap<usize, usize> {
    let by_key: HashMap<&str, usize> = new
        .findings()
        .iter()
        .enumerate()
        .map(|(i, f)| (f.key.as_str(), i))
        .collect();
    old.findings()
        .iter()
        .enumerate()
        .filter_map(|(i, f)| by_key.get(f.key.as_str()).map(|&j| (i, j)))
        .collect()
}

/// The head a document's result reviewed.
fn head_of(doc: &Document) -> Option<&str> {
    doc.set.as_ref()?.reviewed_sha.as_deref()
}

/// Moves a composer's targets to the new indices; `false` when none is left.
fn remap_composer(c: &mut Composer, map: &HashMap<usize, usize>) -> bool {
    c.targets = c.targets.iter().filter_map(|i| map.get(i).copied()).collect();
    !c.targets.is_empty()
}

/// Swaps in a new document, carrying selection, marks, decision states,
/// drafts and sent decisions over to the same fingerprints.
///
/// A decision this session recorded is for the head it was made on: when
/// the new result is for another head, its "recorded" state is not carried
/// (a decision for an old head authorises nothing on a new one; the new
/// result shows what ReviewGate made of it, and the ledger read after the
/// refresh shows the rest).
pub fn replace_document(app: &mut App, doc: Document) {
    let map = index_map(&app.doc, &doc);
    let n = doc.findings().len();
    let keep = app.selected().and_then(|i| map.get(&i).copied());
    let same_head = head_of(&app.doc) == head_of(&doc);
    let mut marks = vec![false; n];
    let mut submit = vec![Default::default(); n];
    for (&old, &new) in &map {
        marks[new] = app.browse.marks.get(old).copied().unwrap_or(false);
        submit[new] = match app.submit.get(old).cloned().unwrap_or_default() {
            SubmitState::Recorded(_) if !same_head => SubmitState::Idle,
            state => state,
        };
    }
    let d = &mut app.decide;
    let mut drafts = BTreeMap::new();
    for (_, mut c) in std::mem::take(&mut d.drafts) {
        if remap_composer(&mut c, &map) {
            drafts.insert(c.targets.clone(), c);
        } else {
            d.orphans.push(c);
        }
    }
    d.drafts = drafts;
    if let Some(mut c) = d.composer.take() {
        if remap_composer(&mut c, &map) {
            d.composer = Some(c);
        } else {
            d.orphans.push(c);
        }
    }
    let sent: BTreeMap<usize, SentDecision> = std::mem::take(&mut d.sent)
        .into_iter()
        .filter_map(|(i, s)| map.get(&i).map(|&j| (j, s)))
        .collect();
    d.sent = sent;
    app.doc = doc;
    super::recorded::rejoin(app);
    super::offer::rejoin(app);
    app.browse.marks = marks;
    app.submit = submit;
    app.detail.key = None;
    let ev = &mut app.evidence;
    ev.local.clear();
    ev.requested.clear();
    ev.built_for = None;
    ev.dirty = true;
    app.refilter();
    if let Some(pos) = keep.and_then(|k| app.browse.visible.iter().position(|&i| i == k)) {
        app.browse.cursor = pos;
    }
    if !matches!(app.ui.mode, super::app::Mode::Compose(_)) || app.decide.composer.is_some() {
        return;
    }
    app.ui.mode = super::app::Mode::Normal;
}
