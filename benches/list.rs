//! Cost of the headless path: strict load (parse, schema, rules, model) and
//! the TSV listing, on generated agent results and v3 artifacts of growing size.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "synth/mod.rs"]
mod synth;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use triage::cli::list::{Selection, tsv_line};
use triage::model::load::load_bytes;
use triage::model::review::Format;

fn agent_results(c: &mut Criterion) {
    let mut group = c.benchmark_group("agent_result_load_and_tsv");
    for size in [64 * 1024, 256 * 1024, 1024 * 1024] {
        let doc = synth::agent_result(size, 7);
        group.throughput(Throughput::Bytes(doc.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), doc.as_bytes(), |b, bytes| {
            b.iter(|| {
                let loaded = load_bytes(black_box(bytes), None);
                assert!(
                    loaded.is_valid(),
                    "generated input must be valid: {:?}",
                    loaded.problems.first()
                );
                let mut out = Vec::with_capacity(bytes.len() / 2);
                let mut line = String::new();
                if let Some(set) = &loaded.set {
                    for i in Selection::default().apply(set) {
                        tsv_line(&set.findings[i], &mut line);
                        out.extend_from_slice(line.as_bytes());
                    }
                }
                out
            })
        });
    }
    group.finish();
}

fn artifacts(c: &mut Criterion) {
    let mut group = c.benchmark_group("artifact_v3_load");
    group.sample_size(10);
    for size in [1 << 20, 4 << 20, 16 << 20] {
        let doc = synth::artifact_v3(size, 11);
        group.throughput(Throughput::Bytes(doc.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), doc.as_bytes(), |b, bytes| {
            b.iter(|| {
                let loaded = load_bytes(black_box(bytes), Some(Format::ArtifactV3));
                assert!(
                    loaded.is_valid(),
                    "generated input must be valid: {:?}",
                    loaded.problems.first()
                );
                loaded.set.map(|s| s.findings.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, agent_results, artifacts);
criterion_main!(benches);
