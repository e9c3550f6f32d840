//! Reading a pull request's review threads live (GraphQL, every page) and
//! keeping ReviewGate's, by semantic fingerprint.
//!
//! When several ReviewGate threads carry one fingerprint, the one GitHub
//! lists last stands, whatever the comment times say: ReviewGate's CLI
//! collects the threads into a map in the order GitHub lists them, so the
//! later thread replaces the earlier (INTEROP.md section 6).
//!
//! A refresh (`R`) asks this query again every time, unconditionally:
//! GitHub's GraphQL endpoint sends no `ETag` and honours no
//! `If-None-Match`, and no REST resource reflects a thread's resolution (the
//! REST review comments carry no resolved state, so their `ETag` does not
//! change when a thread is resolved or reopened). A conditional REST read
//! in front of the query could not tell an unchanged thread state from a
//! changed one, so there is none: skipping the query when the REST reads
//! answered `304` would miss a thread resolved or reopened since, and a
//! stale thread state is worse than one query the `304`s do not save.
//! Everything else a refresh reads is a conditional REST read (a `304` for
//! an unchanged pull request).

use super::client::Client;
use super::graphql::{REVIEW_THREADS_QUERY, ThreadsData, marked_threads, variables};
use super::route::RepoName;
use crate::model::threads::{ObservedThread, ThreadObservation};
use std::collections::HashMap;

/// At most this many pages of 100 threads are read (5,000 threads).
pub const MAX_PAGES: usize = 50;

/// The live state of ReviewGate's threads on `repo#pr`. Any failure (GitHub
/// error, missing pull request, runaway pagination) yields
/// [`ThreadObservation::Unavailable`] with a one-sentence reason: a partial
/// read would wrongly show unread threads as "not published".
pub async fn observe_threads(client: &Client, repo: &RepoName, pr: u64) -> ThreadObservation {
    match read_all(client, repo, pr).await {
        Ok(threads) => ThreadObservation::Available(threads),
        Err(reason) => ThreadObservation::Unavailable { reason },
    }
}

async fn read_all(client: &Client, repo: &RepoName, pr: u64) -> Result<HashMap<String, ObservedThread>, String> {
    let web = client.web_base();
    let mut kept: HashMap<String, ObservedThread> = HashMap::new();
    let mut after: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let vars = variables(repo.owner(), repo.name(), pr, after.as_deref());
        let data: ThreadsData = client
            .graphql(REVIEW_THREADS_QUERY, vars)
            .await
            .map_err(|e| format!("could not read the review threads of {repo}#{pr} from GitHub: {e}"))?;
        let pull = data
            .repository
            .and_then(|r| r.pull_request)
            .ok_or_else(|| format!("GitHub shows no pull request #{pr} in {repo} (or the token cannot see it)"))?;
        let page = pull.review_threads;
        for marked in marked_threads(&page.nodes, &web) {
            kept.insert(marked.fingerprint, marked.thread);
        }
        if !page.page_info.has_next_page {
            return Ok(kept);
        }
        match page.page_info.end_cursor {
            Some(cursor) if after.as_deref() != Some(cursor.as_str()) => after = Some(cursor),
            _ => {
                return Err("GitHub said more review threads follow but gave no new page cursor".to_owned());
            }
        }
    }
    Err(format!(
        "{repo}#{pr} has more than {} review threads; thread state is not read",
        MAX_PAGES * 100
    ))
}
