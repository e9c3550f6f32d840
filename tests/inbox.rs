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

use fake_inbox::{Kind, REPO, WORKFLOW, mount, thirty};
use std::path::Path;
use std::time::Duration;
use triage::github::{ApiBase, ClientConfig, RepoName, RetryPolicy, Token};
use triage::inbox::{Filters, Inbox, InboxOptions, ReviewState, Row, client_for, read_inbox};
use wiremock::MockServer;

fn options(cache: &Path, concurrency: usize) -> InboxOptions {
    InboxOptions {
        repo: RepoName::parse(REPO).unwrap(),
        workflow: WORKFLOW.to_owned(),
        filters: Filters::default(),
        max_prs: 500,
        concurrency,
        cache: Some(cache.to_path_buf()),
    }
}

fn config(server: &MockServer) -> ClientConfig {
    let mut config = ClientConfig::new(
        ApiBase::parse(&server.uri()).unwrap(),
        Token::new("test-token-123").unwrap(),
    );
    config.retry = RetryPolicy {
        max_attempts: 1,
        first_delay: Duration::ZERO,
        max_delay: Duration::ZERO,
    };
    config
}

/// A client without the on-disk cache (as `triage --pr N` reads).
fn client(server: &MockServer) -> triage::github::Client {
    client_for(config(server), None).unwrap()
}

async fn read(server: &MockServer, options: &InboxOptions) -> Inbox {
    let client = client_for(config(server), options.cache.as_ref()).unwrap();
    read_inbox(&client, options).await.unwrap()
}

fn row(inbox: &Inbox, n: u64) -> &Row {
    inbox
        .rows
        .iter()
        .find(|r| r.number == n)
        .unwrap_or_else(|| panic!("no row #{n}"))
}

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

/// #4 holds a `needs_human` comment by someone without write permission and
/// with no receipt: ReviewGate's replay ignores it, so it escalates nothing.
#[tokio::test]
async fn a_needs_human_comment_replay_ignores_is_no_escalation() {
    use triage::model::finding::SubmittedDisposition;
    let server = MockServer::start().await;
    let prs = vec![(4, Kind::Repair(1)), (5, Kind::Repair(1))];
    let fp = "defect:src.lib.rs:pr4.f0";
    let c = fake_inbox::decision(&server, 77, 4, fp, SubmittedDisposition::NeedsHuman, "drive-by");
    fake_inbox::listed_comments(&server, &[c]).await;
    fake_inbox::no_statuses(&server, 4).await;
    fake_inbox::permission(&server, "drive-by", "read").await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    let r = row(&inbox, 4);
    assert_eq!((r.needs_human, r.tier()), (0, 2));
}

/// #23's result shows its finding disputed after a `needs_human`
/// submission; a writer has since recorded `fixed` at the head, the
/// decision replay applies last: the escalation has ended.
#[tokio::test]
async fn a_newer_authorised_decision_at_the_head_ends_the_results_needs_human_escalation() {
    use triage::model::finding::SubmittedDisposition;
    let server = MockServer::start().await;
    let prs = vec![(23, Kind::NeedsHuman)];
    let c = fake_inbox::decision(
        &server,
        71,
        23,
        "defect:src.lib.rs:pr23.f0",
        SubmittedDisposition::Fixed,
        "dev",
    );
    fake_inbox::listed_comments(&server, &[c]).await;
    fake_inbox::no_statuses(&server, 23).await;
    fake_inbox::permission(&server, "dev", "write").await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    let r = row(&inbox, 23);
    assert_eq!((r.needs_human, r.awaiting), (0, Some(1)));
}

