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
    /// No run for the head has completed; the newest is queued or in progress.
    Running { run_id: u64 },
    /// The run ReviewGate reads for the head ([`review_run`]): read its
    /// result. `artifact` is the one the repository listing holds (`None`:
    /// ask the run, which may have none, when it was cancelled say).
    /// `newer`: a run of the head newer than it, queued or in progress.
    Result {
        run: Box<RunInfo>,
        artifact: Option<Box<ArtifactInfo>>,
        newer: Option<u64>,
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
/// The newest completed run is read even while a newer one is queued or in
/// progress (a re-run, a re-trigger): ReviewGate's `check --pr` reads
/// completed runs only, so that result is what `triage --pr N` shows and
/// what stands until the newer run ends. The row says that a newer run is
/// under way (`newer`); only a head with no completed run is `running`.
///
/// A run belongs to an older head of the pull request when it ran at
/// another commit and GitHub ties it to the pull request's number, or, for
/// a run GitHub ties to no pull request (a fork's), when it ran on the pull
/// request's branch name. A run at the current head is never an older
/// head's, and a run tied to other pull requests only is never this one's,
/// whatever its branch is called (`patch-1` from two forks, a branch name
/// reused after an earlier pull request closed).
pub fn plan(repo: &RepoName, pr: &OpenPr, runs: &[RunInfo], artifacts: &[ArtifactInfo]) -> Plan {
    let newest = |a: &&RunInfo, b: &&RunInfo| a.age().cmp(&b.age());
    let running = runs
        .iter()
        .filter(|r| r.in_progress() && r.is_run_of(repo, pr.number, &pr.head_sha))
        .max_by(newest);
    if let Some(run) = review_run(runs, repo, pr.number, &pr.head_sha) {
        let name = artifact_name(&pr.head_sha, run.attempt());
        return Plan::Result {
            run: Box::new(run.clone()),
            artifact: pick_artifact(artifacts, run, &pr.head_sha, &name).map(Box::new),
            newer: running.filter(|r| r.age() > run.age()).map(|r| r.id),
        };
    }
    if let Some(run) = running {
        return Plan::Running { run_id: run.id };
    }
    let older = runs
        .iter()
        .filter(|r| r.head_sha != pr.head_sha && is_of_pull_request(r, pr))
        .max_by(newest);
    match older {
        Some(run) => Plan::Stale { run_id: run.id },
        None => Plan::Missing,
    }
}

/// True when GitHub ties `run` to `pr`, or ties it to no pull request (a
/// fork's run) and it ran on `pr`'s branch name.
fn is_of_pull_request(run: &RunInfo, pr: &OpenPr) -> bool {
    if run.pull_requests.is_empty() {
        !pr.head_ref.is_empty() && run.head_branch.as_deref() == Some(pr.head_ref.as_str())
    } else {
        run.pull_requests.iter().any(|p| p.number == pr.number)
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
        let mut pr = crate::inbox::row::test_pr(number, "", "a");
        pr.head_sha = head.to_owned();
        pr.head_ref = format!("topic-{number}");
        pr
    }

    fn run(id: u64, minute: u64, pr: u64, head: &str, status: &str, conclusion: &str) -> RunInfo {
        let mut run = run_on(id, head, &format!("topic-{pr}"), &[pr]);
        run.status = Some(status.to_owned());
        run.conclusion = Some(conclusion.to_owned());
        run.created_at = format!("2026-01-01T00:{minute:02}:00Z");
        run
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
            Plan::Result { run, artifact, newer } => assert_eq!((run.id, artifact, newer), (40, None, None)),
            other => panic!("{other:?}"),
        }
        let running = [run(60, 3, 1, &head, "in_progress", "")];
        assert_eq!(plan(&repo, &pr(1, &head), &running, &[]), Plan::Running { run_id: 60 });
    }

    #[test]
    fn a_newer_queued_run_does_not_hide_the_completed_runs_result() {
        let repo = RepoName::parse("octo/app").expect("repo");
        let head = "a".repeat(40);
        let runs = [
            run(50, 1, 1, &head, "completed", "success"),
            run(60, 3, 1, &head, "queued", ""),
        ];
        match plan(&repo, &pr(1, &head), &runs, &[]) {
            Plan::Result { run, newer, .. } => assert_eq!((run.id, newer), (50, Some(60))),
            other => panic!("{other:?}"),
        }
    }

    fn run_on(id: u64, head: &str, branch: &str, prs: &[u64]) -> RunInfo {
        let pulls: Vec<serde_json::Value> = prs.iter().map(|n| serde_json::json!({ "number": n })).collect();
        serde_json::from_value(serde_json::json!({
            "id": id, "run_attempt": 1, "head_sha": head, "head_branch": branch,
            "event": "pull_request", "status": "completed", "conclusion": "success",
            "created_at": "2026-01-01T00:00:00Z", "pull_requests": pulls,
            "repository": { "full_name": "octo/app" },
        }))
        .expect("a run")
    }

    fn on_branch(number: u64, head: &str, branch: &str) -> OpenPr {
        OpenPr {
            head_ref: branch.to_owned(),
            ..pr(number, head)
        }
    }

    #[test]
    fn a_forks_run_at_the_current_head_is_no_older_heads_run() {
        let repo = RepoName::parse("octo/app").expect("repo");
        let head = "c".repeat(40);
        let runs = [run_on(70, &head, "patch-1", &[])];
        assert_eq!(plan(&repo, &on_branch(7, &head, "patch-1"), &runs, &[]), Plan::Missing);
        let older = [run_on(71, &"b".repeat(40), "patch-1", &[])];
        assert_eq!(
            plan(&repo, &on_branch(7, &head, "patch-1"), &older, &[]),
            Plan::Stale { run_id: 71 }
        );
    }

    #[test]
    fn another_pull_requests_run_on_a_same_named_branch_is_not_this_ones() {
        let repo = RepoName::parse("octo/app").expect("repo");
        let runs = [run_on(90, &"e".repeat(40), "patch-1", &[9])];
        assert_eq!(
            plan(&repo, &on_branch(8, &"d".repeat(40), "patch-1"), &runs, &[]),
            Plan::Missing
        );
        assert_eq!(
            plan(&repo, &on_branch(9, &"d".repeat(40), "patch-1"), &runs, &[]),
            Plan::Stale { run_id: 90 }
        );
    }
}
