//! INTEROP §4 step by step: every request, in order, for each branch.

use super::support::*;
use serde_json::json;
use triage::github::GhError;
use triage::github::decide::{Rejection, Step};
use triage::github::protocol::{Outcome, SubmitOptions, submit};
use triage::model::finding::SubmittedDisposition;
use wiremock::{MockServer, ResponseTemplate};

#[tokio::test]
async fn happy_path_posts_the_conformance_body_and_attests_it() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    mount_no_decisions(&server).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "POST", STATUS, status_created(ACTOR)).await;
    mount_read_back(&server).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Recorded(receipt) = &outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(receipt.comment_id, 1);
    assert_eq!(receipt.url, format!("{}/{REPO}/pull/48#issuecomment-1", server.uri()));
    assert_eq!(receipt.fingerprint, FP);
    assert_eq!(receipt.disposition, SubmittedDisposition::Accepted);
    assert!(!receipt.reused);
    assert!(!receipt.already_recorded);

    let seen = requests(&server).await;
    let lines: Vec<&str> = seen.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        lines,
        [
            line("GET", USER),
            line("GET", ACCESS),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("GET", HEAD_STATUS_PAGE_1),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("POST", STATUS),
            line("GET", COMMENT_1),
            line("GET", HEAD_STATUS_PAGE_1),
        ]
    );
    assert_eq!(body_json(&seen[5].1), json!({"body": accepted_body()}));
    assert_eq!(
        body_json(&seen[7].1),
        json!({
            "state": "success",
            "target_url": format!("{}/{REPO}/pull/48#issuecomment-1", server.uri()),
            "description": accepted_digest(),
            "context": "reviewgate/disposition/1",
        })
    );
    for r in server.received_requests().await.unwrap() {
        let auth = r.headers.get("authorization").and_then(|v| v.to_str().ok());
        assert_eq!(auth, Some(format!("Bearer {TOKEN}").as_str()), "{} {}", r.method, r.url);
    }
}

#[tokio::test]
async fn enterprise_base_prefixes_routes_and_links_to_the_web_host() {
    let server = MockServer::start().await;
    on(&server, "GET", "/api/v3/user", ok(json!({"login": ACTOR}))).await;
    on(&server, "GET", &format!("/api/v3{ACCESS}"), ok(repo_access("admin"))).await;
    on(&server, "GET", &format!("/api/v3{PULL}"), ok(pull("open", REPO, SHA))).await;
    on(&server, "POST", &format!("/api/v3{COMMENTS}"), comment_created()).await;
    on(&server, "GET", &format!("/api/v3{COMMENTS}"), ok(json!([]))).await;
    on(&server, "POST", &format!("/api/v3{STATUS}"), status_created(ACTOR)).await;
    on(
        &server,
        "GET",
        &format!("/api/v3{COMMENT_1}"),
        ok(json!({"id": 1, "body": accepted_body(), "user": {"login": ACTOR}})),
    )
    .await;
    on(
        &server,
        "GET",
        &format!("/api/v3{HEAD_STATUS}"),
        ok(receipt_status(1, &accepted_body(), ACTOR)),
    )
    .await;

    let outcome = submit(
        &client(&format!("{}/api/v3", server.uri())),
        &checked(),
        SubmitOptions::default(),
    )
    .await;
    let Outcome::Recorded(receipt) = outcome else {
        panic!("{outcome:?}")
    };
    let web = format!("{}/{REPO}/pull/48#issuecomment-1", server.uri());
    assert_eq!(receipt.url, web);
    let seen = requests(&server).await;
    assert_eq!(seen.len(), 10);
    assert!(seen.iter().all(|(l, _)| l.contains(" /api/v3/")), "{seen:?}");
    assert_eq!(body_json(&seen[7].1)["target_url"], json!(web));
}

#[tokio::test]
async fn stale_head_before_posting_posts_nothing() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, "fff999"))).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    assert_eq!(
        outcome,
        Outcome::Rejected {
            reason: Rejection::StaleHead {
                reviewed: SHA.into(),
                head: "fff999".into()
            },
            comment_removed: false,
            comment_left: None
        }
    );
    assert_eq!(sequence(&server).await, reads());
}

#[tokio::test]
async fn head_moved_after_posting_deletes_the_comment_and_sets_no_status() {
    let server = MockServer::start().await;
    mount_reads(&server, "maintain").await;
    once(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(&server, "GET", PULL, ok(pull("open", REPO, "fff999"))).await;
    mount_no_decisions(&server).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "DELETE", DELETE_1, ResponseTemplate::new(204)).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    assert_eq!(
        outcome,
        Outcome::Rejected {
            reason: Rejection::HeadMoved {
                reviewed: SHA.into(),
                head: "fff999".into()
            },
            comment_removed: true,
            comment_left: None
        }
    );
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", ACCESS),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("GET", HEAD_STATUS_PAGE_1),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("DELETE", DELETE_1),
        ]
    );
}

