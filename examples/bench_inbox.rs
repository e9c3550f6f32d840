//! The inbox against a loopback fake GitHub whose every answer is held a
//! fixed latency: N open pull requests (default 200) in a mix of review
//! states, read twice with a fresh client over one cache directory (as two
//! runs of `triage inbox` would be). Prints the wall time, the requests
//! made, how many were conditional and answered 304, and the most in
//! flight, for each run.
//!
//! usage: cargo run --example bench_inbox [-- PRS [LATENCY_MS [serve]]]
//!
//! With `serve`, the fake is not read but kept running (its address on the
//! first line) to try `triage inbox --repo octo/app` against it by hand.

// A benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "../tests/support/fake_github.rs"]
mod fake_github;
#[path = "../tests/support/fake_inbox.rs"]
mod fake_inbox;

use fake_inbox::{Kind, REPO, WORKFLOW};
use std::time::{Duration, Instant};
use triage::github::{ApiBase, ClientConfig, RepoName, Token};
use triage::inbox::{Filters, InboxOptions, client_for, read_inbox};

fn main() {
    let mut args = std::env::args().skip(1);
    let prs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let latency = Duration::from_millis(args.next().and_then(|a| a.parse().ok()).unwrap_or(100));
    let server_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // Every state but the failing download (whose retries would time the backoff, not the inbox).
    let mix: Vec<Kind> = fake_inbox::thirty()
        .into_iter()
        .map(|(_, k)| k)
        .filter(|k| *k != Kind::DownloadFails)
        .collect();
    let kinds: Vec<(u64, Kind)> = (1..=prs)
        .map(|n| (n, mix[(n as usize - 1) % mix.len()].clone()))
        .collect();
    let server = server_runtime.block_on(async {
        let server = wiremock::MockServer::start().await;
        fake_inbox::mount(&server, &kinds, latency).await;
        server
    });
    if args.next().as_deref() == Some("serve") {
        println!("{}", server.uri());
        loop {
            std::thread::sleep(Duration::from_secs(3600));
        }
    }
    let cache = tempfile::tempdir().unwrap();
    let options = InboxOptions {
        repo: RepoName::parse(REPO).unwrap(),
        workflow: WORKFLOW.to_owned(),
        filters: Filters::default(),
        max_prs: 500,
        concurrency: triage::inbox::DEFAULT_CONCURRENCY,
        cache: Some(cache.path().to_path_buf()),
    };
    println!(
        "{prs} open pull requests, {} ms per request, {} in flight at most",
        latency.as_millis(),
        options.concurrency
    );
    println!("run      wall ms  requests  conditional  304s  most in flight  rows");
    for run in ["first", "second"] {
        // The command's own runtime: one thread, as `triage inbox` runs it.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let config = ClientConfig::new(
            ApiBase::parse(&server.uri()).unwrap(),
            Token::new("bench-token").unwrap(),
        );
        let started = Instant::now();
        let inbox = runtime.block_on(async {
            let client = client_for(config, options.cache.as_ref()).unwrap();
            read_inbox(&client, &options).await.unwrap()
        });
        let wall = started.elapsed().as_millis();
        let s = inbox.stats;
        println!(
            "{run:<8} {wall:>7}  {:>8}  {:>11}  {:>4}  {:>14}  {:>4}",
            s.sent,
            s.conditional,
            s.not_modified,
            s.most_in_flight,
            inbox.rows.len()
        );
    }
}
