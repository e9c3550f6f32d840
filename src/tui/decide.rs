//! Sending decisions (pure: the runtime does the sending): whether this
//! review can record anything, binding the composer's decision to each
//! finding, the outcomes as they come back, and retry.

use super::app::{App, Level, Mode, SubmitState};
use super::composer::Composer;
use super::composer::choice::{Choice, System};
use super::decision_state::{Actor, Batch, RiverTarget, SentDecision};
use super::effect::{Effect, RiverDecision, RiverItem, SubmitItem};
use super::update::{SubmitOutcome, flash};
use crate::github::draft::Draft;
use crate::model::review::{Format, Scope};
use crate::river_store::FindingFacts;
use crate::sanitize::clean_line;

/// The system decisions on this review are recorded in.
pub fn system_of(app: &App) -> System {
    match app.doc.format {
        Some(Format::RiverArtifact | Format::RiverRun) => System::River,
        _ => System::ReviewGate,
    }
}

/// Why no decision can be made on this review at all, if so.
pub fn blocked(app: &App, system: System) -> Option<String> {
    if let Some(why) = app.doc.read_only_reason() {
        return Some(why.to_string());
    }
    let set = app.doc.set.as_ref()?;
    if system == System::River {
        return None;
    }
    if !matches!(set.format, Format::AgentResult | Format::ArtifactV3) {
        return Some(format!(
            "only ReviewGate agent results and v3 review outputs can be recorded on GitHub (this is {})",
            set.format.label()
        ));
    }
    if set.scope == Scope::Local {
        return Some("this is a local-scope result: only pull-request results can be recorded on GitHub".into());
    }
    None
}

/// Why decisions cannot be sent right now (drafting is still possible).
pub fn send_blocked(app: &App) -> Option<String> {
    if let Some(head) = &app.live.stale_head {
        let short: String = head.chars().take(12).collect();
        return Some(format!(
            "the pull request head moved to {} after this result was made; submission is off until a current result is loaded (R)",
            clean_line(&short)
        ));
    }
    if app.live.refreshing.is_some() {
        return Some("a refresh is running; wait for it to finish".into());
    }
    if app.decide.batch.is_some() {
        return Some("decisions are being sent; wait for their outcomes".into());
    }
    None
}

/// The decisions of a composer, bound to each finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Items {
    ReviewGate(Vec<SubmitItem>),
    River(Vec<RiverItem>),
}

/// Binds the composer's decision to every target (all local checks).
fn items(app: &App, c: &Composer) -> Result<Items, String> {
    let set = app.doc.set.as_ref().ok_or("no review is loaded")?;
    let evidence = c.evidence();
    let fp_of = |i: usize| app.doc.findings().get(i).map(|f| f.key.as_str().to_string());
    match c.choice {
        None => Err("choose a status first".into()),
        Some(Choice::ReviewGate(status)) => {
            let mut out = Vec::new();
            for &finding in &c.targets {
                let fp = fp_of(finding).ok_or("the finding is no longer in the review")?;
                let draft = Draft::for_finding(set, &fp, status, &evidence).map_err(|problems| {
                    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
                    clean_line(&format!("{fp}: {}", text.join("; ")))
                })?;
                out.push(SubmitItem {
                    finding,
                    draft,
                    replaces: c.replaces.clone(),
                    supersede: false,
                });
            }
            Ok(Items::ReviewGate(out))
        }
        Some(Choice::River(status)) => {
            let mut out = Vec::new();
            for &finding in &c.targets {
                fp_of(finding).ok_or("the finding is no longer in the review")?;
                // This row's occurrence: a v2 suppression anchors its line.
                let facts = FindingFacts::of(set, finding).map_err(|e| clean_line(&e.to_string()))?;
                let decision = RiverDecision {
                    facts,
                    status,
                    evidence: evidence.clone(),
                    options: c.river,
                };
                out.push(RiverItem { finding, decision });
            }
            Ok(Items::River(out))
        }
    }
}

/// Runs every local check of the open composer's decision.
pub fn check(app: &App) -> Result<(), String> {
    let c = app.decide.composer.as_ref().ok_or("the composer is closed")?;
    items(app, c).map(|_| ())
}

