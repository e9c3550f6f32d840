//! The workflow runs for a head: listing them page by page and picking the
//! run ReviewGate reads ([`review_run`]).

use super::error::{FetchError, shown};
use super::{FetchRequest, MAX_PAGES};
use crate::github::client::Client;
pub(super) use crate::github::repo_runs::RunInfo;
use crate::github::repo_runs::{list_head_runs, review_run};

/// The newest completed `pull_request` run of the workflow for this pull
/// request at `head`, whatever its conclusion (see [`review_run`]).
pub(super) async fn newest_run(client: &Client, req: &FetchRequest, head: &str) -> Result<RunInfo, FetchError> {
    let listed = list_head_runs(client, &req.repo, &req.workflow, head, u64::from(MAX_PAGES))
        .await
        .map_err(|cause| FetchError::GitHub {
            step: format!("list the runs of {} for {head}", req.workflow),
            cause,
        })?;
    chosen(&listed.items, req, head)
}

fn chosen(runs: &[RunInfo], req: &FetchRequest, head: &str) -> Result<RunInfo, FetchError> {
    let (workflow, head) = (shown(&req.workflow), head.to_owned());
    match review_run(runs, &req.repo, req.pr, &head) {
        Some(run) => Ok(run.clone()),
        None if runs.is_empty() => Err(FetchError::NoRun { workflow, head }),
        None => Err(FetchError::NoRunOfPull {
            workflow,
            head,
            pr: req.pr,
            count: runs.len(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::route::RepoName;

    fn run(id: u64, created: &str, pr: u64, repo: &str, conclusion: &str) -> RunInfo {
        serde_json::from_value(serde_json::json!({
            "id": id, "run_attempt": 1, "head_sha": "a".repeat(40), "event": "pull_request",
            "status": "completed", "conclusion": conclusion, "created_at": created,
            "pull_requests": [{ "number": pr }], "repository": { "full_name": repo },
        }))
        .expect("a run")
    }

    fn req() -> FetchRequest {
        FetchRequest {
            repo: RepoName::parse("octo/app").expect("repo"),
            pr: 7,
            workflow: "reviewgate.yml".into(),
        }
    }

    #[test]
    fn the_newest_completed_run_of_this_pull_request_is_read_whatever_its_conclusion() {
        let head = "a".repeat(40);
        let runs = [
            run(30, "2026-01-01T10:00:00Z", 7, "octo/app", "success"),
            run(20, "2026-01-01T11:00:00Z", 7, "Octo/App", "cancelled"),
            run(90, "2026-01-01T12:00:00Z", 8, "octo/app", "success"),
            run(95, "2026-01-01T12:30:00Z", 7, "other/app", "success"),
        ];
        // Run 20 is newer than 30 by creation although its id is smaller;
        // runs of #8 and of another repository are never this pull request's.
        assert_eq!(chosen(&runs, &req(), &head).expect("a run").id, 20);
        let e = chosen(&runs[2..], &req(), &head).expect_err("none of #7");
        assert!(matches!(e, FetchError::NoRunOfPull { count: 2, pr: 7, .. }), "{e}");
        assert!(matches!(chosen(&[], &req(), &head), Err(FetchError::NoRun { .. })));
        let mut fork = run(40, "2026-01-01T13:00:00Z", 7, "octo/app", "success");
        fork.pull_requests.clear();
        assert!(chosen(&[fork], &req(), &head).is_err(), "a run tied to no pull request");
    }
}
