//! The inbox: every open pull request of a repository, with the review
//! state of its current head, ranked by what needs a human
//! ([`row::rank`]). [`read::read_inbox`] reads it inside a runtime;
//! [`read_blocking`] on a runtime of its own, with the on-disk answer cache
//! under the state directory.
//!
//! Cost of one read (REST requests; GraphQL pages cost GraphQL points):
//! one GraphQL page per 50 open pull requests; one to five pages of review
//! runs; one to ten pages of artifacts; one to ten pages of the
//! repository's comments since the oldest open pull request; then per pull
//! request one artifact download the first time a result artifact is seen,
//! one run-artifact listing when the repository listing did not hold it,
//! a thread query when it has more than 50 threads, and the head's statuses
//! and authors' permissions when it holds disposition comments. On a second
//! read every REST request is conditional (`If-None-Match`), an unchanged
//! answer is a `304`, which GitHub does not count against the rate limit,
//! and no result is downloaded again.

pub mod packet;
pub mod plan;
pub mod read;
pub mod row;
pub mod summary;

pub use read::read_inbox;
pub use row::{DriftCounts, ReviewState, Row};

use crate::github::disk_cache::DiskCache;
use crate::github::endpoint::{RepoTargetError, resolve_repository};
use crate::github::{ApiBase, Client, ClientConfig, GhError, RepoName, RequestStats};
use anyhow::Context as _;
use std::path::PathBuf;

/// Pull-request reads under way at once, by default.
pub const DEFAULT_CONCURRENCY: usize = 16;

/// Which open pull requests are listed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filters {
    /// Only this author's (`@me`: the token's own login); any case.
    pub author: Option<String>,
    /// Only those carrying this label; any case.
    pub label: Option<String>,
    /// Only those into this base branch (exact).
    pub base: Option<String>,
}

/// What one inbox read is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboxOptions {
    pub repo: RepoName,
    /// The review workflow (file name or id), e.g. `reviewgate.yml`.
    pub workflow: String,
    pub filters: Filters,
    /// Open pull requests listed at most (bounded by [`crate::github::open_prs::MAX_PRS`]).
    pub max_prs: usize,
    /// Pull-request reads under way at once.
    pub concurrency: usize,
    /// The directory of kept validated results (`None`: nothing kept).
    pub cache: Option<PathBuf>,
}

/// One read of the inbox.
#[derive(Debug, Clone)]
pub struct Inbox {
    pub repo: RepoName,
    /// Ranked: what needs a human first.
    pub rows: Vec<Row>,
    /// Open pull requests listed (before the filters).
    pub listed: usize,
    /// GitHub's count of open pull requests.
    pub total_open: u64,
    /// GitHub's rate limit left after the read.
    pub rate_remaining: Option<u64>,
    /// The requests the read made.
    pub stats: RequestStats,
    /// Sentences about the read as a whole (a listing cut short ...).
    pub notes: Vec<String>,
}

/// What the flags say: `repo` (else the checkout's `origin`), the workflow,
/// the API base, the filters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InboxTarget {
    pub repo: Option<String>,
    pub workflow: String,
    pub api_url: Option<String>,
    pub filters: Filters,
}

/// Why the flags name no repository (exit code 2), or no token is there (4).
#[derive(Debug, thiserror::Error)]
pub enum InboxSetupError {
    /// The API base or the repository cannot be told.
    #[error(transparent)]
    Repo(#[from] RepoTargetError),
    /// The GitHub client cannot be built for the API base.
    #[error(transparent)]
    Api(GhError),
    /// No token.
    #[error(transparent)]
    Token(#[from] crate::github::TokenError),
}

/// The API base and repository of `target`: `--repo`, else the `origin`
/// remote of the current checkout on the API's web host (as `--pr` finds it).
pub fn resolve(target: &InboxTarget) -> Result<(ApiBase, RepoName), InboxSetupError> {
    Ok(resolve_repository(target.api_url.as_deref(), target.repo.as_deref())?)
}

/// The cache directory of the GitHub API at `api`, under the state
/// directory (`None` when there is none). Each API has its own, so the
/// answers of a GitHub Enterprise host and of github.com for a
/// same-named repository are never taken for each other.
pub fn cache_dir(api: &ApiBase) -> Option<PathBuf> {
    crate::outbox::state_dir()
        .ok()
        .map(|d| d.join("cache").join(api_dir_name(api)))
}

/// 16 hex digits of a SHA-256 of the API's base URL.
fn api_dir_name(api: &ApiBase) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(api.url().as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// A client for the inbox: the answers of `cache`/`http` kept on disk.
pub fn client_for(config: ClientConfig, cache: Option<&PathBuf>) -> Result<Client, GhError> {
    let client = Client::new(config)?;
    Ok(match cache {
        Some(dir) => client.with_disk_cache(DiskCache::new(dir.join("http"))),
        None => client,
    })
}

/// Writes the repository's escalation packet ([`packet::repository_packet`])
/// to `triage-escalations-OWNER-NAME.md` in the current directory
/// (atomically); returns the file name and the escalations in it.
pub fn write_packet(inbox: &Inbox, web_base: &str) -> std::io::Result<(String, usize)> {
    let text = packet::repository_packet(inbox, web_base);
    let name = format!("triage-escalations-{}-{}.md", inbox.repo.owner(), inbox.repo.name());
    crate::atomic_write::write_atomic(
        std::path::Path::new(&name),
        text.as_bytes(),
        crate::atomic_write::Access::Ordinary,
    )?;
    Ok((name, inbox.rows.iter().filter(|r| packet::is_escalation(r)).count()))
}

/// Reads the inbox of `target` on a runtime of its own (for the headless
/// command and the screen's worker), with the on-disk cache.
pub fn read_blocking(target: &InboxTarget) -> anyhow::Result<Inbox> {
    let (_, repo) = resolve(target)?;
    let config = ClientConfig::discover(target.api_url.as_deref())?;
    let cache = cache_dir(&config.api_base);
    let options = InboxOptions {
        repo,
        workflow: target.workflow.clone(),
        filters: target.filters.clone(),
        max_prs: crate::github::open_prs::MAX_PRS,
        concurrency: DEFAULT_CONCURRENCY,
        cache: cache.clone(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    runtime.block_on(async {
        let client = client_for(config, cache.as_ref()).map_err(InboxSetupError::Api)?;
        Ok(read_inbox(&client, &options).await?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_github_api_has_a_cache_of_its_own() {
        let name = |url: &str| api_dir_name(&ApiBase::parse(url).expect("base"));
        assert_ne!(name("https://api.github.com"), name("https://ghe.example/api/v3"));
        assert_eq!(
            name("https://API.github.com/"),
            name("https://api.github.com"),
            "one name per API"
        );
        assert_eq!(name("https://api.github.com").len(), 16);
    }
}
