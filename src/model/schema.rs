//! The JSON Schemas of every format `triage` reads or writes, embedded at build
//! time and compiled once.
//!
//! The schemas live in `schemas/` (draft 2020-12) and refer to each other by
//! relative `$ref` under one base URI. They are put in one
//! [`jsonschema::Registry`] and compiled offline: nothing is fetched from the
//! network or read from disk at run time. Validators are built on first use
//! (or by [`warm`]) and shared by every later call.
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
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// The base URI every embedded schema's `$id` lives under.
pub const SCHEMA_BASE: &str = "https://triage.invalid/schemas/";

/// Rule id of every problem [`check`] and [`check_river_entry`] report.
pub const SCHEMA_RULE: &str = "schema";

/// At most this many schema problems are reported for one document; the
/// rest are summarised in one final problem.
pub const MAX_PROBLEMS: usize = 200;

/// Every embedded schema file: (file name, contents).
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
    for (name, _) in FILES {
        let _ = compiled(name);
    }
}

/// A compiled validator with the schema documents it was compiled from
/// (read when wording conditional errors).
struct Compiled {
    validator: Validator<DocJson>,
    documents: HashMap<String, Value>,
}

/// One lazily compiled validator per embedded file.
///
/// Compiling is the costly part, so each validator is built only when its
/// format is first checked, from a registry holding just the files it refers
/// to (directly or through other files): checking one agent result does not
/// pay for the River or legacy schemas.
static COMPILED: [OnceLock<Result<Compiled, String>>; FILES.len()] = [const { OnceLock::new() }; FILES.len()];

/// The validator of one embedded file, compiled on first use.
fn compiled(file: &'static str) -> Result<&'static Compiled, String> {
    let index = FILES
        .iter()
        .position(|(name, _)| *name == file)
        .ok_or_else(|| format!("{file}: not embedded"))?;
    COMPILED[index]
        .get_or_init(|| compile(file))
        .as_ref()
        .map_err(Clone::clone)
}

/// Compiles the validator of `file`, keeping the schema documents it was
/// compiled from.
fn compile(file: &'static str) -> Result<Compiled, String> {
    let mut documents = HashMap::new();
    for name in closure(file) {
        let text = FILES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
            .unwrap_or_default();
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("{name}: {e}"))?;
        let id = schema_id(name);
        if doc.get("$id").and_then(Value::as_str) != Some(id.as_str()) {
            return Err(format!("{name}: its $id is not {id}"));
        }
        documents.insert(id, doc);
    }
    let registry = Registry::new()
        .draft(Draft::Draft202012)
        .extend(documents.iter().map(|(id, doc)| (id.as_str(), doc)))
        .and_then(|builder| builder.prepare())
        .map_err(|e| format!("schema registry: {e}"))?;
    if !documents.contains_key(&schema_id(file)) {
        return Err(format!("{file}: not embedded"));
    }
    let validator = jsonschema::options_for::<DocJson>()
        .with_draft(Draft::Draft4)
        .with_registry(&registry)
        .offline()
        .build(&entry_point(file))
        .map_err(|e| format!("{file}: {e}"))?;
    drop(registry);
    Ok(Compiled { validator, documents })
}

/// The schema a validator is built from: one `$ref` to the embedded file,
/// under draft 4.
///
/// `jsonschema` checks the schema a validator is built from against its
/// draft's meta-schema, in every process, and building its draft 2020-12
/// meta-schema validator costs more than anything else `triage validate`
/// does on a small file. The embedded files are fixed at build time and
/// checked against the 2020-12 meta-schema by a test
/// (`every_embedded_schema_conforms_to_its_meta_schema`), so at run time
/// only this one-member entry point is meta-checked, against the far
/// smaller draft 4 meta-schema. The file it refers to keeps its own
/// `$schema` (2020-12), and every keyword under it is compiled and
/// reported by that draft's rules.
fn entry_point(file: &str) -> Value {
    serde_json::json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "$ref": schema_id(file),
    })
}

/// The embedded files each embedded file refers to by `$ref` (directly).
///
/// Written out rather than found by searching the texts, which cost a
/// measurable part of a small file's `validate`; a test
/// (`the_reference_table_matches_the_schema_texts`) checks it against the
/// texts.
const REFERS: [(&str, &[&str]); FILES.len()] = [
    ("reviewgate-defs.schema.json", &[]),
    (
        "reviewgate-agent-result-v1.schema.json",
        &["reviewgate-defs.schema.json"],
    ),
    (
        "reviewgate-review-output-v3.schema.json",
        &["reviewgate-defs.schema.json"],
    ),
    (
        "reviewgate-review-output-legacy.schema.json",
        &["reviewgate-defs.schema.json", "reviewgate-review-output-v3.schema.json"],
    ),
    (
        "reviewgate-agent-dispositions-v1.schema.json",
        &["reviewgate-defs.schema.json"],
    ),
    ("river-review-artifact.schema.json", &[]),
    ("river-output.schema.json", &["river-review-artifact.schema.json"]),
    ("river-suppression-context.schema.json", &[]),
    ("riverbed-entry.schema.json", &[]),
];

/// `file` and every embedded file it refers to by `$ref`, transitively.
fn closure(file: &'static str) -> Vec<&'static str> {
    let mut out = vec![file];
    let mut next = 0;
    while next < out.len() {
        let refers = REFERS
            .iter()
            .find(|(n, _)| *n == out[next])
            .map_or(&[][..], |(_, r)| *r);
        for &name in refers {
            if !out.contains(&name) {
                out.push(name);
            }
        }
        next += 1;
    }
    out
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
    let errors: Vec<ValidationError<'_>> = compiled.validator.iter_errors(root).collect();
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
    let mut problems = Vec::new();
    for error in &errors {
        let redundant =
            matches!(error.kind(), ValidationErrorKind::Type { .. }) && listed.contains(error.instance_path().as_str());
        if !redundant {
            wording::describe(error, &compiled.documents, &mut problems);
        }
    }
    cap(&mut problems);
    problems
}

/// Keeps the first [`MAX_PROBLEMS`] problems and summarises the rest.
fn cap(problems: &mut Vec<Problem>) {
    if problems.len() > MAX_PROBLEMS {
        let more = problems.len() - MAX_PROBLEMS;
        problems.truncate(MAX_PROBLEMS);
        problems.push(Problem::new(
            SCHEMA_RULE,
            "",
            format!("... and {more} more schema problems"),
        ));
    }
}

/// The `$id` of an embedded schema file.
fn schema_id(file: &str) -> String {
    format!("{SCHEMA_BASE}{file}")
}

#[cfg(test)]
mod tests;
