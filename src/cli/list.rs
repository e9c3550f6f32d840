//! `triage list` (being written).

use super::args::ListArgs;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(_args: &ListArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this subcommand is not available in this build yet")
}
