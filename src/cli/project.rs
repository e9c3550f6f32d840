//! `triage project` (being written).

use super::args::ProjectArgs;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(_args: &ProjectArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this subcommand is not available in this build yet")
}
