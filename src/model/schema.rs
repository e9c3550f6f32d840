//! The JSON Schemas of every format `triage` reads or writes, embedded at build
//! time and compiled once.
//!
//! The schemas live in `schemas/` (draft 2020-12) and refer to each other by
//! relative `$ref` under one base URI. The build (`build.rs`) bundles each
//! file a validator is built from into one self-contained document: its
//! references made local, annotations dropped, minified. Bundles are compiled
//! offline: nothing is fetched from the network or read from disk at run
//! time. Validators are built on first use (or by [`warm`]) and shared by
//! every later call.
//!
//! ReviewGate schemas are strict (closed objects). River Review schemas accept
//! members they do not know, because River Review adds optional members
//! without changing its version; the River reader reports those as notices.

mod doc_json;
mod wording;

use super::json::{Doc, DocNode};
use super::problem::Problem;
use super::review::Format;
pub use doc_json::DocJson;
use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, Registry, ValidationError, Validator};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The base URI every schema file's `$id` lives under (the files in
/// `schemas/` refer to each other relative to it; bundles have no `$id`).
pub const SCHEMA_BASE: &str = "https://triage.invalid/schemas/";

/// Rule id of every problem [`check`] and [`check_river_entry`] report.
pub const SCHEMA_RULE: &str = "schema";

/// At most this many schema problems are reported for one document; the
/// rest are summarised in one final problem.
pub const MAX_PROBLEMS: usize = 200;

/// The most schema errors listed for one document (see
/// `doc_json::with_error_budget`): enough for [`MAX_PROBLEMS`] problems,
/// and a bound on the time and memory an error in every item of a large
/// document costs.
pub const MAX_ERRORS: usize = 10 * MAX_PROBLEMS;

/// Names a bundle made by `build.rs`: (file name, contents).
macro_rules! bundle {
    ($file:literal) => {
        ($file, include_str!(concat!(env!("OUT_DIR"), "/", $file)))
    };
}

/// Every schema file as written in `schemas/`: (file name, contents). The
/// tests check them against the draft 2020-12 meta-schema; validators are
/// built from their bundles.
pub const FILES: [(&str, &str); 9] = [
    (
        "reviewgate-defs.schema.json",
        include_str!("../../schemas/reviewgate-defs.schema.json"),
    ),
    (
        "reviewgate-agent-result-v1.schema.json",
        include_str!("../../schemas/reviewgate-agent-result-v1.schema.json"),
    ),
    (
        "reviewgate-review-output-v3.schema.json",
        include_str!("../../schemas/reviewgate-review-output-v3.schema.json"),
    ),
    (
        "reviewgate-review-output-legacy.schema.json",
        include_str!("../../schemas/reviewgate-review-output-legacy.schema.json"),
    ),
    (
        "reviewgate-agent-dispositions-v1.schema.json",
        include_str!("../../schemas/reviewgate-agent-dispositions-v1.schema.json"),
    ),
    (
        "river-review-artifact.schema.json",
        include_str!("../../schemas/river-review-artifact.schema.json"),
    ),
    (
        "river-output.schema.json",
        include_str!("../../schemas/river-output.schema.json"),
    ),
    (
        "river-suppression-context.schema.json",
        include_str!("../../schemas/river-suppression-context.schema.json"),
    ),
    (
        "riverbed-entry.schema.json",
        include_str!("../../schemas/riverbed-entry.schema.json"),
    ),
];

/// The River Review memory documents `triage` checks before writing them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RiverEntrySchema {
    /// The `context` of a memory entry of type `suppression`.
    SuppressionContext,
    /// One whole entry of `.river/memory/index.json`.
    MemoryEntry,
}

impl RiverEntrySchema {
    /// The schema file that describes it.
    pub fn file_name(self) -> &'static str {
        match self {
            RiverEntrySchema::SuppressionContext => "river-suppression-context.schema.json",
            RiverEntrySchema::MemoryEntry => "riverbed-entry.schema.json",
        }
    }
}

