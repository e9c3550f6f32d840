//! What one [`super::Client`] remembers between requests, in memory only:
//! the last answer with an `ETag` of every GET on the API origin (asked
//! again with `If-None-Match`, so an unchanged resource costs a `304`, which
//! GitHub does not count against the rate limit), the few artifact zips
//! downloaded (an artifact's id names fixed bytes), and the rate limit left
//! (`x-ratelimit-remaining` of the newest API answer of each budget: REST
//! and GraphQL are counted apart by GitHub, so one's answer never stands
//! for the other's).
//!
//! Nothing here holds the token; clones of one client share it all. With a
//! [`DiskCache`] (`Client::with_disk_cache`) the conditional answers are
//! also kept on disk, so the next process asks with `If-None-Match` too.
//! The counts of [`RequestStats`] are kept here as well.

use super::disk_cache::DiskCache;
use super::response::Raw;
use http::HeaderMap;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Answers kept at most; past that the memory starts afresh.
const MAX_ANSWERS: usize = 512;
/// Artifact zips kept at most (each at most the download limit).
const MAX_ZIPS: usize = 4;
/// No rate-limit header seen yet.
const UNKNOWN: u64 = u64::MAX;

/// GitHub's rate-limit budgets that `triage` spends.
#[derive(Debug, Clone, Copy)]
enum Budget {
    /// REST (`core`).
    Core = 0,
    /// The GraphQL API (thread reads and actions).
    Graphql = 1,
}

/// The shared memory of a client and its clones.
#[derive(Debug, Clone)]
pub(super) struct Memory(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    answers: Mutex<HashMap<String, (String, Raw)>>,
    zips: Mutex<Vec<(String, Vec<u8>)>>,
    /// Requests left per budget ([`Budget`] as index; [`UNKNOWN`] before
    /// an answer of that budget carried the header).
    remaining: [AtomicU64; 2],
    disk: Option<DiskCache>,
    sent: AtomicU64,
    conditional: AtomicU64,
    not_modified: AtomicU64,
    in_flight: AtomicU64,
    most_in_flight: AtomicU64,
}

/// What a client (and its clones) sent so far, for reports and benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RequestStats {
    /// Requests sent to the API origin (redirect hops off it not counted).
    pub sent: u64,
    /// Of those, GETs sent with `If-None-Match`.
    pub conditional: u64,
    /// Answers `304 Not Modified`.
    pub not_modified: u64,
    /// The most requests that were awaiting an answer at one time.
    pub most_in_flight: u64,
}

impl Default for Memory {
    fn default() -> Self {
        Memory::with_disk(None)
    }
}

impl Memory {
    /// A fresh memory that also keeps its conditional answers in `disk`.
    pub(super) fn with_disk(disk: Option<DiskCache>) -> Memory {
        Memory(Arc::new(Inner {
            answers: Mutex::new(HashMap::new()),
            zips: Mutex::new(Vec::new()),
            remaining: [AtomicU64::new(UNKNOWN), AtomicU64::new(UNKNOWN)],
            disk,
            sent: AtomicU64::new(0),
            conditional: AtomicU64::new(0),
            not_modified: AtomicU64::new(0),
            in_flight: AtomicU64::new(0),
            most_in_flight: AtomicU64::new(0),
        }))
    }

    /// Counts a request going out (`conditional`: with `If-None-Match`).
    pub(super) fn note_sent(&self, conditional: bool) {
        self.0.sent.fetch_add(1, Ordering::Relaxed);
        if conditional {
            self.0.conditional.fetch_add(1, Ordering::Relaxed);
        }
        let now = self.0.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
        self.0.most_in_flight.fetch_max(now, Ordering::Relaxed);
    }

