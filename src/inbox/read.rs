//! One inbox read against GitHub: the open pull requests (GraphQL pages,
//! with their first threads), the review runs and the repository's
//! artifacts (REST listings, side by side), then the repository's comments
//! since the oldest open pull request (one listing for every ledger), then
//! for every pull request its remaining reads with at most
//! [`InboxOptions::concurrency`] of them under way at once.
//!
//! Per pull request: the run's artifact list when the repository listing did
//! not hold the result artifact; the result itself, downloaded only when no
//! result of that artifact id is kept on disk (an id names fixed bytes)
//! that still passes its check;
//! its threads on their own when more than the page held; its comments on
//! their own only when the comment listing was cut before its creation;
//! and, when it holds disposition comments, the head's statuses and the
//! authors' permissions. A failed read marks that row `unknown` with the
//! reason; only a failure of the pull-request listing fails the whole read.

use super::plan::{Plan, pick_artifact, plan, river_artifacts};
use super::row::{ReviewState, Row, rank};
use super::summary::summarize;
use super::{Filters, Inbox, InboxOptions};
use crate::decision::decide::Target;
use crate::github::artifact_zip::read_result_json;
use crate::github::disk_cache::DiskCache;
use crate::github::fetch::{FetchRequest, MAX_ZIP_BYTES, artifact_name, check_result};
use crate::github::ledger::{read_ledger, read_with_comments};
use crate::github::open_prs::{LABELS_PER_PR, OpenPr, list_open_prs};
use crate::github::repo_comments::{RepoComments, list_comments_since};
use crate::github::repo_runs::{ArtifactInfo, RunInfo, list_artifacts, list_review_runs, run_artifacts};
use crate::github::threads::observe_threads;
use crate::github::{Client, GhError, Route};
use crate::model::ledger::LedgerState;
use crate::model::threads::{ThreadObservation, apply_threads};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// At or below this many requests left, the remaining pull requests are not
/// read (their rows say so) so that the window is not spent to the last.
pub const RATE_RESERVE: u64 = 50;

/// Reads the inbox of `options.repo`, ranked.
pub async fn read_inbox(client: &Client, options: &InboxOptions) -> Result<Inbox, GhError> {
    let repo = &options.repo;
    let (prs, runs, artifacts) = tokio::join!(
        list_open_prs(client, repo, options.max_prs),
        list_review_runs(client, repo, &options.workflow),
        list_artifacts(client, repo),
    );
    let prs = prs?;
    let me = match options.filters.author.as_deref() {
        Some("@me") => Some(viewer(client).await?),
        _ => None,
    };
    let mut notes = Vec::new();
    if prs.skipped > 0 {
        notes.push(format!(
            "{} pull request(s) GitHub listed could not be read (no number or head) and are not shown",
            prs.skipped
        ));
    }
    if prs.stopped {
        notes.push(format!(
            "GitHub said more pull requests follow but gave no page cursor: listed {} of {} open",
            prs.prs.len() + prs.skipped,
            prs.total
        ));
    } else if ((prs.prs.len() + prs.skipped) as u64) < prs.total {
        notes.push(format!(
            "listed the {} oldest of {} open pull requests",
            prs.prs.len() + prs.skipped,
            prs.total
        ));
    }
    let runs = runs.map_err(|e| format!("the review runs could not be listed: {e}"));
    // A cut run listing: a pull request whose run is not among those listed
    // is unknown, not missing (its run may be past the cut).
    let runs_cut = match &runs {
        Ok(listed) if (listed.items.len() as u64) < listed.total => {
            notes.push(format!(
                "listed the {} newest of {} review runs: a pull request whose run is not among them is shown as unknown",
                listed.items.len(),
                listed.total
            ));
            Some((listed.items.len(), listed.total))
        }
        _ => None,
    };
    // A cut artifact listing: a result artifact past the cut is asked of its
    // run, but River artifacts are only known from the listing, so a head's
    // River artifacts past the cut are not shown and the note says so.
    if let Ok(listed) = &artifacts
        && (listed.items.len() as u64) < listed.total
    {
        notes.push(format!(
            "listed the {} newest of {} artifacts: River artifacts past them are not shown",
            listed.items.len(),
            listed.total
        ));
    }
    let artifacts = artifacts.map(|a| a.items).unwrap_or_else(|e| {
        notes.push(format!(
            "the repository's artifacts could not be listed ({e}); each run is asked instead"
        ));
        Vec::new()
    });
    let comments = match oldest(&prs.prs) {
        None => None,
        Some(since) => match list_comments_since(client, repo, &since).await {
            Ok(listed) => Some(listed),
            Err(e) => {
                notes.push(format!(
                    "the repository's comments could not be listed ({e}); each pull request's are read instead"
                ));
                None
            }
        },
    };
    let shared = Arc::new(Shared {
        client: client.clone(),
        options: options.clone(),
        artifacts,
        comments,
        runs_cut,
        permits: Semaphore::new(options.concurrency.max(1)),
        results: options.cache.as_ref().map(|dir| DiskCache::new(dir.join("results"))),
    });
    let now = crate::time::now();
    let mut tasks = tokio::task::JoinSet::new();
    let listed = prs.prs.len();
    let mut rows: Vec<Row> = Vec::new();
    let unsure = prs
        .prs
        .iter()
        .filter(|p| label_unsure(&options.filters, p) && keeps(&options.filters, me.as_deref(), p))
        .count();
    if let (Some(label), true) = (&options.filters.label, unsure > 0) {
        notes.push(format!(
            "{unsure} pull request(s) carry more labels than the {LABELS_PER_PR} read: shown though {:?} may not be among them",
            crate::sanitize::clean_line(label)
        ));
    }
    for pr in prs
        .prs
        .into_iter()
        .filter(|p| keeps(&options.filters, me.as_deref(), p))
    {
        let age = crate::time::parse_rfc3339(&pr.created_at).map_or(0, |t| crate::time::age(t, now).as_secs());
        let mut row = Row::unread(&pr, age);
        row.river_artifacts = river_artifacts(&shared.artifacts, &pr.head_sha);
        match &runs {
            Err(reason) => {
                row.fail(reason.clone());
                rows.push(row);
            }
            Ok(listed_runs) => {
                let planned = plan(repo, &pr, &listed_runs.items, &shared.artifacts);
                let shared = Arc::clone(&shared);
                tasks.spawn(async move { read_row(&shared, pr, row, planned).await });
            }
        }
    }
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok(row) => rows.push(row),
            Err(e) => notes.push(format!("a pull request's read stopped: {e}")),
        }
    }
    rank(&mut rows);
    Ok(Inbox {
        repo: repo.clone(),
        rows,
        listed,
        total_open: prs.total,
        rate_remaining: client.rate_remaining(),
        stats: client.stats(),
        notes,
    })
}

