//! Headless subcommands: everything the screen does, for scripts and agents.
//!
//! Each subcommand is one function returning the process exit code.

pub mod args;
pub mod common;
pub mod decisions;
pub mod exit;
pub mod fetch;
pub mod fingerprints;
pub mod inbox;
pub mod list;
pub mod open_check;
pub mod out;
pub mod outbox;
pub mod project;
pub mod recorded;
pub mod submit;
pub mod submit_river;
pub mod thread;
pub mod validate;

use std::process::ExitCode;

/// Runs one subcommand.
pub fn dispatch(command: args::Command) -> anyhow::Result<ExitCode> {
    use args::Command;
    match command {
        Command::Validate(a) => validate::run(&a),
        Command::List(a) => list::run(&a),
        Command::Project(a) => project::run(&a),
        Command::Fingerprints(a) => fingerprints::run(&a),
        Command::Submit(a) => submit::run(&a),
        Command::Outbox(a) => outbox::run(&a),
        Command::Fetch(a) => fetch::run(&a),
        Command::Thread(a) => thread::run(&a),
        Command::Decisions(a) => decisions::run(&a),
        Command::Inbox(a) => inbox::run(&a),
        Command::Completions(a) => {
            use clap::CommandFactory;
            let mut cmd = args::Cli::command();
            clap_complete::generate(a.shell, &mut cmd, "triage", &mut std::io::stdout());
            Ok(ExitCode::from(exit::OK))
        }
    }
}
