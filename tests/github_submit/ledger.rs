//! The pull request's decision ledger through the binary: what one process
//! records the next one sees, re-submitting posts nothing, a different
//! decision needs `--supersede`, and every kind of comment is classified.

use super::cli::{result_args, triage};
use super::fake::Fault;
use super::support::*;
use serde_json::{Value, json};
use triage::model::disposition::{DispositionPayload, comment_body, receipt_digest, status_context};
use triage::model::finding::SubmittedDisposition;

fn lines(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn posts(seen: &[String]) -> usize {
    seen.iter().filter(|l| l.starts_with("POST")).count()
}

fn with(mut args: Vec<String>, more: &[&str]) -> Vec<String> {
    args.extend(more.iter().map(|s| s.to_string()));
    args
}

/// `triage decisions RESULT --format json` against the fake API.
async fn decisions(api: &str, home: &std::path::Path) -> super::cli::Run {
    let args = ["decisions", &result_file(), "--format", "json"];
    triage(args.map(String::from).to_vec(), api, home).await
}

fn result_file() -> String {
    fixtures()
        .join("agent-result/valid-scope-pull-request.json")
        .to_str()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn what_one_process_records_the_next_sees_and_never_posts_twice() {
    let home = tempfile::tempdir().unwrap();
    let (server, fake) = fake().await;
    let api = server.uri();
    let first = triage(result_args(EVIDENCE), &api, home.path()).await;
    assert_eq!(first.code, 0, "{}\n{}", first.stdout, first.stderr);
    assert_eq!(posts(&sequence(&server).await), 2);

    let ledger = decisions(&api, home.path()).await;
    assert_eq!(ledger.code, 0, "{}", ledger.stderr);
    let entries = lines(&ledger.stdout);
    assert_eq!(entries.len(), 1, "{}", ledger.stdout);
    assert_eq!(
        entries[0],
        json!({
            "comment_id": 9001, "url": format!("{api}/{REPO}/pull/48#issuecomment-9001"),
            "fingerprint": FP, "disposition": "accepted", "actor": ACTOR, "author": ACTOR,
            "reviewed_sha": SHA, "authorised": "receipt",
            "reason": "attested by a commit status of its author on this head",
        })
    );

    let listed = triage(
        ["list", &result_file(), "--all", "--format", "json"]
            .map(String::from)
            .to_vec(),
        &api,
        home.path(),
    )
    .await;
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let rows = lines(&listed.stdout);
    let ours = rows.iter().find(|r| r["fingerprint"] == FP).unwrap();
    assert_eq!(ours["recorded_disposition"], "accepted");
    assert_eq!(ours["recorded_by"], ACTOR);
    assert_eq!(ours["recorded_comment_id"], 9001);
    assert_eq!(ours["recorded_authorised"], "receipt");
    for other in rows.iter().filter(|r| r["fingerprint"] != FP) {
        assert_eq!(other["recorded_comment_id"], Value::Null, "{other}");
        assert_eq!(other["recorded_authorised"], Value::Null, "{other}");
    }

    let before = sequence(&server).await;
    let again = triage(result_args(EVIDENCE), &api, home.path()).await;
    assert_eq!(again.code, 0, "{}\n{}", again.stdout, again.stderr);
    assert!(
        again.stdout.contains("already recorded (comment 9001)"),
        "{}",
        again.stdout
    );
    let after = sequence(&server).await;
    assert_eq!(posts(&after), posts(&before), "the server sees no second POST");
    assert_eq!(fake.comments().len(), 1);

    let mut fixed = result_args("Fixed on the reviewed head.");
    let status = fixed.iter().position(|a| a == "accepted").unwrap();
    fixed[status] = "fixed".into();
    let refused = triage(fixed.clone(), &api, home.path()).await;
    assert_eq!(refused.code, 3, "{}\n{}", refused.stdout, refused.stderr);
    assert!(
        refused.stdout.contains("accepted is already recorded") && refused.stdout.contains("--supersede"),
        "{}",
        refused.stdout
    );
    assert_eq!(
        posts(&sequence(&server).await),
        posts(&before),
        "refused without a request that writes"
    );

    let superseded = triage(with(fixed, &["--supersede"]), &api, home.path()).await;
    assert_eq!(superseded.code, 0, "{}\n{}", superseded.stdout, superseded.stderr);
    assert_eq!(fake.comments().len(), 2);
    let ledger = decisions(&api, home.path()).await;
    let entries = lines(&ledger.stdout);
    let kinds: Vec<(&Value, &Value)> = entries.iter().map(|e| (&e["disposition"], &e["authorised"])).collect();
    assert_eq!(
        kinds,
        [
            (&json!("accepted"), &json!("receipt")),
            (&json!("fixed"), &json!("receipt"))
        ],
        "newest last"
    );
}

fn body(sha: &str, actor: &str, status: SubmittedDisposition) -> String {
    comment_body(&DispositionPayload::new(REPO, 48, sha, FP, status, "why", actor))
}

#[tokio::test(flavor = "multi_thread")]
async fn every_kind_of_disposition_comment_is_classified_in_replay_order() {
    let home = tempfile::tempdir().unwrap();
    let (server, fake) = fake().await;
    let attested_body = body(SHA, ACTOR, SubmittedDisposition::Fixed);
    let attested = fake.add_comment(ACTOR, &attested_body);
    fake.add_status(&status_context(attested), &receipt_digest(&attested_body), ACTOR);
    fake.add_comment("writer", &body(SHA, "writer", SubmittedDisposition::Accepted));
    fake.0
        .lock()
        .unwrap()
        .permissions
        .insert("writer".into(), "maintain".into());
    fake.add_comment("reader", &body(SHA, "reader", SubmittedDisposition::NeedsHuman));
    fake.add_comment(ACTOR, &body("0ld0ld", ACTOR, SubmittedDisposition::Fixed));
    fake.add_comment(
        "writer",
        "<!-- reviewgate-agent-dispositions not*base64 -->\nhand-written",
    );
    fake.add_comment("reader", "Looks good to me.");

    let args = ["decisions", "--pr", "48", "--repo", REPO, "--format", "json"]
        .map(String::from)
        .to_vec();
    let run = triage(args, &server.uri(), home.path()).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let entries = lines(&run.stdout);
    let kinds: Vec<(u64, &str)> = entries
        .iter()
        .map(|e| (e["comment_id"].as_u64().unwrap(), e["authorised"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            (9001, "receipt"),
            (9002, "permission"),
            (9003, "none"),
            (9004, "stale"),
            (9005, "malformed")
        ]
    );
    assert!(
        entries[2]["reason"]
            .as_str()
            .unwrap()
            .contains("\"reader\" has no write permission")
    );
    assert!(
        entries[4]["reason"].as_str().unwrap().contains("base64"),
        "{}",
        entries[4]
    );
    assert_eq!(entries[4]["fingerprint"], Value::Null);
    assert_eq!(
        sequence(&server).await,
        [
            line("GET", PULL),
            line("GET", COMMENTS_PAGE_1),
            line("GET", HEAD_STATUS_PAGE_1),
            format!("GET /repos/{REPO}/collaborators/reader/permission"),
            line("GET", PERMISSION),
            format!("GET /repos/{REPO}/collaborators/writer/permission"),
        ],
        "each author without a receipt is looked up once"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unreadable_ledger_is_unknown_with_its_reason_never_empty() {
    let home = tempfile::tempdir().unwrap();
    let (server, fake) = fake().await;
    fake.fault("GET", "/issues/48/comments", Fault::Status(404));
    let run = decisions(&server.uri(), home.path()).await;
    assert_eq!(run.code, 4, "{}", run.stderr);
    let entries = lines(&run.stdout);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["authorised"], "unknown");
    assert!(
        entries[0]["reason"]
            .as_str()
            .unwrap()
            .contains("comments could not be read")
    );
}