/// What every pull request's reads share.
struct Shared {
    client: Client,
    options: InboxOptions,
    artifacts: Vec<ArtifactInfo>,
    /// The repository's comments since the oldest open pull request (`None`: not listed).
    comments: Option<RepoComments>,
    /// The runs listed and GitHub's total, when the run listing was cut.
    runs_cut: Option<(usize, u64)>,
    /// Bounds the reads under way at once (each holder reads in sequence).
    permits: Semaphore,
    /// Validated results by artifact, kept between runs.
    results: Option<DiskCache>,
}

/// The creation time of the oldest pull request listed (the comment listing starts there).
fn oldest(prs: &[OpenPr]) -> Option<String> {
    prs.iter()
        .filter_map(|p| crate::time::parse_rfc3339(&p.created_at).map(|t| (t, &p.created_at)))
        .min_by_key(|(t, _)| *t)
        .map(|(_, text)| text.clone())
}

/// True when `pr` passes the filters (`me`: the `@me` login). A pull
/// request with more labels than were read is kept under `--label` when
/// the label is not among those read: it may carry it, and leaving it out
/// would hide it without a word (the read's notes count such rows).
fn keeps(filters: &Filters, me: Option<&str>, pr: &OpenPr) -> bool {
    let author = match filters.author.as_deref() {
        Some("@me") => me,
        other => other,
    };
    author.is_none_or(|a| pr.author.as_deref().is_some_and(|p| p.eq_ignore_ascii_case(a)))
        && filters
            .label
            .as_deref()
            .is_none_or(|l| !pr.labels_complete || has_label(pr, l))
        && filters.base.as_deref().is_none_or(|b| pr.base_ref == b)
}

fn has_label(pr: &OpenPr, label: &str) -> bool {
    pr.labels.iter().any(|p| p.eq_ignore_ascii_case(label))
}

/// True when `--label` cannot tell whether `pr` carries the label: it is
/// not among the labels read and more were not read.
fn label_unsure(filters: &Filters, pr: &OpenPr) -> bool {
    filters
        .label
        .as_deref()
        .is_some_and(|l| !pr.labels_complete && !has_label(pr, l))
}

/// The token's login (`GET /user`), for `--author @me`.
async fn viewer(client: &Client) -> Result<String, GhError> {
    let account: crate::github::wire::Account = client.get_json(&Route::new(["user"])).await?;
    Ok(account.login)
}

