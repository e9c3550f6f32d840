//! The one exit-code table of every subcommand and of the screen (the
//! README's "Exit codes" table is this table):
//!
//! | code | class |
//! |---|---|
//! | 0 | success |
//! | 1 | invalid input: a file failed validation, a decision or reply failed its local checks, a file cannot be read |
//! | 2 | usage: bad flags or arguments, no pull request named, a repository that is not OWNER/NAME; the screen: an unknown command or a FILE that is no readable file, no terminal |
//! | 3 | refused by GitHub's state: stale or moved head, no permission, closed pull request, no such thread, already decided |
//! | 4 | GitHub, network or token failure (missing, empty or rejected token, rate limit, timeout, 5xx) |
//!
//! The ledger's `decisions` subcommand reads a pull request like `list --pr`
//! and takes its classes from the same errors (an already-decided refusal is
//! [`Refused`], 3).
//!
//! Errors stay typed until here: a subcommand either returns its code, or
//! returns an error whose chain holds one of the typed errors below, and
//! [`code_for`] maps it. An error of no known type is invalid input.

use crate::github::GhError;
use crate::github::fetch::FetchError;
use crate::github::{SetupError, TokenError};

/// Success: valid, listed, recorded, done.
pub const OK: u8 = 0;
/// Invalid input: a file failed validation, or a decision failed its local checks.
pub const INVALID: u8 = 1;
/// Usage error (bad flags or arguments).
pub const USAGE: u8 = 2;
/// Refused by GitHub's state (stale head, no write permission, closed PR, already decided ...).
pub const REJECTED: u8 = 3;
/// GitHub, the network or the token failed (a decision stays in the outbox).
pub const NETWORK: u8 = 4;

/// A refusal by GitHub's state, as an error a subcommand can return (exit 3).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// A failure to talk to GitHub, as an error a subcommand can return (exit 4).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unreachable(pub String);

/// A usage error found after parsing (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);

/// The exit code of an error: the first typed error in its chain decides.
pub fn code_for(err: &anyhow::Error) -> u8 {
    err.chain().find_map(code_of).unwrap_or(INVALID)
}

/// The code of one error in a chain, when its type tells.
fn code_of(cause: &(dyn std::error::Error + 'static)) -> Option<u8> {
    use super::fetch::TargetError;
    if let Some(e) = cause.downcast_ref::<FetchError>() {
        return Some(e.exit_code());
    }
    if let Some(e) = cause.downcast_ref::<TargetError>() {
        return Some(match e {
            TargetError::Token(_) => NETWORK,
            _ => USAGE,
        });
    }
    if let Some(e) = cause.downcast_ref::<crate::inbox::InboxSetupError>() {
        use crate::inbox::InboxSetupError as E;
        return Some(match e {
            E::Token(_) => NETWORK,
            E::Api(_) | E::Repo(_) => USAGE,
        });
    }
    if let Some(e) = cause.downcast_ref::<SetupError>() {
        return Some(match e {
            SetupError::Token(_) => NETWORK,
            SetupError::ApiBase(_) => USAGE,
        });
    }
    if let Some(e) = cause.downcast_ref::<GhError>() {
        return Some(gh_code(e));
    }
    if cause.is::<TokenError>() || cause.is::<Unreachable>() {
        return Some(NETWORK);
    }
    if cause.is::<Refused>() {
        return Some(REJECTED);
    }
    if cause.is::<Usage>() || cause.is::<crate::tui::tty::NoTerminal>() {
        return Some(USAGE);
    }
    None
}

/// A GitHub error: a refusal of the request as such (403, 404, other 4xx)
/// is 3; the token, rate limits and everything else is 4.
pub fn gh_code(e: &GhError) -> u8 {
    match e {
        GhError::Config { .. } => USAGE,
        e if e.is_refusal() => REJECTED,
        _ => NETWORK,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::fetch::TargetError;

    #[test]
    fn typed_errors_map_to_their_class_through_context() {
        use anyhow::Context as _;
        let wrapped = |e: anyhow::Error| e.context("while listing");
        let cases: Vec<(anyhow::Error, u8)> = vec![
            (TargetError::NoPr.into(), USAGE),
            (TargetError::from(TokenError::Missing).into(), NETWORK),
            (SetupError::Token(TokenError::Empty).into(), NETWORK),
            (GhError::Unauthorized.into(), NETWORK),
            (GhError::Forbidden { message: "x".into() }.into(), REJECTED),
            (GhError::Transport { message: "x".into() }.into(), NETWORK),
            // GraphQL answers 200 for every error; its type says which refuse.
            (
                GhError::GraphQl {
                    message: "x".into(),
                    kind: Some("NOT_FOUND".into()),
                }
                .into(),
                REJECTED,
            ),
            (
                GhError::GraphQl {
                    message: "x".into(),
                    kind: Some("FORBIDDEN".into()),
                }
                .into(),
                REJECTED,
            ),
            (
                GhError::GraphQl {
                    message: "x".into(),
                    kind: Some("RATE_LIMITED".into()),
                }
                .into(),
                NETWORK,
            ),
            (
                GhError::GraphQl {
                    message: "x".into(),
                    kind: None,
                }
                .into(),
                NETWORK,
            ),
            (
                FetchError::HeadMoved {
                    before: "a".into(),
                    now: "b".into(),
                }
                .into(),
                REJECTED,
            ),
            (Refused("already decided".into()).into(), REJECTED),
            (Usage("x".into()).into(), USAGE),
            (anyhow::anyhow!("cannot read x.json"), INVALID),
        ];
        for (err, want) in cases {
            let text = format!("{err:#}");
            assert_eq!(code_for(&err), want, "{text}");
            assert_eq!(code_for(&wrapped(err)), want, "{text} (with context)");
        }
        let io = std::fs::read("/nonexistent/triage/x").context("cannot read x");
        assert_eq!(io.map_err(|e| code_for(&e)).err(), Some(INVALID));
    }
}