/// Confirmed: closes the composer and sends the decision.
pub fn confirm(app: &mut App) -> Vec<Effect> {
    let Some(composer) = app.decide.composer.clone() else {
        return Vec::new();
    };
    let bound = composer
        .not_ready()
        .map_or_else(|| items(app, &composer), Err)
        .and_then(|items| send_blocked(app).map_or(Ok(items), Err));
    match bound {
        Err(why) => {
            app.ui.mode = Mode::Compose(super::composer::Stage::Evidence);
            flash(app, Level::Error, format!("Not sent: {why}. The draft is kept."));
            Vec::new()
        }
        Ok(items) => {
            app.decide.composer = None;
            app.decide.drafts.remove(&composer.targets);
            app.ui.mode = Mode::Normal;
            let mut composer = composer;
            let drafts = super::drafts::kept_ids(app, &mut composer);
            let effects = send_removing(app, items, drafts);
            super::progress::after_send(app, &composer.targets);
            effects
        }
    }
}

/// Marks the findings pending under a new generation and asks the runtime to send.
pub fn send(app: &mut App, items: Items) -> Vec<Effect> {
    send_removing(app, items, Vec::new())
}

/// [`send`], removing the kept drafts `drafts` once the decisions are kept.
fn send_removing(app: &mut App, items: Items, drafts: Vec<String>) -> Vec<Effect> {
    let generation = app.next_generation;
    app.next_generation += 1;
    let (findings, effect, what) = match items {
        Items::ReviewGate(items) => {
            for it in &items {
                app.decide
                    .sent
                    .insert(it.finding, SentDecision::ReviewGate(it.draft.clone()));
            }
            let findings: Vec<usize> = items.iter().map(|i| i.finding).collect();
            (
                findings,
                Effect::Submit {
                    generation,
                    items,
                    drafts,
                },
                "kept in the outbox, then sent to GitHub",
            )
        }
        Items::River(items) => {
            for it in &items {
                app.decide
                    .sent
                    .insert(it.finding, SentDecision::River(it.decision.clone()));
            }
            let findings: Vec<usize> = items.iter().map(|i| i.finding).collect();
            (
                findings,
                Effect::RecordRiver {
                    generation,
                    items,
                    drafts,
                },
                "written to River Review's files",
            )
        }
    };
    for &i in &findings {
        if let Some(state) = app.submit.get_mut(i) {
            *state = SubmitState::Pending { generation };
        }
    }
    let total = findings.len();
    app.decide.batch = Some(Batch {
        generation,
        total,
        ..Batch::default()
    });
    app.detail.key = None;
    let s = if total == 1 { "" } else { "s" };
    flash(app, Level::Info, format!("Sending {total} decision{s}: {what}."));
    vec![effect]
}

/// `r`: sends the selected finding's last decision again.
pub fn retry(app: &mut App) -> Vec<Effect> {
    let Some(i) = app.selected() else {
        flash(app, Level::Warning, "No finding selected.");
        return Vec::new();
    };
    if !matches!(
        app.submit.get(i),
        Some(SubmitState::Failed { .. } | SubmitState::Rejected { .. })
    ) {
        flash(
            app,
            Level::Info,
            "Nothing to retry: r sends a failed or rejected decision again.",
        );
        return Vec::new();
    }
    let why = blocked(app, system_of(app)).or_else(|| send_blocked(app));
    let items = match (why, app.decide.sent.get(&i).cloned()) {
        (Some(why), _) => Err(why),
        (None, Some(SentDecision::ReviewGate(draft))) => Ok(Items::ReviewGate(vec![SubmitItem {
            finding: i,
            draft,
            replaces: None,
            supersede: false,
        }])),
        (None, Some(SentDecision::River(decision))) => Ok(Items::River(vec![RiverItem { finding: i, decision }])),
        (None, None) => Err("the decision is not known in this session (see the outbox: O)".into()),
    };
    match items {
        Ok(items) => send(app, items),
        Err(why) => {
            flash(app, Level::Warning, format!("Cannot retry: {why}."));
            Vec::new()
        }
    }
}

