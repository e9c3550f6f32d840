//! Thread identity as ReviewGate's own code reads it: CRLF marker lines, an
//! empty finding id, the last-listed of two threads for one fingerprint, and
//! a thread whose finding is not in the result (an orphan, never dropped).

use super::support::*;
use serde_json::json;
use triage::github::RepoName;
use triage::github::threads::observe_threads;
use triage::model::finding::{ThreadStatus, ThreadTransition};
use triage::model::load::load_bytes;
use triage::model::review::Format;
use triage::model::threads::{ThreadObservation, apply_threads};
use wiremock::matchers::{body_partial_json, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test]
async fn threads_get_reviewgates_identity_status_and_transition() {
    let api = MockServer::start().await;
    let crlf = marker_body("rg_crlf", "defect:crlf").replace('\n', "\r\n");
    let page1 = vec![
        node("PRRT_crlf", &crlf, true, "2024-05-01T10:00:00Z"),
        node(
            "PRRT_empty",
            &marker_body("", "defect:empty-id"),
            false,
            "2024-05-01T10:00:00Z",
        ),
        // Posted later, but listed first: the thread listed last stands.
        node(
            "PRRT_dup_first",
            &marker_body("rg_dup", "defect:dup"),
            false,
            "2024-06-01T10:00:00Z",
        ),
    ];
    let page2 = vec![
        node(
            "PRRT_dup_last",
            &marker_body("rg_dup", "defect:dup"),
            true,
            "2024-05-01T10:00:00Z",
        ),
        node(
            "PRRT_orphan",
            &marker_body("rg_gone", "defect:rejected-by-verifier"),
            true,
            "2024-05-01T10:00:00Z",
        ),
    ];
    Mock::given(method("POST"))
        .and(path("/graphql"))
        .and(body_partial_json(json!({ "variables": { "after": null } })))
        .respond_with(ResponseTemplate::new(200).set_body_json(page(page1, Some("C1"))))
        .mount(&api)
        .await;
    Mock::given(method("POST"))
        .and(path("/graphql"))
        .and(body_partial_json(json!({ "variables": { "after": "C1" } })))
        .respond_with(ResponseTemplate::new(200).set_body_json(page(page2, None)))
        .mount(&api)
        .await;

    let obs = observe_threads(&client(&api.uri()), &RepoName::parse(REPO).expect("repo"), PR).await;
    let ThreadObservation::Available(threads) = &obs else {
        panic!("threads unavailable: {obs:?}")
    };
    assert_eq!(threads.len(), 4, "{threads:?}");
    assert_eq!(threads["defect:empty-id"].finding_id, "");

    let findings = vec![
        finding("defect:crlf", "still_open"),
        finding("defect:empty-id", "still_open"),
        finding("defect:dup", "still_open"),
    ];
    let loaded = load_bytes(&result_json(findings), Some(Format::AgentResult));
    let mut set = loaded.set.expect("valid result");
    let sync = apply_threads(&mut set, &obs);
    let got: Vec<(&str, ThreadStatus, ThreadTransition, Option<&str>)> = set
        .findings
        .iter()
        .map(|f| {
            let t = &f.reviewgate().expect("ReviewGate").thread;
            (f.key.as_str(), t.status, t.transition, t.id.as_deref())
        })
        .collect();
    use ThreadStatus::{Open, Resolved};
    use ThreadTransition as T;
    assert_eq!(
        got,
        vec![
            ("defect:crlf", Resolved, T::ResolvedExternally, Some("PRRT_crlf")),
            ("defect:empty-id", Open, T::Retained, Some("PRRT_empty")),
            ("defect:dup", Resolved, T::ResolvedExternally, Some("PRRT_dup_last")),
        ]
    );
    assert_eq!(sync.resolved_externally, 2);
    let orphans: Vec<(&str, &str, &str, bool)> = sync
        .orphan_threads
        .iter()
        .map(|o| {
            let t = &o.thread;
            (o.fingerprint.as_str(), t.id.as_str(), t.finding_id.as_str(), t.resolved)
        })
        .collect();
    assert_eq!(
        orphans,
        vec![("defect:rejected-by-verifier", "PRRT_orphan", "rg_gone", true)]
    );
}
