//! Helpers shared by the subcommands: loading inputs and printing problems.

use super::args::KindArg;
use crate::model::load::{LoadError, Loaded, load_path, load_path_for_value};
use crate::model::problem::Problem;
use crate::model::review::Format;
use crate::sanitize::clean_line;
use std::path::Path;

/// Maps the `--kind` flag to a format.
pub fn forced_format(kind: Option<KindArg>) -> Option<Format> {
    kind.map(|k| match k {
        KindArg::AgentResult => Format::AgentResult,
        KindArg::Artifact => Format::ArtifactV3,
        KindArg::ArtifactLegacy => Format::ArtifactLegacy,
        KindArg::Disposition => Format::Disposition,
        KindArg::RiverArtifact => Format::RiverArtifact,
        KindArg::RiverRun => Format::RiverRun,
    })
}

/// Loads a path; an unreadable file becomes a problem (rule `io`), not an error.
pub fn load_or_problem(path: &Path, forced: Option<Format>) -> Loaded {
    io_as_problem(load_path(path, forced), forced)
}

/// Like [`load_or_problem`], keeping the parsed value (for projection) and
/// no model of a v3 review output (see [`load_path_for_value`]).
pub fn load_or_problem_keeping_value(path: &Path, forced: Option<Format>) -> Loaded {
    io_as_problem(load_path_for_value(path, forced), forced)
}

fn io_as_problem(result: Result<Loaded, LoadError>, forced: Option<Format>) -> Loaded {
    match result {
        Ok(loaded) => loaded,
        Err(err) => Loaded {
            format: forced,
            set: None,
            problems: vec![Problem::new("io", "", err.to_string())],
            value: None,
        },
    }
}

/// One problem as a safe single line for a person.
pub fn problem_line(p: &Problem) -> String {
    clean_line(&p.to_string())
}

/// Writes every problem of an invalid input to stderr, prefixed with the file
/// name. A valid disposition payload (valid, but with no findings to show) is
/// named as what it is, with the command that records it.
pub fn report_invalid(name: &str, loaded: &Loaded) {
    if loaded.is_valid() && loaded.format == Some(Format::Disposition) {
        let name = clean_line(name);
        eprintln!(
            "triage: {name} is a {}: a decision to record, with no findings to show",
            Format::Disposition.label()
        );
        eprintln!("triage: to record it, run: triage submit --payload {name}");
        return;
    }
    let format = loaded.format.map_or("unknown format", Format::label);
    eprintln!("triage: {} is not a valid {}:", clean_line(name), format);
    for p in &loaded.problems {
        eprintln!("  {}", problem_line(p));
    }
}

/// Fetches the newest exact-head result of `--pr` and loads it.
pub fn load_pr(pr: &super::args::PrArgs) -> anyhow::Result<(String, Loaded)> {
    let fetched = super::fetch::fetch_blocking(pr)?;
    Ok((fetched.display_name(), fetched.loaded))
}
