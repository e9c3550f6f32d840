//! The inbox's rows agree with the pull request's screen and with what
//! GitHub holds: the decision counts follow the screen's rule, a queued run
//! hides no completed result, and listings that shift or are cut while they
//! are paged lose nothing without saying so.

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

use fake_inbox::{Kind, REPO, WORKFLOW, mount};
use inbox_read::{client, options, read, row};
use std::time::Duration;
use triage::github::RepoName;
use triage::inbox::ReviewState;
use wiremock::MockServer;

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

/// #4's `needs_human` decision by the writer `dev` (comment 50), made long
/// before the other comments listed.
fn needs_human_of_4(server: &MockServer) -> serde_json::Value {
    use serde_json::json;
    let mut d = fake_inbox::decision(
        server,
        50,
        4,
        "defect:src.lib.rs:pr4.f0",
        triage::model::finding::SubmittedDisposition::NeedsHuman,
        "dev",
    );
    d["created_at"] = json!("2025-06-01T00:00:00Z");
    d["updated_at"] = json!("2025-06-01T00:00:00Z");
    d
}

/// Reads the inbox of `prs` with the comment listing mounted, `decided`'s
/// statuses empty and `dev` a writer.
async fn read_as_listed(server: &MockServer, prs: &[(u64, Kind)], decided: u64) -> triage::inbox::Inbox {
    fake_inbox::no_statuses(server, decided).await;
    fake_inbox::permission(server, "dev", "write").await;
    mount(server, prs, Duration::ZERO).await;
    let cache = tempfile::tempdir().unwrap();
    read(server, &options(cache.path(), 4)).await
}

/// #4 holds a writer's `needs_human` decision (comment 50, the oldest of
/// 101, on the listing's second page). It is edited between the listing's
/// first and second page: the row still holds it, as #4's own comment
/// listing (the pull request's screen) does.
#[tokio::test]
async fn a_comment_edited_while_the_listing_is_paged_is_not_lost() {
    use serde_json::json;
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, ResponseTemplate};
    let server = MockServer::start().await;
    let prs = vec![(4, Kind::Repair(1)), (5, Kind::Repair(1))];
    let d = needs_human_of_4(&server);
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
    let inbox = read_as_listed(&server, &prs, 4).await;
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
    let server = MockServer::start().await;
    let prs = vec![(4, Kind::Repair(1)), (5, Kind::Repair(1))];
    let d = needs_human_of_4(&server);
    let mut comments = later_remarks(&server);
    comments.push(d);
    comment_listing(&server, fake_inbox::ShiftingComments::new(comments.clone(), comments)).await;
    let inbox = read_as_listed(&server, &prs, 4).await;
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
    let inbox = read_as_listed(&server, &prs, 12).await;
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
