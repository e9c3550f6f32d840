//! Where a finding lives outside the screen: its GitHub page and its file.
//!
//! A GitHub URL is built only from facts validation vouches for (the scope's
//! repository and pull request number), the finding's path and line, and the
//! comment id of its review thread as GitHub reported it; the `url` crate
//! joins them. Nothing else a finding says ever becomes part of a URL. The
//! forms, in the order they are tried:
//!
//! - the review thread, when a live read of GitHub gave its link and that
//!   link is this pull request's `#discussion_r{id}`: the link is rebuilt
//!   from the repository, the number and the digits of the id
//!   (`https://github.com/{owner}/{name}/pull/{n}#discussion_r{id}`);
//! - with a plain relative path: the Files changed view at the line,
//!   `https://github.com/{owner}/{name}/pull/{n}/files#diff-{sha256(path)}R{line}`
//!   (GitHub's anchor: the hex SHA-256 of the path, `R` for the new side,
//!   which is the side a finding's line is on);
//! - otherwise: the Files changed view, `https://github.com/{owner}/{name}/pull/{n}/files`.
//!
//! A local review (or a River artifact) has no GitHub location.

use crate::model::finding::Finding;
use crate::model::review::{ReviewSet, Scope};
use url::Url;

/// The web host every link goes to.
const GITHUB_WEB: &str = "https://github.com/";

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
/// (validated names and digits) and an optional fragment (hex digits, or
/// `discussion_r` and digits). `url` only joins them: it escapes nothing in such segments.
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
    if let Some(id) = thread_comment_id(finding, repo, &number) {
        return github_page(&[repo, "pull", &number], Some(&format!("discussion_r{id}")));
    }
    let anchor = finding
        .path
        .as_deref()
        .and_then(|p| relative_segments(p).ok().map(|_| p))
        .map(|path| {
            use sha2::{Digest, Sha256};
            let digest: String = Sha256::digest(path.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            let line = finding.line.map(|l| format!("R{l}")).unwrap_or_default();
            format!("diff-{digest}{line}")
        });
    github_page(&[repo, "pull", &number, "files"], anchor.as_deref())
}

/// The digits of the review comment a live read linked the finding's thread
/// to, when that link is `https://github.com/{repo}/pull/{number}#discussion_r{digits}`.
fn thread_comment_id(finding: &Finding, repo: &str, number: &str) -> Option<String> {
    let link = finding.reviewgate()?.thread.facts.as_ref()?.url.as_deref()?;
    let url = Url::parse(link).ok()?;
    let expected = format!("/{repo}/pull/{number}");
    let same_page = url.scheme() == "https"
        && url.host_str() == Some("github.com")
        && url.port().is_none()
        && url.username().is_empty()
        && url.password().is_none()
        && url.query().is_none()
        && url.path().eq_ignore_ascii_case(&expected);
    let digits = url.fragment()?.strip_prefix("discussion_r")?;
    (same_page && !digits.is_empty() && digits.len() <= 20 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture;

    const FILES: &str = "https://github.com/acme/webhooks/pull/42/files";

    fn anchor(path: &str) -> String {
        use sha2::{Digest, Sha256};
        Sha256::digest(path.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[test]
    fn files_changed_at_the_line() {
        let set = fixture::sample_set();
        let url = finding_url(&set, &set.findings[0]).unwrap_or_default();
        assert_eq!(url, format!("{FILES}#diff-{}R88", anchor("app/webhooks/retry.py")));
        // The anchor is the hex SHA-256 of the path.
        assert_eq!(
            anchor("app/webhooks/retry.py"),
            "933e11759d3a2e5dca326067e39e2aec1456030f420b9696cd8a91016dc9160b"
        );
    }

    #[test]
    fn the_review_thread_when_github_linked_it() {
        let mut set = fixture::sample_set();
        let mut f = set.findings[0].clone();
        let link = |f: &mut Finding, url: &str| {
            if let crate::model::finding::Origin::ReviewGate(r) = &mut f.origin {
                r.thread.facts = Some(crate::model::finding::ThreadFacts {
                    url: Some(url.to_string()),
                    ..Default::default()
                });
            }
        };
        link(&mut f, "https://github.com/acme/webhooks/pull/42#discussion_r1234567");
        assert_eq!(
            finding_url(&set, &f).unwrap_or_default(),
            "https://github.com/acme/webhooks/pull/42#discussion_r1234567"
        );
        for bad in [
            "https://evil.example/acme/webhooks/pull/42#discussion_r1",
            "http://github.com/acme/webhooks/pull/42#discussion_r1",
            "https://github.com/acme/other/pull/42#discussion_r1",
            "https://github.com/acme/webhooks/pull/43#discussion_r1",
            "https://github.com/acme/webhooks/pull/42?x=1#discussion_r1",
            "https://user@github.com/acme/webhooks/pull/42#discussion_r1",
            "https://github.com/acme/webhooks/pull/42#discussion_r1x",
            "https://github.com/acme/webhooks/pull/42#discussion_r",
            "javascript:alert(1)",
        ] {
            link(&mut f, bad);
            let url = finding_url(&set, &f).unwrap_or_default();
            assert!(url.starts_with(FILES), "{bad} gave {url}");
        }
        set.scope = Scope::Local;
        assert_eq!(finding_url(&set, &f), Err(LinkError::Local));
    }

    #[test]
    fn odd_paths_fall_back_to_the_files_view() {
        let set = fixture::sample_set();
        let mut f = set.findings[0].clone();
        f.path = Some("src/a b#?.rs".to_string());
        let url = finding_url(&set, &f).unwrap_or_default();
        assert_eq!(
            url,
            format!("{FILES}#diff-{}R88", anchor("src/a b#?.rs")),
            "hashed, never spliced"
        );
        f.line = None;
        let url = finding_url(&set, &f).unwrap_or_default();
        assert_eq!(url, format!("{FILES}#diff-{}", anchor("src/a b#?.rs")));
        f.line = Some(88);
        for bad in ["../etc/passwd", "/abs", "a//b", "a/\u{1b}]8;;x", "a\\b"] {
            f.path = Some(bad.to_string());
            let url = finding_url(&set, &f).unwrap_or_default();
            assert_eq!(url, FILES, "{bad}");
        }
        f.path = None;
        assert_eq!(finding_url(&set, &f).unwrap_or_default(), FILES);
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
