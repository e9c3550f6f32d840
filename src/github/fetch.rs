//! The newest exact-head ReviewGate result of a pull request (INTEROP.md
//! section 4, last part): head, completed runs for that head, newest eligible
//! run and attempt, its artifact, bounded unzip, strict validation, scope and
//! SHA checks, and the head read again at the end.
//!
//! Every refusal is one sentence that names the failed check and what to do.

use super::artifact_zip::read_result_json;
use super::client::Client;
use super::route::{RepoName, Route};
use crate::model::ledger::LedgerState;
use crate::model::load::Loaded;
use crate::model::threads::{OrphanThread, ThreadObservation};

mod artifact;
mod check;
mod error;
mod head;
mod runs;

pub use artifact::artifact_name;
pub use error::FetchError;
pub use head::{current_head, is_commit_sha};

use artifact::{list_artifacts, pick_artifact};
pub use check::check_result;
use runs::newest_run;

/// Pages of 100 read at most when listing runs or artifacts.
pub const MAX_PAGES: u32 = 10;

/// The largest artifact zip downloaded (the result inside is at most 1 MiB).
pub const MAX_ZIP_BYTES: usize = 8 * 1024 * 1024;

/// The steps of a fetch, as reported to a [`Progress`] callback. The
/// artifact chain runs `Head` to `HeadAgain` in order (the listing of a
/// first attempt's artifact is sent beside `Runs`); `Threads` and `Ledger`
/// run beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FetchStep {
    /// Reading the pull request's head.
    Head,
    /// Listing the review workflow's runs for the head.
    Runs,
    /// Finding the run's result artifact.
    Artifact,
    /// Downloading and unpacking the artifact.
    Download,
    /// Strict validation, scope and SHA checks.
    Validate,
    /// Reading the head again (it must not have moved).
    HeadAgain,
    /// Reading the live review threads.
    Threads,
    /// Reading the decisions the pull request holds.
    Ledger,
}

impl FetchStep {
    /// A few words for a progress line.
    pub fn label(self) -> &'static str {
        match self {
            FetchStep::Head => "reading the pull request head",
            FetchStep::Runs => "finding the review run",
            FetchStep::Artifact => "finding the result artifact",
            FetchStep::Download => "downloading the result",
            FetchStep::Validate => "validating the result",
            FetchStep::HeadAgain => "checking the head again",
            FetchStep::Threads => "reading the review threads",
            FetchStep::Ledger => "reading the recorded decisions",
        }
    }
}

/// What a fetch reports as it goes: a step started or finished (finished
/// also when it failed: the error is the fetch's result), and the head SHA
/// once it is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchEvent {
    Started(FetchStep),
    Finished(FetchStep),
    Head(String),
}

/// Where a fetch reports its [`FetchEvent`]s (a plain callback: the screen
/// forwards them as messages, the headless commands ignore them).
pub type Progress<'a> = &'a (dyn Fn(FetchEvent) + Sync);

/// A [`Progress`] that ignores every event.
pub fn quiet(_: FetchEvent) {}

/// Runs one step between its `Started` and `Finished` events.
pub async fn reported<T>(progress: Progress<'_>, step: FetchStep, work: impl std::future::Future<Output = T>) -> T {
    progress(FetchEvent::Started(step));
    let out = work.await;
    progress(FetchEvent::Finished(step));
    out
}

/// What to fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchRequest {
    pub repo: RepoName,
    pub pr: u64,
    /// Workflow file name (or numeric id), e.g. `reviewgate.yml`.
    pub workflow: String,
}

/// A validated exact-head result and where it came from.
#[derive(Debug, Clone)]
pub struct FetchedResult {
    /// The strictly validated document.
    pub loaded: Loaded,
    /// `result.json` exactly as downloaded.
    pub bytes: Vec<u8>,
    pub repository: RepoName,
    pub pull_request: u64,
    /// The head the result was reviewed at (checked before and after).
    pub head_sha: String,
    pub run_id: u64,
    pub attempt: u32,
    pub artifact_name: String,
    /// Live thread state, once read and applied to `loaded.set` (`None`: not read).
    pub threads: Option<ThreadObservation>,
    /// ReviewGate threads whose fingerprint matches no finding of the result
    /// (empty until the threads are read).
    pub orphan_threads: Vec<OrphanThread>,
    /// The decisions the pull request holds at the head (`None`: not read).
    pub ledger: Option<LedgerState>,
    /// GitHub's rate limit left after the fetch (`None`: not told).
    pub rate_remaining: Option<u64>,
}