    /// Counts the end of a request noted by [`Memory::note_sent`].
    pub(super) fn note_done(&self, status: Option<http::StatusCode>) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
        if status == Some(http::StatusCode::NOT_MODIFIED) {
            self.0.not_modified.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The counts so far.
    pub(super) fn stats(&self) -> RequestStats {
        RequestStats {
            sent: self.0.sent.load(Ordering::Relaxed),
            conditional: self.0.conditional.load(Ordering::Relaxed),
            not_modified: self.0.not_modified.load(Ordering::Relaxed),
            most_in_flight: self.0.most_in_flight.load(Ordering::Relaxed),
        }
    }

    /// The answer kept for `path` and its `ETag` (sent as `If-None-Match`;
    /// a `304` says the answer still stands).
    /// Without one in memory, the one on disk stands in (a `200` with its body).
    pub(super) fn kept(&self, path: &str) -> Option<(String, Raw)> {
        let in_memory = self.0.answers.lock().ok()?.get(path).cloned();
        in_memory.or_else(|| {
            let kept = self.0.disk.as_ref()?.load(path)?;
            let mut headers = HeaderMap::new();
            headers.insert(http::header::ETAG, kept.etag.parse().ok()?);
            let raw = Raw {
                status: http::StatusCode::OK,
                headers,
                bytes: kept.body,
            };
            Some((kept.etag, raw))
        })
    }

    /// Keeps a successful answer that carries an `ETag`.
    pub(super) fn keep(&self, path: &str, raw: &Raw) {
        let Some(etag) = raw.headers.get(http::header::ETAG).and_then(|v| v.to_str().ok()) else {
            return;
        };
        if !raw.status.is_success() {
            return;
        }
        if let Ok(mut answers) = self.0.answers.lock() {
            if answers.len() >= MAX_ANSWERS && !answers.contains_key(path) {
                answers.clear();
            }
            answers.insert(path.to_owned(), (etag.to_owned(), raw.clone()));
        }
        if let Some(disk) = &self.0.disk {
            disk.store(path, etag, &raw.bytes);
        }
    }

    /// The zip downloaded before from `path`.
    pub(super) fn zip(&self, path: &str) -> Option<Vec<u8>> {
        let zips = self.0.zips.lock().ok()?;
        zips.iter().find(|(p, _)| p == path).map(|(_, bytes)| bytes.clone())
    }

    /// Keeps a downloaded zip (the oldest kept one goes past [`MAX_ZIPS`]).
    pub(super) fn keep_zip(&self, path: &str, bytes: &[u8]) {
        if let Ok(mut zips) = self.0.zips.lock() {
            zips.retain(|(p, _)| p != path);
            if zips.len() >= MAX_ZIPS {
                zips.remove(0);
            }
            zips.push((path.to_owned(), bytes.to_vec()));
        }
    }

    /// Notes `x-ratelimit-remaining` of an API answer, for the budget its
    /// `x-ratelimit-resource` names (none: REST's `core`, as GitHub
    /// Enterprise may send; a budget `triage` does not spend is ignored).
    pub(super) fn note_rate(&self, headers: &HeaderMap) {
        let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
        let budget = match text("x-ratelimit-resource") {
            None | Some("core") => Budget::Core,
            Some("graphql") => Budget::Graphql,
            Some(_) => return,
        };
        let left = text("x-ratelimit-remaining").and_then(|v| v.parse::<u64>().ok());
        if let Some(left) = left.filter(|l| *l != UNKNOWN) {
            self.0.remaining[budget as usize].store(left, Ordering::Relaxed);
        }
    }

    /// The requests left in the current rate-limit window of the budget
    /// with the fewest (reading a pull request spends both), once GitHub said.
    pub(super) fn remaining(&self) -> Option<u64> {
        self.0
            .remaining
            .iter()
            .map(|left| left.load(Ordering::Relaxed))
            .filter(|l| *l != UNKNOWN)
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(resource: Option<&str>, remaining: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(resource) = resource {
            headers.insert("x-ratelimit-resource", resource.parse().expect("header"));
        }
        headers.insert("x-ratelimit-remaining", remaining.parse().expect("header"));
        headers
    }

    /// A GraphQL answer with a full budget does not hide a REST budget
    /// nearly spent (the newest answer used to stand for both), and the
    /// other way round.
    #[test]
    fn rest_and_graphql_budgets_are_kept_apart_and_the_lower_counts() {
        let memory = Memory::default();
        assert_eq!(memory.remaining(), None);
        memory.note_rate(&answer(Some("core"), "40"));
        memory.note_rate(&answer(Some("graphql"), "4999"));
        assert_eq!(memory.remaining(), Some(40));
        memory.note_rate(&answer(None, "4000"));
        assert_eq!(memory.remaining(), Some(4000), "no resource header: REST");
        memory.note_rate(&answer(Some("graphql"), "12"));
        memory.note_rate(&answer(Some("core"), "3999"));
        assert_eq!(memory.remaining(), Some(12));
        memory.note_rate(&answer(Some("search"), "1"));
        assert_eq!(memory.remaining(), Some(12), "a budget not spent here is ignored");
    }
}
