//! The result artifact of a run: its name, and finding the run's unexpired
//! artifact of that name among the listed ones.

use super::error::FetchError;
use super::runs::WorkflowRun;
use super::{FetchRequest, MAX_PAGES};
use crate::github::client::Client;
use crate::github::route::Route;
use serde::Deserialize;

/// One page of `GET .../actions/artifacts`.
#[derive(Debug, Deserialize)]
struct ArtifactsPage {
    #[serde(default)]
    total_count: u64,
    #[serde(default)]
    artifacts: Vec<ArtifactInfo>,
}

/// One artifact.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct ArtifactInfo {
    pub(super) id: u64,
    name: String,
    #[serde(default)]
    pub(super) size_in_bytes: u64,
    #[serde(default)]
    expired: bool,
    workflow_run: Option<ArtifactRun>,
}

#[derive(Debug, Clone, Deserialize)]
struct ArtifactRun {
    id: Option<u64>,
    head_sha: Option<String>,
}

/// The artifact name ReviewGate uploads for a head and run attempt.
pub fn artifact_name(head: &str, attempt: u32) -> String {
    format!("reviewgate-agent-result-{head}-attempt-{attempt}")
}

/// Every artifact named `name` (all pages), not yet matched to a run.
pub(super) async fn list_artifacts(
    client: &Client,
    req: &FetchRequest,
    name: &str,
) -> Result<Vec<ArtifactInfo>, FetchError> {
    let mut all = Vec::new();
    let mut seen = 0u64;
    for page in 1..=MAX_PAGES {
        // Built by hand: octocrab's typed listing drops per_page and page.
        let route = Route::repo(&req.repo, ["actions", "artifacts"])
            .query("name", name)
            .query("per_page", 100)
            .query("page", page);
        let listed: ArtifactsPage = client.get_json(&route).await.map_err(|cause| FetchError::GitHub {
            step: format!("list the artifacts named {name}"),
            cause,
        })?;
        let count = listed.artifacts.len();
        seen += count as u64;
        all.extend(listed.artifacts);
        if count < 100 || seen >= listed.total_count {
            break;
        }
    }
    Ok(all)
}

/// The run's unexpired artifact named `name` among `listed` (the newest if several).
pub(super) fn pick_artifact(
    listed: Vec<ArtifactInfo>,
    run: &WorkflowRun,
    head: &str,
    name: &str,
) -> Result<ArtifactInfo, FetchError> {
    let (mut live, mut expired) = (None::<ArtifactInfo>, false);
    for a in listed.into_iter().filter(|a| belongs_to(a, run, head, name)) {
        if a.expired {
            expired = true;
        } else if live.as_ref().is_none_or(|l| a.id > l.id) {
            live = Some(a);
        }
    }
    let attempt = run.run_attempt.unwrap_or(1).max(1);
    let missing = |what| FetchError::NoArtifact {
        head: head.to_owned(),
        run_id: run.id,
        attempt,
        name: name.to_owned(),
        what,
    };
    match live {
        Some(a) => Ok(a),
        None if expired => Err(missing("only an expired")),
        None => Err(missing("no")),
    }
}

fn belongs_to(a: &ArtifactInfo, run: &WorkflowRun, head: &str, name: &str) -> bool {
    a.name == name
        && a.workflow_run
            .as_ref()
            .is_some_and(|w| w.id == Some(run.id) && w.head_sha.as_deref() == Some(head))
}
