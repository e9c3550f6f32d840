//! What River Review's gate will do with the suppression a River decision
//! writes, as composer and preview lines (pure: the repository root and
//! River's configuration were looked up at the edge, see
//! [`crate::tui::decision_state::RiverTarget`]). The decision is still
//! written when the user confirms; these lines only tell the truth first.

use super::Composer;
use crate::river_store::config::SuppressionSetting;
use crate::river_store::decide::suppression_for;
use crate::river_store::gate::{GateInput, GateWarning, warnings};
use crate::river_store::{DecisionInput, DecisionStatus, FindingFacts, Note};
use crate::sanitize::clean_line;
use crate::tui::app::App;
use crate::tui::decision_state::RiverTarget;
use crate::tui::text::{TextLine, Tone};

/// The gate's warnings for every target of the composer (each once).
pub fn gate_warnings(app: &App, c: &Composer, status: DecisionStatus) -> Vec<GateWarning> {
    let Some(set) = app.doc.set.as_ref() else {
        return Vec::new();
    };
    let enabled = SuppressionSetting::Enabled;
    let setting = match &app.decide.river_target {
        RiverTarget::Known { setting, .. } => setting,
        _ => &enabled,
    };
    let mut out: Vec<GateWarning> = Vec::new();
    for &i in &c.targets {
        let Ok(facts) = FindingFacts::of(set, i) else {
            continue;
        };
        let input = DecisionInput {
            status,
            note: Note {
                evidence: "-",
                author: "",
                pr: None,
            },
            suppress: true,
            algo: c.river.algo,
            expires_at: None,
        };
        let Ok((_, s)) = suppression_for(&facts, &input) else {
            continue;
        };
        // An expiry chosen on the screen is always in the future, so the
        // time never matters here.
        let found = warnings(&GateInput {
            file: s.file,
            phase: s.phase,
            changed_files: &facts.changed_files,
            setting,
            algo: s.algo,
            expires_at: None,
            now: 0,
        });
        for w in found {
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// The warnings as lines: those that stop River everywhere as warnings,
/// the release-line notes dimmed (`notes` false leaves them out).
pub fn lines(warnings: &[GateWarning], notes: bool) -> Vec<TextLine> {
    warnings
        .iter()
        .filter(|w| notes || w.blocks_everywhere())
        .map(|w| {
            let tone = if w.blocks_everywhere() {
                Tone::Warning
            } else {
                Tone::Dim
            };
            TextLine::one(tone, format!("  {}", clean_line(&w.to_string())))
        })
        .collect()
}

/// Where the files go: the absolute repository path once known.
pub fn target_line(app: &App) -> TextLine {
    match &app.decide.river_target {
        RiverTarget::Known { root, .. } => TextLine::one(Tone::Label, "repository: ").push(
            Tone::Plain,
            format!("{}  (files under .river/)", clean_line(&root.display().to_string())),
        ),
        RiverTarget::Unavailable(why) => TextLine::one(
            Tone::Error,
            format!(
                "repository unknown: {} (start triage with --repo-root DIR)",
                clean_line(&why.to_string())
            ),
        ),
        RiverTarget::Unknown | RiverTarget::LookingUp => TextLine::one(
            Tone::Dim,
            "repository: looking it up (--repo-root, else the review's context.repoRoot if it is a repository here, else the git top-level)…",
        ),
    }
}
