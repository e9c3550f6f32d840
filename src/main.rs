//! The `triage` binary: parse arguments, dispatch, map errors to exit codes.

use clap::Parser;

/// See Cargo.toml: fewer page faults and faster allocation for whole-document parsing.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::process::ExitCode;
use triage::cli::{self, args::Cli, exit};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(command) => cli::dispatch(command),
        None => triage::tui::run(cli.open),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            let text = triage::sanitize::clean_line(&format!("{err:#}"));
            eprintln!("triage: {text}");
            ExitCode::from(exit::INVALID)
        }
    }
}