/// Why nothing more may be read: the rate limit is down to the reserve.
/// Asked as each read starts (after its permit), not when the pull
/// request's task is made: every task is made before any read answers.
fn rate_spent(shared: &Shared) -> Option<String> {
    let left = shared.client.rate_remaining().filter(|l| *l <= RATE_RESERVE)?;
    Some(format!(
        "not read: GitHub's rate limit is nearly spent ({left} request(s) left); run again after it resets"
    ))
}

/// Reads one pull request's result, threads and ledger into its row.
async fn read_row(shared: &Shared, pr: OpenPr, mut row: Row, planned: Plan) -> Row {
    if let Some(why) = rate_spent(shared) {
        row.fail(why);
        return row;
    }
    let run = match planned {
        Plan::Running { run_id } => {
            row.state = ReviewState::Running;
            row.run_id = Some(run_id);
            None
        }
        Plan::Missing => {
            match shared.runs_cut {
                Some((listed, total)) => row.fail(format!(
                    "no review run for this pull request among the {listed} newest of {total} runs listed: its run may be older"
                )),
                None => row.reason = Some("no review run for this pull request among the runs listed".to_owned()),
            }
            None
        }
        Plan::Stale { run_id } => {
            row.state = ReviewState::Stale;
            row.run_id = Some(run_id);
            row.reason = Some("only an older head has a review run".to_owned());
            None
        }
        Plan::Result { run, artifact, newer } => {
            row.newer_run_id = newer;
            Some((run, artifact))
        }
    };
    let target = Target {
        repository: shared.options.repo.clone(),
        pull_request: pr.number,
        reviewed_sha: pr.head_sha.clone(),
    };
    let listed = shared.comments.as_ref().and_then(|c| c.of(pr.number, &pr.created_at));
    let spent = std::sync::atomic::AtomicBool::new(false);
    let ledger = async {
        let _permit = shared.permits.acquire().await.ok()?;
        if rate_spent(shared).is_some() {
            spent.store(true, std::sync::atomic::Ordering::Relaxed);
            return None;
        }
        Some(match listed {
            Some(comments) => match read_with_comments(&shared.client, &target, &[], &comments).await {
                Ok(ledger) => LedgerState::Known(ledger),
                Err(e) => LedgerState::Unknown { reason: e.to_string() },
            },
            None => read_ledger(&shared.client, &target, &[]).await,
        })
    };
    let result = async {
        let (run, artifact) = run?;
        let _permit = shared.permits.acquire().await.ok()?;
        if rate_spent(shared).is_some() {
            spent.store(true, std::sync::atomic::Ordering::Relaxed);
            return None;
        }
        Some(read_result(shared, &pr, &run, artifact.map(|a| *a)).await)
    };
    let (ledger, result) = tokio::join!(ledger, result);
    if spent.load(std::sync::atomic::Ordering::Relaxed) {
        row.fail(rate_spent(shared).unwrap_or_else(|| "not read: GitHub's rate limit was nearly spent".to_owned()));
        return row;
    }
    let ledger = match ledger {
        Some(LedgerState::Known(l)) => Some(l),
        Some(LedgerState::Unknown { reason }) => {
            row.fail(format!("the decisions could not be read: {reason}"));
            None
        }
        None => None,
    };
    if let Some(result) = result {
        match result {
            Ok((mut set, run_id, artifact_id)) => {
                row.run_id = Some(run_id);
                row.artifact_id = Some(artifact_id);
                let observation = threads_of(shared, &pr).await;
                if let Some(reason) = observation.unavailable_reason() {
                    row.fail(reason.to_owned());
                }
                apply_threads(&mut set, &observation);
                summarize(&mut row, &set, ledger.as_ref());
            }
            Err(reason) => row.fail(reason),
        }
    } else if let Some(ledger) = &ledger {
        row.awaiting = Some(awaiting_without_result(ledger));
    }
    row
}

/// AWAITING of a head without a result (running, missing, stale): the
/// findings, by fingerprint, whose speaking entry is an authorised decision
/// at this head. Nothing shows the disposition ReviewGate computed, so
/// none of them can be told "already shown": the review under way (or the
/// next) is the one that applies them. Each fingerprint counts once,
/// however many comments were recorded for it, as the screen counts one ◆
/// per finding; UNDECIDED stays unknown (there are no findings to count).
fn awaiting_without_result(ledger: &crate::model::ledger::Ledger) -> usize {
    ledger
        .latest_each()
        .values()
        .filter(|e| e.authorised.is_authorised())
        .count()
}

