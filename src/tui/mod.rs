//! The interactive screen (being written).

pub mod highlight;

use crate::cli::args::OpenArgs;
use std::process::ExitCode;

/// Opens the screen.
pub fn run(_args: OpenArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("the screen is not available in this build yet")
}
