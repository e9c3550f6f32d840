//! `triage project`: the agent-result view of a v3 review output, written
//! exactly as ReviewGate writes it (canonical form plus one LF).

use super::args::ProjectArgs;
use super::common::{load_or_problem_keeping_value, problem_line, report_invalid};
use super::exit;
use crate::model::json::Doc;
use crate::model::review::{Format, Scope};
use crate::model::reviewgate::{canonical_projection, project_freeing};
use crate::sanitize::clean_line;
use std::io::Write;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(args: &ProjectArgs) -> anyhow::Result<ExitCode> {
    let scope = match parse_scope(&args.scope) {
        Ok(scope) => scope,
        Err(message) => {
            eprintln!("triage: --scope: {message}");
            return Ok(ExitCode::from(exit::USAGE));
        }
    };
    let name = args.file.display().to_string();
    let mut loaded = load_or_problem_keeping_value(&args.file, None);
    if !loaded.is_valid() {
        report_invalid(&name, &loaded);
        return Ok(ExitCode::from(exit::INVALID));
    }
    // Only the document is projected; no model was built beside it.
    let (Some(Format::ArtifactV3), Some(doc)) = (loaded.format, loaded.doc.take()) else {
        let format = loaded.format.map_or("document of unknown format", Format::label);
        eprintln!(
            "triage: {} is a {format}; only a ReviewGate review output v3 has a projection",
            clean_line(&name)
        );
        return Ok(ExitCode::from(exit::INVALID));
    };
    // Its tape is freed once the typed structs are decoded (they borrow
    // only its strings), before the projection is built.
    let (strings, tape) = doc.split();
    let view = Doc::over(&strings, tape);
    match project_freeing(view, strings.strings(), &scope) {
        Ok(result) => {
            let bytes = canonical_projection(&result);
            let stdout = std::io::stdout();
            let terminal = std::io::IsTerminal::is_terminal(&stdout);
            let mut out = stdout.lock();
            if terminal {
                // The canonical writer writes UTF-8 (the projection's strings are text).
                super::out::write_json_line(&mut out, &String::from_utf8_lossy(&bytes), true)?;
            } else {
                out.write_all(&bytes)?;
                out.write_all(b"\n")?;
            }
            out.flush()?;
            Ok(ExitCode::from(exit::OK))
        }
        Err(problems) => {
            eprintln!("triage: {} has no agent-result projection:", clean_line(&name));
            for p in &problems {
                eprintln!("  {}", problem_line(p));
            }
            Ok(ExitCode::from(exit::INVALID))
        }
    }
}

/// Parses `local` or `OWNER/NAME#N` (N ≥ 1).
pub fn parse_scope(text: &str) -> Result<Scope, String> {
    if text == "local" {
        return Ok(Scope::Local);
    }
    let shape = || format!("expected `local` or OWNER/NAME#N, not {text:?}");
    let (repository, number) = text.rsplit_once('#').ok_or_else(shape)?;
    let (owner, repo) = repository.split_once('/').ok_or_else(shape)?;
    let plain = |s: &str| !s.is_empty() && !s.contains('/') && !s.chars().any(|c| c.is_whitespace() || c.is_control());
    if !plain(owner) || !plain(repo) {
        return Err(shape());
    }
    let digits = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
    let pull_request_number = number
        .parse::<u64>()
        .ok()
        .filter(|&n| digits && n >= 1)
        .ok_or_else(|| {
            format!(
                "the pull request number must be a whole number from 1 to {}, not {number:?}",
                u64::MAX
            )
        })?;
    Ok(Scope::PullRequest {
        repository: repository.to_owned(),
        pull_request_number,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_parse() {
        assert_eq!(parse_scope("local"), Ok(Scope::Local));
        assert_eq!(
            parse_scope("LVTD-LLC/reviewgate#48"),
            Ok(Scope::PullRequest {
                repository: "LVTD-LLC/reviewgate".into(),
                pull_request_number: 48
            })
        );
        assert_eq!(
            parse_scope("o/r#18446744073709551615"),
            Ok(Scope::PullRequest {
                repository: "o/r".into(),
                pull_request_number: u64::MAX
            })
        );
    }

    #[test]
    fn bad_scopes_are_refused() {
        for bad in [
            "",
            "Local",
            "o/r",
            "o/r#0",
            "o/r#+3",
            "o/r#-1",
            "o/r#1.0",
            "or#3",
            "/r#3",
            "o/#3",
            "o/r/x#3",
            "o r/x#3",
            "o/r#18446744073709551616",
        ] {
            assert!(parse_scope(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