/// The schema file that describes a review format.
pub fn file_name(format: Format) -> &'static str {
    match format {
        Format::AgentResult => "reviewgate-agent-result-v1.schema.json",
        Format::ArtifactV3 => "reviewgate-review-output-v3.schema.json",
        Format::ArtifactLegacy => "reviewgate-review-output-legacy.schema.json",
        Format::Disposition => "reviewgate-agent-dispositions-v1.schema.json",
        Format::RiverArtifact => "river-review-artifact.schema.json",
        Format::RiverRun => "river-output.schema.json",
    }
}

/// Validates a parsed document against the schema of its format and returns
/// every violation (empty when the document conforms).
pub fn check(format: Format, root: DocNode<'_>) -> Vec<Problem> {
    run(file_name(format), root)
}

/// Validates a River Review memory document (an entry, or a suppression's
/// `context`) against its schema.
///
/// These documents are small and built in memory; they are written out and
/// read back as a [`crate::model::json::Doc`], so that every check runs on
/// the one validator kind.
pub fn check_river_entry(kind: RiverEntrySchema, value: &Value) -> Vec<Problem> {
    match Doc::of_value(value) {
        Ok(doc) => run(kind.file_name(), doc.root()),
        Err(problem) => vec![problem],
    }
}

/// Builds every validator now (a few milliseconds), so the first check does
/// not pay for it. Calling it is optional; validators are built once either way.
pub fn warm() {
    // A schema that fails to compile is a build defect (covered by tests);
    // `check` then reports it as a problem on every document.
    for (name, _) in BUNDLES {
        let _ = compiled(name);
    }
}

/// The bundled schema of every entry file (see `build.rs`): (file name,
/// one self-contained, minified document). These are what a process
/// compiles; [`FILES`] are what they are made from.
const BUNDLES: [(&str, &str); 8] = [
    bundle!("reviewgate-agent-result-v1.schema.json"),
    bundle!("reviewgate-review-output-v3.schema.json"),
    bundle!("reviewgate-review-output-legacy.schema.json"),
    bundle!("reviewgate-agent-dispositions-v1.schema.json"),
    bundle!("river-review-artifact.schema.json"),
    bundle!("river-output.schema.json"),
    bundle!("river-suppression-context.schema.json"),
    bundle!("riverbed-entry.schema.json"),
];

/// A compiled validator with the bundle it was compiled from (read when
/// wording conditional errors).
struct Compiled {
    validator: Validator<DocJson>,
    schema: Value,
}

/// One lazily compiled validator per bundle.
///
/// Compiling is the costly part, so each validator is built only when its
/// format is first checked: checking one agent result does not pay for the
/// River or legacy schemas.
static COMPILED: [OnceLock<Result<Compiled, String>>; BUNDLES.len()] = [const { OnceLock::new() }; BUNDLES.len()];

