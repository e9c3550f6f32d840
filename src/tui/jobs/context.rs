//! Where the evidence lane ([`super::evidence`]) reads each excerpt's file:
//! the reviewed commit in the local repository, else GitHub's copy at the
//! reviewed commit, else the working tree ([`crate::checkout::source`]
//! decides the order). GitHub is asked through the session's one client
//! ([`Net`]), only when an item needs it.

use super::worker::Net;
use crate::checkout::source::{RemoteFile, read_context};
use crate::checkout::{Checkout, inspect_text};
use crate::github::pr_files::file_at;
use crate::github::route::RepoName;
use crate::model::finding::Evidence;
use crate::tui::diff::PullRef;
use crate::tui::evidence_state::LocalResult;
use crate::tui::message::failure::{RemoteFileError, Shared};

/// Reads one evidence item's context from the first place that has it.
pub fn read_item(
    checkout: Option<&Checkout>,
    net: &Net,
    pull: Option<&PullRef>,
    evidence: &Evidence,
    reviewed_sha: Option<&str>,
    lines: usize,
) -> LocalResult {
    let fetch = |path: &str, sha: &str| -> Result<Vec<u8>, RemoteFileError> {
        let Some(pull) = pull else {
            return Err(RemoteFileError::NoPull);
        };
        let repo = RepoName::parse(&pull.repository).map_err(RemoteFileError::BadRepository)?;
        let client = net.client().map_err(RemoteFileError::NoClient)?;
        net.block_on(file_at(&client, &repo, path, sha))
            .map_err(RemoteFileError::Fetch)
    };
    let github: Option<RemoteFile<'_, RemoteFileError>> = pull.map(|_| &fetch as _);
    read_context(checkout, github, &evidence.path, evidence.side, reviewed_sha)
        .map(|file| inspect_text(&file, evidence, lines))
        .map_err(Shared::new)
}
