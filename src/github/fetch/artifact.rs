//! The result artifact of a run: its name, and finding the run's unexpired
//! artifact of that name among the listed ones.

use super::error::{FetchError, shown};
use super::runs::RunInfo;
use super::{FetchRequest, MAX_PAGES};
use crate::github::client::Client;
pub(super) use crate::github::repo_runs::ArtifactInfo;
use crate::github::repo_runs::ArtifactsPage;
use crate::github::route::Route;

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
    run: &RunInfo,
    head: &str,
    name: &str,
) -> Result<ArtifactInfo, FetchError> {
    let (mut live, mut expired) = (None::<ArtifactInfo>, false);
    for a in listed.into_iter().filter(|a| a.is_of(run.id, head, name)) {
        if a.expired {
            expired = true;
        } else if live.as_ref().is_none_or(|l| a.id > l.id) {
            live = Some(a);
        }
    }
    let missing = |what| FetchError::NoArtifact {
        head: head.to_owned(),
        run_id: run.id,
        attempt: run.attempt(),
        ended: format!(
            "ended {}",
            shown(run.conclusion.as_deref().unwrap_or("without a conclusion"))
        ),
        name: name.to_owned(),
        what,
    };
    match live {
        Some(a) => Ok(a),
        None if expired => Err(missing("only an expired")),
        None => Err(missing("no")),
    }
}

#[cfg(test)]
mod expired_tests {
    use super::*;

    /// Upstream reads `expired` as "expired unless it says false"
    /// (`reviewgate-cli` `select_agent_result_run`; INTEROP §6): an
    /// artifact listed without it is never chosen.
    #[test]
    fn an_artifact_without_expired_counts_as_expired() {
        let head = "a".repeat(40);
        let name = artifact_name(&head, 1);
        let listed: Vec<ArtifactInfo> = serde_json::from_value(serde_json::json!([
            { "id": 5, "name": name, "size_in_bytes": 10, "workflow_run": { "id": 77, "head_sha": head } }
        ]))
        .unwrap();
        let run: RunInfo = serde_json::from_value(serde_json::json!({
            "id": 77, "run_number": 1, "run_attempt": 1, "head_sha": head, "event": "pull_request",
            "status": "completed", "conclusion": "success"
        }))
        .unwrap();
        let picked = pick_artifact(listed, &run, &head, &name);
        assert!(
            picked.is_err(),
            "ReviewGate would not use this artifact, triage picked {picked:?}"
        );
    }
}
