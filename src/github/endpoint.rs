//! The API base URL and the web host that matches it.
//!
//! `https://api.github.com` pairs with `https://github.com`; a GitHub
//! Enterprise Server at `https://HOST/api/v3` pairs with `https://HOST` and
//! has its GraphQL endpoint at `https://HOST/api/graphql`.

use super::error::GhError;
use super::route::{RepoName, RepoNameError};
use crate::git_remote::{RemoteError, host_of_web_base, origin_repository};
use url::Url;

/// Why a command's API base or repository cannot be told (a usage error).
#[derive(Debug, thiserror::Error)]
pub enum RepoTargetError {
    /// `--repo` is not OWNER/NAME.
    #[error("--repo {given:?}: {problem}")]
    BadRepo { given: String, problem: RepoNameError },
    /// No `--repo` and the checkout's origin does not tell it.
    #[error(transparent)]
    Remote(#[from] RemoteError),
    /// `--api-url` / `GITHUB_API_URL` is not usable.
    #[error(transparent)]
    Api(GhError),
}

/// The API base (`api_url`, else `GITHUB_API_URL`, else the public API) and
/// the repository: `repo` when given, else the `origin` remote of the
/// current checkout on the API's web host. Every command that names a
/// repository (`--pr`, `inbox`) resolves it here.
pub fn resolve_repository(api_url: Option<&str>, repo: Option<&str>) -> Result<(ApiBase, RepoName), RepoTargetError> {
    let api = ApiBase::resolve(api_url).map_err(RepoTargetError::Api)?;
    let repo = match repo {
        Some(given) => RepoName::parse(given.trim()).map_err(|problem| RepoTargetError::BadRepo {
            given: given.chars().take(100).collect(),
            problem,
        })?,
        None => {
            let host = host_of_web_base(&api.web_base()).unwrap_or_else(|| "github.com".to_owned());
            origin_repository(None, &host)?
        }
    };
    Ok((api, repo))
}

/// The public GitHub API.
pub const DEFAULT_API_URL: &str = "https://api.github.com";

/// A parsed API base: scheme, host (with port) and an optional path prefix,
/// kept as a [`Url`] so origins and links are built by `url`, not by text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiBase {
    /// The base URL (no credentials, query or fragment).
    base: Url,
    /// Path prefix without a trailing slash (`""` or `/api/v3`).
    prefix: String,
}

impl ApiBase {
    /// Parses an `http(s)://host[:port][/path]` URL. Credentials, queries and
    /// fragments are refused. The host is case-folded and a default port
    /// dropped (`url`'s normal form).
    pub fn parse(url: &str) -> Result<ApiBase, GhError> {
        let shown = redact_credentials(url);
        let bad = |why: &str| GhError::Config {
            message: match shown.replace("***@", "").contains('@') {
                false => format!("API URL {shown:?}: {why}"),
                true => format!("API URL (not shown, it contains '@'): {why}"),
            },
        };
        let base = Url::parse(url.trim()).map_err(|_| bad("not a URL"))?;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(bad("must start with https:// (or http://)"));
        }
        // Any `@` is refused, not only one in the authority as parsed:
        // `https://u:pa/ss@h` would otherwise hide a password in the path.
        if url.contains('@') {
            return Err(bad("must not contain credentials"));
        }
        if base.query().is_some() || url.contains('#') {
            return Err(bad("must not have a query or fragment"));
        }
        if base.host_str().is_none_or(str::is_empty) {
            return Err(bad("has no host"));
        }
        let prefix = base.path().trim_end_matches('/').to_owned();
        Ok(ApiBase { base, prefix })
    }

    /// The base chosen by `--api-url`, else `GITHUB_API_URL`, else the public API.
    pub fn resolve(flag: Option<&str>) -> Result<ApiBase, GhError> {
        Self::resolve_with(flag, std::env::var("GITHUB_API_URL").ok().as_deref())
    }

    /// [`ApiBase::resolve`] with the environment value passed in.
    pub fn resolve_with(flag: Option<&str>, env: Option<&str>) -> Result<ApiBase, GhError> {
        let chosen = flag
            .filter(|s| !s.trim().is_empty())
            .or(env.filter(|s| !s.trim().is_empty()))
            .unwrap_or(DEFAULT_API_URL);
        Self::parse(chosen)
    }

    /// `scheme://host[:port]`, without the path prefix (the serialisation of
    /// `url`'s origin: a default port is not written).
    pub fn origin(&self) -> String {
        self.base.origin().ascii_serialization()
    }

    /// The path prefix every REST route is joined to (`""` or `/api/v3`).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The full base URL as given (normalised, no trailing slash).
    pub fn url(&self) -> String {
        self.on_this_host(&self.prefix)
    }

    /// The web host for links: `https://github.com` for the public API,
    /// `https://HOST` for `https://HOST/api/v3`, otherwise the API origin.
    pub fn web_base(&self) -> String {
        if self.is_public() {
            return "https://github.com".to_owned();
        }
        self.on_this_host(self.prefix.strip_suffix("/api/v3").unwrap_or(""))
    }

    /// The host the GitHub CLI knows this server by: `None` for the public
    /// API (its default), else the web host without port.
    pub fn gh_hostname(&self) -> Option<String> {
        if self.is_public() {
            return None;
        }
        self.base.host_str().map(str::to_owned)
    }

    /// The GraphQL path: `/graphql` on the public API (and any other base,
    /// joined to its prefix), `/api/graphql` on GitHub Enterprise Server.
    pub fn graphql_path(&self) -> String {
        match self.prefix.strip_suffix("/api/v3") {
            Some(rest) => format!("{rest}/api/graphql"),
            None => format!("{}/graphql", self.prefix),
        }
    }

    /// `api.github.com` on its default port.
    pub fn is_public(&self) -> bool {
        self.base.host_str() == Some("api.github.com") && self.base.port().is_none()
    }

    /// This base's origin with `path` (no trailing slash; `""` is the origin).
    fn on_this_host(&self, path: &str) -> String {
        let mut url = self.base.clone();
        url.set_path(path);
        url.as_str().trim_end_matches('/').to_owned()
    }
}