#[tokio::test]
async fn unreadable_head_after_posting_counts_as_moved() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    once(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    on(&server, "GET", PULL, ResponseTemplate::new(502)).await;
    mount_no_decisions(&server).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "DELETE", DELETE_1, ResponseTemplate::new(204)).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Rejected {
        reason: Rejection::HeadUnreadable { .. },
        comment_removed: true,
        ..
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    // The idempotent re-read is retried (3 attempts) before giving up.
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", ACCESS),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("GET", HEAD_STATUS_PAGE_1),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("GET", PULL),
            line("GET", PULL),
            line("DELETE", DELETE_1),
        ]
    );
}

#[tokio::test]
async fn read_only_permission_is_rejected_before_the_pull_request_is_judged() {
    let server = MockServer::start().await;
    mount_reads(&server, "read").await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Rejected {
        reason: Rejection::NoWritePermission { permission, .. },
        comment_removed: false,
        ..
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    assert_eq!(permission, "read");
    assert_eq!(sequence(&server).await, reads());
}

#[tokio::test]
async fn forbidden_permission_lookup_is_a_rejection() {
    let server = MockServer::start().await;
    on(&server, "GET", USER, ok(json!({"login": ACTOR}))).await;
    let denied = ResponseTemplate::new(403)
        .insert_header("x-ratelimit-remaining", "4999")
        .set_body_json(json!({"message": "Resource not accessible by personal access token"}));
    on(&server, "GET", ACCESS, denied).await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Rejected {
        reason:
            Rejection::Refused {
                step: Step::Permission,
                error: GhError::Forbidden { .. },
            },
        ..
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    assert_eq!(sequence(&server).await, reads());
}

#[tokio::test]
async fn closed_pull_request_is_rejected_without_a_comment() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("closed", REPO, SHA))).await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    assert_eq!(
        outcome,
        Outcome::Rejected {
            reason: Rejection::PullNotOpen { state: "closed".into() },
            comment_removed: false,
            comment_left: None
        }
    );
    assert_eq!(sequence(&server).await, reads());
}

#[tokio::test]
async fn pull_request_from_another_base_repository_is_rejected() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", "someone/fork", SHA))).await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    assert_eq!(
        outcome,
        Outcome::Rejected {
            reason: Rejection::OtherBaseRepository {
                expected: REPO.into(),
                got: Some("someone/fork".into())
            },
            comment_removed: false,
            comment_left: None
        }
    );
    assert_eq!(sequence(&server).await, reads());
}

#[tokio::test]
async fn attestation_by_someone_else_deletes_the_comment() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    mount_no_decisions(&server).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "POST", STATUS, status_created("some-app[bot]")).await;
    on(&server, "DELETE", DELETE_1, ResponseTemplate::new(204)).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    assert_eq!(
        outcome,
        Outcome::Rejected {
            reason: Rejection::CreatorMismatch {
                actor: ACTOR.into(),
                creator: Some("some-app[bot]".into())
            },
            comment_removed: true,
            comment_left: None
        }
    );
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", ACCESS),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("GET", HEAD_STATUS_PAGE_1),
            line("POST", COMMENTS),
            line("GET", PULL),
            line("POST", STATUS),
            line("DELETE", DELETE_1),
        ]
    );
}

#[tokio::test]
async fn failed_attestation_deletes_the_comment_and_is_not_retried() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    mount_no_decisions(&server).await;
    on(&server, "POST", COMMENTS, comment_created()).await;
    on(&server, "POST", STATUS, ResponseTemplate::new(500)).await;
    on(&server, "DELETE", DELETE_1, ResponseTemplate::new(204)).await;

    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Failed {
        step: Step::Attestation,
        error: GhError::Http { status: 500, .. },
        comment_left: None,
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    let seen = sequence(&server).await;
    assert_eq!(seen.iter().filter(|l| l.starts_with("POST")).count(), 2, "{seen:?}");
    assert_eq!(seen.last(), Some(&line("DELETE", DELETE_1)));
}

#[tokio::test]
async fn payload_actor_must_be_the_authenticated_user() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    let mut d = draft();
    d.actor = Some("someone-else".into());
    let outcome = submit(&client(&server.uri()), &d.check().unwrap(), SubmitOptions::default()).await;
    let Outcome::Rejected {
        reason: Rejection::ActorMismatch { .. },
        comment_removed: false,
        ..
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    assert_eq!(sequence(&server).await, reads());
}

#[tokio::test]
async fn primary_rate_limit_is_reported_with_its_reset_time_and_not_retried() {
    let server = MockServer::start().await;
    let limited = ResponseTemplate::new(403)
        .insert_header("x-ratelimit-remaining", "0")
        .insert_header("x-ratelimit-reset", "1700000000")
        .set_body_json(json!({"message": "API rate limit exceeded"}));
    on(&server, "GET", USER, limited).await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Failed {
        step: Step::Actor,
        error: error @ GhError::RateLimited { reset: Some(_) },
        ..
    } = &outcome
    else {
        panic!("{outcome:?}")
    };
    assert!(error.to_string().contains("2023-11-14T22:13:20Z"), "{error}");
    assert!(outcome.summary().contains("2023-11-14T22:13:20Z"));
    assert_eq!(sequence(&server).await, reads(), "the reads sent together, none again");
}

