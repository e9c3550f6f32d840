//! The repository-wide listings the inbox reads instead of one call per pull
//! request: the review workflow's `pull_request` runs, and the repository's
//! artifacts. Each listing is paged (100 per page), newest first as GitHub
//! lists them, and bounded: a run or artifact past the bound is not seen,
//! and the inbox then asks for that one run's artifacts on its own.

use super::client::Client;
use super::error::GhError;
use super::route::{RepoName, Route};
use serde::Deserialize;

/// Items per page.
pub const PAGE_SIZE: u64 = 100;
/// Pages of runs read at most (the newest 500 runs).
pub const MAX_RUN_PAGES: u64 = 5;
/// Pages of artifacts read at most (the newest 1,000 artifacts).
pub const MAX_ARTIFACT_PAGES: u64 = 10;

/// One workflow run, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RunInfo {
    pub id: u64,
    #[serde(default)]
    pub run_number: u64,
    pub run_attempt: Option<u32>,
    pub head_sha: String,
    /// The branch the run ran on (the pull request's head branch).
    #[serde(default)]
    pub head_branch: Option<String>,
    #[serde(default)]
    pub event: String,
    pub status: Option<String>,
    pub conclusion: Option<String>,
    /// The pull requests GitHub ties the run to (empty for runs from forks).
    #[serde(default)]
    pub pull_requests: Vec<RunPull>,
    /// When the run was created (RFC 3339 in UTC, so the text sorts as the time).
    #[serde(default)]
    pub created_at: String,
    /// The repository the run ran in.
    #[serde(default)]
    pub repository: Option<RunRepository>,
}

/// The repository a run ran in.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RunRepository {
    pub full_name: String,
}

/// A pull request a run belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RunPull {
    pub number: u64,
}

impl RunInfo {
    /// Still queued or running.
    pub fn in_progress(&self) -> bool {
        self.status.as_deref() != Some("completed")
    }

    /// A `pull_request` run in `repo` at `head` that GitHub ties to pull
    /// request `pr`: ReviewGate's `workflow_run_matches_target`
    /// (reviewgate-github). The repository is compared ignoring case, as
    /// GitHub names it. A run from a fork is tied to no pull request, so it
    /// is never a pull request's run here, as it is not for ReviewGate.
    pub fn is_run_of(&self, repo: &RepoName, pr: u64, head: &str) -> bool {
        self.event == "pull_request"
            && self.head_sha == head
            && self.pull_requests.iter().any(|p| p.number == pr)
            && self
                .repository
                .as_ref()
                .is_some_and(|r| r.full_name.eq_ignore_ascii_case(repo.as_str()))
    }

    /// ReviewGate's order of runs: creation time, then id.
    pub fn age(&self) -> (&str, u64) {
        (&self.created_at, self.id)
    }

    /// The attempt (1 when GitHub does not say).
    pub fn attempt(&self) -> u32 {
        self.run_attempt.unwrap_or(1).max(1)
    }
}

/// The run whose result ReviewGate reads for pull request `pr` of `repo` at
/// `head`: the newest completed run of that target, whatever its conclusion
/// (reviewgate-github `select_rereview_workflow_run`, then the artifact of
/// that run's attempt). A newer cancelled run therefore hides an older one
/// that succeeded: ReviewGate reads the newest run's artifact or none.
pub fn review_run<'a>(runs: &'a [RunInfo], repo: &RepoName, pr: u64, head: &str) -> Option<&'a RunInfo> {
    runs.iter()
        .filter(|r| !r.in_progress() && r.is_run_of(repo, pr, head))
        .max_by(|a, b| a.age().cmp(&b.age()))
}

/// One artifact, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ArtifactInfo {
    pub id: u64,
    pub name: String,
    #[serde(default)]
    pub size_in_bytes: u64,
    /// As ReviewGate reads it: an artifact that does not say `expired: false`
    /// (the member missing, null or not a boolean) counts as expired.
    #[serde(default = "expired_unless_said", deserialize_with = "expired_member")]
    pub expired: bool,
    pub workflow_run: Option<ArtifactRun>,
}

fn expired_unless_said() -> bool {
    true
}

fn expired_member<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(<serde_json::Value as serde::Deserialize>::deserialize(d)?
        .as_bool()
        .unwrap_or(true))
}

