//! `triage fingerprints`: both fingerprints of every finding of a v3 artifact.
//!
//! One JSON line per finding, top-level findings first, then tracked ones:
//! `{"source","index","id","semantic_fingerprint","code_fingerprint"}`. The
//! file must be readable as a review output; its rules are not required to
//! pass (fingerprints of an invalid file are still useful for diagnosis), but
//! a strict-invalid file is reported on stderr and the exit code is 1.

use super::args::FingerprintsArgs;
use super::common::{load_or_problem_keeping_value, report_invalid};
use super::exit;
use crate::model::review::Format;
use crate::model::reviewgate::finding_fingerprints;
use std::process::ExitCode;

/// Runs the subcommand.
pub fn run(args: &FingerprintsArgs) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    // Only the document is read from here on; no model was built beside it.
    let loaded = load_or_problem_keeping_value(&args.file, Some(Format::ArtifactV3));
    let Some(doc) = &loaded.doc else {
        report_invalid(&name, &loaded);
        return Ok(ExitCode::from(exit::INVALID));
    };
    let fingerprints = match finding_fingerprints(doc.root()) {
        Ok(f) => f,
        Err(_) => {
            report_invalid(&name, &loaded);
            return Ok(ExitCode::from(exit::INVALID));
        }
    };
    let stdout = std::io::stdout();
    let terminal = std::io::IsTerminal::is_terminal(&stdout);
    let mut out = stdout.lock();
    for fp in &fingerprints {
        super::out::write_json_line(&mut out, &serde_json::to_string(fp)?, terminal)?;
    }
    if loaded.is_valid() {
        Ok(ExitCode::from(exit::OK))
    } else {
        report_invalid(&name, &loaded);
        Ok(ExitCode::from(exit::INVALID))
    }
}
