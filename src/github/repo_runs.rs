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
}

/// A pull request a run belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RunPull {
    pub number: u64,
}

/// Run conclusions whose artifacts are used (as the single fetch uses them).
pub const ELIGIBLE_CONCLUSIONS: [&str; 3] = ["success", "failure", "neutral"];

impl RunInfo {
    /// Still queued or running.
    pub fn in_progress(&self) -> bool {
        self.status.as_deref() != Some("completed")
    }

    /// Completed with a conclusion whose artifact can be trusted.
    pub fn eligible(&self) -> bool {
        !self.in_progress()
            && self
                .conclusion
                .as_deref()
                .is_some_and(|c| ELIGIBLE_CONCLUSIONS.contains(&c))
    }

    /// The attempt (1 when GitHub does not say).
    pub fn attempt(&self) -> u32 {
        self.run_attempt.unwrap_or(1).max(1)
    }
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
