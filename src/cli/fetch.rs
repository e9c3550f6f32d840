//! `triage fetch`: the newest exact-head ReviewGate result of a pull request,
//! written byte for byte to stdout or a file.
//!
//! Also the entry points the other commands and the screen use for `--pr`:
//! [`fetch_blocking`] (one call, own runtime), and inside an existing runtime
//! [`resolve_target`], [`fetch_live`], [`observe_threads`] and
//! [`current_head`] (to tell when a loaded result went stale).

use super::args::{FetchArgs, PrArgs};
use super::exit;
use crate::git_remote::{host_of_web_base, origin_repository};
use crate::github::fetch::{FetchError, FetchRequest, fetch_exact_head};
use crate::github::{ApiBase, Client, ClientConfig, RepoName, Token};
use crate::model::threads::apply_threads;
use crate::sanitize::clean_line;
use anyhow::Context as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

pub use crate::github::fetch::{FetchedResult, current_head};
pub use crate::github::threads::observe_threads;

/// Why the flags do not name a pull request on a GitHub host (exit code 2),
/// or no token is there to ask it with (exit code 4).
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// `--pr` was not given.
    #[error("--pr N is required to fetch a result from GitHub")]
    NoPr,
    /// `--pr 0`.
    #[error("--pr must be a pull request number (1 or more)")]
    ZeroPr,
    /// `--repo` is not OWNER/NAME.
    #[error("--repo {given:?}: {problem}")]
    BadRepo {
        given: String,
        problem: crate::github::route::RepoNameError,
    },
    /// No `--repo` and the checkout's origin does not tell it.
    #[error(transparent)]
    Remote(#[from] crate::git_remote::RemoteError),
    /// `--api-url` / `GITHUB_API_URL` is not usable.
    #[error(transparent)]
    Api(crate::github::GhError),
    /// No token.
    #[error(transparent)]
    Token(#[from] crate::github::TokenError),
}

/// The API base and what to fetch, from the flags: `--repo`, else the
/// `origin` remote of the current checkout on the API's web host.
pub fn resolve_target(pr: &PrArgs) -> Result<(ApiBase, FetchRequest), TargetError> {
    let number = pr.pr.ok_or(TargetError::NoPr)?;
    if number == 0 {
        return Err(TargetError::ZeroPr);
    }
    let api = ApiBase::resolve(pr.api_url.as_deref()).map_err(TargetError::Api)?;
    let repo = match pr.repo.as_deref() {
        Some(given) => RepoName::parse(given.trim()).map_err(|problem| TargetError::BadRepo {
            given: given.chars().take(100).collect(),
            problem,
        })?,
        None => {
            let host = host_of_web_base(&api.web_base()).unwrap_or_else(|| "github.com".to_owned());
            origin_repository(None, &host)?
        }
    };
    Ok((
        api,
        FetchRequest {
            repo,
            pr: number,
            workflow: pr.workflow.clone(),
        },
    ))
}

/// Fetches the newest exact-head result and applies the live thread state
/// to its findings (an unreadable thread state makes every finding
/// `unknown`; the reason stays in [`FetchedResult::threads`]); threads of no
/// finding are kept in [`FetchedResult::orphan_threads`].
pub async fn fetch_live(client: &Client, request: &FetchRequest) -> Result<FetchedResult, FetchError> {
    let mut fetched = fetch_exact_head(client, request).await?;
    let observation = observe_threads(client, &request.repo, request.pr).await;
    if let Some(set) = fetched.loaded.set.as_mut() {
        fetched.orphan_threads = apply_threads(set, &observation).orphan_threads;
    }
    fetched.threads = Some(observation);
    Ok(fetched)
}

/// Fetches the newest exact-head result of `--pr`, with live thread state, on
/// a runtime of its own (for the headless commands). Errors are one sentence;
/// the error is a [`TargetError`] or a [`FetchError`] (see [`exit_code_for`]).
pub fn fetch_blocking(pr: &PrArgs) -> anyhow::Result<FetchedResult> {
    fetch_on_own_runtime(pr, true)
}

fn fetch_on_own_runtime(pr: &PrArgs, with_threads: bool) -> anyhow::Result<FetchedResult> {
    let (api, request) = resolve_target(pr)?;
    let token = Token::discover().map_err(TargetError::from)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    runtime.block_on(async {
        let client = Client::new(ClientConfig::new(api, token)).map_err(TargetError::Api)?;
        let fetched = if with_threads {
            fetch_live(&client, &request).await?
        } else {
            fetch_exact_head(&client, &request).await?
        };
        Ok(fetched)
    })
}

/// The exit code for an error of [`fetch_blocking`] (the one table of
/// [`exit::code_for`]: flags 2, token and network 4, refusals 3, invalid 1).
pub fn exit_code_for(err: &anyhow::Error) -> u8 {
    exit::code_for(err)
}

/// Runs the subcommand: the result's exact bytes to stdout or `-o FILE`.
pub fn run(args: &FetchArgs) -> anyhow::Result<ExitCode> {
    // The bytes are written as downloaded: thread state is not needed here.
    let fetched = match fetch_on_own_runtime(&args.pr, false) {
        Ok(f) => f,
        Err(err) => {
            eprintln!("triage: {}", clean_line(&format!("{err:#}")));
            return Ok(ExitCode::from(exit_code_for(&err)));
        }
    };
    match &args.output {
        Some(path) => {
            write_atomic(path, &fetched.bytes).with_context(|| format!("cannot write {}", path.display()))?;
            eprintln!(
                "triage: wrote {} (run {}, attempt {}) to {}",
                fetched.display_name(),
                fetched.run_id,
                fetched.attempt,
                clean_line(&path.display().to_string())
            );
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&fetched.bytes)
                .and_then(|()| out.flush())
                .context("cannot write to stdout")?;
        }
    }
    Ok(ExitCode::from(exit::OK))
}

