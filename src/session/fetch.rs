//! The newest exact-head ReviewGate result of a pull request, for the
//! commands and the screen alike: [`fetch_blocking`] (one call, own runtime),
//! [`fetch_reporting_on`] (one call on a runtime the caller runs, with its
//! client: the screen's first load), and inside an existing runtime
//! [`resolve_target`], [`fetch_live`], [`observe_threads`] and
//! [`current_head`] (to tell when a loaded result went stale). What to
//! fetch is a plain [`PrTarget`].

use crate::decision::decide::Target;
use crate::github::endpoint::{RepoTargetError, resolve_repository};
use crate::github::fetch::{FetchError, FetchRequest, fetch_exact_head};
use crate::github::fetch::{FetchEvent, FetchStep, fetch_exact_head_reporting, quiet, reported};
use crate::github::ledger::read_ledger;
use crate::github::{ApiBase, Client, ClientConfig, Token};
use crate::model::threads::apply_threads;
use anyhow::Context as _;

use std::path::Path;

pub use crate::github::fetch::{FetchedResult, Progress, current_head};
pub use crate::github::threads::observe_threads;

/// Where a pull request lives on GitHub: the number, `OWNER/NAME` (else the
/// checkout's `origin`), the workflow that runs the review, and the API base
/// (else `$GITHUB_API_URL` or `https://api.github.com`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrTarget {
    pub pr: Option<u64>,
    pub repo: Option<String>,
    pub workflow: String,
    pub api_url: Option<String>,
}

/// Why the flags do not name a pull request on a GitHub host (exit code 2),
/// or no token is there to ask it with (exit code 4).
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// `--pr` was not given.
    #[error("--pr N is required to fetch a result from GitHub")]
    NoPr,
    /// `--pr 0`.
    #[error("--pr must be a pull request number (1 or more)")]
    ZeroPr,
    /// The API base or the repository cannot be told.
    #[error(transparent)]
    Repo(#[from] RepoTargetError),
    /// The GitHub client cannot be built for the API base.
    #[error(transparent)]
    Api(crate::github::GhError),
    /// No token.
    #[error(transparent)]
    Token(#[from] crate::github::TokenError),
}

/// The API base and what to fetch, from the flags: `--repo`, else the
/// `origin` remote of the current checkout on the API's web host.
pub fn resolve_target(pr: &PrTarget) -> Result<(ApiBase, FetchRequest), TargetError> {
    let number = pr.pr.ok_or(TargetError::NoPr)?;
    if number == 0 {
        return Err(TargetError::ZeroPr);
    }
    let (api, repo) = resolve_repository(pr.api_url.as_deref(), pr.repo.as_deref())?;
    Ok((
        api,
        FetchRequest {
            repo,
            pr: number,
            workflow: pr.workflow.clone(),
        },
    ))
}

/// What a live fetch reads besides the result itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LiveReads {
    /// Also read the decision ledger of the head ([`FetchedResult::ledger`]).
    pub ledger: bool,
}

/// Fetches the newest exact-head result and applies the live thread state
/// to its findings (an unreadable thread state makes every finding
/// `unknown`; the reason stays in [`FetchedResult::threads`]); threads of no
/// finding are kept in [`FetchedResult::orphan_threads`].
pub async fn fetch_live(client: &Client, request: &FetchRequest) -> Result<FetchedResult, FetchError> {
    fetch_live_reporting(client, request, LiveReads::default(), &quiet).await
}

/// [`fetch_live`], reporting each step to `progress`, with the reads of
/// `reads`. The thread query needs only the repository and the number, so it
/// runs beside the artifact chain from the start; the ledger needs the head
/// too (its statuses), so it starts once the chain's first read named it and
/// then runs beside the rest. A failed chain still waits for the side reads
/// (they are reads: nothing is left half-done), and drops their answers.
pub async fn fetch_live_reporting(
    client: &Client,
    request: &FetchRequest,
    reads: LiveReads,
    progress: Progress<'_>,
) -> Result<FetchedResult, FetchError> {
    // `None` while the chain has not read the head; `Some(None)` when it
    // ended without one (the ledger is then not read).
    let (head_tx, mut head_rx) = tokio::sync::watch::channel(None::<Option<String>>);
    let chain_progress = |event: FetchEvent| {
        if let FetchEvent::Head(sha) = &event {
            head_tx.send_replace(Some(Some(sha.clone())));
        }
        progress(event);
    };
    let chain = async {
        let fetched = fetch_exact_head_reporting(client, request, &chain_progress).await;
        head_tx.send_if_modified(|head| head.is_none() && head.insert(None).is_none());
        fetched
    };
    let threads = reported(
        progress,
        FetchStep::Threads,
        observe_threads(client, &request.repo, request.pr),
    );
    let ledger = async {
        if !reads.ledger {
            return None;
        }
        let head = head_rx.wait_for(Option::is_some).await.ok()?.clone().flatten()?;
        let target = Target {
            repository: request.repo.clone(),
            pull_request: request.pr,
            reviewed_sha: head,
        };
        Some(reported(progress, FetchStep::Ledger, read_ledger(client, &target, &[])).await)
    };
    let (fetched, observation, ledger) = tokio::join!(chain, threads, ledger);
    let mut fetched = fetched?;
    if let Some(set) = fetched.loaded.set.as_mut() {
        fetched.orphan_threads = apply_threads(set, &observation).orphan_threads;
    }
    fetched.threads = Some(observation);
    fetched.ledger = ledger;
    fetched.rate_remaining = client.rate_remaining();
    Ok(fetched)
}

