//! The request sequence of a thread action, in this order:
//!
//! 1. `GET /repos/{repo}/pulls/{n}`: the pull request must be open (and at
//!    the expected head, when the action is bound to one);
//! 2. the review threads (GraphQL, every page): the ReviewGate thread of the
//!    fingerprint, the one GitHub lists last;
//! 3. for a reply, the thread's comments (GraphQL, every page): a comment by
//!    the same login with the same body (any login, when GitHub does not say
//!    who the caller is) means an earlier attempt landed, and nothing is posted; for resolve/unresolve, a thread already in the
//!    wanted state needs no mutation;
//! 4. the mutation: a reply is sent once and never retried (a timeout may
//!    hide a reply that landed; the next attempt finds it in step 3);
//!    resolve and unresolve are idempotent and retried like reads.
//!
//! A GraphQL error answering a mutation is GitHub refusing that action only
//! when its type says so (`FORBIDDEN`, `NOT_FOUND`, `UNPROCESSABLE`:
//! permission, a locked conversation); any other error (`RATE_LIMITED`, an
//! internal error, no type) is a failure, and the action stays in the outbox.
//! A mutation is done only when its answer shows it: the reply's comment, or
//! the thread in the wanted state. An answer without that (`null` data) is a
//! failure too; the next attempt finds a reply that did land (step 3).

use super::GhError;
use super::client::Client;
use super::route::{RepoName, Route};
use super::thread_action::{
    REPLY_MUTATION, RESOLVE_MUTATION, THREAD_COMMENTS_QUERY, ThreadDone, ThreadOutcome, ThreadRefusal, ThreadRequest,
    ThreadVerb, UNRESOLVE_MUTATION,
};
use super::threads::observe_threads;
use super::wire::PullRequest;
use crate::model::threads::{ObservedThread, ThreadObservation};
use serde_json::{Value, json};

/// At most this many pages of 100 comments are read when looking for a reply.
pub const MAX_COMMENT_PAGES: usize = 20;

/// Runs one attempt of `request` (already checked locally).
pub async fn send_thread_action(client: &Client, request: &ThreadRequest) -> ThreadOutcome {
    match attempt(client, request).await {
        Ok(done) => ThreadOutcome::Done(done),
        Err(Stop::Refused(r)) => ThreadOutcome::Refused(r),
        Err(Stop::Failed(reason)) => ThreadOutcome::Failed { reason },
    }
}

enum Stop {
    Refused(ThreadRefusal),
    Failed(String),
}

fn failed(step: &str) -> impl FnOnce(GhError) -> Stop + '_ {
    move |e| Stop::Failed(format!("could not {step}: {e}"))
}

async fn attempt(client: &Client, request: &ThreadRequest) -> Result<ThreadDone, Stop> {
    let repo = RepoName::parse(&request.repository)
        .map_err(|e| Stop::Failed(format!("{:?} is not OWNER/NAME: {e}", request.repository)))?;
    check_pull(client, &repo, request).await?;
    let thread = find_thread(client, &repo, request).await?;
    let verb = request.verb.name();
    match &request.verb {
        ThreadVerb::Reply { body } => {
            if let Some(url) = earlier_reply(client, &thread.id, body).await? {
                return Ok(ThreadDone::Replied { url, already: true });
            }
            let vars = json!({ "threadId": thread.id, "body": body });
            let data: Value = client
                .graphql_once(REPLY_MUTATION, vars)
                .await
                .map_err(mutation(verb))?;
            let Some(comment) = data
                .pointer("/addPullRequestReviewThreadReply/comment")
                .filter(|c| c.get("id").is_some_and(Value::is_string))
            else {
                return Err(unconfirmed(verb));
            };
            let url = comment.get("url").and_then(Value::as_str).map(str::to_owned);
            Ok(ThreadDone::Replied { url, already: false })
        }
        ThreadVerb::Resolve if thread.resolved => Ok(ThreadDone::Resolved { already: true }),
        ThreadVerb::Unresolve if !thread.resolved => Ok(ThreadDone::Unresolved { already: true }),
        ThreadVerb::Resolve => {
            let data: Value = client
                .graphql(RESOLVE_MUTATION, json!({ "threadId": thread.id }))
                .await
                .map_err(mutation(verb))?;
            confirm_state(&data, "/resolveReviewThread/thread/isResolved", true, verb)?;
            Ok(ThreadDone::Resolved { already: false })
        }
        ThreadVerb::Unresolve => {
            let data: Value = client
                .graphql(UNRESOLVE_MUTATION, json!({ "threadId": thread.id }))
                .await
                .map_err(mutation(verb))?;
            confirm_state(&data, "/unresolveReviewThread/thread/isResolved", false, verb)?;
            Ok(ThreadDone::Unresolved { already: false })
        }
    }
}

/// The answer to a mutation did not show it done.
fn unconfirmed(verb: &'static str) -> Stop {
    Stop::Failed(format!(
        "GitHub's answer did not show the thread action done ({verb}); it is kept for another attempt"
    ))
}