impl FetchedResult {
    /// A short name for headers and messages: `OWNER/NAME#N @ abcdef123456`.
    pub fn display_name(&self) -> String {
        let short: String = self.head_sha.chars().take(12).collect();
        format!("{}#{} @ {short}", self.repository, self.pull_request)
    }
}

/// Resolves, downloads and checks the newest exact-head result.
pub async fn fetch_exact_head(client: &Client, req: &FetchRequest) -> Result<FetchedResult, FetchError> {
    fetch_exact_head_reporting(client, req, &quiet).await
}

/// [`fetch_exact_head`], reporting each step to `progress`.
pub async fn fetch_exact_head_reporting(
    client: &Client,
    req: &FetchRequest,
    progress: Progress<'_>,
) -> Result<FetchedResult, FetchError> {
    // GitHub answers the zip's route with a redirect to its storage host.
    client.prepare_off_origin();
    let head = reported(progress, FetchStep::Head, current_head(client, req)).await?;
    progress(FetchEvent::Head(head.clone()));
    // A run's first attempt is by far the most common, and its artifact's
    // name needs only the head: that listing is sent beside the runs'. When
    // the newest run is a re-run, the listing of its attempt follows (one
    // round trip more, only then).
    let first_name = artifact_name(&head, 1);
    progress(FetchEvent::Started(FetchStep::Runs));
    let (run, first_listing) = tokio::join!(
        async {
            let run = newest_run(client, req, &head).await;
            progress(FetchEvent::Finished(FetchStep::Runs));
            if run.is_ok() {
                progress(FetchEvent::Started(FetchStep::Artifact));
            }
            run
        },
        list_artifacts(client, req, &first_name)
    );
    let run = run?;
    let attempt = run.attempt();
    let name = artifact_name(&head, attempt);
    let listed = match attempt {
        1 => first_listing,
        _ => list_artifacts(client, req, &name).await,
    };
    progress(FetchEvent::Finished(FetchStep::Artifact));
    let artifact = pick_artifact(listed?, &run, &head, &name)?;
    if artifact.size_in_bytes > MAX_ZIP_BYTES as u64 {
        return Err(FetchError::TooLarge {
            size: artifact.size_in_bytes,
        });
    }
    let zip_route = Route::repo(&req.repo, ["actions", "artifacts", &artifact.id.to_string(), "zip"]);
    let download = client.get_fixed_bytes(&zip_route, MAX_ZIP_BYTES);
    let zip = reported(progress, FetchStep::Download, download)
        .await
        .map_err(|cause| FetchError::GitHub {
            step: format!("download the artifact {name}"),
            cause,
        })?;
    progress(FetchEvent::Started(FetchStep::Validate));
    let checked = read_result_json(&zip)
        .map_err(FetchError::from)
        .and_then(|bytes| Ok((check_result(&bytes, req, &head)?, bytes)));
    progress(FetchEvent::Finished(FetchStep::Validate));
    let (loaded, bytes) = checked?;
    let now = reported(progress, FetchStep::HeadAgain, current_head(client, req)).await?;
    if now != head {
        return Err(FetchError::HeadMoved { before: head, now });
    }
    Ok(FetchedResult {
        loaded,
        bytes,
        repository: req.repo.clone(),
        pull_request: req.pr,
        head_sha: head,
        run_id: run.id,
        attempt,
        artifact_name: name,
        threads: None,
        orphan_threads: Vec::new(),
        ledger: None,
        rate_remaining: client.rate_remaining(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_shas() {
        assert_eq!(artifact_name("abc", 2), "reviewgate-agent-result-abc-attempt-2");
        assert!(is_commit_sha(&"0a".repeat(20)));
        assert!(is_commit_sha(&"f".repeat(64)));
        assert!(!is_commit_sha(&"A".repeat(40)));
        assert!(!is_commit_sha(&"a".repeat(39)));
        assert!(!is_commit_sha("../../x"));
    }
}
