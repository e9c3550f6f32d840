//! The `triage` binary: parse arguments, dispatch, map errors to exit codes.

use clap::Parser;
use std::process::ExitCode;
use triage::cli::{self, args::Cli, exit};

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The log is optional: a bad TRIAGE_LOG is said once, and the run goes on.
    if let Err(e) = triage::log::init_from_env() {
        eprintln!("triage: no log: {}", triage::sanitize::clean_line(&e.to_string()));
    }
    let result = match cli.command {
        Some(command) => cli::dispatch(command),
        None => cli::open_check::file(&cli.open)
            .map_err(anyhow::Error::from)
            .and_then(|()| triage::tui::run(cli.open.options())),
    };
    match result {
        Ok(code) => code,
        // A reader that stopped early (`triage list ... | head`) is not an error.
        Err(err) if is_broken_pipe(&err) => ExitCode::from(exit::OK),
        Err(err) => {
            let text = triage::sanitize::clean_line(&format!("{err:#}"));
            eprintln!("triage: {text}");
            ExitCode::from(exit::code_for(&err))
        }
    }
}

/// True when the error chain bottoms out in a closed output pipe.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