/// The thread in the mutation's answer is in the wanted state.
fn confirm_state(data: &Value, pointer: &str, resolved: bool, verb: &'static str) -> Result<(), Stop> {
    match data.pointer(pointer).and_then(Value::as_bool) {
        Some(now) if now == resolved => Ok(()),
        _ => Err(unconfirmed(verb)),
    }
}

/// A mutation's error: GitHub's refusal (GraphQL error, 4xx) or a failure.
fn mutation(verb: &'static str) -> impl FnOnce(GhError) -> Stop {
    move |e| match e {
        // A GraphQL error refuses only with a refusing type (see `is_refusal`).
        GhError::GraphQl { message, .. } if e.is_refusal() => Stop::Refused(ThreadRefusal::Refused { verb, message }),
        e if e.is_refusal() => Stop::Refused(ThreadRefusal::Refused {
            verb,
            message: e.to_string(),
        }),
        e => Stop::Failed(format!("could not {verb} the thread: {e}")),
    }
}

async fn check_pull(client: &Client, repo: &RepoName, request: &ThreadRequest) -> Result<(), Stop> {
    let number = request.pull_request.to_string();
    let route = Route::repo(repo, ["pulls", number.as_str()]);
    let step = format!("read pull request {repo}#{number}");
    let pull: PullRequest = client.get_json(&route).await.map_err(|e| match e {
        e @ GhError::NotFound { .. } => Stop::Refused(ThreadRefusal::Refused {
            verb: request.verb.name(),
            message: e.to_string(),
        }),
        e => failed(&step)(e),
    })?;
    if pull.state != "open" {
        return Err(Stop::Refused(ThreadRefusal::NotOpen {
            repository: repo.to_string(),
            pull_request: request.pull_request,
            state: pull.state.chars().take(20).collect(),
        }));
    }
    match &request.expected_head {
        Some(expected) if *expected != pull.head.sha => Err(Stop::Refused(ThreadRefusal::HeadMoved {
            expected: expected.clone(),
            now: pull.head.sha.chars().take(64).collect(),
        })),
        _ => Ok(()),
    }
}

async fn find_thread(client: &Client, repo: &RepoName, request: &ThreadRequest) -> Result<ObservedThread, Stop> {
    match observe_threads(client, repo, request.pull_request).await {
        ThreadObservation::Unavailable { reason } => Err(Stop::Failed(reason)),
        ThreadObservation::Available(mut threads) => threads.remove(&request.fingerprint).ok_or_else(|| {
            Stop::Refused(ThreadRefusal::NoThread {
                repository: repo.to_string(),
                pull_request: request.pull_request,
                fingerprint: request.fingerprint.clone(),
            })
        }),
    }
}

/// True when two GraphQL logins name one account. With an app's
/// installation token (or Actions' `GITHUB_TOKEN`) GraphQL names the viewer
/// `NAME[bot]` but the bot's comments' author `NAME`: the suffix is not
/// compared (as `graphql.rs` reads ReviewGate's own bot).
fn same_login(a: &str, b: &str) -> bool {
    let bare = |s: &str| s.strip_suffix("[bot]").unwrap_or(s).to_owned();
    bare(a) == bare(b)
}

/// The same text for comparing bodies: line endings as `\n`, the ends trimmed
/// (GitHub may store a body with other line endings than were sent).
fn normalized(body: &str) -> String {
    body.replace("\r\n", "\n").trim().to_owned()
}

/// The link of a comment in the thread by the caller's own login with the
/// same body (`Some(url)`), or `None` when there is no such comment.
async fn earlier_reply(client: &Client, thread_id: &str, body: &str) -> Result<Option<Option<String>>, Stop> {
    let want = normalized(body);
    let mut after: Option<String> = None;
    for _ in 0..MAX_COMMENT_PAGES {
        let vars = json!({ "id": thread_id, "after": after });
        let data: Value = client
            .graphql(THREAD_COMMENTS_QUERY, vars)
            .await
            .map_err(failed("read the comments of the thread"))?;
        let viewer = data.pointer("/viewer/login").and_then(Value::as_str);
        let comments = data.pointer("/node/comments").cloned().unwrap_or(Value::Null);
        let nodes = comments
            .get("nodes")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for c in &nodes {
            let author = c.pointer("/author/login").and_then(Value::as_str);
            let text = c.get("body").and_then(Value::as_str).unwrap_or("");
            // Without a login to compare (GitHub gave none), the body alone decides.
            if viewer.is_none_or(|v| author.is_some_and(|a| same_login(a, v))) && normalized(text) == want {
                return Ok(Some(c.get("url").and_then(Value::as_str).map(str::to_owned)));
            }
        }
        let next = comments.pointer("/pageInfo/hasNextPage").and_then(Value::as_bool) == Some(true);
        let cursor = comments.pointer("/pageInfo/endCursor").and_then(Value::as_str);
        match cursor {
            Some(c) if next && after.as_deref() != Some(c) => after = Some(c.to_owned()),
            _ if !next => return Ok(None),
            _ => {
                return Err(Stop::Failed(
                    "GitHub said more thread comments follow but gave no new page cursor".into(),
                ));
            }
        }
    }
    Err(Stop::Failed(format!(
        "the thread has more than {} comments; the reply is not posted, as an earlier copy could not be ruled out",
        MAX_COMMENT_PAGES * 100
    )))
}