/// Fetches the newest exact-head result of `--pr`, with live thread state, on
/// a runtime of its own (for the headless commands). Errors are one sentence;
/// the error is a [`TargetError`] or a [`FetchError`].
pub fn fetch_blocking(pr: &PrTarget) -> anyhow::Result<FetchedResult> {
    fetch_blocking_with(pr, LiveReads::default())
}

/// [`fetch_blocking`] with the side reads of `reads`.
pub fn fetch_blocking_with(pr: &PrTarget, reads: LiveReads) -> anyhow::Result<FetchedResult> {
    fetch_on_own_runtime(pr, Some(reads), &quiet)
}

/// [`fetch_blocking`], reporting each step to `progress` (the screen's
/// loading frame names the step under way).
pub fn fetch_blocking_reporting(pr: &PrTarget, progress: Progress<'_>) -> anyhow::Result<FetchedResult> {
    fetch_on_own_runtime(pr, Some(LiveReads::default()), progress)
}

/// [`fetch_blocking_reporting`] on a runtime the caller already runs (the
/// screen's session worker), with the client `client` gives for the
/// configuration found in the environment (the session's one client: built
/// now, or the one it already holds). Blocks the calling thread, which must
/// not be one of the runtime's. Errors are those of [`fetch_blocking`].
pub fn fetch_reporting_on(
    runtime: &tokio::runtime::Handle,
    pr: &PrTarget,
    client: impl FnOnce(ClientConfig) -> Result<Client, crate::github::GhError>,
    progress: Progress<'_>,
) -> anyhow::Result<FetchedResult> {
    let (_api, request) = resolve_target(pr)?;
    let config = ClientConfig::discover(pr.api_url.as_deref())?;
    let client = client(config).map_err(TargetError::Api)?;
    let fetched = runtime.block_on(fetch_live_reporting(&client, &request, LiveReads::default(), progress))?;
    Ok(fetched)
}

/// Like [`fetch_blocking`] without reading the threads: the result's bytes
/// exactly as downloaded are all that is wanted.
pub fn fetch_result_blocking(pr: &PrTarget) -> anyhow::Result<FetchedResult> {
    fetch_on_own_runtime(pr, None, &quiet)
}

/// `live`: the threads (and what `LiveReads` names) too; `None`: the result only.
fn fetch_on_own_runtime(
    pr: &PrTarget,
    live: Option<LiveReads>,
    progress: Progress<'_>,
) -> anyhow::Result<FetchedResult> {
    let (api, request) = resolve_target(pr)?;
    let token = Token::discover().map_err(TargetError::from)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    runtime.block_on(async {
        let client = Client::new(ClientConfig::new(api, token)).map_err(TargetError::Api)?;
        let fetched = match live {
            Some(reads) => fetch_live_reporting(&client, &request, reads, progress).await?,
            None => fetch_exact_head(&client, &request).await?,
        };
        Ok(fetched)
    })
}

/// Writes `bytes` to `path` atomically ([`crate::atomic_write`]), so
/// readers never see a half-written result.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::atomic_write::write_atomic(path, bytes, crate::atomic_write::Access::Ordinary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("result.json");
        std::fs::write(&target, b"old").expect("seed");
        write_atomic(&target, b"{\"new\":true}").expect("write");
        assert_eq!(std::fs::read(&target).expect("read"), b"{\"new\":true}");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("ls")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("result.json")]);
        assert!(write_atomic(&dir.path().join("missing/x.json"), b"x").is_err());
    }

    #[test]
    fn target_needs_a_pr_and_a_valid_repo() {
        let mut pr = PrTarget {
            workflow: "reviewgate.yml".into(),
            ..PrTarget::default()
        };
        assert!(matches!(resolve_target(&pr), Err(TargetError::NoPr)));
        pr.pr = Some(0);
        assert!(matches!(resolve_target(&pr), Err(TargetError::ZeroPr)));
        pr.pr = Some(5);
        pr.repo = Some("not a repo".into());
        pr.api_url = Some("https://api.github.com".into());
        assert!(matches!(
            resolve_target(&pr),
            Err(TargetError::Repo(RepoTargetError::BadRepo { .. }))
        ));
        pr.repo = Some("octo/app".into());
        let (api, req) = resolve_target(&pr).expect("valid target");
        assert_eq!(api.web_base(), "https://github.com");
        assert_eq!(
            (req.repo.as_str(), req.pr, req.workflow.as_str()),
            ("octo/app", 5, "reviewgate.yml")
        );
    }

    #[test]
    fn error_chains_print_each_sentence_once() {
        let remote = crate::git_remote::RemoteError::NoOrigin {
            detail: "no origin".into(),
        };
        let err = anyhow::Error::from(TargetError::from(RepoTargetError::from(remote.clone())));
        assert_eq!(format!("{err:#}"), remote.to_string());
        let cause = crate::github::GhError::Transport {
            message: "refused".into(),
        };
        let fetch = FetchError::GitHub {
            step: "read pull request o/r#1".into(),
            cause,
        };
        let err = anyhow::Error::from(fetch);
        assert_eq!(
            format!("{err:#}"),
            "could not read pull request o/r#1: could not reach GitHub: refused"
        );
    }
}
