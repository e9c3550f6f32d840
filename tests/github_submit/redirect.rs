//! Redirects: the token reaches the API origin and nothing else, whatever
//! the chain; credentials in a URL never reach a message.

use super::support::*;
use serde_json::json;
use triage::github::{GhError, RepoName, Route};
use wiremock::{MockServer, ResponseTemplate};

fn to(location: String) -> ResponseTemplate {
    ResponseTemplate::new(302).insert_header("location", location)
}

/// `(path, carried the token)` of every request a server saw, in order.
async fn log(server: &MockServer) -> Vec<(String, bool)> {
    let seen = server.received_requests().await.unwrap();
    seen.iter()
        .map(|r| (r.url.path().to_owned(), r.headers.get("authorization").is_some()))
        .collect()
}

/// True when any header of any request the server saw holds the token.
async fn saw_token(server: &MockServer) -> bool {
    let seen = server.received_requests().await.unwrap();
    seen.iter().any(|r| {
        r.headers
            .values()
            .any(|v| String::from_utf8_lossy(v.as_bytes()).contains(TOKEN))
    })
}

#[tokio::test]
async fn a_download_chain_off_origin_then_same_origin_never_carries_the_token() {
    let api = MockServer::start().await;
    let blob = MockServer::start().await;
    let zip_route = "/repos/o/r/actions/artifacts/5/zip";
    on(&api, "GET", zip_route, to(format!("{}/blob/a", blob.uri()))).await;
    // The blob host redirects to itself, then back to the API host.
    on(&blob, "GET", "/blob/a", to("/blob/b?sig=1".to_owned())).await;
    on(&blob, "GET", "/blob/b", to(format!("{}/back/zip", api.uri()))).await;
    on(
        &api,
        "GET",
        "/back/zip",
        ResponseTemplate::new(200).set_body_bytes(b"PK\x03\x04zip".to_vec()),
    )
    .await;
    let route = Route::repo(&RepoName::parse("o/r").unwrap(), ["actions", "artifacts", "5", "zip"]);

    let bytes = client(&api.uri())
        .get_bytes_following_redirect(&route, 1024)
        .await
        .unwrap();

    assert_eq!(bytes, b"PK\x03\x04zip");
    assert_eq!(
        log(&api).await,
        [(zip_route.to_owned(), true), ("/back/zip".to_owned(), false)],
        "only the first hop, to the API itself, carries the token; the chain never regains it"
    );
    assert_eq!(
        log(&blob).await,
        [("/blob/a".to_owned(), false), ("/blob/b".to_owned(), false)]
    );
    assert!(
        !saw_token(&blob).await,
        "no header of any kind carries the token off-origin"
    );
}

#[tokio::test]
async fn an_api_redirect_to_another_origin_is_refused_and_nothing_is_sent_there() {
    let api = MockServer::start().await;
    let elsewhere = MockServer::start().await;
    on(&api, "GET", "/user", to(format!("{}/user", elsewhere.uri()))).await;
    let location = format!("{}/repos/o/r/issues/1/comments", elsewhere.uri());
    on(
        &api,
        "POST",
        "/repos/o/r/issues/1/comments",
        ResponseTemplate::new(307).insert_header("location", location),
    )
    .await;
    on(&elsewhere, "GET", "/user", ok(json!({"login": "x"}))).await;
    let c = client(&api.uri());

    let read = c
        .get_json::<serde_json::Value>(&Route::new(["user"]))
        .await
        .unwrap_err();
    let comments = Route::repo(&RepoName::parse("o/r").unwrap(), ["issues", "1", "comments"]);
    let post = c
        .post_json::<_, serde_json::Value>(&comments, &json!({"body": "b"}))
        .await
        .unwrap_err();

    for err in [&read, &post] {
        assert!(matches!(err, GhError::Redirected { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.contains(&elsewhere.uri()) && text.contains("not the API origin"),
            "{text}"
        );
    }
    assert!(elsewhere.received_requests().await.unwrap().is_empty());
    assert_eq!(
        sequence(&api).await,
        ["GET /user", "POST /repos/o/r/issues/1/comments"],
        "a refused redirect is not retried"
    );
}

#[tokio::test]
async fn an_api_redirect_within_the_origin_is_followed_with_the_token() {
    let api = MockServer::start().await;
    on(
        &api,
        "GET",
        "/repos/old/name/pulls/3",
        ResponseTemplate::new(301).insert_header("location", "/repositories/9/pulls/3"),
    )
    .await;
    on(&api, "GET", "/repositories/9/pulls/3", ok(json!({"number": 3}))).await;
    let route = Route::repo(&RepoName::parse("old/name").unwrap(), ["pulls", "3"]);

    let pull: serde_json::Value = client(&api.uri()).get_json(&route).await.unwrap();

    assert_eq!(pull, json!({"number": 3}));
    assert_eq!(
        log(&api).await,
        [
            ("/repos/old/name/pulls/3".to_owned(), true),
            ("/repositories/9/pulls/3".to_owned(), true)
        ]
    );
}

#[tokio::test]
async fn a_redirect_loop_ends_with_a_message() {
    let api = MockServer::start().await;
    on(&api, "GET", "/user", to("/user".to_owned())).await;
    let err = client(&api.uri())
        .get_json::<serde_json::Value>(&Route::new(["user"]))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("more than 5 redirects"), "{err}");
    assert_eq!(api.received_requests().await.unwrap().len(), 6);
}

#[test]
fn credentials_in_the_api_url_never_reach_the_output() {
    let output = assert_cmd::Command::cargo_bin("triage")
        .unwrap()
        .args(["fetch", "--pr", "1", "--repo", "o/r"])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", std::env::temp_dir())
        .env("GITHUB_API_URL", format!("http://user:{TOKEN}@127.0.0.1:9/api/v3"))
        .env("GH_TOKEN", "ghp_other")
        .env("RUST_LOG", "trace")
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!output.status.success());
    assert!(all.contains("credentials"), "{all}");
    assert!(!all.contains(TOKEN) && !all.contains("user:"), "{all}");
}
