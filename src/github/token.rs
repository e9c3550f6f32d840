//! The GitHub token: found once, held in a type that never prints it.

use super::endpoint::ApiBase;
use std::fmt;
use std::process::{Command, Stdio};

/// A GitHub token. `Debug` and `Display` print `***`; the only way to the
/// secret is [`Token::expose`], used by the client when it builds requests.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// Wraps a token after checking that it can travel in an HTTP header
    /// (visible ASCII only) and is not empty. Surrounding white space (a
    /// trailing newline from a file or `gh`) is removed first.
    pub fn new(raw: &str) -> Result<Token, TokenError> {
        let value = raw.trim();
        if value.is_empty() {
            return Err(TokenError::Empty);
        }
        if !value.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(TokenError::Malformed);
        }
        Ok(Token(value.to_owned()))
    }

    /// The secret itself, for the Authorization header only.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Finds a token: `GH_TOKEN`, then `GITHUB_TOKEN`, then `gh auth token`
    /// when the GitHub CLI is installed.
    pub fn discover() -> Result<Token, TokenError> {
        Self::discover_with(|name| std::env::var(name).ok(), || gh_auth_token(None)).inspect(|_| forbid_dumps())
    }

    /// [`Token::discover`] for a GitHub host: on GitHub Enterprise the
    /// GitHub CLI is asked for that host's token (`gh auth token --hostname`).
    pub fn discover_for(base: &ApiBase) -> Result<Token, TokenError> {
        let host = base.gh_hostname();
        Self::discover_with(|name| std::env::var(name).ok(), || gh_auth_token(host.as_deref()))
            .inspect(|_| forbid_dumps())
    }

    /// [`Token::discover`] with the environment and the `gh` call injected.
    pub fn discover_with(
        env: impl Fn(&str) -> Option<String>,
        gh: impl FnOnce() -> Option<String>,
    ) -> Result<Token, TokenError> {
        for (name, source) in [
            ("GH_TOKEN", TokenSource::GhToken),
            ("GITHUB_TOKEN", TokenSource::GithubToken),
        ] {
            if let Some(value) = env(name).filter(|v| !v.trim().is_empty()) {
                return Token::new(&value).map_err(|e| TokenError::InSource {
                    origin: source,
                    problem: Box::new(e),
                });
            }
        }
        match gh() {
            Some(value) if !value.trim().is_empty() => Token::new(&value).map_err(|e| TokenError::InSource {
                origin: TokenSource::GhCli,
                problem: Box::new(e),
            }),
            _ => Err(TokenError::Missing),
        }
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// Where a token came from (named in errors, never with the value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenSource {
    /// The `GH_TOKEN` environment variable.
    GhToken,
    /// The `GITHUB_TOKEN` environment variable.
    GithubToken,
    /// `gh auth token`.
    GhCli,
}

impl fmt::Display for TokenSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TokenSource::GhToken => "GH_TOKEN",
            TokenSource::GithubToken => "GITHUB_TOKEN",
            TokenSource::GhCli => "`gh auth token`",
        })
    }
}

/// Why no usable token was found. Never contains the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Nothing in the environment and no logged-in `gh`.
    #[error(
        "no GitHub token: set GH_TOKEN or GITHUB_TOKEN, or log in with `gh auth login` (the GitHub CLI is used when installed)"
    )]
    Missing,
    /// The value was empty.
    #[error("the GitHub token is empty")]
    Empty,
    /// The value contains characters a header cannot carry.
    #[error("the GitHub token contains spaces or non-ASCII characters")]
    Malformed,
    /// A source held an unusable value.
    #[error("{origin}: {problem}")]
    InSource {
        origin: TokenSource,
        problem: Box<TokenError>,
    },
}

/// Once a token is held, the process is made non-dumpable for the rest of
/// its life (Linux `PR_SET_DUMPABLE` 0): no core file is written on a
/// crash, and other processes of the same user cannot ptrace it or read its
/// memory through `/proc`. It is not undone when the token is dropped, since
/// copies of the header may still sit in freed memory. Elsewhere a no-op.
pub fn forbid_dumps() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable) {
        tracing::warn!(error = %e, "could not mark the process non-dumpable");
    }
}

/// Runs `gh auth token [--hostname HOST]` when `gh` is on the PATH; `None` when it is absent,
/// fails, or prints nothing. Its stderr is discarded (it may echo hosts).
fn gh_auth_token(hostname: Option<&str>) -> Option<String> {
    let mut command = Command::new("gh");
    command.args(["auth", "token"]);
    if let Some(host) = hostname {
        command.args(["--hostname", host]);
    }
    let output = command.stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    if !output.status.success() {
        return None;
    }
    String::from_utf8(output.stdout).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    }

    #[test]
    fn debug_and_display_hide_the_secret() {
        let t = Token::new("ghp_secretvalue").unwrap();
        assert_eq!(format!("{t}"), "***");
        assert_eq!(format!("{t:?}"), "***");
        assert_eq!(format!("{:?}", Some(&t)), "Some(***)");
        assert_eq!(t.expose(), "ghp_secretvalue");
    }

    #[test]
    fn order_is_gh_token_then_github_token_then_gh() {
        let both = [("GH_TOKEN", "first"), ("GITHUB_TOKEN", "second")];
        assert_eq!(
            Token::discover_with(env(&both), || Some("third".into()))
                .unwrap()
                .expose(),
            "first"
        );
        let second = [("GITHUB_TOKEN", "second")];
        assert_eq!(
            Token::discover_with(env(&second), || Some("third".into()))
                .unwrap()
                .expose(),
            "second"
        );
        assert_eq!(
            Token::discover_with(env(&[]), || Some("third\n".into()))
                .unwrap()
                .expose(),
            "third"
        );
        assert_eq!(Token::discover_with(env(&[]), || None), Err(TokenError::Missing));
    }

    #[test]
    fn blank_variables_are_skipped_and_bad_values_named_by_source() {
        let blank = [("GH_TOKEN", "  "), ("GITHUB_TOKEN", "ok")];
        assert_eq!(Token::discover_with(env(&blank), || None).unwrap().expose(), "ok");
        let bad = [("GH_TOKEN", "has space")];
        let err = Token::discover_with(env(&bad), || None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "GH_TOKEN: the GitHub token contains spaces or non-ASCII characters"
        );
        assert!(!err.to_string().contains("has space"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn holding_a_token_makes_the_process_non_dumpable() {
        forbid_dumps();
        let now = rustix::process::dumpable_behavior().unwrap();
        assert_eq!(now, rustix::process::DumpableBehavior::NotDumpable);
    }

    #[test]
    fn missing_message_says_what_to_do() {
        let text = TokenError::Missing.to_string();
        assert!(text.contains("GH_TOKEN") && text.contains("GITHUB_TOKEN") && text.contains("gh auth login"));
    }
}
