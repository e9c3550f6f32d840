//! `triage submit` (being written).

use super::args::SubmitArgs;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(_args: &SubmitArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this subcommand is not available in this build yet")
}