/// `text` with the user information of every URL in it (`scheme://user:pw@`)
/// replaced by `***`, so no message repeats a password or token given in a
/// URL. Text without `://` comes back unchanged.
pub fn redact_credentials(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| {
                matches!(c, '/' | '?' | '#' | '"' | '\'' | '<' | '>') || c.is_whitespace() || c.is_control()
            })
            .unwrap_or(tail.len());
        match tail[..end].rfind('@') {
            Some(user_end) => {
                out.push_str("***");
                out.push_str(&tail[user_end..end]);
            }
            None => out.push_str(&tail[..end]),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_api_pairs_with_github_com() {
        let b = ApiBase::parse("https://api.github.com/").unwrap();
        assert_eq!(b.web_base(), "https://github.com");
        assert_eq!(b.prefix(), "");
        assert_eq!(b.graphql_path(), "/graphql");
        assert_eq!(b.url(), "https://api.github.com");
        assert_eq!(b.gh_hostname(), None);
    }

    #[test]
    fn enterprise_server_pairs_with_its_host() {
        let b = ApiBase::parse("https://GHE.example.com/api/v3").unwrap();
        assert_eq!(b.web_base(), "https://ghe.example.com");
        assert_eq!(b.prefix(), "/api/v3");
        assert_eq!(b.graphql_path(), "/api/graphql");
        assert_eq!(b.gh_hostname().as_deref(), Some("ghe.example.com"));
        let port = ApiBase::parse("http://127.0.0.1:8080").unwrap();
        assert_eq!(port.web_base(), "http://127.0.0.1:8080");
        assert_eq!(port.graphql_path(), "/graphql");
    }

    #[test]
    fn url_normalises_case_and_default_ports() {
        let public = ApiBase::parse("https://API.GitHub.com:443/").unwrap();
        assert_eq!(
            (public.origin(), public.web_base()),
            ("https://api.github.com".into(), "https://github.com".into())
        );
        let plain = ApiBase::parse(" HTTP://Host.Example:80/x/ ").unwrap();
        assert_eq!(
            (plain.origin(), plain.url()),
            ("http://host.example".into(), "http://host.example/x".into())
        );
        assert_eq!(plain.web_base(), "http://host.example");
        let ghe = ApiBase::parse("https://ghe.example:8443/api/v3/").unwrap();
        assert_eq!(ghe.web_base(), "https://ghe.example:8443");
        assert_eq!(ghe.gh_hostname().as_deref(), Some("ghe.example"));
    }

    #[test]
    fn refuses_what_is_not_an_api_base() {
        for bad in [
            "ftp://x",
            "api.github.com",
            "https://user:pw@host",
            "https://h/?q=1",
            "https://h/#f",
            "",
        ] {
            assert!(ApiBase::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn credentials_in_a_url_never_reach_a_message() {
        let err = ApiBase::parse("http://user:ghp_TOKEN123@host.example/api/v3").unwrap_err();
        let text = err.to_string();
        assert!(!text.contains("ghp_TOKEN123") && !text.contains("user:"), "{text}");
        assert!(
            text.contains("***@host.example") && text.contains("credentials"),
            "{text}"
        );
        assert_eq!(
            redact_credentials("a https://u:p@h:1/x?y and ftp://q@r b http://plain/"),
            "a https://***@h:1/x?y and ftp://***@r b http://plain/"
        );
        assert_eq!(redact_credentials("no url @ all"), "no url @ all");
        let odd = ApiBase::parse("https://u:pa/ss@h/").unwrap_err().to_string();
        assert!(!odd.contains("pa/ss") && !odd.contains("ss@"), "{odd}");
        assert_eq!(redact_credentials("x://a@b@c/d"), "x://***@c/d");
    }

    #[test]
    fn flag_beats_environment_beats_default() {
        let flag = ApiBase::resolve_with(Some("https://a.example/api/v3"), Some("https://b.example")).unwrap();
        assert_eq!(flag.origin(), "https://a.example");
        let env = ApiBase::resolve_with(None, Some("https://b.example")).unwrap();
        assert_eq!(env.origin(), "https://b.example");
        let default = ApiBase::resolve_with(None, Some("  ")).unwrap();
        assert_eq!(default.url(), DEFAULT_API_URL);
    }
}
