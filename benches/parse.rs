//! Strict reading versus serde_json's own parser on generated agent-result-like
//! documents of three sizes (64 KiB, 1 MiB, 8 MiB), so the cost per byte and
//! its growth can be compared directly.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;
use triage::model::json::{ReadLimits, read_strict};

/// A deterministic pseudo-random sequence (no external randomness in benches).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

const WORDS: &[&str] = &[
    "retry",
    "handler",
    "the",
    "exhausted",
    "flag",
    "is",
    "never",
    "reset",
    "when",
    "webhook",
    "delivery",
    "fails",
    "after",
    "timeout",
    "so",
    "later",
    "attempts",
    "are",
    "skipped",
    "état",
    "naïve",
    "größe",
    "→",
    "😀",
    "\"quoted\"",
    "path\\to",
    "line\nbreak",
    "tab\there",
];

fn sentence(rng: &mut Lcg, words: usize) -> String {
    let mut out = String::new();
    for i in 0..words {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(WORDS[(rng.next() % WORDS.len() as u64) as usize]);
    }
    out
}

fn finding(rng: &mut Lcg, index: usize) -> Value {
    let evidence: Vec<Value> = (0..3)
        .map(|k| {
            json!({
                "path": format!("src/module_{}/file_{k}.rs", index % 17),
                "side": if k % 2 == 0 { "new" } else { "old" },
                "line": 1 + rng.next() % 4000,
                "excerpt": sentence(rng, 12),
                "reason": sentence(rng, 20),
            })
        })
        .collect();
    let severity = ["P0", "P1", "P2", "P3", "P4"][index % 5];
    json!({
        "id": format!("rg_{index:04}"),
        "semantic_fingerprint": format!("defect:src.module.{}:finding.{index}", index % 17),
        "disposition": "still_open",
        "severity": severity,
        "confidence": 0.5 + (rng.next() % 500) as f64 / 1000.0,
        "classification": "defect",
        "blocking_reason": if index.is_multiple_of(3) { json!("validated_defect") } else { Value::Null },
        "path": format!("src/module_{}/lib.rs", index % 17),
        "line": 1 + rng.next() % 5000,
        "claim": sentence(rng, 60),
        "causal_evidence": sentence(rng, 80),
        "evidence": evidence,
        "reproduction": Value::Null,
        "suggested_fix": sentence(rng, 40),
        "thread_id": Value::Null,
        "thread_status": "not_published",
        "thread_transition": "not_published",
        "thread_outdated": false,
        "reopening_evidence": Value::Null,
        "prior_dispositions": [],
    })
}

/// An agent-result-shaped document of at least `target` bytes (pretty-printed).
fn document(target: usize) -> Vec<u8> {
    let mut rng = Lcg(42);
    let mut findings = Vec::new();
    let mut estimate = 0;
    while estimate < target {
        let f = finding(&mut rng, findings.len());
        estimate += serde_json::to_string_pretty(&f).map(|s| s.len()).unwrap_or(1000);
        findings.push(f);
    }
    let doc = json!({
        "schema_version": "reviewgate-agent-result/v1",
        "scope": {"kind": "pull_request", "repository": "octo/repo", "pull_request_number": 48},
        "status": "needs_changes",
        "score": 2,
        "reviewed_sha": "0123456789abcdef0123456789abcdef01234567",
        "angle_errors": [],
        "costs": {"estimated_total_usd": 0.08, "summary": null},
        "findings": findings,
    });
    serde_json::to_vec_pretty(&doc).unwrap_or_default()
}

fn bench_parse(c: &mut Criterion) {
    let limits = ReadLimits::default();
    let mut group = c.benchmark_group("parse");
    for (label, size) in [("64KiB", 64 * 1024), ("1MiB", 1024 * 1024), ("8MiB", 8 * 1024 * 1024)] {
        let input = document(size);
        group.throughput(Throughput::Bytes(input.len() as u64));
        if size > 1024 * 1024 {
            group.sample_size(20);
        }
        group.bench_with_input(BenchmarkId::new("read_strict", label), &input, |b, input| {
            b.iter(|| read_strict(black_box(input), &limits).map(|v| v.is_object()))
        });
        group.bench_with_input(BenchmarkId::new("serde_json_from_slice", label), &input, |b, input| {
            b.iter(|| {
                serde_json::from_slice::<Value>(black_box(input))
                    .map(|v| v.is_object())
                    .ok()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
