//! `triage outbox` (being written).

use super::args::OutboxArgs;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(_args: &OutboxArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this subcommand is not available in this build yet")
}
