//! What to read for one pull request, decided from the repository-wide
//! listings alone (pure): the review run of its current head, and that
//! run's result artifact when the listing already named it.

use crate::github::fetch::artifact_name;
use crate::github::open_prs::OpenPr;
use crate::github::repo_runs::{ArtifactInfo, RunInfo, review_run};
use crate::github::route::RepoName;

/// What the listings say about a pull request's head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// The newest run for the head is queued or in progress.
    Running { run_id: u64 },
    /// The run ReviewGate reads for the head ([`review_run`]): read its
    /// result. `artifact` is the one the repository listing holds (`None`:
    /// ask the run, which may have none, when it was cancelled say).
    Result {
        run: Box<RunInfo>,
        artifact: Option<Box<ArtifactInfo>>,
    },
    /// Only an older head of the pull request has a run.
    Stale { run_id: u64 },
    /// No run for the pull request among the runs listed.
    Missing,
}

/// The plan for `pr` of `repo` from the review runs and the repository's
/// artifacts. The head's runs are those [`RunInfo::is_run_of`] the pull
/// request, as the single fetch reads them.
///
/// A run belongs to an older head of the pull request when GitHub ties it
/// to the pull request's number, or (runs from forks carry no pull
/// requests) when it ran on the pull request's branch name.
pub fn plan(repo: &RepoName, pr: &OpenPr, runs: &[RunInfo], artifacts: &[ArtifactInfo]) -> Plan {
    let newest = |a: &&RunInfo, b: &&RunInfo| a.age().cmp(&b.age());
    let latest = runs
        .iter()
        .filter(|r| r.is_run_of(repo, pr.number, &pr.head_sha))
        .max_by(newest);
    if let Some(latest) = latest
        && latest.in_progress()
    {
        return Plan::Running { run_id: latest.id };
    }
    if let Some(run) = review_run(runs, repo, pr.number, &pr.head_sha) {
        let name = artifact_name(&pr.head_sha, run.attempt());
        return Plan::Result {
            run: Box::new(run.clone()),
            artifact: pick_artifact(artifacts, run, &pr.head_sha, &name).map(Box::new),
        };
    }
    let older = runs
        .iter()
        .filter(|r| {
            r.pull_requests.iter().any(|p| p.number == pr.number)
                || (!pr.head_ref.is_empty() && r.head_branch.as_deref() == Some(pr.head_ref.as_str()))
        })
        .max_by(newest);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn pr(number: u64, head: &str) -> OpenPr {
        OpenPr {
            number,
            title: String::new(),
            draft: false,
            author: None,
            head_sha: head.to_owned(),
            head_ref: format!("topic-{number}"),
            base_ref: "main".into(),
            created_at: String::new(),
            updated_at: String::new(),
            labels: Vec::new(),
            threads: Vec::new(),
            threads_complete: true,
        }
    }

    fn run(id: u64, minute: u64, pr: u64, head: &str, status: &str, conclusion: &str) -> RunInfo {
        serde_json::from_value(serde_json::json!({
            "id": id, "run_attempt": 1, "head_sha": head, "head_branch": format!("topic-{pr}"),
            "event": "pull_request", "status": status, "conclusion": conclusion,
            "created_at": format!("2026-01-01T00:{minute:02}:00Z"),
            "pull_requests": [{ "number": pr }], "repository": { "full_name": "octo/app" },
        }))
        .expect("a run")
    }

    #[test]
    fn a_head_shared_by_two_pull_requests_reads_only_its_own_run() {
        let repo = RepoName::parse("octo/app").expect("repo");
        let head = "a".repeat(40);
        let runs = [run(9, 5, 2, &head, "completed", "success")];
        assert_eq!(plan(&repo, &pr(1, &head), &runs, &[]), Plan::Missing);
        assert!(matches!(plan(&repo, &pr(2, &head), &runs, &[]), Plan::Result { .. }));
    }

    #[test]
    fn the_newest_completed_run_is_read_even_when_it_was_cancelled() {
        let repo = RepoName::parse("octo/app").expect("repo");
        let head = "a".repeat(40);
        let runs = [
            run(50, 1, 1, &head, "completed", "success"),
            run(40, 2, 1, &head, "completed", "cancelled"),
        ];
        match plan(&repo, &pr(1, &head), &runs, &[]) {
            Plan::Result { run, artifact } => assert_eq!((run.id, artifact), (40, None)),
            other => panic!("{other:?}"),
        }
        let running = [runs[0].clone(), run(60, 3, 1, &head, "in_progress", "")];
        assert_eq!(plan(&repo, &pr(1, &head), &running, &[]), Plan::Running { run_id: 60 });
    }
}
