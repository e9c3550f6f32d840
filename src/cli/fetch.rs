//! `triage fetch`: the newest exact-head ReviewGate result of a pull request,
//! written byte for byte to stdout or a file.

use super::args::FetchArgs;
use super::exit;
use crate::sanitize::clean_line;
use crate::session::fetch::{fetch_result_blocking, write_atomic};
use anyhow::Context as _;
use std::io::Write as _;
use std::process::ExitCode;

pub use crate::session::fetch::TargetError;

/// The exit code for an error of a fetch (the one table of
/// [`exit::code_for`]: flags 2, token and network 4, refusals 3, invalid 1).
pub fn exit_code_for(err: &anyhow::Error) -> u8 {
    exit::code_for(err)
}

/// Runs the subcommand: the result's exact bytes to stdout or `-o FILE`.
pub fn run(args: &FetchArgs) -> anyhow::Result<ExitCode> {
    // The bytes are written as downloaded: thread state is not needed here.
    let fetched = match fetch_result_blocking(&args.pr.target()) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::fetch::FetchError;

    #[test]
    fn fetch_errors_map_to_exit_codes() {
        assert_eq!(exit_code_for(&anyhow::Error::from(TargetError::NoPr)), exit::USAGE);
        let fetch = FetchError::GitHub {
            step: "read pull request o/r#1".into(),
            cause: crate::github::GhError::Transport {
                message: "refused".into(),
            },
        };
        assert_eq!(exit_code_for(&anyhow::Error::from(fetch)), exit::NETWORK);
    }
}
