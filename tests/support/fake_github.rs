//! What the tests against a fake GitHub (wiremock on loopback) share: a
//! client that tries once and never waits, and ReviewGate agent-result
//! documents built from their findings.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::time::Duration;
use triage::github::{ApiBase, Client, ClientConfig, RetryPolicy, Token};

/// A client of the fake API at `api` with `token`: one attempt, no delays.
pub fn client(api: &str, token: &str) -> Client {
    let mut config = ClientConfig::new(
        ApiBase::parse(api).expect("api base"),
        Token::new(token).expect("token"),
    );
    config.retry = RetryPolicy {
        max_attempts: 1,
        first_delay: Duration::ZERO,
        max_delay: Duration::ZERO,
    };
    Client::new(config).expect("client")
}

/// A valid agent-result finding not published in the file (live threads
/// decide), with its prior dispositions and reopening evidence.
pub fn finding(fp: &str, disposition: &str, priors: Vec<Value>, reopening: Option<&str>) -> Value {
    json!({
        "id": format!("rg_{fp}"),
        "semantic_fingerprint": fp,
        "disposition": disposition,
        "severity": "P2",
        "confidence": 0.8,
        "classification": "defect",
        "blocking_reason": null,
        "path": "src/lib.rs",
        "line": 10,
        "claim": "A claim.",
        "causal_evidence": null,
        "evidence": [],
        "reproduction": null,
        "suggested_fix": "Fix it.",
        "thread_id": null,
        "thread_status": "not_published",
        "thread_transition": "not_published",
        "thread_outdated": false,
        "reopening_evidence": reopening,
        "prior_dispositions": priors
    })
}

/// A pull-request agent result for `repo`#`pr` at `sha`, pretty-printed.
pub fn result_json(repo: &str, pr: u64, sha: &str, findings: Vec<Value>) -> Vec<u8> {
    let doc = json!({
        "schema_version": "reviewgate-agent-result/v1",
        "scope": { "kind": "pull_request", "repository": repo, "pull_request_number": pr },
        "status": "needs_changes",
        "score": 3,
        "reviewed_sha": sha,
        "angle_errors": [],
        "costs": { "estimated_total_usd": 0.01, "summary": null },
        "findings": findings
    });
    serde_json::to_vec_pretty(&doc).expect("json")
}

/// ReviewGate's marker encoding (INTEROP.md section 3), written out here
/// independently of the crate's so the tests check it.
pub fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