/// GitHub answers a burst of writes with 403 and a message saying it is a
/// secondary rate limit, possibly without `retry-after`: the decision fails
/// (kept, retried later), it is not rejected.
#[tokio::test]
async fn a_secondary_rate_limit_on_the_comment_without_retry_after_is_a_failure() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    mount_no_decisions(&server).await;
    let limited = ResponseTemplate::new(403).set_body_json(json!({
        "message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
    }));
    on(&server, "POST", COMMENTS, limited).await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Failed {
        step: Step::Comment,
        error: GhError::RateLimited { reset: Some(_) },
        comment_left: None,
    } = &outcome
    else {
        panic!("{outcome:?}")
    };
    assert!(outcome.summary().contains("resets at"), "{}", outcome.summary());
}

#[tokio::test]
async fn too_many_requests_on_the_comment_is_a_failure_with_reset() {
    let server = MockServer::start().await;
    mount_reads(&server, "write").await;
    on(&server, "GET", PULL, ok(pull("open", REPO, SHA))).await;
    mount_no_decisions(&server).await;
    on(
        &server,
        "POST",
        COMMENTS,
        ResponseTemplate::new(429).insert_header("retry-after", "120"),
    )
    .await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Failed {
        step: Step::Comment,
        error: GhError::RateLimited { reset: Some(_) },
        comment_left: None,
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    assert!(outcome.summary().contains("resets at"), "{}", outcome.summary());
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", USER),
            line("GET", ACCESS),
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("GET", HEAD_STATUS_PAGE_1),
            line("POST", COMMENTS)
        ]
    );
}

#[tokio::test]
async fn transient_get_failures_are_retried_but_4xx_are_not() {
    let server = MockServer::start().await;
    once(&server, "GET", USER, ResponseTemplate::new(503)).await;
    on(&server, "GET", USER, ok(json!({"login": ACTOR}))).await;
    on(
        &server,
        "GET",
        ACCESS,
        ResponseTemplate::new(404).set_body_json(json!({"message": "Not Found"})),
    )
    .await;
    let outcome = submit(&client(&server.uri()), &checked(), SubmitOptions::default()).await;
    let Outcome::Rejected {
        reason:
            Rejection::Refused {
                step: Step::Permission,
                error: GhError::NotFound { .. },
            },
        ..
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    // The 503 of `GET /user` is retried; the 404 of the repository is not
    // (the retry may land anywhere among the other reads).
    let mut seen = sequence(&server).await;
    seen.sort();
    let mut expected = reads();
    expected.push(line("GET", USER));
    expected.sort();
    assert_eq!(seen, expected);
}

#[tokio::test]
async fn the_reads_before_posting_are_sent_together() {
    use super::gate::Gate;
    use std::sync::Arc;
    let body = accepted_body();
    let answer = move |verb: &str, path: &str, _: &[u8]| -> (u16, String) {
        let json = match (verb, path) {
            ("GET", USER) => json!({"login": ACTOR}),
            ("GET", ACCESS) => repo_access("write"),
            ("GET", PULL) => pull("open", REPO, SHA),
            ("GET", COMMENTS) => json!([]),
            ("GET", HEAD_STATUS) => receipt_status(1, &body, ACTOR),
            ("POST", COMMENTS) => {
                return (
                    201,
                    json!({"id": 1, "body": body, "user": {"login": ACTOR}}).to_string(),
                );
            }
            ("POST", STATUS) => return (201, json!({"id": 7, "creator": {"login": ACTOR}}).to_string()),
            ("GET", COMMENT_1) => json!({"id": 1, "body": body, "user": {"login": ACTOR}}),
            _ => return (404, json!({"message": "Not Found"}).to_string()),
        };
        (200, json.to_string())
    };
    let reads_together = [USER, ACCESS, PULL, COMMENTS, HEAD_STATUS].map(|p| format!("GET {p}"));
    let names: Vec<&str> = reads_together.iter().map(String::as_str).collect();
    let gate = Gate::start(&names, Arc::new(answer));
    let outcome = submit(&client(&gate.base), &checked(), SubmitOptions::default()).await;
    assert!(outcome.is_recorded(), "{outcome:?} {:?}", gate.log());
    assert!(
        gate.held_together(),
        "the five reads were not in flight at once: {:?}",
        gate.log()
    );
    // After them, one step at a time (then the read-back).
    let log = gate.log();
    assert_eq!(log.len(), 10, "{log:?}");
    assert_eq!(
        log[5..8],
        [line("POST", COMMENTS), line("GET", PULL), line("POST", STATUS),]
    );
}
