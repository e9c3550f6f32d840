//! `triage validate`: strict verdicts for one or more files.

use super::args::{TextOrJson, ValidateArgs};
use super::common::{forced_format, load_or_problem, problem_line};
use super::exit;
use crate::model::load::Loaded;
use crate::model::review::{Format, Projection};
use crate::sanitize::clean_line;
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(args: &ValidateArgs) -> anyhow::Result<ExitCode> {
    let forced = forced_format(args.kind);
    let mut all_valid = true;
    let stdout = std::io::stdout();
    let terminal = std::io::IsTerminal::is_terminal(&stdout);
    let mut out = stdout.lock();
    let mut inputs: Vec<(String, Loaded)> = Vec::new();
    if args.pr.pr.is_some() {
        inputs.push(super::common::load_pr(&args.pr)?);
    }
    for path in &args.files {
        inputs.push((path.display().to_string(), load_or_problem(path, forced)));
    }
    for (name, loaded) in &inputs {
        all_valid &= loaded.is_valid();
        match args.format {
            TextOrJson::Json => {
                super::out::write_json_line(&mut out, &verdict_json(name, loaded).to_string(), terminal)?
            }
            TextOrJson::Text => write_text(&mut out, name, loaded)?,
        }
    }
    drop(out);
    // The process ends right after this; the OS reclaims the models faster
    // than freeing them piece by piece.
    std::mem::forget(inputs);
    Ok(ExitCode::from(if all_valid { exit::OK } else { exit::INVALID }))
}

/// The one-line JSON verdict of a file.
pub fn verdict_json(name: &str, loaded: &Loaded) -> serde_json::Value {
    let projection = loaded.set.as_ref().map(|s| match &s.projection {
        Projection::NotApplicable => serde_json::Value::Null,
        Projection::Ok => json!("ok"),
        Projection::Failed(_) => json!("error"),
    });
    let notices = loaded.set.as_ref().map(|s| s.notices.clone()).unwrap_or_default();
    let river = loaded.set.as_ref().and_then(|s| s.river.as_ref());
    json!({
        "river": river.map_or(serde_json::Value::Null, crate::model::river::verdict::verdict_json),
        "file": name,
        "format": loaded.format.map(Format::as_str),
        "valid": loaded.is_valid(),
        "problems": loaded.problems,
        "notices": notices,
        "projection": projection.unwrap_or(serde_json::Value::Null),
    })
}

fn write_text(out: &mut impl Write, name: &str, loaded: &Loaded) -> std::io::Result<()> {
    let name = clean_line(name);
    let format = loaded.format.map_or("unknown format", Format::label);
    if loaded.is_valid() {
        writeln!(out, "{name}: valid {format}")?;
    } else {
        writeln!(out, "{name}: INVALID {format} ({} problem(s))", loaded.problems.len())?;
        for p in &loaded.problems {
            writeln!(out, "  {}", problem_line(p))?;
        }
    }
    if let Some(set) = &loaded.set {
        if let Projection::Failed(problems) = &set.projection {
            writeln!(
                out,
                "  note: no agent-result view exists for this artifact (its projection fails):"
            )?;
            for p in problems {
                writeln!(out, "    {}", problem_line(p))?;
            }
        }
        for n in &set.notices {
            writeln!(out, "  notice: {}", problem_line(n))?;
        }
    }
    Ok(())
}