/// The pull request's screen on result `doc` of `n` with the ledger of
/// `comments` joined (the `writers` have write permission, nobody else).
fn screen_app(
    n: u64,
    doc: &serde_json::Value,
    comments: &[serde_json::Value],
    writers: &[&str],
) -> triage::tui::app::App {
    use triage::model::ledger::{Authorisation, CommentRecord, Ledger, LedgerScope, LedgerState, classify, pick};
    let request = triage::github::fetch::FetchRequest {
        repo: RepoName::parse(REPO).unwrap(),
        pr: n,
        workflow: WORKFLOW.into(),
    };
    let bytes = serde_json::to_vec(doc).unwrap();
    let loaded = triage::github::fetch::check_result(&bytes, &request, &fake_inbox::head(n)).unwrap();
    let document = triage::tui::document(triage::tui::app::Source::File("r.json".into()), loaded);
    let mut app = fixture::app_on(document, (160, 40));
    let records: Vec<CommentRecord> = comments
        .iter()
        .map(|c| CommentRecord {
            id: c["id"].as_u64().unwrap(),
            author: c["user"]["login"].as_str().map(str::to_owned),
            body: c["body"].as_str().unwrap().to_owned(),
        })
        .collect();
    let scope = LedgerScope {
        repository: REPO.into(),
        pull_request: n,
        head: fake_inbox::head(n),
    };
    let auth = Authorisation {
        statuses: Ok(Vec::new()),
        permissions: records
            .iter()
            .filter_map(|c| c.author.clone())
            .map(|a| {
                let w = writers.contains(&a.as_str());
                (a, Ok(w))
            })
            .collect(),
    };
    let entries = classify(&scope, &pick(&records), &auth).unwrap();
    let ledger = Ledger {
        scope,
        pull_url: String::new(),
        entries,
    };
    let effects = triage::tui::recorded::load(&mut app);
    let Some(triage::tui::effect::Effect::LoadLedger { generation, .. }) = effects.first() else {
        panic!("{effects:?}")
    };
    triage::tui::update::update(
        &mut app,
        triage::tui::update::Msg::LedgerLoaded {
            generation: *generation,
            state: LedgerState::Known(ledger),
        },
    );
    app
}

/// #4: a writer's `accepted` on a still-open finding (the result already
/// shows it: nothing awaits); #23: a writer's `fixed` on a disputed finding
/// (◆ on the screen). AWAITING counts what the screen marks ◆.
#[tokio::test]
async fn awaiting_counts_the_findings_the_pull_requests_screen_marks_awaiting() {
    use triage::model::finding::SubmittedDisposition;
    let server = MockServer::start().await;
    let prs = vec![(4, Kind::Repair(1)), (23, Kind::NeedsHuman)];
    let c4 = fake_inbox::decision(
        &server,
        70,
        4,
        "defect:src.lib.rs:pr4.f0",
        SubmittedDisposition::Accepted,
        "dev",
    );
    let c23 = fake_inbox::decision(
        &server,
        71,
        23,
        "defect:src.lib.rs:pr23.f0",
        SubmittedDisposition::Fixed,
        "dev",
    );
    fake_inbox::listed_comments(&server, &[c4.clone(), c23.clone()]).await;
    fake_inbox::no_statuses(&server, 4).await;
    fake_inbox::no_statuses(&server, 23).await;
    fake_inbox::permission(&server, "dev", "write").await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    let screen = |n: u64, kind: &Kind, c: &serde_json::Value| {
        let app = screen_app(
            n,
            &fake_inbox::result_doc(n, kind).unwrap(),
            std::slice::from_ref(c),
            &["dev"],
        );
        triage::tui::recorded::counts(&app).0
    };
    let (screen4, screen23) = (screen(4, &Kind::Repair(1), &c4), screen(23, &Kind::NeedsHuman, &c23));
    assert_eq!((screen4, screen23), (0, 1));
    assert_eq!(
        (row(&inbox, 4).awaiting, row(&inbox, 23).awaiting),
        (Some(screen4), Some(screen23))
    );
}

/// #4: a `fixed` decision by someone without write permission (◇ on the
/// screen, which still counts the finding to decide): UNDECIDED counts it.
#[tokio::test]
async fn undecided_counts_the_findings_the_pull_requests_screen_leaves_to_decide() {
    use triage::model::finding::SubmittedDisposition;
    let server = MockServer::start().await;
    let prs = vec![(4, Kind::Repair(1)), (5, Kind::Repair(1))];
    let c = fake_inbox::decision(
        &server,
        77,
        4,
        "defect:src.lib.rs:pr4.f0",
        SubmittedDisposition::Fixed,
        "drive-by",
    );
    fake_inbox::listed_comments(&server, std::slice::from_ref(&c)).await;
    fake_inbox::no_statuses(&server, 4).await;
    fake_inbox::permission(&server, "drive-by", "read").await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    let app = screen_app(4, &fake_inbox::result_doc(4, &Kind::Repair(1)).unwrap(), &[c], &[]);
    let n = app.doc.findings().len();
    let screen = (0..n).filter(|&i| !triage::tui::progress::decided(&app, i)).count();
    assert_eq!(screen, 2);
    assert_eq!(row(&inbox, 4).undecided, Some(screen));
}

