//! The client's other reads: redirects, GraphQL, refused connections.

use super::support::*;
use serde_json::{Value, json};
use triage::github::GhError;
use triage::github::{ApiBase, Client, ClientConfig, Token};
use wiremock::{MockServer, ResponseTemplate};

#[tokio::test]
async fn artifact_redirect_to_another_host_does_not_carry_the_token() {
    use triage::github::{RepoName, Route};
    let api = MockServer::start().await;
    let blob = MockServer::start().await;
    let location = format!("{}/blob/5.zip?sig=abc", blob.uri());
    on(
        &api,
        "GET",
        "/repos/o/r/actions/artifacts/5/zip",
        ResponseTemplate::new(302).insert_header("location", location),
    )
    .await;
    let zip_bytes = vec![0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x00];
    on(
        &blob,
        "GET",
        "/blob/5.zip",
        ResponseTemplate::new(200).set_body_bytes(zip_bytes.clone()),
    )
    .await;
    let route = Route::repo(&RepoName::parse("o/r").unwrap(), ["actions", "artifacts", "5", "zip"]);
    let c = client(&api.uri());

    let bytes = c.get_bytes_following_redirect(&route, 1024).await.unwrap();
    assert_eq!(bytes, zip_bytes, "binary bodies arrive intact");
    let to_api = api.received_requests().await.unwrap();
    assert_eq!(to_api.len(), 1);
    assert!(to_api[0].headers.get("authorization").is_some());
    let to_blob = blob.received_requests().await.unwrap();
    assert_eq!(to_blob.len(), 1);
    assert_eq!(to_blob[0].url.query(), Some("sig=abc"));
    assert!(
        to_blob[0].headers.get("authorization").is_none(),
        "the token must not reach another host"
    );

    let too_big = c.get_bytes_following_redirect(&route, 3).await.unwrap_err();
    assert!(matches!(too_big, GhError::Decode { .. }), "{too_big:?}");
}

#[tokio::test]
async fn graphql_goes_to_the_enterprise_endpoint_and_is_retried_as_a_read() {
    let server = MockServer::start().await;
    once(&server, "POST", "/api/graphql", ResponseTemplate::new(502)).await;
    on(
        &server,
        "POST",
        "/api/graphql",
        ok(json!({"data": {"viewer": {"login": ACTOR}}})),
    )
    .await;
    let c = client(&format!("{}/api/v3", server.uri()));
    let data: Value = c.graphql("query { viewer { login } }", json!({"n": 1})).await.unwrap();
    assert_eq!(data, json!({"viewer": {"login": ACTOR}}));
    let seen = requests(&server).await;
    assert_eq!(
        seen.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(),
        ["POST /api/graphql", "POST /api/graphql"]
    );
    assert_eq!(
        body_json(&seen[1].1),
        json!({"query": "query { viewer { login } }", "variables": {"n": 1}})
    );

    server.reset().await;
    on(
        &server,
        "POST",
        "/api/graphql",
        ok(json!({"data": null, "errors": [{"message": "Field 'x' doesn't exist"}]})),
    )
    .await;
    let err = c.graphql::<Value>("query { x }", json!({})).await.unwrap_err();
    assert!(matches!(err, GhError::GraphQl { .. }), "{err:?}");
    assert_eq!(
        requests(&server).await.len(),
        1,
        "a GraphQL error answer is not retried"
    );
}

#[tokio::test]
async fn connection_refused_on_a_read_is_retried_then_reported() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let c = client(&format!("http://127.0.0.1:{port}"));
    let err = c
        .get_json::<Value>(&triage::github::Route::new(["user"]))
        .await
        .unwrap_err();
    assert!(matches!(err, GhError::Transport { .. }), "{err:?}");
    assert!(err.to_string().contains("could not reach GitHub"), "{err}");
}

#[tokio::test]
async fn client_outside_a_runtime_is_an_error_not_a_panic() {
    let config = ClientConfig::new(
        ApiBase::parse("http://127.0.0.1:9").unwrap(),
        Token::new(TOKEN).unwrap(),
    );
    let built = std::thread::spawn(move || Client::new(config).map(|_| ()))
        .join()
        .unwrap();
    assert!(matches!(built, Err(GhError::Config { .. })), "{built:?}");
}

/// GitHub counts REST and GraphQL requests against two budgets: a GraphQL
/// answer with plenty left does not hide that REST is nearly spent (the
/// newest answer used to stand for both), in either order.
#[tokio::test]
async fn the_rate_left_is_the_lower_of_the_rest_and_graphql_budgets() {
    use triage::github::Route;
    let api = MockServer::start().await;
    on(
        &api,
        "GET",
        "/user",
        ResponseTemplate::new(200)
            .insert_header("x-ratelimit-resource", "core")
            .insert_header("x-ratelimit-remaining", "30")
            .set_body_json(json!({ "login": "alice" })),
    )
    .await;
    on(
        &api,
        "POST",
        "/graphql",
        ResponseTemplate::new(200)
            .insert_header("x-ratelimit-resource", "graphql")
            .insert_header("x-ratelimit-remaining", "4990")
            .set_body_json(json!({ "data": { "viewer": { "login": "alice" } } })),
    )
    .await;
    let c = client(&api.uri());
    assert_eq!(c.rate_remaining(), None);
    let _: Value = c.get_json(&Route::new(["user"])).await.expect("rest");
    let _: Value = c
        .graphql("query { viewer { login } }", json!({}))
        .await
        .expect("graphql");
    assert_eq!(
        c.rate_remaining(),
        Some(30),
        "REST's budget is not refilled by GraphQL's"
    );
    let _: Value = c.get_json(&Route::new(["user"])).await.expect("rest");
    assert_eq!(c.rate_remaining(), Some(30));
    let methods: Vec<String> = api
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| format!("{} {}", r.method, r.url.path()))
        .collect();
    assert_eq!(methods, ["GET /user", "POST /graphql", "GET /user"]);
}
