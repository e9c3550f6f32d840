//! `triage validate` (being written).

use super::args::ValidateArgs;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(_args: &ValidateArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this subcommand is not available in this build yet")
}
