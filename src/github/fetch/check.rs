//! Checking a downloaded result: strict validation, then its scope and
//! reviewed SHA against the request and the head.

use super::FetchRequest;
use super::error::{FetchError, shown};
use crate::model::load::{Loaded, load_bytes};
use crate::model::review::{Format, ReviewSet, Scope};

/// Strict validation, then scope and SHA against the request and the head.
/// The repository is compared without ASCII case (GitHub names are
/// case-insensitive and `--repo` may be typed in another case); the PR number
/// and the SHA must be exact.
pub fn check_result(bytes: &[u8], req: &FetchRequest, head: &str) -> Result<Loaded, FetchError> {
    let loaded = load_bytes(bytes, Some(Format::AgentResult));
    let set: &ReviewSet = match (&loaded.set, loaded.is_valid()) {
        (Some(set), true) => set,
        _ => {
            let first = loaded
                .problems
                .first()
                .map_or_else(|| "no model".to_owned(), |p| shown(&p.to_string()));
            return Err(FetchError::Invalid {
                count: loaded.problems.len().max(1),
                first,
            });
        }
    };
    let expected_repo = req.repo.as_str();
    match &set.scope {
        Scope::Local => {
            return Err(FetchError::WrongScope {
                what: "repository",
                found: "a local review".into(),
                expected: format!("{expected_repo}#{}", req.pr),
            });
        }
        Scope::PullRequest {
            repository,
            pull_request_number,
        } => {
            if !repository.eq_ignore_ascii_case(expected_repo) {
                let found = shown(repository);
                return Err(FetchError::WrongScope {
                    what: "repository",
                    found,
                    expected: expected_repo.to_owned(),
                });
            }
            if *pull_request_number != req.pr {
                let (found, expected) = (format!("pull request #{pull_request_number}"), format!("#{}", req.pr));
                return Err(FetchError::WrongScope {
                    what: "pull request",
                    found,
                    expected,
                });
            }
        }
    }
    match set.reviewed_sha.as_deref() {
        Some(sha) if sha == head => Ok(loaded),
        other => Err(FetchError::OlderHead {
            reviewed: shown(other.unwrap_or("none")),
            head: head.to_owned(),
        }),
    }
}
