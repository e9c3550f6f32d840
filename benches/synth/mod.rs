//! Deterministic generators of valid review documents of a chosen size, for
//! benchmarks and the jq comparison script. Text deliberately contains tabs,
//! newlines, backslashes, quotes and non-ASCII so that escaping is exercised.

#![allow(dead_code)]

use serde_json::{Value, json};

/// A small deterministic pseudo-random sequence (no dependency needed).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() as usize) % items.len()]
    }
}

const SEVERITIES: [&str; 5] = ["P0", "P1", "P2", "P3", "P4"];
const CLASSES: [&str; 5] = [
    "defect",
    "security",
    "reliability_risk",
    "contract_ambiguity",
    "suggestion",
];
const FILES: [&str; 6] = [
    "src/server/handler.rs",
    "app/webhooks/retry.py",
    "web/src/components/Login.tsx",
    "cmd/cli/main.go",
    ".github/workflows/release.yml",
    "lib/parser/tokens.c",
];
const WORDS: [&str; 12] = [
    "retry", "token", "handler", "cache", "deadline", "session", "payload", "lock", "queue", "path", "schema", "cursor",
];

fn sentence(rng: &mut Lcg, words: usize, i: usize) -> String {
    let mut s = String::new();
    for w in 0..words {
        if w > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(&WORDS));
    }
    match i % 7 {
        0 => s.push_str(" — naïve \"quoted\" path C:\\temp\\x"),
        1 => s.push_str("\twith a tab"),
        2 => s.push_str("\nsecond line\r\nthird 😀"),
        _ => s.push('.'),
    }
    s
}

fn blocking_reason(class: &str) -> Value {
    match class {
        "defect" => json!("validated_defect"),
        "security" => json!("validated_security"),
        "reliability_risk" => json!("validated_reliability_risk"),
        _ => Value::Null,
    }
}

fn evidence(rng: &mut Lcg, file: &str, i: usize) -> Value {
    json!({
        "path": file,
        "side": if i.is_multiple_of(5) { "old" } else { "new" },
        "line": 10 + (rng.next() % 400),
        "excerpt": format!("let {} = {}({});", rng.pick(&WORDS), rng.pick(&WORDS), i),
        "reason": sentence(rng, 6, i + 3),
    })
}

fn result_finding(rng: &mut Lcg, i: usize) -> Value {
    let severity = SEVERITIES[i % 5];
    let class = CLASSES[(i / 5) % 5];
    let file = FILES[i % FILES.len()];
    let still_open = i % 3 != 2;
    let disposition = if still_open { "still_open" } else { "fixed" };
    let blocking = if still_open && severity != "P4" {
        blocking_reason(class)
    } else {
        Value::Null
    };
    let key = format!("{}.{}.{i}", rng.pick(&WORDS), rng.pick(&WORDS));
    json!({
        "id": format!("rg_{i:05}"),
        "semantic_fingerprint": format!("{class}:{}:{key}", file.replace(['/', '_'], ".")),
        "disposition": disposition,
        "severity": severity,
        "confidence": 0.5 + (i % 50) as f64 / 100.0,
        "classification": class,
        "blocking_reason": blocking,
        "path": if i.is_multiple_of(11) { Value::Null } else { json!(file) },
        "line": if i.is_multiple_of(13) { Value::Null } else { json!(1 + i % 900) },
        "claim": if i.is_multiple_of(17) { Value::Null } else { json!(sentence(rng, 14, i)) },
        "causal_evidence": sentence(rng, 10, i + 1),
        "evidence": [evidence(rng, file, i)],
        "reproduction": Value::Null,
        "suggested_fix": sentence(rng, 9, i + 2),
        "thread_id": Value::Null,
        "thread_status": "not_published",
        "thread_transition": "not_published",
        "thread_outdated": false,
        "reopening_evidence": Value::Null,
        "prior_dispositions": [],
    })
}

