//! Writing River decisions from the screen, through [`crate::river_store`]:
//! the repository root is `--repo-root`, else the review's
//! `context.repoRoot` when it is a repository here, else the git top-level.

use super::worker::Worker;
use crate::river_store::config;
use crate::river_store::lifecycle::FindingIds;
use crate::river_store::root::resolve_root;
use crate::river_store::{DecisionInput, Note, Recorded, RiverPaths, StoreError, record, revoke};
use crate::time::now_millis;
use crate::tui::decision_state::Receipt;
use crate::tui::effect::{Context, RiverItem};
use crate::tui::message::Revoked;
use crate::tui::message::failure::{SendFailure, Shared};
use crate::tui::update::{Msg, SubmitOutcome};
use std::path::{Path, PathBuf};

/// Author recorded when `$USER` is not set.
const DEFAULT_AUTHOR: &str = "triage";

fn author() -> String {
    std::env::var("USER")
        .ok()
        .filter(|a| !a.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_AUTHOR.to_owned())
}

fn root(flag: Option<&Path>, artifact_root: Option<&str>) -> Result<PathBuf, StoreError> {
    let cwd =
        std::env::current_dir().map_err(|e| StoreError::RepoRoot(format!("cannot read the current directory: {e}")))?;
    resolve_root(flag, artifact_root, &cwd).map(|(root, _)| root)
}

/// Writes each decision in turn on a thread of its own.
/// The kept drafts `drafts` are removed once every decision is written.
pub fn record_all(ctx: &Context, generation: u64, items: Vec<RiverItem>, drafts: Vec<String>, worker: &Worker) {
    let flag = ctx.repo_root.clone();
    let tx = worker.tx();
    worker.job("writing River decisions", move |_| {
        let author = author();
        let mut all_written = true;
        for it in items {
            let d = &it.decision;
            let outcome = match root(flag.as_deref(), d.facts.repo_root.as_deref()) {
                Err(e) => SubmitOutcome::Failed {
                    reason: SendFailure::River(e.into()),
                },
                Ok(root) => {
                    let note = Note {
                        evidence: &d.evidence,
                        author: &author,
                        pr: None,
                    };
                    let now = now_millis();
                    let expires_at = d.options.expiry.at(now);
                    let input = DecisionInput {
                        status: d.status,
                        note,
                        suppress: true,
                        algo: d.options.algo,
                        expires_at: expires_at.as_deref(),
                    };
                    match record(&RiverPaths::new(&root), &d.facts, &input, now, false) {
                        Ok(r) => SubmitOutcome::Recorded(receipt(&r)),
                        Err(e) => SubmitOutcome::Failed {
                            reason: SendFailure::River(e.into()),
                        },
                    }
                }
            };
            all_written &= matches!(outcome, SubmitOutcome::Recorded(_));
            let _ = tx.send(Msg::SubmitFinished {
                finding: it.finding,
                generation,
                outcome,
            });
        }
        if all_written {
            for id in &drafts {
                if let Some(msg) = super::files::delete_draft(id) {
                    let _ = tx.send(msg);
                }
            }
        }
        None
    });
}

/// What a recorded River decision wrote, for the screen.
pub fn receipt(r: &Recorded) -> Receipt {
    let feedback = format!(
        "feedback {} appended to {}",
        r.feedback.feedback_type.as_str(),
        r.feedback_file.display()
    );
    match &r.suppression {
        Ok(s) => Receipt {
            summary: format!(
                "{feedback}; suppression {} ({}) written to {}",
                s.entry.id,
                s.entry.context.feedback_type.as_str(),
                s.index_file.display()
            ),
            link: None,
            shown_as: Some("suppr"),
            suppressed: true,
        },
        // An earlier suppression still in force keeps the finding hidden:
        // the row shows what River holds, and undo can revoke it.
        Err(reason) if !r.still_hidden_by.is_empty() => Receipt {
            summary: format!(
                "{feedback}; no new suppression ({reason}); {}",
                r.still_hidden_by
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            link: None,
            shown_as: Some("suppr"),
            suppressed: true,
        },
        Err(reason) => Receipt {
            summary: format!("{feedback}; no suppression: {reason}"),
            link: None,
            shown_as: None,
            suppressed: false,
        },
    }
}

/// Finds the repository River decisions go to (absolute) and River's
/// suppression setting there, on a thread of its own (`Msg::RiverTarget`).
pub fn resolve_target(ctx: &Context, artifact_root: Option<String>, worker: &Worker) {
    let flag = ctx.repo_root.clone();
    let tx = worker.tx();
    worker.job("finding the River repository", move |_| {
        let result = root(flag.as_deref(), artifact_root.as_deref())
            .map(|root| {
                let root = std::path::absolute(&root).unwrap_or(root);
                let setting = config::read(&root, config::user_home().as_deref());
                (root, setting)
            })
            .map_err(Shared::new);
        let _ = tx.send(Msg::RiverTarget(result));
        None
    });
}

/// Revokes a finding's suppression on a thread of its own (`Msg::Undone`).
pub fn undo(ctx: &Context, finding: usize, target: (String, Vec<String>, Option<String>), worker: &Worker) {
    let flag = ctx.repo_root.clone();
    let (fingerprint, v2, artifact_root) = target;
    let tx = worker.tx();
    worker.job("revoking a River suppression", move |_| {
        let author = author();
        let result = root(flag.as_deref(), artifact_root.as_deref()).and_then(|root| {
            let note = Note {
                evidence: "revoked from the triage screen",
                author: &author,
                pr: None,
            };
            let ids = FindingIds {
                v1: &fingerprint,
                v2: &v2,
            };
            revoke(&RiverPaths::new(&root), &ids, &note, now_millis(), false)
        });
        let result = result
            .map(|r| Revoked {
                ids: r.revoked.iter().map(|(sid, _)| sid.clone()).collect(),
                index_file: r.index_file,
            })
            .map_err(Shared::new);
        let _ = tx.send(Msg::Undone { finding, result });
        None
    });
}

#[cfg(test)]
mod tests;