/// The validator of one entry file, compiled on first use.
fn compiled(file: &'static str) -> Result<&'static Compiled, String> {
    let index = BUNDLES
        .iter()
        .position(|(name, _)| *name == file)
        .ok_or_else(|| format!("{file}: not embedded"))?;
    COMPILED[index]
        .get_or_init(|| compile(BUNDLES[index]))
        .as_ref()
        .map_err(Clone::clone)
}

/// Compiles the validator of one bundle, keeping the bundle.
///
/// The bundle is one resource with local `$ref`s only, registered under a
/// URI of `jsonschema`'s own `json-schema:` scheme: such a base is not
/// resolved into an absolute keyword location for every keyword compiled
/// (errors then carry none; the wording finds the keyword by its evaluation
/// path instead).
///
/// The validator is built from a one-member entry point under draft 4
/// (see [`entry_point`]), so the bundle itself is not meta-checked at run
/// time: the files it is made from are checked against the draft 2020-12
/// meta-schema by a test (`every_embedded_schema_conforms_to_its_meta_schema`).
/// The bundle keeps its own `$schema` (2020-12), and every keyword in it is
/// compiled and reported by that draft's rules: `format` is an annotation.
fn compile((file, text): (&'static str, &'static str)) -> Result<Compiled, String> {
    let schema: Value = serde_json::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let uri = format!("json-schema:///{file}");
    let registry = Registry::new()
        .draft(Draft::Draft202012)
        .add(uri.as_str(), &schema)
        .and_then(|builder| builder.prepare())
        .map_err(|e| format!("{file}: {e}"))?;
    let validator = jsonschema::options_for::<DocJson>()
        .with_draft(Draft::Draft4)
        .with_registry(&registry)
        .should_validate_formats(false)
        .offline()
        .build(&entry_point(&uri))
        .map_err(|e| format!("{file}: {e}"))?;
    drop(registry);
    Ok(Compiled { validator, schema })
}

/// The schema a validator is built from: one `$ref` to the bundle, under
/// draft 4.
///
/// `jsonschema` checks the schema a validator is built from against its
/// draft's meta-schema, in every process; checking a bundle against the
/// draft 2020-12 meta-schema cost about as much as parsing it. Only this
/// entry point is checked, against the far smaller draft 4 meta-schema.
fn entry_point(uri: &str) -> Value {
    serde_json::json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "$ref": uri,
    })
}

fn run(file: &'static str, root: DocNode<'_>) -> Vec<Problem> {
    let compiled = match compiled(file) {
        Ok(c) => c,
        Err(e) => {
            return vec![Problem::new(
                SCHEMA_RULE,
                "",
                format!("internal error: schemas unusable: {e}"),
            )];
        }
    };
    if compiled.validator.is_valid(root) {
        return Vec::new();
    }
    // Problems are worded in the member order they always had (see
    // `DocNode::in_name_order`); valid documents never take this path.
    let root = root.in_name_order();
    let (errors, stopped) = doc_json::with_error_budget(MAX_ERRORS, || {
        compiled
            .validator
            .iter_errors(root)
            .collect::<Vec<ValidationError<'_>>>()
    });
    // A value outside an enum (or const) also fails that member's `type`;
    // the enum message, which lists the allowed values, is the one to keep.
    let listed: HashSet<&str> = errors
        .iter()
        .filter(|e| {
            matches!(
                e.kind(),
                ValidationErrorKind::Enum { .. } | ValidationErrorKind::Constant { .. }
            )
        })
        .map(|e| e.instance_path().as_str())
        .collect();
    let redundant = |error: &ValidationError<'_>| {
        matches!(error.kind(), ValidationErrorKind::Type { .. }) && listed.contains(error.instance_path().as_str())
    };
    // Only the problems shown are worded; the rest are counted.
    let mut problems = Vec::new();
    let mut more = 0;
    for error in errors.iter().filter(|e| !redundant(e)) {
        if problems.len() < MAX_PROBLEMS {
            wording::describe(error, &compiled.schema, &mut problems);
        } else {
            more += problem_count(error);
        }
    }
    if problems.len() > MAX_PROBLEMS {
        more += problems.len() - MAX_PROBLEMS;
        problems.truncate(MAX_PROBLEMS);
    }
    if more > 0 || stopped {
        problems.push(Problem::new(SCHEMA_RULE, "", summary(more, stopped)));
    }
    problems
}

/// How many problems an error stands for, without wording them.
fn problem_count(error: &ValidationError<'_>) -> usize {
    match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => unexpected.len(),
        _ => 1,
    }
}

/// The final problem of a capped list: how many more there are, or, when
/// the listing stopped at [`MAX_ERRORS`], how many more at least.
fn summary(more: usize, stopped: bool) -> String {
    if stopped {
        format!("... and at least {more} more schema problems (the check stops after {MAX_ERRORS} errors)")
    } else {
        format!("... and {more} more schema problems")
    }
}

#[cfg(test)]
mod bundle_tests;
#[cfg(test)]
mod tests;