/// A valid agent result whose pretty-printed form is at most `target_bytes`.
pub fn agent_result(target_bytes: usize, seed: u64) -> String {
    let mut rng = Lcg(seed);
    let mut doc = json!({
        "schema_version": "reviewgate-agent-result/v1",
        "scope": {"kind": "pull_request", "repository": "acme/widgets", "pull_request_number": 42},
        "status": "needs_changes",
        "score": 1,
        "reviewed_sha": "0123456789abcdef0123456789abcdef01234567",
        "angle_errors": [],
        "costs": {"estimated_total_usd": 0.12, "summary": null},
        "findings": [],
    });
    let mut size = serde_json::to_string_pretty(&doc).map_or(0, |s| s.len());
    let mut findings = Vec::new();
    for i in 0.. {
        let f = result_finding(&mut rng, i);
        let add = serde_json::to_string_pretty(&f).map_or(0, |s| s.len()) + 8;
        if size + add > target_bytes {
            break;
        }
        size += add;
        findings.push(f);
    }
    // Producers emit findings in rank order; so does this generator.
    findings.sort_by_key(|f| f["severity"].as_str().map(str::to_owned));
    doc["findings"] = Value::Array(findings);
    fit(doc, target_bytes)
}

/// Pretty-prints `doc`, dropping trailing findings until it fits `target_bytes`
/// (nesting adds indentation the per-finding estimate did not count).
fn fit(mut doc: Value, target_bytes: usize) -> String {
    loop {
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        let findings = doc["findings"].as_array_mut();
        match findings {
            Some(list) if text.len() > target_bytes && !list.is_empty() => {
                let over = text.len() - target_bytes;
                let per = text.len() / (list.len() + 1);
                let drop = (over / per.max(1)).max(1).min(list.len());
                list.truncate(list.len() - drop);
            }
            _ => return text,
        }
    }
}

fn artifact_finding(rng: &mut Lcg, i: usize) -> (Value, u8) {
    let severity = SEVERITIES[i % 5];
    let class = CLASSES[(i / 5) % 5];
    let file = FILES[i % FILES.len()];
    let confidence = if i.is_multiple_of(4) { 0.7 } else { 0.9 };
    let candidate =
        severity != "P4" && confidence >= 0.85 && matches!(class, "defect" | "security" | "reliability_risk");
    let blocking = if candidate { blocking_reason(class) } else { Value::Null };
    let ceiling = if candidate { (i % 5) as u8 + 1 } else { 5 };
    let f = json!({
        "id": format!("f{i:06}"),
        "scope": "line",
        "severity": severity,
        "confidence": confidence,
        "classification": class,
        "evidence_gate_result": "passed",
        "blocking_reason": blocking,
        "grounding": {
            "semantic_key": format!("{}.{}.{i}", rng.pick(&WORDS), rng.pick(&WORDS)),
            "claim": sentence(rng, 14, i),
            "causal_path": sentence(rng, 10, i + 1),
            "test_assessment": sentence(rng, 8, i + 4),
            "evidence": [evidence(rng, file, i)],
            "related_tests": [],
            "reproduction": null,
            "proof": null,
            "novelty_evidence": null,
            "reopening_evidence": null,
            "resolution_disposition": null,
            "resolution_evidence_summary": null,
        },
        "file": file,
        "line": 1 + i % 900,
        "title": sentence(rng, 6, i + 5),
        "detail": sentence(rng, 20, i + 6),
        "agent_instruction": sentence(rng, 9, i + 2),
    });
    (f, ceiling)
}

/// A valid v3 review output whose pretty-printed form is at most `target_bytes`.
pub fn artifact_v3(target_bytes: usize, seed: u64) -> String {
    let mut rng = Lcg(seed);
    let mut findings = Vec::new();
    let mut score = 5u8;
    let mut size = 400;
    for i in 0.. {
        let (f, ceiling) = artifact_finding(&mut rng, i);
        let add = serde_json::to_string_pretty(&f).map_or(0, |s| s.len()) + 8;
        if size + add > target_bytes {
            break;
        }
        size += add;
        score = score.min(ceiling);
        findings.push(f);
    }
    let doc = json!({
        "score": score,
        "reviewed_sha": "0123456789abcdef0123456789abcdef01234567",
        "status": if score >= 5 { "passed" } else { "needs_changes" },
        "verdict": "Generated review.",
        "models": ["model-a"],
        "findings": findings,
        "notes": [],
    });
    // Dropping findings could change the derived score, so the artifact is
    // sized by its estimate alone (it may exceed the target slightly).
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}
