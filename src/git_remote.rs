//! Which GitHub repository the current checkout is: the default for `--repo`.
//!
//! The answer comes from the `origin` remote's URL (`git remote get-url
//! origin`), never from review text. The URL must point at the expected host
//! (github.com, or the Enterprise host of the configured API base).

use crate::github::route::RepoName;
use std::path::Path;
use std::process::Command;

/// Why the repository could not be told from the checkout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RemoteError {
    /// `git` failed or there is no `origin` remote.
    #[error("cannot read the `origin` remote of this checkout ({detail}); pass --repo OWNER/NAME")]
    NoOrigin { detail: String },
    /// The URL is not a GitHub repository URL this program understands.
    #[error("the `origin` remote ({url}) is not a recognisable GitHub repository URL; pass --repo OWNER/NAME")]
    Unrecognised { url: String },
    /// The URL points at another host than the configured GitHub.
    #[error(
        "the `origin` remote is on {found}, not {expected}; pass --repo OWNER/NAME (and --api-url for GitHub Enterprise)"
    )]
    OtherHost { found: String, expected: String },
}

/// The host people's remotes use for a web base (`https://github.com` ->
/// `github.com`; `https://ghe.example:8443` -> `ghe.example`). See
/// [`crate::github::endpoint::ApiBase::web_base`].
pub fn host_of_web_base(web_base: &str) -> Option<String> {
    let rest = web_base
        .strip_prefix("https://")
        .or_else(|| web_base.strip_prefix("http://"))?;
    let authority = rest.split('/').next().unwrap_or("");
    let host = authority
        .rsplit('@')
        .next()
        .unwrap_or("")
        .split(':')
        .next()
        .unwrap_or("");
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Parses a remote URL (`https://host/o/n(.git)`, `ssh://[user@]host[:port]/o/n(.git)`,
/// `git://host/o/n`, scp-like `user@host:o/n(.git)`) into `OWNER/NAME`, requiring `expected_host`.
pub fn parse_remote_url(url: &str, expected_host: &str) -> Result<RepoName, RemoteError> {
    let unrecognised = || RemoteError::Unrecognised { url: shown(url) };
    let url = url.trim();
    let (host, path) = split_url(url).ok_or_else(unrecognised)?;
    let host = host.to_ascii_lowercase();
    let expected = expected_host.to_ascii_lowercase();
    if host != expected && !(expected == "github.com" && host == "www.github.com") {
        return Err(RemoteError::OtherHost {
            found: shown(&host),
            expected,
        });
    }
    let path = path.trim_start_matches('/').trim_end_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    RepoName::parse(path).map_err(|_| unrecognised())
}

/// Splits a remote URL into (host, path).
fn split_url(url: &str) -> Option<(&str, &str)> {
    for scheme in ["https://", "http://", "ssh://", "git+ssh://", "ssh+git://", "git://"] {
        if let Some(rest) = url.strip_prefix(scheme) {
            let (authority, path) = rest.split_once('/')?;
            let host_port = authority.rsplit('@').next()?;
            let host = host_port.split(':').next()?;
            return (!host.is_empty()).then_some((host, path));
        }
    }
    if url.contains("://") {
        return None;
    }
    // scp-like: [user@]host:path (a colon before any slash).
    let (before, path) = url.split_once(':')?;
    if before.contains('/') {
        return None;
    }
    let host = before.rsplit('@').next()?;
    (!host.is_empty()).then_some((host, path))
}

/// A URL fit for an error message: credentials removed, control characters replaced, capped.
fn shown(url: &str) -> String {
    let without_credentials = match (url.find("://"), url.find('@')) {
        (Some(s), Some(at)) if at > s => format!("{}{}", &url[..s + 3], &url[at + 1..]),
        _ => url.to_owned(),
    };
    without_credentials
        .chars()
        .take(120)
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect()
}

/// `OWNER/NAME` of the `origin` remote of the checkout containing `dir`
/// (the current directory when `None`).
pub fn origin_repository(dir: Option<&Path>, expected_host: &str) -> Result<RepoName, RemoteError> {
    let mut cmd = Command::new("git");
    if let Some(d) = dir {
        cmd.arg("-C").arg(d);
    }
    let out = cmd
        .args(["remote", "get-url", "origin"])
        .output()
        .map_err(|e| RemoteError::NoOrigin {
            detail: format!("cannot run git: {e}"),
        })?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr);
        let first = msg.lines().next().unwrap_or("git failed").trim();
        return Err(RemoteError::NoOrigin { detail: shown(first) });
    }
    let url = String::from_utf8_lossy(&out.stdout);
    parse_remote_url(url.trim(), expected_host)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(r: Result<RepoName, RemoteError>) -> Option<String> {
        r.ok().map(|n| n.as_str().to_owned())
    }

    #[test]
    fn parses_every_url_form() {
        for url in [
            "https://github.com/octo/hello-world.git",
            "https://github.com/octo/hello-world",
            "https://github.com/octo/hello-world/",
            "https://user:secret@github.com/octo/hello-world.git",
            "http://github.com/octo/hello-world",
            "ssh://git@github.com/octo/hello-world.git",
            "ssh://git@github.com:22/octo/hello-world.git",
            "git://github.com/octo/hello-world.git",
            "git@github.com:octo/hello-world.git",
            "git@github.com:/octo/hello-world",
            "github.com:octo/hello-world",
            "  git@GitHub.com:octo/hello-world.git\n",
        ] {
            assert_eq!(
                name(parse_remote_url(url, "github.com")).as_deref(),
                Some("octo/hello-world"),
                "{url}"
            );
        }
        assert_eq!(
            name(parse_remote_url("https://github.com/o/n.js.git", "github.com")).as_deref(),
            Some("o/n.js")
        );
    }

    #[test]
    fn enterprise_host_comes_from_the_web_base() {
        assert_eq!(host_of_web_base("https://github.com").as_deref(), Some("github.com"));
        assert_eq!(
            host_of_web_base("https://GHE.corp.example:8443/x").as_deref(),
            Some("ghe.corp.example")
        );
        assert_eq!(host_of_web_base("http://127.0.0.1:8080").as_deref(), Some("127.0.0.1"));
        assert_eq!(host_of_web_base("ftp://x"), None);
        let got = parse_remote_url("git@ghe.corp.example:team/app.git", "ghe.corp.example");
        assert_eq!(name(got).as_deref(), Some("team/app"));
    }

    #[test]
    fn other_hosts_and_malformed_urls_are_refused() {
        assert!(matches!(
            parse_remote_url("git@gitlab.com:octo/x.git", "github.com"),
            Err(RemoteError::OtherHost { .. })
        ));
        assert!(matches!(
            parse_remote_url("https://github.com.evil.example/octo/x", "github.com"),
            Err(RemoteError::OtherHost { .. })
        ));
        for url in [
            "https://github.com/octo",
            "https://github.com/octo/x/y",
            "https://github.com/../x",
            "/srv/git/x.git",
            "file:///srv/x.git",
            "",
            "https://github.com/oc to/x",
            "https://github.com/own_er/x",
        ] {
            assert!(parse_remote_url(url, "github.com").is_err(), "{url}");
        }
    }

    #[test]
    fn error_messages_hide_credentials() {
        let e = parse_remote_url("https://user:secret@github.com/only-owner", "github.com");
        let text = e.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            text.contains("github.com/only-owner") && !text.contains("secret"),
            "{text}"
        );
    }

    #[test]
    fn reads_origin_of_a_real_checkout() {
        let dir = tempfile::tempdir().expect("tempdir");
        let git = |args: &[&str]| {
            Command::new("git")
                .arg("-C")
                .arg(dir.path())
                .args(args)
                .output()
                .is_ok_and(|o| o.status.success())
        };
        assert!(git(&["init", "-q"]), "git init");
        assert!(matches!(
            origin_repository(Some(dir.path()), "github.com"),
            Err(RemoteError::NoOrigin { .. })
        ));
        assert!(git(&["remote", "add", "origin", "git@github.com:octo/repo.git"]));
        assert_eq!(
            name(origin_repository(Some(dir.path()), "github.com")).as_deref(),
            Some("octo/repo")
        );
    }
}