impl ArtifactInfo {
    /// Named `name` and uploaded by run `run_id` at `head` (expired or not).
    pub fn is_of(&self, run_id: u64, head: &str, name: &str) -> bool {
        self.name == name
            && self
                .workflow_run
                .as_ref()
                .is_some_and(|w| w.id == Some(run_id) && w.head_sha.as_deref() == Some(head))
    }
}

/// The run an artifact came from.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ArtifactRun {
    pub id: Option<u64>,
    pub head_sha: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RunsPage {
    #[serde(default)]
    total_count: u64,
    #[serde(default)]
    workflow_runs: Vec<RunInfo>,
}

/// One page of `GET .../actions/artifacts` (every artifact listing reads this).
#[derive(Debug, Deserialize)]
pub(crate) struct ArtifactsPage {
    #[serde(default)]
    pub(crate) total_count: u64,
    #[serde(default)]
    pub(crate) artifacts: Vec<ArtifactInfo>,
}

/// A listing and how far it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed<T> {
    pub items: Vec<T>,
    /// GitHub's total (may exceed the items read past the page bound).
    pub total: u64,
}

impl<T> Default for Listed<T> {
    fn default() -> Self {
        Listed {
            items: Vec::new(),
            total: 0,
        }
    }
}

/// The `pull_request` runs of `workflow` (a file name or id), newest first,
/// at most [`MAX_RUN_PAGES`] pages. The workflow's own listing is read rather
/// than the repository's `actions/runs`: that one mixes every workflow's
/// runs, so its page bound would be spent on unrelated CI runs.
pub async fn list_review_runs(client: &Client, repo: &RepoName, workflow: &str) -> Result<Listed<RunInfo>, GhError> {
    let route = |page: u64| {
        Route::repo(repo, ["actions", "workflows", workflow, "runs"])
            .query("event", "pull_request")
            .query("per_page", PAGE_SIZE)
            .query("page", page)
    };
    list_pages(client, MAX_RUN_PAGES, route, |p: RunsPage| {
        (p.total_count, p.workflow_runs)
    })
    .await
}

/// The completed `pull_request` runs of `workflow` at `head`, at most
/// `max_pages` pages: the listing ReviewGate's `check --pr` reads.
pub async fn list_head_runs(
    client: &Client,
    repo: &RepoName,
    workflow: &str,
    head: &str,
    max_pages: u64,
) -> Result<Listed<RunInfo>, GhError> {
    let route = |page: u64| {
        Route::repo(repo, ["actions", "workflows", workflow, "runs"])
            .query("event", "pull_request")
            .query("status", "completed")
            .query("head_sha", head)
            .query("per_page", PAGE_SIZE)
            .query("page", page)
    };
    list_pages(client, max_pages, route, |p: RunsPage| (p.total_count, p.workflow_runs)).await
}

/// The repository's artifacts, newest first, at most [`MAX_ARTIFACT_PAGES`] pages.
pub async fn list_artifacts(client: &Client, repo: &RepoName) -> Result<Listed<ArtifactInfo>, GhError> {
    let route = |page: u64| {
        Route::repo(repo, ["actions", "artifacts"])
            .query("per_page", PAGE_SIZE)
            .query("page", page)
    };
    list_pages(client, MAX_ARTIFACT_PAGES, route, |p: ArtifactsPage| {
        (p.total_count, p.artifacts)
    })
    .await
}

/// Reads pages 1, 2, ... of `route` (at most `max_pages`) until a short page
/// or GitHub's total is reached; `split` takes a page's total and items.
async fn list_pages<P: serde::de::DeserializeOwned, T>(
    client: &Client,
    max_pages: u64,
    route: impl Fn(u64) -> Route,
    split: impl Fn(P) -> (u64, Vec<T>),
) -> Result<Listed<T>, GhError> {
    let mut out = Listed::default();
    for page in 1..=max_pages {
        let (total, items) = split(client.get_json(&route(page)).await?);
        let count = items.len() as u64;
        out.total = total;
        out.items.extend(items);
        if count < PAGE_SIZE || out.items.len() as u64 >= out.total {
            break;
        }
    }
    Ok(out)
}

/// The artifacts of one run (one page of 100: a review run uploads a few).
pub async fn run_artifacts(client: &Client, repo: &RepoName, run_id: u64) -> Result<Vec<ArtifactInfo>, GhError> {
    let route = Route::repo(repo, ["actions", "runs", &run_id.to_string(), "artifacts"]).query("per_page", PAGE_SIZE);
    let listed: ArtifactsPage = client.get_json(&route).await?;
    Ok(listed.artifacts)
}
