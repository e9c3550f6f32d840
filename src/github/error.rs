//! What can go wrong talking to GitHub, in words a user can act on.
//!
//! Messages quoted from GitHub are untrusted text: print them through
//! `crate::sanitize` like any other.

use crate::time::{rfc3339, until};
use std::fmt;
use std::time::{Duration, SystemTime};

/// An error from one GitHub request (after any retries).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GhError {
    /// 401: the token is missing, expired or revoked.
    #[error("GitHub rejected the token (401 Unauthorized): check GH_TOKEN / GITHUB_TOKEN or run `gh auth login`")]
    Unauthorized,
    /// 403 that is not a rate limit: the token may not do this.
    #[error("GitHub refused the request (403 Forbidden): {message}")]
    Forbidden { message: String },
    /// 429, or 403 with `x-ratelimit-remaining: 0`, `retry-after` or a
    /// secondary-rate-limit message: wait until `reset`.
    #[error("GitHub rate limit reached; {}", ResetText(*reset))]
    RateLimited { reset: Option<SystemTime> },
    /// 404: the resource does not exist or the token cannot see it.
    #[error("not found on GitHub (404): {message}")]
    NotFound { message: String },
    /// Any other non-success status.
    #[error("GitHub answered {status}: {message}")]
    Http { status: u16, message: String },
    /// No answer within the configured time.
    #[error("GitHub did not answer within {} s", after.as_secs_f32())]
    Timeout { after: Duration },
    /// The connection failed (DNS, refused, reset, TLS).
    #[error("could not reach GitHub: {message}")]
    Transport { message: String },
    /// GitHub answered, but not with the JSON this program expects.
    #[error("unexpected answer from GitHub: {message}")]
    Decode { message: String },
    /// A GraphQL answer carried `errors`; `kind` is the first error's
    /// `type` (`FORBIDDEN`, `RATE_LIMITED` ...), when GitHub gave one.
    #[error("GitHub GraphQL error: {message}")]
    GraphQl { message: String, kind: Option<String> },
    /// The client could not be set up (bad API URL, no async runtime).
    #[error("GitHub client setup: {message}")]
    Config { message: String },
    /// A redirect that was not followed: to another origin while carrying
    /// the token, to a malformed or credential-bearing URL, or too many hops.
    /// `to` has any credentials redacted.
    #[error("the request was redirected to {to:?} and not followed: {why}")]
    Redirected { to: String, why: String },
}

impl GhError {
    /// True for failures a later identical request may not repeat: server
    /// errors (5xx), timeouts and transport failures. Never 4xx.
    pub fn is_transient(&self) -> bool {
        match self {
            GhError::Http { status, .. } => *status >= 500,
            GhError::Timeout { .. } | GhError::Transport { .. } => true,
            _ => false,
        }
    }

    /// True when GitHub answered with a 4xx that refuses this request as such
    /// (permission, not found, validation), as opposed to a failure to talk
    /// to GitHub at all. 401 and rate limits are not refusals: fixing the
    /// token or waiting makes the same request succeed.
    pub fn is_refusal(&self) -> bool {
        match self {
            GhError::Forbidden { .. } | GhError::NotFound { .. } => true,
            GhError::Http { status, .. } => (400..500).contains(status) && *status != 408,
            // GitHub's GraphQL answers 200 for every error; only these types
            // say the request itself is refused. Others (`RATE_LIMITED`,
            // `INTERNAL`, none at all: "Something went wrong") may pass later.
            GhError::GraphQl { kind: Some(kind), .. } => {
                matches!(kind.as_str(), "FORBIDDEN" | "NOT_FOUND" | "UNPROCESSABLE")
            }
            _ => false,
        }
    }
}

/// Renders a reset time as "it resets at <UTC> (in N min)".
struct ResetText(Option<SystemTime>);

impl fmt::Display for ResetText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => write!(f, "the reset time was not given; try again later"),
            Some(at) => {
                let minutes = until(at, SystemTime::now()).as_nanos().div_ceil(60_000_000_000);
                write!(f, "it resets at {} (in {minutes} min)", rfc3339(at))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::from_epoch_seconds;

    #[test]
    fn rate_limit_message_names_the_reset_time() {
        let e = GhError::RateLimited {
            reset: Some(from_epoch_seconds(1_700_000_000)),
        };
        let text = e.to_string();
        assert!(text.contains("2023-11-14T22:13:20Z"), "{text}");
        let none = GhError::RateLimited { reset: None }.to_string();
        assert!(none.contains("not given"), "{none}");
    }

    #[test]
    fn transient_and_refusal_are_disjoint() {
        let cases = [
            GhError::Unauthorized,
            GhError::Forbidden { message: "x".into() },
            GhError::RateLimited { reset: None },
            GhError::NotFound { message: "x".into() },
            GhError::Http {
                status: 422,
                message: "x".into(),
            },
            GhError::Http {
                status: 502,
                message: "x".into(),
            },
            GhError::Http {
                status: 408,
                message: "x".into(),
            },
            GhError::Timeout {
                after: Duration::from_secs(1),
            },
            GhError::Transport { message: "x".into() },
        ];
        let transient: Vec<bool> = cases.iter().map(GhError::is_transient).collect();
        let refusal: Vec<bool> = cases.iter().map(GhError::is_refusal).collect();
        assert_eq!(transient, [false, false, false, false, false, true, false, true, true]);
        assert_eq!(refusal, [false, true, false, true, true, false, false, false, false]);
    }
}
