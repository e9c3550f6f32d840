//! Reply, resolve and unresolve against the fake GitHub: the order of the
//! requests, their variables, the "already so" cases, refusals, and a retried
//! reply whose first attempt landed (never posted twice).

use super::support::*;
use serde_json::{Value, json};
use triage::github::thread_action::{ThreadDone, ThreadOutcome, ThreadRefusal, ThreadRequest, ThreadVerb};
use triage::github::thread_send::send_thread_action;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

pub const FP: &str = "defect:src/lib.rs:a";
const PULL: &str = "/repos/octo/app/pulls/5";

pub fn request(verb: ThreadVerb) -> ThreadRequest {
    ThreadRequest {
        repository: REPO.into(),
        pull_request: PR,
        fingerprint: FP.into(),
        expected_head: None,
        verb,
    }
}

/// An open pull request with one ReviewGate thread for [`FP`] (`PRRT_a`) and a human's.
pub async fn github(resolved: bool) -> MockServer {
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path(PULL))
        .respond_with(ResponseTemplate::new(200).set_body_json(pull("open")))
        .mount(&api)
        .await;
    let human = json!({ "id": "PRRT_h", "isResolved": false, "isOutdated": false,
        "opening": { "totalCount": 1, "nodes": [{ "author": { "login": "dev" }, "body": "q?" }] } });
    let threads = page(
        vec![
            human,
            node("PRRT_a", &marker_body("rg_a", FP), resolved, "2024-05-01T10:00:00Z"),
        ],
        None,
    );
    graphql_op("reviewThreads")
        .respond_with(ResponseTemplate::new(200).set_body_json(threads))
        .mount(&api)
        .await;
    api
}

fn ok(body: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(body)
}

fn reply_created() -> ResponseTemplate {
    ok(
        json!({ "data": { "addPullRequestReviewThreadReply": { "comment": { "id": "PRRC_1",
        "url": "http://127.0.0.1/octo/app/pull/5#discussion_r9" } } } }),
    )
}

fn thread_state(op: &str, resolved: bool) -> ResponseTemplate {
    ok(json!({ "data": { op: { "thread": { "id": "PRRT_a", "isResolved": resolved } } } }))
}

#[tokio::test]
async fn a_reply_reads_the_thread_then_posts_once_with_githubs_thread_id() {
    let api = github(false).await;
    graphql_op("viewer")
        .respond_with(ok(comments_page(
            "alice",
            &[("github-actions", "marker"), ("bob", "Fixed in 1a2b.")],
        )))
        .mount(&api)
        .await;
    graphql_op("addPullRequestReviewThreadReply")
        .respond_with(reply_created())
        .mount(&api)
        .await;
    let body = "Fixed in 1a2b.";
    let outcome = send_thread_action(&client(&api.uri()), &request(ThreadVerb::Reply { body: body.into() })).await;
    let url = Some("http://127.0.0.1/octo/app/pull/5#discussion_r9".to_owned());
    assert_eq!(
        outcome,
        ThreadOutcome::Done(ThreadDone::Replied { url, already: false })
    );
    assert_eq!(
        sequence(&api).await,
        [
            "GET /repos/octo/app/pulls/5",
            "graphql reviewThreads",
            "graphql viewer",
            "graphql addPullRequestReviewThreadReply"
        ]
    );
    let log = graphql_log(&api).await;
    assert_eq!(log[1].1, json!({ "id": "PRRT_a", "after": null }));
    assert_eq!(log[2].1, json!({ "threadId": "PRRT_a", "body": body }));
}

const LANDED: &str = "Checked on the head: still there.";

/// A reply of [`LANDED`] whose first attempt landed but lost its answer
/// (502), sent again with the thread's comments as `landed` lists them,
/// `viewer` being the token's login: the second outcome and how many times
/// the reply was posted.
async fn retried_reply(viewer: &str, landed: &[(&str, &str)]) -> (ThreadOutcome, usize) {
    let api = github(false).await;
    graphql_op("viewer")
        .respond_with(ok(comments_page(viewer, &[("github-actions", "marker")])))
        .up_to_n_times(1)
        .mount(&api)
        .await;
    graphql_op("addPullRequestReviewThreadReply")
        .respond_with(ResponseTemplate::new(502).set_body_json(json!({ "message": "Bad Gateway" })))
        .up_to_n_times(1)
        .mount(&api)
        .await;
    let c = client(&api.uri());
    let req = request(ThreadVerb::Reply { body: LANDED.into() });
    let first = send_thread_action(&c, &req).await;
    assert!(matches!(first, ThreadOutcome::Failed { .. }), "{first:?}");
    graphql_op("viewer")
        .respond_with(ok(comments_page(viewer, landed)))
        .mount(&api)
        .await;
    graphql_op("addPullRequestReviewThreadReply")
        .respond_with(reply_created())
        .mount(&api)
        .await;
    let second = send_thread_action(&c, &req).await;
    let posts = sequence(&api)
        .await
        .into_iter()
        .filter(|l| l == "graphql addPullRequestReviewThreadReply")
        .count();
    (second, posts)
}