/// An outcome came back; outcomes of a superseded generation are dropped.
pub fn finished(app: &mut App, finding: usize, generation: u64, outcome: SubmitOutcome) {
    let Some(state) = app.submit.get_mut(finding) else {
        return;
    };
    if *state != (SubmitState::Pending { generation }) {
        return;
    }
    let (new, level, line) = match outcome {
        SubmitOutcome::Recorded(receipt) => {
            let line = format!("Recorded: {}", receipt.link.as_deref().unwrap_or(&receipt.summary));
            (SubmitState::Recorded(receipt), Level::Info, line)
        }
        SubmitOutcome::Rejected { reason, stale_head } => {
            if let Some(head) = stale_head {
                app.live.stale_head = Some(head);
            }
            let line = format!("Rejected: {reason}");
            (SubmitState::Rejected { reason }, Level::Error, line)
        }
        SubmitOutcome::Failed { reason } => {
            let line = format!("Failed (r retries): {reason}");
            (SubmitState::Failed { reason }, Level::Warning, line)
        }
        SubmitOutcome::Conflict { reason } => {
            let line = format!("Not sent: {reason}");
            (SubmitState::Rejected { reason }, Level::Warning, line)
        }
    };
    let ok = matches!(new, SubmitState::Recorded(_));
    *state = new;
    app.detail.key = None;
    let Some(mut batch) = app.decide.batch.filter(|b| b.generation == generation) else {
        return;
    };
    match (ok, &app.submit[finding]) {
        (true, _) => batch.recorded += 1,
        (false, SubmitState::Rejected { .. }) => batch.rejected += 1,
        _ => batch.failed += 1,
    }
    if batch.done() < batch.total {
        app.decide.batch = Some(batch);
        return;
    }
    app.decide.batch = None;
    if batch.total == 1 {
        flash(app, level, line);
    } else {
        let level = if batch.recorded == batch.total {
            Level::Info
        } else {
            Level::Warning
        };
        flash(app, level, batch.summary());
    }
}

/// What the detail pane's decision section needs beyond the state.
#[derive(Debug, Clone, Default)]
pub struct DetailFacts {
    /// A kept draft for the finding: its status (if chosen) and evidence bytes.
    pub draft: Option<(Option<&'static str>, usize)>,
    /// Why nothing can be submitted for it now.
    pub blocked: Option<String>,
}

/// The decision facts of finding `selected`.
pub fn detail_facts(app: &App, selected: Option<usize>) -> DetailFacts {
    let Some(i) = selected else {
        return DetailFacts::default();
    };
    let draft = app
        .decide
        .drafts
        .iter()
        .find(|(targets, _)| targets.contains(&i))
        .map(|(_, c)| (c.choice.map(Choice::name), c.evidence().len()));
    let system = system_of(app);
    DetailFacts {
        draft,
        blocked: blocked(app, system).or_else(|| send_blocked(app).filter(|_| app.live.stale_head.is_some())),
    }
}

/// The authenticated login came back (or why it could not be read).
/// The River target was looked up.
pub fn river_target(
    app: &mut App,
    result: Result<
        (std::path::PathBuf, crate::river_store::config::SuppressionSetting),
        super::message::failure::Shared<crate::river_store::StoreError>,
    >,
) {
    app.decide.river_target = match result {
        Ok((root, setting)) => RiverTarget::Known { root, setting },
        Err(why) => RiverTarget::Unavailable(why),
    };
}

/// Asks for the River target the first time a River composer opens.
pub fn want_river_target(app: &mut App) -> Vec<Effect> {
    if system_of(app) != System::River || app.decide.river_target != RiverTarget::Unknown {
        return Vec::new();
    }
    app.decide.river_target = RiverTarget::LookingUp;
    let artifact_root = app
        .doc
        .set
        .as_ref()
        .and_then(|s| s.river.as_ref())
        .and_then(|r| r.repo_root.clone());
    vec![Effect::ResolveRiverTarget { artifact_root }]
}

pub fn actor(app: &mut App, result: Result<String, super::message::failure::ActorError>) {
    app.decide.actor = match result {
        Ok(login) => Actor::Known(login),
        Err(why) => Actor::Unavailable(why),
    };
}
