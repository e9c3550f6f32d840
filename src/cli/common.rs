//! Helpers shared by the subcommands: loading inputs and printing problems.

use super::args::KindArg;
use crate::model::ledger::LedgerState;
use crate::model::load::Loaded;
use crate::model::problem::Problem;
use crate::model::review::Format;
use crate::sanitize::clean_line;
use crate::session::fetch::LiveReads;

pub use crate::session::load::{load_or_problem, load_or_problem_keeping_value};

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
    let (name, loaded, _) = load_pr_reading(pr, LiveReads::default())?;
    Ok((name, loaded))
}

/// [`load_pr`], with the ledger when `reads` asks for it (read beside the
/// result, not after it).
pub fn load_pr_reading(
    pr: &super::args::PrArgs,
    reads: LiveReads,
) -> anyhow::Result<(String, Loaded, Option<LedgerState>)> {
    let fetched = crate::session::fetch::fetch_blocking_with(&pr.target(), reads)?;
    if let Some(notice) = crate::session::rate::rate_notice(fetched.rate_remaining) {
        eprintln!("triage: {notice}");
    }
    Ok((fetched.display_name(), fetched.loaded, fetched.ledger))
}
