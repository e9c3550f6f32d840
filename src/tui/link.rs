//! Where a finding lives outside the screen: its GitHub page and its file.
//!
//! A GitHub URL is built only from facts validation vouches for (the scope's
//! repository and pull request number, the reviewed SHA) plus the finding's
//! path and line, percent-encoded segment by segment. Nothing else a finding
//! says ever becomes part of a URL. The forms:
//!
//! - with a path and a hex reviewed SHA: the blob permalink
//!   `https://github.com/{owner}/{name}/blob/{sha}/{path}#L{line}`;
//! - otherwise: the pull request's changed files
//!   `https://github.com/{owner}/{name}/pull/{n}/files`.
//!
//! A local review (or a River artifact) has no GitHub location.

use crate::model::finding::Finding;
use crate::model::review::{ReviewSet, Scope};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use url::Url;

/// The web host every link goes to.
const GITHUB_WEB: &str = "https://github.com/";

/// What a file-path segment of a blob link keeps raw: RFC 3986's unreserved
/// `A-Z a-z 0-9 - _ . ~`; a space, `#`, `?`, `%` or any non-ASCII byte is escaped.
const BLOB_PATH_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// Why no link could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// The review is not about a pull request.
    #[error("this review is local: it names no repository on GitHub")]
    Local,
    /// The repository is not `owner/name` in GitHub's characters.
    #[error("the scope's repository is not an owner/name GitHub accepts; no link is built from it")]
    BadRepository,
    /// The finding has no usable path for a file (absolute, `..`, controls).
    #[error("the finding's path is not a plain relative path")]
    BadPath,
    /// The finding names no file.
    #[error("the finding names no file")]
    NoPath,
}

fn github_name_ok(part: &str) -> bool {
    !part.is_empty()
        && part != "."
        && part != ".."
        && part.len() <= 100
        && part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

fn repository(scope: &Scope) -> Result<(&str, u64), LinkError> {
    match scope {
        Scope::Local => Err(LinkError::Local),
        Scope::PullRequest {
            repository,
            pull_request_number,
        } => {
            let mut parts = repository.split('/');
            match (parts.next(), parts.next(), parts.next()) {
                (Some(owner), Some(name), None) if github_name_ok(owner) && github_name_ok(name) => {
                    Ok((repository.as_str(), *pull_request_number))
                }
                _ => Err(LinkError::BadRepository),
            }
        }
    }
}

/// The segments of a plain relative path, or why it is not one.
pub fn relative_segments(path: &str) -> Result<Vec<&str>, LinkError> {
    if path.is_empty() {
        return Err(LinkError::NoPath);
    }
    if path.starts_with('/') || path.contains('\\') || path.chars().any(crate::sanitize::is_forbidden) {
        return Err(LinkError::BadPath);
    }
    let segments: Vec<&str> = path.split('/').collect();
    if segments.iter().any(|s| s.is_empty() || *s == "." || *s == "..") {
        return Err(LinkError::BadPath);
    }
    Ok(segments)
}

/// A page on GitHub's web host from path segments that are already safe
/// (validated names, or [`BLOB_PATH_SEGMENT`]-encoded text) and an optional
/// fragment. `url` only joins them: it escapes nothing in such segments.
fn github_page(segments: &[&str], fragment: Option<&str>) -> Result<String, LinkError> {
    let mut url = Url::parse(GITHUB_WEB).map_err(|_| LinkError::BadRepository)?;
    url.set_path(&segments.join("/"));
    url.set_fragment(fragment);
    Ok(url.into())
}

/// The GitHub page of a finding (see the module docs for the forms).
pub fn finding_url(set: &ReviewSet, finding: &Finding) -> Result<String, LinkError> {
    let (repo, number) = repository(&set.scope)?;
    let number = number.to_string();
    let files = github_page(&[repo, "pull", &number, "files"], None)?;
    let (Some(path), Some(sha)) = (finding.path.as_deref(), set.reviewed_sha.as_deref()) else {
        return Ok(files);
    };
    let Some(sha) = crate::checkout::valid_sha(sha) else {
        return Ok(files);
    };
    let Ok(segments) = relative_segments(path) else {
        return Ok(files);
    };
    let encoded: Vec<String> = segments
        .iter()
        .map(|s| utf8_percent_encode(s, BLOB_PATH_SEGMENT).to_string())
        .collect();
    let mut parts = vec![repo, "blob", sha.as_str()];
    parts.extend(encoded.iter().map(String::as_str));
    let line = finding.line.map(|l| format!("L{l}"));
    github_page(&parts, line.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture;

    #[test]
    fn blob_permalink_at_the_reviewed_sha() {
        let set = fixture::sample_set();
        let url = finding_url(&set, &set.findings[0]).unwrap_or_default();
        assert_eq!(
            url,
            format!(
                "https://github.com/acme/webhooks/blob/{}/app/webhooks/retry.py#L88",
                fixture::SHA
            )
        );
    }

    #[test]
    fn odd_paths_are_encoded_or_fall_back() {
        let mut set = fixture::sample_set();
        let mut f = set.findings[0].clone();
        f.path = Some("src/a b#?.rs".to_string());
        let url = finding_url(&set, &f).unwrap_or_default();
        assert!(url.ends_with("/src/a%20b%23%3F.rs#L88"), "{url}");
        f.path = Some("d~i-r_/50%.é+;=@:".to_string());
        f.line = None;
        let url = finding_url(&set, &f).unwrap_or_default();
        assert!(
            url.ends_with(&format!("/blob/{}/d~i-r_/50%25.%C3%A9%2B%3B%3D%40%3A", fixture::SHA)),
            "{url}"
        );
        f.line = Some(88);
        for bad in ["../etc/passwd", "/abs", "a//b", "a/\u{1b}]8;;x", "a\\b"] {
            f.path = Some(bad.to_string());
            let url = finding_url(&set, &f).unwrap_or_default();
            assert_eq!(url, "https://github.com/acme/webhooks/pull/42/files", "{bad}");
        }
        f.path = None;
        assert_eq!(
            finding_url(&set, &f).unwrap_or_default(),
            "https://github.com/acme/webhooks/pull/42/files"
        );
        set.reviewed_sha = Some("not-a-sha".to_string());
        f.path = Some("src/x.rs".to_string());
        assert!(finding_url(&set, &f).unwrap_or_default().ends_with("/pull/42/files"));
    }

    #[test]
    fn untrusted_repository_or_local_scope_gives_no_url() {
        let mut set = fixture::sample_set();
        let f = set.findings[0].clone();
        for repo in ["evil.com/x/y", "a b/c", "owner", "javascript:alert(1)", "o/..", "@x/y"] {
            set.scope = Scope::PullRequest {
                repository: repo.to_string(),
                pull_request_number: 1,
            };
            assert_eq!(finding_url(&set, &f), Err(LinkError::BadRepository), "{repo}");
        }
        set.scope = Scope::Local;
        assert_eq!(finding_url(&set, &f), Err(LinkError::Local));
    }
}