/// Writes `bytes` to `path` atomically ([`crate::atomic_write`]), so
/// readers never see a half-written result.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::atomic_write::write_atomic(path, bytes, crate::atomic_write::Access::Ordinary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("result.json");
        std::fs::write(&target, b"old").expect("seed");
        write_atomic(&target, b"{\"new\":true}").expect("write");
        assert_eq!(std::fs::read(&target).expect("read"), b"{\"new\":true}");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("ls")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("result.json")]);
        assert!(write_atomic(&dir.path().join("missing/x.json"), b"x").is_err());
    }

    #[test]
    fn target_needs_a_pr_and_a_valid_repo() {
        let mut pr = PrArgs {
            workflow: "reviewgate.yml".into(),
            ..PrArgs::default()
        };
        assert!(matches!(resolve_target(&pr), Err(TargetError::NoPr)));
        pr.pr = Some(0);
        assert!(matches!(resolve_target(&pr), Err(TargetError::ZeroPr)));
        pr.pr = Some(5);
        pr.repo = Some("not a repo".into());
        pr.api_url = Some("https://api.github.com".into());
        assert!(matches!(resolve_target(&pr), Err(TargetError::BadRepo { .. })));
        pr.repo = Some("octo/app".into());
        let (api, req) = resolve_target(&pr).expect("valid target");
        assert_eq!(api.web_base(), "https://github.com");
        assert_eq!(
            (req.repo.as_str(), req.pr, req.workflow.as_str()),
            ("octo/app", 5, "reviewgate.yml")
        );
        let err = anyhow::Error::from(TargetError::NoPr);
        assert_eq!(exit_code_for(&err), exit::USAGE);
    }

    #[test]
    fn error_chains_print_each_sentence_once() {
        let remote = crate::git_remote::RemoteError::NoOrigin {
            detail: "no origin".into(),
        };
        let err = anyhow::Error::from(TargetError::from(remote.clone()));
        assert_eq!(format!("{err:#}"), remote.to_string());
        let cause = crate::github::GhError::Transport {
            message: "refused".into(),
        };
        let fetch = FetchError::GitHub {
            step: "read pull request o/r#1".into(),
            cause,
        };
        let err = anyhow::Error::from(fetch);
        assert_eq!(
            format!("{err:#}"),
            "could not read pull request o/r#1: could not reach GitHub: refused"
        );
        assert_eq!(exit_code_for(&err), exit::NETWORK);
    }
}