/// #21 has a completed review run at its head whose result shows a thread
/// resolved externally (an escalation), and a newer run at the same head
/// queued. The row shows the completed run's result, as `--pr 21` (and
/// ReviewGate's `check --pr`) read it, and names the queued run.
#[tokio::test]
async fn a_queued_run_does_not_hide_the_heads_completed_result_and_its_escalation() {
    use serde_json::json;
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, ResponseTemplate};
    let server = MockServer::start().await;
    let prs = vec![(21, Kind::ResolvedExternally)];
    let h = fake_inbox::head(21);
    let runs = json!({"total_count": 2, "workflow_runs": [
        {"id": 2021, "run_number": 2, "run_attempt": 1, "head_sha": h, "head_branch": "topic-21",
         "event": "pull_request", "status": "queued", "conclusion": null, "pull_requests": [{"number": 21}],
         "created_at": "2026-01-01T01:00:00Z", "repository": {"full_name": REPO}},
        {"id": 1021, "run_number": 1, "run_attempt": 1, "head_sha": h, "head_branch": "topic-21",
         "event": "pull_request", "status": "completed", "conclusion": "success", "pull_requests": [{"number": 21}],
         "created_at": "2026-01-01T00:21:00Z", "repository": {"full_name": REPO}}]});
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/actions/workflows/{WORKFLOW}/runs")))
        .respond_with(ResponseTemplate::new(200).set_body_json(runs))
        .with_priority(1)
        .mount(&server)
        .await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    let client = client(&server);
    let request = triage::github::fetch::FetchRequest {
        repo: RepoName::parse(REPO).unwrap(),
        pr: 21,
        workflow: WORKFLOW.into(),
    };
    let single = triage::session::fetch::fetch_live(&client, &request).await.unwrap();
    assert_eq!(single.run_id, 1021);
    let r = row(&inbox, 21);
    assert_eq!(
        (r.state, r.drift.resolved_externally, r.run_id, r.newer_run_id, r.tier()),
        (ReviewState::NeedsChanges, 1, Some(1021), Some(2021), 0)
    );
    assert!(r.newer_run_text().unwrap().contains("2021"));
}

/// Comments 1000..1099 on #5, created after #4's decision (comment 50).
fn later_remarks(server: &MockServer) -> Vec<serde_json::Value> {
    (0..100u64)
        .map(|i| {
            fake_inbox::remark(
                server,
                1000 + i,
                5,
                &format!("2025-12-01T{:02}:{:02}:00Z", i / 60, i % 60),
            )
        })
        .collect()
}

/// Mounts the repository's comment listing as `listing` pages it.
async fn comment_listing(server: &MockServer, listing: fake_inbox::ShiftingComments) {
    use wiremock::Mock;
    use wiremock::matchers::{method, path};
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/issues/comments")))
        .respond_with(listing)
        .with_priority(1)
        .mount(server)
        .await;
}

