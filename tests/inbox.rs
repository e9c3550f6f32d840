//! The inbox against a fake GitHub on loopback (wiremock) holding 30 open
//! pull requests in every review state: the rows, counts and order; one
//! failing download marks only its row `unknown`; a second read against the
//! unchanged server sends only conditional requests (and downloads nothing)
//! and gives the same rows; the reads in flight stay within the bound.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "support/fake_github.rs"]
mod fake_github;
#[path = "support/fake_inbox.rs"]
mod fake_inbox;
#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/inbox_read.rs"]
mod inbox_read;

use fake_inbox::{Kind, REPO, WORKFLOW, mount, thirty};
use inbox_read::{options, read, row};
use std::path::Path;
use std::time::Duration;
use triage::inbox::{Filters, Inbox, ReviewState, Row};
use wiremock::MockServer;

/// Rows without the age (it moves with the clock between two reads).
fn ageless(inbox: &Inbox) -> Vec<Row> {
    inbox
        .rows
        .iter()
        .cloned()
        .map(|mut r| {
            r.age_seconds = 0;
            r
        })
        .collect()
}

#[tokio::test]
async fn thirty_pull_requests_rank_with_the_right_counts_and_revalidate_on_a_second_read() {
    let server = MockServer::start().await;
    mount(&server, &thirty(), Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let opts = options(cache.path(), 16);
    let first = read(&server, &opts).await;

    assert_eq!((first.rows.len(), first.listed, first.total_open), (30, 30, 30));
    let order: Vec<u64> = first.rows.iter().map(|r| r.number).collect();
    // Escalations (resolved externally, needs human), oldest first; then the
    // failed reviews and the unreadable row; then the repair sets, largest
    // first; then the rest by age.
    let expected: Vec<u64> = vec![
        21, 22, 23, 24, 28, 10, 11, 25, 9, 8, 7, 6, 5, 30, 4, 1, 2, 3, 12, 13, 14, 15, 16, 17, 18, 19, 20, 26, 27, 29,
    ];
    let odd: Vec<_> = first
        .rows
        .iter()
        .filter(|r| r.state == ReviewState::Unknown)
        .map(|r| (r.number, r.reason.clone()))
        .collect();
    assert_eq!(order, expected, "{odd:?}");

    let states: Vec<(u64, ReviewState)> = first.rows.iter().map(|r| (r.number, r.state)).collect();
    for (n, kind) in thirty() {
        let state = states.iter().find(|(m, _)| *m == n).unwrap().1;
        let want = match kind {
            Kind::Passed | Kind::UnlistedArtifact => ReviewState::Passed,
            Kind::ReviewError => ReviewState::ReviewError,
            Kind::Running => ReviewState::Running,
            Kind::Missing => ReviewState::Missing,
            Kind::Stale => ReviewState::Stale,
            Kind::DownloadFails => ReviewState::Unknown,
            _ => ReviewState::NeedsChanges,
        };
        assert_eq!(state, want, "#{n} ({kind:?})");
    }

    for n in 4..=9u64 {
        let r = row(&first, n);
        assert_eq!(r.repair_set, Some((n - 3) as usize), "#{n}");
        assert_eq!(r.findings, Some((n - 2) as usize), "#{n}");
        assert_eq!(
            r.undecided,
            Some((n - 2) as usize),
            "#{n}: every open finding has no decision"
        );
        assert_eq!((r.score, r.awaiting), (Some(2), Some(0)));
    }
    for n in [21u64, 22, 28] {
        let r = row(&first, n);
        assert_eq!(r.drift.resolved_externally, 1, "#{n}");
        assert_eq!(r.drift.total(), 1, "#{n}");
    }
    for n in [23u64, 24] {
        assert_eq!(row(&first, n).needs_human, 1, "#{n}");
    }
    assert_eq!(row(&first, 26).drift.reopened, 1);
    assert_eq!(row(&first, 27).drift.resolution_pending, 1);
    assert_eq!(row(&first, 12).run_id, Some(1012));
    assert_eq!(
        row(&first, 29).artifact_id,
        Some(5029),
        "the run's own artifact list was read"
    );
    assert_eq!(
        row(&first, 30).river_artifacts,
        vec!["river-review-artifact".to_owned()]
    );
    assert_eq!(row(&first, 30).repair_set, Some(2));
    assert!(row(&first, 10).score.is_none());
    let failed = row(&first, 25);
    let reason = failed.reason.as_deref().unwrap();
    assert!(reason.contains("could not be downloaded"), "{reason}");
    assert_eq!(failed.findings, None, "nothing of the failed result is shown");
    assert_eq!(
        first.rows.iter().filter(|r| r.state == ReviewState::Unknown).count(),
        1,
        "only the failing pull request is unknown"
    );
    assert!(row(&first, 15).reason.as_deref().unwrap().contains("no review run"));

    // The order: every listing before any pull request's own reads.
    let requests = server.received_requests().await.unwrap();
    let first_count = requests.len();
    let position = |pred: &dyn Fn(&wiremock::Request) -> bool| requests.iter().position(pred).unwrap();
    let listings_done = [
        position(&|r| r.url.path().ends_with("/actions/artifacts") && r.url.query() == Some("per_page=100&page=1")),
        position(&|r| r.url.path().ends_with(&format!("/workflows/{WORKFLOW}/runs"))),
        position(&|r| r.url.path() == "/graphql"),
    ]
    .into_iter()
    .max()
    .unwrap();
    let first_own = position(&|r| r.url.path().ends_with("/zip"));
    assert!(first_own > listings_done, "per-PR reads start after the listings");
    let comments = position(&|r| r.url.path() == format!("/repos/{REPO}/issues/comments"));
    let graphql_page = position(&|r| r.url.path() == "/graphql");
    assert!(
        comments > graphql_page,
        "the comment listing starts at the oldest pull request listed"
    );
    assert!(
        !requests
            .iter()
            .any(|r| r.url.path().starts_with(&format!("/repos/{REPO}/issues/"))
                && r.url.path().ends_with("/comments")
                && r.url.path() != format!("/repos/{REPO}/issues/comments")),
        "no pull request's comments are listed on their own"
    );
    let zips = requests.iter().filter(|r| r.url.path().ends_with("/zip")).count();
    assert_eq!(zips, 21, "one download per result artifact");
    let graphql: Vec<_> = requests.iter().filter(|r| r.url.path() == "/graphql").collect();
    assert_eq!(graphql.len(), 2, "one page of pull requests and one thread read of #28");
    for r in &requests {
        assert_eq!(
            r.headers.get("authorization").and_then(|v| v.to_str().ok()),
            Some("Bearer test-token-123")
        );
    }
    assert_eq!(first.stats.conditional, 0, "nothing was cached before the first read");

    // The second read, by a new client over the same cache directory.
    let second = read(&server, &opts).await;
    assert_eq!(ageless(&second), ageless(&first), "the same rows");
    let requests = server.received_requests().await.unwrap();
    let again = &requests[first_count..];
    let unconditional: Vec<String> = again
        .iter()
        .filter(|r| r.method.as_str() == "GET" && !r.headers.contains_key("if-none-match"))
        .map(|r| r.url.path().to_owned())
        .collect();
    assert_eq!(
        unconditional,
        vec![format!("/repos/{REPO}/actions/artifacts/5025/zip")],
        "only the download that failed is asked again unconditionally"
    );
    assert_eq!(again.iter().filter(|r| r.url.path().ends_with("/zip")).count(), 1);
    assert_eq!(second.stats.not_modified, second.stats.conditional);
    assert_eq!(
        second.stats.conditional as usize,
        again.iter().filter(|r| r.method.as_str() == "GET").count() - 1
    );

    // No token on disk.
    for entry in walk(cache.path()) {
        let bytes = std::fs::read(&entry).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains("test-token-123"), "{}", entry.display());
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[tokio::test]
async fn reads_in_flight_stay_within_the_bound_and_overlap() {
    let server = MockServer::start().await;
    let prs: Vec<(u64, Kind)> = (1..=24).map(|n| (n, Kind::Repair(1))).collect();
    mount(&server, &prs, Duration::from_millis(20)).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    assert_eq!(inbox.rows.len(), 24);
    // Three listings run side by side first; then at most four reads at once.
    assert!(inbox.stats.most_in_flight <= 4, "{:?}", inbox.stats);
    assert!(inbox.stats.most_in_flight >= 2, "reads overlap: {:?}", inbox.stats);
}

#[tokio::test]
async fn filters_keep_only_the_matching_pull_requests() {
    let server = MockServer::start().await;
    mount(&server, &thirty(), Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let mut opts = options(cache.path(), 8);
    opts.filters = Filters {
        author: Some("ALICE".into()),
        label: Some("urgent".into()),
        base: None,
    };
    let inbox = read(&server, &opts).await;
    let mut numbers: Vec<u64> = inbox.rows.iter().map(|r| r.number).collect();
    numbers.sort();
    assert_eq!(numbers, vec![15, 30]);
    opts.filters = Filters {
        base: Some("main".into()),
        ..Filters::default()
    };
    let inbox = read(&server, &opts).await;
    assert!(
        inbox
            .rows
            .iter()
            .all(|r| r.number.is_multiple_of(2) && r.base_ref == "main")
    );
    assert_eq!(inbox.rows.len(), 15);
}

#[tokio::test]
async fn pull_requests_are_paged_fifty_at_a_time() {
    let server = MockServer::start().await;
    let prs: Vec<(u64, Kind)> = (1..=120).map(|n| (n, Kind::Missing)).collect();
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 16)).await;
    assert_eq!(inbox.rows.len(), 120);
    let requests = server.received_requests().await.unwrap();
    let pages: Vec<serde_json::Value> = requests
        .iter()
        .filter(|r| r.url.path() == "/graphql")
        .map(|r| serde_json::from_slice::<serde_json::Value>(&r.body).unwrap()["variables"]["after"].clone())
        .collect();
    assert_eq!(pages, vec![serde_json::Value::Null, "P1".into(), "P2".into()]);
    let odd: Vec<_> = inbox
        .rows
        .iter()
        .filter(|r| r.state != ReviewState::Missing)
        .map(|r| (r.number, r.reason.clone()))
        .collect();
    assert!(odd.is_empty(), "{odd:?}");
}

#[tokio::test]
async fn recorded_decisions_come_from_the_repository_comment_listing() {
    use serde_json::json;
    use triage::model::disposition::{DispositionPayload, comment_body};
    use triage::model::finding::SubmittedDisposition;
    use wiremock::Mock;
    use wiremock::matchers::{method, path, query_param};
    let server = MockServer::start().await;
    let prs = vec![(4, Kind::Repair(1)), (5, Kind::Repair(1))];
    // A needs_human decision on #4's blocking finding, at its head, by a writer.
    let fp = "defect:src.lib.rs:pr4.f0";
    let payload = DispositionPayload::new(
        REPO,
        4,
        fake_inbox::head(4),
        fp,
        SubmittedDisposition::NeedsHuman,
        "Unsure.",
        "dev",
    );
    let comment = json!({"id": 77, "body": comment_body(&payload), "user": {"login": "dev"},
                         "issue_url": format!("{}/repos/{REPO}/issues/4", server.uri()),
                         "updated_at": "2026-01-01T00:00:00Z"});
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/issues/comments")))
        .and(query_param("page", "1"))
        .respond_with(fake_inbox::Conditional::json(&json!([comment])))
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/commits/{}/status", fake_inbox::head(4))))
        .respond_with(fake_inbox::Conditional::json(
            &json!({"state": "pending", "statuses": []}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/collaborators/dev/permission")))
        .respond_with(fake_inbox::Conditional::json(&json!({"permission": "write"})))
        .mount(&server)
        .await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 8)).await;
    let decided = row(&inbox, 4);
    assert_eq!(
        (decided.needs_human, decided.awaiting, decided.undecided),
        (1, Some(1), Some(1))
    );
    assert_eq!(inbox.rows[0].number, 4, "a needs_human decision ranks first");
    let other = row(&inbox, 5);
    assert_eq!(
        (other.needs_human, other.awaiting, other.undecided),
        (0, Some(0), Some(2))
    );
    let requests = server.received_requests().await.unwrap();
    let asked: Vec<String> = requests
        .iter()
        .map(|r| r.url.path().to_owned())
        .filter(|p| p.contains("/commits/") || p.contains("/collaborators/") || p.ends_with("/comments"))
        .collect();
    assert_eq!(
        asked,
        vec![
            format!("/repos/{REPO}/issues/comments"),
            format!("/repos/{REPO}/commits/{}/status", fake_inbox::head(4)),
            format!("/repos/{REPO}/collaborators/dev/permission"),
        ],
        "only #4 holds a disposition comment: only its head's statuses and author are looked up"
    );
}

/// The kept results' files: name, inode and modification time (a rewrite
/// through the atomic write gives a new inode).
fn kept_results(cache: &Path) -> Vec<(std::path::PathBuf, u64, std::time::SystemTime)> {
    use std::os::unix::fs::MetadataExt;
    let mut out: Vec<_> = walk(&cache.join("results"))
        .into_iter()
        .map(|p| {
            let meta = std::fs::metadata(&p).unwrap();
            (p, meta.ino(), meta.modified().unwrap())
        })
        .collect();
    out.sort();
    out
}

#[tokio::test]
async fn a_kept_result_is_neither_downloaded_nor_written_again_and_a_new_artifact_id_is_read() {
    use serde_json::json;
    use wiremock::matchers::{method, path, query_param};
    use wiremock::{Mock, ResponseTemplate};
    let server = MockServer::start().await;
    let prs = vec![(4, Kind::Repair(1)), (5, Kind::Repair(2))];
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let opts = options(cache.path(), 8);
    let zips = |requests: &[wiremock::Request]| -> Vec<String> {
        requests
            .iter()
            .filter(|r| r.url.path().ends_with("/zip"))
            .map(|r| r.url.path().to_owned())
            .collect()
    };

    let first = read(&server, &opts).await;
    let after_first = server.received_requests().await.unwrap();
    assert_eq!(zips(&after_first).len(), 2);
    let kept = kept_results(cache.path());
    assert_eq!(kept.len(), 2, "one kept result per artifact id");

    let second = read(&server, &opts).await;
    assert_eq!(ageless(&second), ageless(&first));
    let after_second = server.received_requests().await.unwrap();
    assert!(
        zips(&after_second[after_first.len()..]).is_empty(),
        "nothing downloaded"
    );
    assert_eq!(
        kept_results(cache.path()),
        kept,
        "the kept results are not written again"
    );

    // #4's head gets a new result artifact (a re-run): its id is new, so it is downloaded.
    let name = format!("reviewgate-agent-result-{}-attempt-1", fake_inbox::head(4));
    let listing = json!({"total_count": 2, "artifacts": [
        {"id": 6004, "name": name, "size_in_bytes": 1000, "expired": false,
         "workflow_run": {"id": 1004, "head_sha": fake_inbox::head(4)}},
        {"id": 5005, "name": format!("reviewgate-agent-result-{}-attempt-1", fake_inbox::head(5)),
         "size_in_bytes": 1000, "expired": false,
         "workflow_run": {"id": 1005, "head_sha": fake_inbox::head(5)}}]});
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/actions/artifacts")))
        .and(query_param("page", "1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(listing))
        .with_priority(1)
        .mount(&server)
        .await;
    let doc = fake_inbox::result_doc(4, &Kind::Repair(3)).unwrap();
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/actions/artifacts/6004/zip")))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(fake_inbox::zip_of(&serde_json::to_vec(&doc).unwrap())))
        .mount(&server)
        .await;
    let third = read(&server, &opts).await;
    let after_third = server.received_requests().await.unwrap();
    assert_eq!(
        zips(&after_third[after_second.len()..]),
        vec![format!("/repos/{REPO}/actions/artifacts/6004/zip")],
        "only the new artifact id is downloaded"
    );
    let renewed = row(&third, 4);
    assert_eq!((renewed.artifact_id, renewed.repair_set), (Some(6004), Some(3)));
    assert_eq!(row(&third, 5).repair_set, Some(2), "the unchanged row reads as before");
    let now_kept = kept_results(cache.path());
    assert_eq!(now_kept.len(), 3);
    assert!(
        kept.iter().all(|k| now_kept.contains(k)),
        "the old kept results stay as they were"
    );
}

#[tokio::test]
async fn a_damaged_kept_result_is_not_trusted_but_downloaded_again() {
    let server = MockServer::start().await;
    mount(&server, &[(4, Kind::Repair(2))], Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let opts = options(cache.path(), 8);
    let first = read(&server, &opts).await;
    let kept = kept_results(cache.path());
    assert_eq!(kept.len(), 1);
    // Keep the file's three header lines (so it still loads) and damage the result itself.
    let file = &kept[0].0;
    let text = std::fs::read_to_string(file).unwrap();
    let head: Vec<&str> = text.splitn(4, '\n').take(3).collect();
    std::fs::write(file, format!("{}\n{{\"schema_version\": \"nonsense\"", head.join("\n"))).unwrap();
    let before = server.received_requests().await.unwrap().len();

    let second = read(&server, &opts).await;
    assert_eq!(ageless(&second), ageless(&first), "the row reads as before");
    let requests = server.received_requests().await.unwrap();
    let zips: Vec<&str> = requests[before..]
        .iter()
        .map(|r| r.url.path())
        .filter(|p| p.ends_with("/zip"))
        .collect();
    assert_eq!(zips, vec![format!("/repos/{REPO}/actions/artifacts/5004/zip")]);
    let repaired = std::fs::read_to_string(file).unwrap();
    assert_eq!(repaired, text, "the download that passed is kept in its place");
}

/// The rate-limit reserve is asked as each read starts, not when the pull
/// request's task is made: once GitHub says the window is down to the
/// reserve, the reads still waiting are not sent and their rows say why.
/// The fake's GraphQL answers report their own budget, far from spent,
/// which does not stand for REST's.
#[tokio::test]
async fn reads_stop_at_the_rate_limit_reserve_as_github_reports_it() {
    use wiremock::matchers::{method, path_regex};
    let server = MockServer::start().await;
    let prs: Vec<(u64, Kind)> = (1..=12).map(|n| (n, Kind::Passed)).collect();
    mount(&server, &prs, Duration::ZERO).await;
    // Every download says the window is down to 10 requests.
    let doc = fake_inbox::result_doc(1, &Kind::Passed).unwrap();
    wiremock::Mock::given(method("GET"))
        .and(path_regex(r"^/repos/octo/app/actions/artifacts/\d+/zip$"))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .insert_header("x-ratelimit-remaining", "10")
                .set_body_bytes(fake_inbox::zip_of(&serde_json::to_vec(&doc).unwrap())),
        )
        .with_priority(1)
        .mount(&server)
        .await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 1)).await;
    let downloads = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path().ends_with("/zip"))
        .count();
    assert!(
        downloads <= 2,
        "{downloads} downloads after the window fell to the reserve"
    );
    let not_read = inbox
        .rows
        .iter()
        .filter(|r| r.state == ReviewState::Unknown && r.reason.as_deref().is_some_and(|w| w.contains("rate limit")))
        .count();
    assert!(not_read >= 10, "{:#?}", inbox.rows);
}

/// A run listing GitHub cut short: a pull request whose run is not among
/// those listed is unknown (its run may be past the cut), and a note says so.
#[tokio::test]
async fn a_cut_run_listing_leaves_unlisted_pull_requests_unknown_not_missing() {
    use wiremock::matchers::{method, path};
    let server = MockServer::start().await;
    let prs: Vec<(u64, Kind)> = (1..=3).map(|n| (n, Kind::Missing)).collect();
    mount(&server, &prs, Duration::ZERO).await;
    wiremock::Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/actions/workflows/{WORKFLOW}/runs")))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({"total_count": 600, "workflow_runs": []})),
        )
        .with_priority(1)
        .mount(&server)
        .await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    for r in &inbox.rows {
        assert_eq!(r.state, ReviewState::Unknown, "{r:?}");
        assert!(r.reason.as_deref().is_some_and(|w| w.contains("of 600 runs")), "{r:?}");
    }
    assert!(
        inbox.notes.iter().any(|n| n.contains("of 600 review runs")),
        "{:?}",
        inbox.notes
    );
}