#[tokio::test]
async fn a_retried_reply_that_landed_is_not_posted_twice() {
    // The thread now holds alice's reply (with CRLF line endings); mallory's
    // copy of the words is not hers.
    let landed = [
        ("github-actions", "marker"),
        ("mallory", LANDED),
        ("alice", "Checked on the head: still there.\r\n"),
    ];
    let (second, posts) = retried_reply("alice", &landed).await;
    let url = Some("http://127.0.0.1/octo/app/pull/5#discussion_r3".to_owned());
    assert_eq!(second, ThreadOutcome::Done(ThreadDone::Replied { url, already: true }));
    assert_eq!(posts, 1, "the reply is posted once");
}

#[tokio::test]
async fn resolve_and_unresolve_send_their_mutation_only_when_needed() {
    let api = github(false).await;
    graphql_op("resolveReviewThread")
        .respond_with(thread_state("resolveReviewThread", true))
        .mount(&api)
        .await;
    let c = client(&api.uri());
    let done = send_thread_action(&c, &request(ThreadVerb::Resolve)).await;
    assert_eq!(done, ThreadOutcome::Done(ThreadDone::Resolved { already: false }));
    let already = send_thread_action(&c, &request(ThreadVerb::Unresolve)).await;
    assert_eq!(already, ThreadOutcome::Done(ThreadDone::Unresolved { already: true }));
    assert_eq!(
        sequence(&api).await,
        [
            "GET /repos/octo/app/pulls/5",
            "graphql reviewThreads",
            "graphql resolveReviewThread",
            "GET /repos/octo/app/pulls/5",
            "graphql reviewThreads"
        ]
    );
    assert_eq!(graphql_log(&api).await[1].1, json!({ "threadId": "PRRT_a" }));

    let api = github(true).await;
    graphql_op("unresolveReviewThread")
        .respond_with(thread_state("unresolveReviewThread", false))
        .mount(&api)
        .await;
    let done = send_thread_action(&client(&api.uri()), &request(ThreadVerb::Unresolve)).await;
    assert_eq!(done, ThreadOutcome::Done(ThreadDone::Unresolved { already: false }));
    assert_eq!(
        sequence(&api).await,
        [
            "GET /repos/octo/app/pulls/5",
            "graphql reviewThreads",
            "graphql unresolveReviewThread"
        ]
    );
    assert_eq!(graphql_log(&api).await[1].1, json!({ "threadId": "PRRT_a" }));
}

#[tokio::test]
async fn refusals_stop_before_any_mutation() {
    // No thread for the fingerprint.
    let api = github(false).await;
    let mut other = request(ThreadVerb::Resolve);
    other.fingerprint = "defect:nowhere".into();
    let got = send_thread_action(&client(&api.uri()), &other).await;
    assert!(
        matches!(got, ThreadOutcome::Refused(ThreadRefusal::NoThread { .. })),
        "{got:?}"
    );
    // The head moved past the result the action was made on.
    let mut bound = request(ThreadVerb::Resolve);
    bound.expected_head = Some("0".repeat(40));
    let got = send_thread_action(&client(&api.uri()), &bound).await;
    assert!(
        matches!(got, ThreadOutcome::Refused(ThreadRefusal::HeadMoved { .. })),
        "{got:?}"
    );
    // GitHub refuses the mutation.
    graphql_op("resolveReviewThread")
        .respond_with(ok(json!({ "data": null, "errors": [{ "type": "FORBIDDEN",
            "message": "Resource not accessible by integration" }] })))
        .mount(&api)
        .await;
    let got = send_thread_action(&client(&api.uri()), &request(ThreadVerb::Resolve)).await;
    assert!(
        matches!(got, ThreadOutcome::Refused(ThreadRefusal::Refused { .. })),
        "{got:?}"
    );
    // A closed pull request: nothing but the pull request is read.
    let closed = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path(PULL))
        .respond_with(ok(pull("closed")))
        .mount(&closed)
        .await;
    let got = send_thread_action(&client(&closed.uri()), &request(ThreadVerb::Unresolve)).await;
    assert!(
        matches!(got, ThreadOutcome::Refused(ThreadRefusal::NotOpen { .. })),
        "{got:?}"
    );
    assert_eq!(sequence(&closed).await, ["GET /repos/octo/app/pulls/5"]);
}