/// #4 holds a writer's `needs_human` decision (comment 50, the oldest of
/// 101, on the listing's second page). It is edited between the listing's
/// first and second page: the row still holds it, as #4's own comment
/// listing (the pull request's screen) does.
#[tokio::test]
async fn a_comment_edited_while_the_listing_is_paged_is_not_lost() {
    use serde_json::json;
    use triage::model::finding::SubmittedDisposition;
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, ResponseTemplate};
    let server = MockServer::start().await;
    let prs = vec![(4, Kind::Repair(1)), (5, Kind::Repair(1))];
    let mut d = fake_inbox::decision(
        &server,
        50,
        4,
        "defect:src.lib.rs:pr4.f0",
        SubmittedDisposition::NeedsHuman,
        "dev",
    );
    d["created_at"] = json!("2025-06-01T00:00:00Z");
    d["updated_at"] = json!("2025-06-01T00:00:00Z");
    let mut edited = d.clone();
    edited["body"] = json!(format!("{}\n(edited)", d["body"].as_str().unwrap()));
    edited["updated_at"] = json!("2026-01-02T00:00:00Z");
    let mut before = later_remarks(&server);
    let mut after = before.clone();
    before.push(d);
    after.push(edited.clone());
    comment_listing(&server, fake_inbox::ShiftingComments::new(before, after)).await;
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/issues/4/comments")))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([edited])))
        .with_priority(1)
        .mount(&server)
        .await;
    fake_inbox::no_statuses(&server, 4).await;
    fake_inbox::permission(&server, "dev", "write").await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    let target = triage::decision::decide::Target {
        repository: RepoName::parse(REPO).unwrap(),
        pull_request: 4,
        reviewed_sha: fake_inbox::head(4),
    };
    let single = triage::github::ledger::read(&client(&server), &target, &[])
        .await
        .unwrap();
    assert_eq!(
        single.entries.iter().filter(|e| e.authorised.is_authorised()).count(),
        1
    );
    let r = row(&inbox, 4);
    assert_eq!((r.needs_human, r.undecided), (1, Some(1)), "{:?}", inbox.notes);
}

/// The same listing without an edit between its pages holds the decision too.
#[tokio::test]
async fn a_paged_comment_listing_holds_a_decision_on_its_last_page() {
    use serde_json::json;
    use triage::model::finding::SubmittedDisposition;
    let server = MockServer::start().await;
    let prs = vec![(4, Kind::Repair(1)), (5, Kind::Repair(1))];
    let mut d = fake_inbox::decision(
        &server,
        50,
        4,
        "defect:src.lib.rs:pr4.f0",
        SubmittedDisposition::NeedsHuman,
        "dev",
    );
    d["created_at"] = json!("2025-06-01T00:00:00Z");
    let mut comments = later_remarks(&server);
    comments.push(d);
    comment_listing(&server, fake_inbox::ShiftingComments::new(comments.clone(), comments)).await;
    fake_inbox::no_statuses(&server, 4).await;
    fake_inbox::permission(&server, "dev", "write").await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    let r = row(&inbox, 4);
    assert_eq!((r.needs_human, r.undecided), (1, Some(1)));
}

/// A comment created while the listing is paged shifts every comment one
/// place down: the last of page 1 (#12's decision, comment 1000) is listed
/// again on page 2. It is kept once.
#[tokio::test]
async fn a_comment_listed_twice_across_shifting_pages_counts_once() {
    use serde_json::json;
    use triage::model::finding::SubmittedDisposition;
    let server = MockServer::start().await;
    let prs = vec![(12, Kind::Running), (5, Kind::Repair(1))];
    let mut d = fake_inbox::decision(
        &server,
        1000,
        12,
        "defect:src.lib.rs:pr12.f0",
        SubmittedDisposition::Fixed,
        "dev",
    );
    d["created_at"] = json!("2025-11-01T00:00:00Z");
    let mut before: Vec<serde_json::Value> = later_remarks(&server).into_iter().skip(1).collect();
    before.push(d);
    before.push(fake_inbox::remark(&server, 900, 5, "2025-02-01T00:00:00Z"));
    let mut after = before.clone();
    after.push(fake_inbox::remark(&server, 5000, 5, "2026-01-02T00:00:00Z"));
    comment_listing(
        &server,
        fake_inbox::ShiftingComments::new(before.clone(), after.clone()),
    )
    .await;
    fake_inbox::no_statuses(&server, 12).await;
    fake_inbox::permission(&server, "dev", "write").await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    assert_eq!(row(&inbox, 12).awaiting, Some(1));

    let listing = fake_inbox::ShiftingComments::new(before, after);
    let again = MockServer::start().await;
    comment_listing(&again, listing).await;
    let repo = RepoName::parse(REPO).unwrap();
    let listed = triage::github::repo_comments::list_comments_since(&client(&again), &repo, "2025-01-01T00:00:00Z")
        .await
        .unwrap();
    let ids: Vec<u64> = listed.by_number[&12].iter().map(|c| c.id).collect();
    assert_eq!((ids, listed.pages), (vec![1000], 2));
    // 99 remarks of page 1 and comment 900; comment 5000 comes with the next read.
    assert_eq!(listed.by_number[&5].len(), 100);
}

