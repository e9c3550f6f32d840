//! Reading the inbox against a fake GitHub (shared by the inbox tests).

#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use super::fake_inbox::{REPO, WORKFLOW};
use std::path::Path;
use std::time::Duration;
use triage::github::{ApiBase, ClientConfig, RepoName, RetryPolicy, Token};
use triage::inbox::{Filters, Inbox, InboxOptions, Row, client_for, read_inbox};
use wiremock::MockServer;

pub fn options(cache: &Path, concurrency: usize) -> InboxOptions {
    InboxOptions {
        repo: RepoName::parse(REPO).unwrap(),
        workflow: WORKFLOW.to_owned(),
        filters: Filters::default(),
        max_prs: 500,
        concurrency,
        cache: Some(cache.to_path_buf()),
    }
}

pub fn config(server: &MockServer) -> ClientConfig {
    let mut config = ClientConfig::new(
        ApiBase::parse(&server.uri()).unwrap(),
        Token::new("test-token-123").unwrap(),
    );
    config.retry = RetryPolicy {
        max_attempts: 1,
        first_delay: Duration::ZERO,
        max_delay: Duration::ZERO,
    };
    config
}

/// A client without the on-disk cache (as `triage --pr N` reads).
pub fn client(server: &MockServer) -> triage::github::Client {
    client_for(config(server), None).unwrap()
}

pub async fn read(server: &MockServer, options: &InboxOptions) -> Inbox {
    let client = client_for(config(server), options.cache.as_ref()).unwrap();
    read_inbox(&client, options).await.unwrap()
}

pub fn row(inbox: &Inbox, n: u64) -> &Row {
    inbox
        .rows
        .iter()
        .find(|r| r.number == n)
        .unwrap_or_else(|| panic!("no row #{n}"))
}