/// Nodes GitHub lists without a number or head, and a listing that says
/// more follow without a cursor, are reported as such, not as a bound.
#[tokio::test]
async fn unreadable_nodes_and_a_listing_without_a_cursor_are_said() {
    use wiremock::matchers::{method, path};
    let server = MockServer::start().await;
    let prs: Vec<(u64, Kind)> = (1..=3).map(|n| (n, Kind::Missing)).collect();
    mount(&server, &prs, Duration::ZERO).await;
    let nodes = vec![
        fake_inbox::pr_node(1, &Kind::Missing),
        serde_json::Value::Null,
        fake_inbox::pr_node(3, &Kind::Missing),
    ];
    let body = serde_json::json!({"data": {"repository": {"pullRequests": {"totalCount": 9,
        "pageInfo": {"hasNextPage": true, "endCursor": null}, "nodes": nodes}}}});
    wiremock::Mock::given(method("POST"))
        .and(path("/graphql"))
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(body))
        .with_priority(1)
        .mount(&server)
        .await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    assert_eq!(inbox.rows.len(), 2);
    assert!(
        inbox
            .notes
            .iter()
            .any(|n| n.starts_with("1 pull request(s) GitHub listed could not be read")),
        "{:?}",
        inbox.notes
    );
    assert!(
        inbox
            .notes
            .iter()
            .any(|n| n.contains("gave no page cursor: listed 3 of 9")),
        "{:?}",
        inbox.notes
    );
    assert!(!inbox.notes.iter().any(|n| n.contains("oldest")), "{:?}", inbox.notes);
}