/// The repository's artifact listing is cut at 1,000 (10 pages); a River
/// artifact of #1's head past the cut is not seen, and a note says that
/// River artifacts past the cut are not shown.
#[tokio::test]
async fn a_cut_artifact_listing_says_river_artifacts_past_it_are_not_shown() {
    use serde_json::{Value, json};
    use wiremock::matchers::{method, path, query_param};
    use wiremock::{Mock, ResponseTemplate};
    let server = MockServer::start().await;
    let prs = vec![(1, Kind::Passed)];
    for page in 1..=11u64 {
        let items: Vec<Value> = if page <= 10 {
            (0..100u64)
                .map(|i| {
                    json!({"id": 100_000 - page * 100 - i, "name": "coverage", "size_in_bytes": 1, "expired": false,
                                "workflow_run": {"id": 1, "head_sha": "f".repeat(40)}})
                })
                .collect()
        } else {
            vec![
                json!({"id": 10, "name": "river-review-artifact", "size_in_bytes": 1, "expired": false,
                        "workflow_run": {"id": 2, "head_sha": fake_inbox::head(1)}}),
            ]
        };
        Mock::given(method("GET"))
            .and(path(format!("/repos/{REPO}/actions/artifacts")))
            .and(query_param("page", page.to_string()))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"total_count": 1001, "artifacts": items})))
            .with_priority(1)
            .mount(&server)
            .await;
    }
    // #1's result artifact, asked of its run (it is past the cut too).
    Mock::given(method("GET"))
        .and(path(format!("/repos/{REPO}/actions/runs/1001/artifacts")))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"total_count": 1, "artifacts": [
            {"id": 5001, "name": format!("reviewgate-agent-result-{}-attempt-1", fake_inbox::head(1)),
             "size_in_bytes": 1000, "expired": false, "workflow_run": {"id": 1001, "head_sha": fake_inbox::head(1)}}]})))
        .mount(&server)
        .await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let inbox = read(&server, &options(cache.path(), 4)).await;
    let r = row(&inbox, 1);
    assert_eq!((r.state, r.river_artifacts.len()), (ReviewState::Passed, 0));
    assert!(
        inbox
            .notes
            .iter()
            .any(|n| n.contains("1000 newest of 1001 artifacts")
                && n.contains("River artifacts past them are not shown")),
        "{:?}",
        inbox.notes
    );
}

/// #2 carries 150 labels, and `urgent` is not among the 100 read: under
/// `--label urgent` it is kept (it may carry it) and a note says so; #1,
/// whose labels were all read and lack it, is left out.
#[tokio::test]
async fn a_pull_request_with_more_labels_than_read_is_kept_under_a_label_filter_and_noted() {
    use serde_json::{Value, json};
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, ResponseTemplate};
    let server = MockServer::start().await;
    let prs = vec![(1, Kind::Passed), (2, Kind::Passed)];
    let mut nodes: Vec<Value> = prs.iter().map(|(n, k)| fake_inbox::pr_node(*n, k)).collect();
    let many: Vec<Value> = (0..100).map(|i| json!({"name": format!("area-{i}")})).collect();
    nodes[1]["labels"] = json!({"totalCount": 150, "nodes": many});
    let body = json!({"data": {"repository": {"pullRequests": {
        "totalCount": 2, "pageInfo": {"hasNextPage": false, "endCursor": null}, "nodes": nodes}}}});
    Mock::given(method("POST"))
        .and(path("/graphql"))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .with_priority(1)
        .mount(&server)
        .await;
    mount(&server, &prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    let mut opts = options(cache.path(), 4);
    opts.filters.label = Some("urgent".into());
    let inbox = read(&server, &opts).await;
    let numbers: Vec<u64> = inbox.rows.iter().map(|r| r.number).collect();
    assert_eq!(numbers, vec![2]);
    assert!(
        inbox
            .notes
            .iter()
            .any(|n| n.starts_with("1 pull request(s) carry more labels than the 100 read")),
        "{:?}",
        inbox.notes
    );
}