#[tokio::test]
async fn an_answer_that_does_not_show_the_action_done_is_a_failure_not_a_refusal() {
    let failures = [
        json!({ "data": null, "errors": [{ "type": "RATE_LIMITED",
            "message": "API rate limit exceeded for user ID 1." }] }),
        json!({ "data": null, "errors": [{ "message": "Something went wrong while executing your query." }] }),
        json!({ "data": null, "errors": [{ "type": "INTERNAL", "message": "x" }] }),
    ];
    let unconfirmed = |op: &str| {
        [
            json!({ "data": { op: null } }),
            json!({ "data": {} }),
            json!({ "data": { op: { "thread": { "id": "PRRT_a", "isResolved": op == "unresolveReviewThread" } } } }),
        ]
    };
    for (verb, resolved, op) in [
        (
            ThreadVerb::Reply {
                body: "Fixed in 1a2b.".into(),
            },
            false,
            "addPullRequestReviewThreadReply",
        ),
        (ThreadVerb::Resolve, false, "resolveReviewThread"),
        (ThreadVerb::Unresolve, true, "unresolveReviewThread"),
    ] {
        let mut answers: Vec<Value> = failures.to_vec();
        answers.extend(unconfirmed(op));
        if op == "addPullRequestReviewThreadReply" {
            answers.push(json!({ "data": { op: { "comment": null } } }));
        }
        for answer in answers {
            let api = github(resolved).await;
            graphql_op("viewer")
                .respond_with(ok(comments_page("alice", &[])))
                .mount(&api)
                .await;
            graphql_op(op).respond_with(ok(answer.clone())).mount(&api).await;
            let got = send_thread_action(&client(&api.uri()), &request(verb.clone())).await;
            assert!(
                matches!(got, ThreadOutcome::Failed { .. }),
                "{op} answered {answer}: {got:?}"
            );
            let sent = sequence(&api).await;
            let mutations = sent.iter().filter(|s| s.ends_with(op)).count();
            assert!(mutations >= 1, "{op}: {sent:?}");
            if op == "addPullRequestReviewThreadReply" {
                assert_eq!(mutations, 1, "a reply is sent once per attempt: {sent:?}");
            }
        }
    }
}
/// Run with a GitHub App installation token (or Actions' GITHUB_TOKEN),
/// GraphQL's `viewer { login }` is the bot's login with its `[bot]` suffix
/// (`triage-app[bot]`), while the same bot's comments carry the bare login
/// (`triage-app`) in GraphQL's `author { login }` (as graphql.rs's
/// REVIEWGATE_AUTHORS note says of `github-actions`). A reply that landed
/// must still be found on the retry.
#[tokio::test]
async fn a_retried_bot_reply_that_landed_is_not_posted_twice() {
    let landed = [("github-actions", "marker"), ("triage-app", LANDED)];
    let (second, posts) = retried_reply("triage-app[bot]", &landed).await;
    assert_eq!(posts, 1, "the reply is posted once; second attempt: {second:?}");
}

/// GitHub answers a secondary rate limit with 403 and a message that says
/// so, and `retry-after` may be absent ("otherwise, wait for at least one
/// minute before retrying"). That answer is a wait, not a refusal: the
/// action stays kept (failed), it is not dropped (refused).
#[tokio::test]
async fn a_secondary_rate_limit_without_retry_after_is_a_failure_not_a_refusal() {
    let api = github(false).await;
    graphql_op("resolveReviewThread")
        .respond_with(ResponseTemplate::new(403).set_body_json(json!({
            "message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
            "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
        })))
        .mount(&api)
        .await;
    let got = send_thread_action(&client(&api.uri()), &request(ThreadVerb::Resolve)).await;
    assert!(matches!(got, ThreadOutcome::Failed { .. }), "{got:?}");
}
