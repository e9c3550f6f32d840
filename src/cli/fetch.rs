//! `triage fetch` (being written).

use super::args::FetchArgs;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(_args: &FetchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this subcommand is not available in this build yet")
}
