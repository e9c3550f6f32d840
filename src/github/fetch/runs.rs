//! The workflow runs for a head: listing them page by page and picking the
//! newest eligible completed `pull_request` run.

use super::error::{FetchError, shown};
use super::{FetchRequest, MAX_PAGES};
use crate::github::client::Client;
use crate::github::route::Route;
use serde::Deserialize;

/// Run conclusions whose artifacts can be used (a review that found problems
/// fails its run; a cancelled or skipped run uploaded nothing trustworthy).
const ELIGIBLE_CONCLUSIONS: [&str; 3] = ["success", "failure", "neutral"];

/// One page of `GET .../actions/workflows/{workflow}/runs`.
#[derive(Debug, Deserialize)]
struct RunsPage {
    #[serde(default)]
    total_count: u64,
    #[serde(default)]
    workflow_runs: Vec<WorkflowRun>,
}

/// One workflow run.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct WorkflowRun {
    pub(super) id: u64,
    #[serde(default)]
    run_number: u64,
    pub(super) run_attempt: Option<u32>,
    head_sha: String,
    event: String,
    status: Option<String>,
    conclusion: Option<String>,
}

/// The newest eligible completed `pull_request` run of the workflow for `head`.
pub(super) async fn newest_run(client: &Client, req: &FetchRequest, head: &str) -> Result<WorkflowRun, FetchError> {
    let mut best: Option<WorkflowRun> = None;
    let mut seen = 0u64;
    for page in 1..=MAX_PAGES {
        let route = Route::repo(&req.repo, ["actions", "workflows", req.workflow.as_str(), "runs"])
            .query("event", "pull_request")
            .query("status", "completed")
            .query("head_sha", head)
            .query("per_page", 100)
            .query("page", page);
        let step = || format!("list the runs of {} for {head}", req.workflow);
        let runs: RunsPage = client
            .get_json(&route)
            .await
            .map_err(|cause| FetchError::GitHub { step: step(), cause })?;
        let count = runs.workflow_runs.len();
        seen += count as u64;
        for run in runs.workflow_runs.into_iter().filter(|r| is_eligible(r, head)) {
            if best
                .as_ref()
                .is_none_or(|b| (run.run_number, run.id) > (b.run_number, b.id))
            {
                best = Some(run);
            }
        }
        if count < 100 || seen >= runs.total_count {
            break;
        }
    }
    let (workflow, head) = (shown(&req.workflow), head.to_owned());
    match best {
        Some(run) => Ok(run),
        None if seen > 0 => Err(FetchError::NoEligibleRun {
            workflow,
            head,
            count: seen,
        }),
        None => Err(FetchError::NoRun { workflow, head }),
    }
}

fn is_eligible(run: &WorkflowRun, head: &str) -> bool {
    run.head_sha == head
        && run.event == "pull_request"
        && run.status.as_deref() == Some("completed")
        && run
            .conclusion
            .as_deref()
            .is_some_and(|c| ELIGIBLE_CONCLUSIONS.contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(id: u64, number: u64, head: &str, event: &str, conclusion: &str) -> WorkflowRun {
        WorkflowRun {
            id,
            run_number: number,
            run_attempt: Some(1),
            head_sha: head.into(),
            event: event.into(),
            status: Some("completed".into()),
            conclusion: Some(conclusion.into()),
        }
    }

    #[test]
    fn eligibility() {
        let head = "a".repeat(40);
        assert!(is_eligible(&run(1, 1, &head, "pull_request", "success"), &head));
        assert!(is_eligible(&run(1, 1, &head, "pull_request", "failure"), &head));
        assert!(!is_eligible(&run(1, 1, &head, "pull_request", "cancelled"), &head));
        assert!(!is_eligible(&run(1, 1, &head, "push", "success"), &head));
        assert!(!is_eligible(
            &run(1, 1, &"b".repeat(40), "pull_request", "success"),
            &head
        ));
    }
}