/// The head's validated result, the run and the artifact it came from.
async fn read_result(
    shared: &Shared,
    pr: &OpenPr,
    run: &RunInfo,
    listed: Option<ArtifactInfo>,
) -> Result<(crate::model::review::ReviewSet, u64, u64), String> {
    let repo = &shared.options.repo;
    let name = artifact_name(&pr.head_sha, run.attempt());
    let artifact = match listed {
        Some(a) => a,
        None => {
            let of_run = run_artifacts(&shared.client, repo, run.id)
                .await
                .map_err(|e| format!("the artifacts of run {} could not be listed: {e}", run.id))?;
            pick_artifact(&of_run, run, &pr.head_sha, &name).ok_or_else(|| {
                let ended = crate::sanitize::clean_line(run.conclusion.as_deref().unwrap_or("without a conclusion"));
                format!(
                    "the head's newest review run {} ended {ended} and published no unexpired result artifact",
                    run.id
                )
            })?
        }
    };
    if artifact.size_in_bytes > MAX_ZIP_BYTES as u64 {
        return Err(format!(
            "the result artifact is {} bytes, over the {MAX_ZIP_BYTES}-byte limit",
            artifact.size_in_bytes
        ));
    }
    let route = Route::repo(repo, ["actions", "artifacts", &artifact.id.to_string(), "zip"]);
    let key = route.path_and_query();
    let id = artifact.id.to_string();
    // A kept result is local state this program wrote, but it is a file on
    // disk (editable, damageable), so it is never trusted blindly: it is
    // validated as strictly as a download on every read (about 0.2-0.3 ms per
    // result in a debug build), and one that fails its check is downloaded
    // again. The row's counts are not kept with it: they depend on the live
    // threads and the ledger, which change while the artifact does not.
    let request = FetchRequest {
        repo: repo.clone(),
        pr: pr.number,
        workflow: shared.options.workflow.clone(),
    };
    let kept = shared
        .results
        .as_ref()
        .and_then(|c| c.load(&key))
        .filter(|k| k.etag == id);
    if let Some(kept) = kept {
        match checked(Unpacked::Kept(kept.body), request.clone(), pr.head_sha.clone(), None).await {
            Ok(set) => return Ok((set, run.id, artifact.id)),
            Err(_) => tracing::debug!(
                artifact = artifact.id,
                "a kept result failed its check: downloading it again"
            ),
        }
    }
    let zip = shared
        .client
        .get_fixed_bytes(&route, MAX_ZIP_BYTES)
        .await
        .map_err(|e| format!("the result artifact could not be downloaded: {e}"))?;
    let keep = shared.results.clone().map(|cache| (cache, key, id));
    let set = checked(Unpacked::Zip(zip), request, pr.head_sha.clone(), keep).await?;
    Ok((set, run.id, artifact.id))
}

/// A result as kept (the JSON, on disk already) or as downloaded (the zip).
enum Unpacked {
    Kept(Vec<u8>),
    Zip(Vec<u8>),
}

/// The validated review of a result for `head`; a downloaded one that
/// passes is kept in `keep` (the cache, its path key, the artifact id).
/// Unpacking, strict validation and keeping (a synced file write) are CPU
/// and disk work: they run off the runtime's thread, so that they do not
/// hold up the other pull requests' requests. A kept result is not written
/// again: that would cost a synced write per pull request on every read.
async fn checked(
    result: Unpacked,
    request: FetchRequest,
    head: String,
    keep: Option<(DiskCache, String, String)>,
) -> Result<crate::model::review::ReviewSet, String> {
    tokio::task::spawn_blocking(move || {
        let bytes = match result {
            Unpacked::Kept(bytes) => bytes,
            Unpacked::Zip(zip) => {
                read_result_json(&zip).map_err(|e| format!("the result artifact is unusable: {e}"))?
            }
        };
        let loaded = check_result(&bytes, &request, &head).map_err(|e| e.to_string())?;
        let set = loaded.set.ok_or_else(|| "the result holds no review".to_owned())?;
        if let Some((cache, key, id)) = keep {
            cache.store(&key, &id, &bytes);
        }
        Ok(set)
    })
    .await
    .map_err(|e| format!("the result check stopped: {e}"))?
}

/// The pull request's ReviewGate threads: the listed page when it held them
/// all, else every page read on its own (under a permit).
async fn threads_of(shared: &Shared, pr: &OpenPr) -> ThreadObservation {
    if pr.threads_complete {
        let mut kept = HashMap::new();
        for marked in &pr.threads {
            kept.insert(marked.fingerprint.clone(), marked.thread.clone());
        }
        return ThreadObservation::Available(kept);
    }
    let Ok(_permit) = shared.permits.acquire().await else {
        return ThreadObservation::Unavailable {
            reason: "the thread read was cancelled".to_owned(),
        };
    };
    observe_threads(&shared.client, &shared.options.repo, pr.number).await
}
