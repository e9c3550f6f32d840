//! What the screen needs of a pull request when no local repository has its
//! commits: the changed files with their patches (`GET
//! /repos/{o}/{r}/pulls/{n}/files`, paginated) and one file's text at the
//! reviewed commit (`GET /repos/{o}/{r}/contents/{path}?ref={sha}`).
//!
//! Both are bounded: at most [`MAX_FILE_PAGES`] pages of files (GitHub lists
//! 3,000 at most), reading stops once every wanted path was seen, patches
//! are cut later by [`crate::checkout::diff`], and a file's contents are
//! refused beyond [`MAX_CONTENT_BYTES`] (GitHub's contents API itself sends
//! no text for files over 1 MB). Everything GitHub sends here is untrusted
//! text for the screen to sanitise.

use super::client::Client;
use super::error::GhError;
use super::route::{RepoName, Route};
use base64::Engine;
use serde::Deserialize;

/// Files per page of the listing.
pub const FILES_PAGE_SIZE: usize = 100;
/// Pages read at most (GitHub lists at most 3,000 files of a pull request).
pub const MAX_FILE_PAGES: usize = 30;
/// The largest file whose contents are read, in bytes.
pub const MAX_CONTENT_BYTES: u64 = 1024 * 1024;

/// One changed file of the pull request, as GitHub lists it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ChangedFile {
    /// The path after the change.
    pub filename: String,
    /// `added`, `removed`, `modified`, `renamed` ...
    #[serde(default)]
    pub status: String,
    /// The path before a rename.
    #[serde(default)]
    pub previous_filename: Option<String>,
    /// The unified hunks; absent for binary files and very large diffs.
    #[serde(default)]
    pub patch: Option<String>,
}

impl ChangedFile {
    /// True when `path` is this file's path after or before the change.
    pub fn is(&self, path: &str) -> bool {
        self.filename == path || self.previous_filename.as_deref() == Some(path)
    }
}

/// The changed files among `wanted` (paths after or before the change), in
/// GitHub's order. Pages are read until every wanted path was seen or the
/// listing ends.
pub async fn changed_files(
    client: &Client,
    repo: &RepoName,
    pull_request: u64,
    wanted: &[String],
) -> Result<Vec<ChangedFile>, GhError> {
    let number = pull_request.to_string();
    let mut found: Vec<ChangedFile> = Vec::new();
    for page in 1..=MAX_FILE_PAGES {
        let route = Route::repo(repo, ["pulls", number.as_str(), "files"])
            .query("per_page", FILES_PAGE_SIZE)
            .query("page", page);
        let files = client.get_json::<Vec<ChangedFile>>(&route).await?;
        let full = files.len() >= FILES_PAGE_SIZE;
        found.extend(files.into_iter().filter(|f| wanted.iter().any(|w| f.is(w))));
        let all_seen = wanted.iter().all(|w| found.iter().any(|f| f.is(w)));
        if !full || all_seen {
            break;
        }
    }
    Ok(found)
}

/// `GET .../contents/{path}`: only what is checked.
#[derive(Debug, Deserialize)]
struct Contents {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    size: u64,
    #[serde(default)]
    encoding: String,
    #[serde(default)]
    content: String,
}

/// Why a file's contents could not be read from GitHub.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContentsError {
    /// The request failed (404 when the file is not at that commit).
    #[error("{0}")]
    GitHub(GhError),
    /// Not a file (a directory, a symlink, a submodule).
    #[error("not a file on GitHub ({kind})")]
    NotAFile { kind: String },
    /// Larger than [`MAX_CONTENT_BYTES`] (or GitHub sent no text for it).
    #[error("larger than {limit} bytes on GitHub ({size} bytes)")]
    TooLarge { size: u64, limit: u64 },
    /// The text was not base64 as announced.
    #[error("unreadable contents from GitHub ({0})")]
    Undecodable(String),
}

/// The bytes of `path` (already checked and normalised, `/`-separated) at
/// `sha` (validated). Each path part is its own encoded route segment.
pub async fn file_at(client: &Client, repo: &RepoName, path: &str, sha: &str) -> Result<Vec<u8>, ContentsError> {
    let mut segments = vec!["contents"];
    segments.extend(path.split('/'));
    let route = Route::repo(repo, segments).query("ref", sha);
    let answer: Contents = client.get_json(&route).await.map_err(ContentsError::GitHub)?;
    if answer.kind != "file" {
        return Err(ContentsError::NotAFile {
            kind: crate::sanitize::clean_line(&answer.kind),
        });
    }
    let too_large = ContentsError::TooLarge {
        size: answer.size,
        limit: MAX_CONTENT_BYTES,
    };
    if answer.size > MAX_CONTENT_BYTES || answer.encoding != "base64" {
        return Err(too_large);
    }
    // Base64 wrapped in lines is about 1.37 times the bytes: twice is a safe bound.
    if answer.content.len() as u64 > 2 * MAX_CONTENT_BYTES {
        return Err(too_large);
    }
    let compact: String = answer.content.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(compact)
        .map_err(|e| ContentsError::Undecodable(e.to_string()))?;
    if bytes.len() as u64 > MAX_CONTENT_BYTES {
        return Err(too_large);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_renamed_file_answers_to_both_paths() {
        let f: ChangedFile =
            serde_json::from_str(r#"{"filename":"b.rs","status":"renamed","previous_filename":"a.rs","additions":1}"#)
                .unwrap_or_else(|e| panic!("{e}"));
        assert!(f.is("a.rs") && f.is("b.rs") && !f.is("c.rs"));
        assert_eq!(f.patch, None, "binary or huge: no patch");
    }
}
