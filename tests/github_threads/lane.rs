//! From the drift lane to GitHub and back: keys on the screen make the
//! thread action, the screen's job sends it to the fake GitHub (requests
//! checked in order), and its outcome comes back to the screen.

use super::fixture;
use super::support::*;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::json;
use triage::github::thread_action::{ThreadRequest, ThreadVerb};
use triage::github::{ApiBase, ClientConfig, RetryPolicy, Token};
use triage::outbox::thread_actions::ThreadStore;
use triage::tui::app::{App, Mode};
use triage::tui::effect::Effect;
use triage::tui::jobs::thread::{keep, send};
use triage::tui::jobs::worker::Net;
use triage::tui::update::{Msg, update};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn keys(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars()
        .flat_map(|c| update(app, Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))))
        .collect()
}

fn thread_effect(effects: Vec<Effect>) -> Option<(u64, ThreadRequest)> {
    effects.into_iter().find_map(|e| match e {
        Effect::ThreadAction {
            generation, request, ..
        } => Some((generation, request)),
        _ => None,
    })
}

fn config(api: &str) -> ClientConfig {
    let mut config = ClientConfig::new(ApiBase::parse(api).expect("base"), Token::new(TOKEN).expect("token"));
    config.retry = RetryPolicy {
        max_attempts: 1,
        first_delay: std::time::Duration::ZERO,
        max_delay: std::time::Duration::ZERO,
    };
    config
}

/// The sample pull request acme/webhooks#42 at the sample head, with the
/// ReviewGate threads of `fps` (resolved or not).
async fn github(fps: &[(&str, bool)]) -> MockServer {
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/repos/acme/webhooks/pulls/42"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({ "number": 42, "state": "open",
            "head": { "sha": fixture::SHA }, "base": { "repo": { "full_name": "acme/webhooks" } } })),
        )
        .mount(&api)
        .await;
    let nodes = fps
        .iter()
        .enumerate()
        .map(|(i, (fp, resolved))| {
            node(
                &format!("PRRT_{i}"),
                &marker_body("rg", fp),
                *resolved,
                "2024-05-01T10:00:00Z",
            )
        })
        .collect();
    graphql_op("reviewThreads")
        .respond_with(ResponseTemplate::new(200).set_body_json(page(nodes, None)))
        .mount(&api)
        .await;
    api
}

async fn run(store: &ThreadStore, api: &MockServer, request: ThreadRequest) -> triage::tui::thread_act::ThreadActed {
    run_replacing(store, api, request, None).await
}

async fn run_replacing(
    store: &ThreadStore,
    api: &MockServer,
    request: ThreadRequest,
    replaces: Option<ThreadRequest>,
) -> triage::tui::thread_act::ThreadActed {
    let (store, config) = (store.clone(), config(&api.uri()));
    let net = Net::new(tokio::runtime::Handle::current(), Box::new(move || Ok(config.clone())));
    // The screen's two steps: kept on the file lane, then sent in a job.
    tokio::task::spawn_blocking(move || match keep(&store, request, replaces.as_ref()) {
        Ok(entry) => send(&store, &net, &entry),
        Err(not_kept) => not_kept,
    })
    .await
    .expect("job")
}

/// The fingerprint of the selected finding.
fn selected_key(app: &App) -> String {
    app.selected_finding()
        .map(|f| f.key.as_str().to_owned())
        .unwrap_or_default()
}

/// No earlier reply by alice on the thread, and a reply GitHub posts (a
/// mock mounted before this one answers first).
async fn mount_replies(api: &MockServer) {
    graphql_op("viewer")
        .respond_with(ResponseTemplate::new(200).set_body_json(comments_page("alice", &[])))
        .mount(api)
        .await;
    graphql_op("addPullRequestReviewThreadReply")
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "data": {
            "addPullRequestReviewThreadReply": { "comment": { "id": "C", "url": null } } } })))
        .mount(api)
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn reopen_resolve_and_reply_from_the_lane_reach_github_in_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = ThreadStore::open(dir.path().join("threads")).expect("store");
    let mut app = fixture::app(fixture::sample_set(), (120, 40));
    keys(&mut app, "3");
    let external = selected_key(&app);
    keys(&mut app, "jj");
    let pending = selected_key(&app);
    let api = github(&[(&external, true), (&pending, false)]).await;
    graphql_op("unresolveReviewThread")
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({ "data": { "unresolveReviewThread": { "thread": { "id": "PRRT_0", "isResolved": false } } } }),
        ))
        .mount(&api)
        .await;
    graphql_op("resolveReviewThread")
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({ "data": { "resolveReviewThread": { "thread": { "id": "PRRT_1", "isResolved": true } } } }),
        ))
        .mount(&api)
        .await;
    mount_replies(&api).await;

    // The remedies offer on the resolved-externally finding: reopen.
    keys(&mut app, "kk");
    keys(&mut app, "to");
    let (generation, request) = thread_effect(keys(&mut app, "y")).expect("reopen sent");
    assert_eq!(request.expected_head.as_deref(), Some(fixture::SHA));
    let outcome = run(&store, &api, request).await;
    update(&mut app, Msg::ThreadActed { generation, outcome });
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(flash.contains("reopened the thread"), "{flash}");

    // Resolve, then reply, on the resolution-pending finding.
    keys(&mut app, "jj");
    keys(&mut app, "ts");
    let (generation, request) = thread_effect(keys(&mut app, "y")).expect("resolve sent");
    let outcome = run(&store, &api, request).await;
    update(&mut app, Msg::ThreadActed { generation, outcome });
    keys(&mut app, "tr");
    keys(&mut app, "Resolved after checking the head.");
    update(&mut app, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    let (generation, request) = thread_effect(keys(&mut app, "y")).expect("reply sent");
    let outcome = run(&store, &api, request).await;
    update(&mut app, Msg::ThreadActed { generation, outcome });
    assert_eq!(app.ui.mode, Mode::Normal);
    assert!(store.list().expect("list").0.is_empty(), "done actions leave the store");

    assert_eq!(
        sequence(&api).await,
        [
            "GET /repos/acme/webhooks/pulls/42",
            "graphql reviewThreads",
            "graphql unresolveReviewThread",
            "GET /repos/acme/webhooks/pulls/42",
            "graphql reviewThreads",
            "graphql resolveReviewThread",
            "GET /repos/acme/webhooks/pulls/42",
            "graphql reviewThreads",
            "graphql viewer",
            "graphql addPullRequestReviewThreadReply"
        ]
    );
    let log = graphql_log(&api).await;
    let vars: Vec<serde_json::Value> = log.iter().map(|(_, v)| v.clone()).collect();
    assert_eq!(vars[1], json!({ "threadId": "PRRT_0" }));
    assert_eq!(vars[3], json!({ "threadId": "PRRT_1" }));
    assert_eq!(
        vars[6],
        json!({ "threadId": "PRRT_1", "body": "Resolved after checking the head." })
    );
}

