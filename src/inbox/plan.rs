//! What to read for one pull request, decided from the repository-wide
//! listings alone (pure): the review run of its current head, and that
//! run's result artifact when the listing already named it.

use crate::github::fetch::artifact_name;
use crate::github::open_prs::OpenPr;
use crate::github::repo_runs::{ArtifactInfo, RunInfo};

/// What the listings say about a pull request's head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// The newest run for the head is queued or in progress.
    Running { run_id: u64 },
    /// A completed eligible run for the head: read its result. `artifact`
    /// is the one the repository listing holds (`None`: ask the run).
    Result {
        run: Box<RunInfo>,
        artifact: Option<Box<ArtifactInfo>>,
    },
    /// Runs for the head exist but none can be used (cancelled, skipped ...).
    Unusable { run_id: u64, conclusion: String },
    /// Only an older head of the pull request has a run.
    Stale { run_id: u64 },
    /// No run for the pull request among the runs listed.
    Missing,
}

/// The plan for `pr` from the review runs and the repository's artifacts.
///
/// A run belongs to an older head of the pull request when GitHub ties it
/// to the pull request's number, or (runs from forks carry no pull
/// requests) when it ran on the pull request's branch name.
pub fn plan(pr: &OpenPr, runs: &[RunInfo], artifacts: &[ArtifactInfo]) -> Plan {
    let newest = |r: &&RunInfo| (r.run_number, r.id);
    let for_head: Vec<&RunInfo> = runs
        .iter()
        .filter(|r| r.head_sha == pr.head_sha && r.event == "pull_request")
        .collect();
    if let Some(latest) = for_head.iter().copied().max_by_key(newest)
        && latest.in_progress()
    {
        return Plan::Running { run_id: latest.id };
    }
    if let Some(run) = for_head.iter().copied().filter(|r| r.eligible()).max_by_key(newest) {
        let name = artifact_name(&pr.head_sha, run.attempt());
        return Plan::Result {
            run: Box::new(run.clone()),
            artifact: pick_artifact(artifacts, run, &pr.head_sha, &name).map(Box::new),
        };
    }
    if let Some(run) = for_head.iter().copied().max_by_key(newest) {
        return Plan::Unusable {
            run_id: run.id,
            conclusion: run.conclusion.clone().unwrap_or_else(|| "none".to_owned()),
        };
    }
    let older = runs
        .iter()
        .filter(|r| {
            r.pull_requests.iter().any(|p| p.number == pr.number)
                || (!pr.head_ref.is_empty() && r.head_branch.as_deref() == Some(pr.head_ref.as_str()))
        })
        .max_by_key(newest);
    match older {
        Some(run) => Plan::Stale { run_id: run.id },
        None => Plan::Missing,
    }
}

/// The newest unexpired artifact named `name` of `run` at `head`.
pub fn pick_artifact(artifacts: &[ArtifactInfo], run: &RunInfo, head: &str, name: &str) -> Option<ArtifactInfo> {
    artifacts
        .iter()
        .filter(|a| !a.expired && a.is_of(run.id, head, name))
        .max_by_key(|a| a.id)
        .cloned()
}

/// The River Review artifacts published for `head` (names starting with
/// `river`, any case, from a run at that head), sorted.
pub fn river_artifacts(artifacts: &[ArtifactInfo], head: &str) -> Vec<String> {
    let mut names: Vec<String> = artifacts
        .iter()
        .filter(|a| {
            !a.expired
                && a.name.to_ascii_lowercase().starts_with("river")
                && a.workflow_run.as_ref().and_then(|w| w.head_sha.as_deref()) == Some(head)
        })
        .map(|a| a.name.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}
