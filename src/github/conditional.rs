//! What one [`super::Client`] remembers between requests, in memory only:
//! the last answer with an `ETag` of every GET on the API origin (asked
//! again with `If-None-Match`, so an unchanged resource costs a `304`, which
//! GitHub does not count against the rate limit), the few artifact zips
//! downloaded (an artifact's id names fixed bytes), and the rate limit left
//! (`x-ratelimit-remaining` of the newest API answer).
//!
//! Nothing here holds the token or reaches the disk; clones of one client
//! share it all.

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

/// The shared memory of a client and its clones.
#[derive(Debug, Clone)]
pub(super) struct Memory(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    answers: Mutex<HashMap<String, (String, Raw)>>,
    zips: Mutex<Vec<(String, Vec<u8>)>>,
    remaining: AtomicU64,
}

impl Default for Memory {
    fn default() -> Self {
        Memory(Arc::new(Inner {
            answers: Mutex::new(HashMap::new()),
            zips: Mutex::new(Vec::new()),
            remaining: AtomicU64::new(UNKNOWN),
        }))
    }
}

impl Memory {
    /// The answer kept for `path` and its `ETag` (sent as `If-None-Match`;
    /// a `304` says the answer still stands).
    pub(super) fn kept(&self, path: &str) -> Option<(String, Raw)> {
        let answers = self.0.answers.lock().ok()?;
        answers.get(path).cloned()
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

    /// Notes `x-ratelimit-remaining` of an API answer.
    pub(super) fn note_rate(&self, headers: &HeaderMap) {
        let left = headers
            .get("x-ratelimit-remaining")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        if let Some(left) = left.filter(|l| *l != UNKNOWN) {
            self.0.remaining.store(left, Ordering::Relaxed);
        }
    }

    /// The requests left in the current rate-limit window, once GitHub said.
    pub(super) fn remaining(&self) -> Option<u64> {
        Some(self.0.remaining.load(Ordering::Relaxed)).filter(|l| *l != UNKNOWN)
    }
}