/// A reply whose post failed stays in the outbox; the rewritten reply the
/// screen sends next replaces it, so only the new words are ever posted
/// and nothing is left for `thread retry` to post again.
#[tokio::test(flavor = "multi_thread")]
async fn a_rewritten_reply_replaces_the_failed_one_in_the_outbox() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = ThreadStore::open(dir.path().join("threads")).expect("store");
    let mut app = fixture::app(fixture::sample_set(), (120, 40));
    keys(&mut app, "3jj");
    let pending = selected_key(&app);
    let api = github(&[(&pending, false)]).await;
    graphql_op("addPullRequestReviewThreadReply")
        .respond_with(ResponseTemplate::new(502))
        .up_to_n_times(1)
        .mount(&api)
        .await;
    mount_replies(&api).await;

    keys(&mut app, "tr");
    keys(&mut app, "old words");
    update(&mut app, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    let (generation, first) = thread_effect(keys(&mut app, "y")).expect("reply sent");
    let outcome = run(&store, &api, first.clone()).await;
    update(&mut app, Msg::ThreadActed { generation, outcome });
    assert_eq!(store.list().expect("list").0.len(), 1, "the failed reply is kept");

    keys(&mut app, "tr");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
    );
    keys(&mut app, "new words");
    update(&mut app, Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    let (generation, replaces, request) = keys(&mut app, "y")
        .into_iter()
        .find_map(|e| match e {
            Effect::ThreadAction {
                generation,
                request,
                replaces,
                ..
            } => Some((generation, replaces, request)),
            _ => None,
        })
        .expect("rewritten reply sent");
    assert_eq!(replaces.as_ref(), Some(&first));
    let outcome = run_replacing(&store, &api, request, replaces).await;
    update(&mut app, Msg::ThreadActed { generation, outcome });
    assert!(
        store.list().expect("list").0.is_empty(),
        "nothing is left to post again"
    );
    let bodies: Vec<serde_json::Value> = graphql_log(&api)
        .await
        .into_iter()
        .filter_map(|(_, v)| v.get("body").cloned())
        .collect();
    assert_eq!(bodies, [json!("old words"), json!("new words")]);
}

/// A reply kept by an earlier session is listed in the outbox overlay and
/// sent again with `r`: its earlier attempt had landed, so it is found in
/// the thread and not posted twice; the store is then empty and, once the
/// screen reads the store again, the overlay closes.
#[tokio::test(flavor = "multi_thread")]
async fn a_kept_reply_sent_again_from_the_overlay_is_not_posted_twice() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = ThreadStore::open(dir.path().join("threads")).expect("store");
    let mut app = fixture::app(fixture::sample_set(), (120, 40));
    keys(&mut app, "3jj");
    let pending = selected_key(&app);
    let api = github(&[(&pending, false)]).await;
    graphql_op("viewer")
        .respond_with(
            ResponseTemplate::new(200).set_body_json(comments_page("alice", &[("alice", "Landed before the 502.")])),
        )
        .mount(&api)
        .await;
    let mut kept = store
        .keep(ThreadRequest {
            repository: "acme/webhooks".into(),
            pull_request: 42,
            fingerprint: pending.clone(),
            expected_head: Some(fixture::SHA.into()),
            verb: ThreadVerb::Reply {
                body: "Landed before the 502.".into(),
            },
        })
        .expect("kept");
    kept.attempts = 1;
    store.put(&kept).expect("put");

    update(&mut app, Msg::ThreadsKept(store.list().expect("list").0));
    update(
        &mut app,
        Msg::OutboxLoaded {
            entries: Vec::new(),
            unreadable: 0,
        },
    );
    assert_eq!(app.ui.mode, Mode::Outbox { cursor: 0 });
    let (generation, request) = thread_effect(keys(&mut app, "r")).expect("sent again");
    assert_eq!(request, kept.request);
    let outcome = run(&store, &api, request).await;
    update(&mut app, Msg::ThreadsKept(store.list().expect("list").0));
    update(&mut app, Msg::ThreadActed { generation, outcome });
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(flash.contains("not posted again"), "{flash}");
    assert!(store.list().expect("list").0.is_empty());
    assert_eq!(app.ui.mode, Mode::Normal, "nothing is left to offer");
    assert_eq!(
        sequence(&api).await,
        [
            "GET /repos/acme/webhooks/pulls/42",
            "graphql reviewThreads",
            "graphql viewer"
        ]
    );
}
