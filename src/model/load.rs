//! Loading: bytes -> strict JSON -> detected format -> schema -> rules -> model.
//!
//! The input is parsed once, into a [`Doc`] (a token tape lending its strings
//! out of the input). Agent results and v3 outputs are checked on the `Doc`
//! itself; everything else, and every document those checks find fault with,
//! is checked on the `serde_json::Value` built from it (see [`load_doc`]).

use super::json::{Doc, DocNode, Kind, ReadLimits, read_doc};
use super::problem::Problem;
use super::review::{Checked, Format, ReviewSet};
use serde_json::Value;
use std::io::Read;
use std::path::Path;

mod input;
mod large;
mod placement;

/// The largest input read at all (a v3 artifact can be large; agent results
/// are further limited to 1 MiB by rule R1).
pub const MAX_INPUT_BYTES: usize = 256 * 1024 * 1024;

/// From this size on, the schema check runs on its own thread beside the
/// rules (and the validator is compiled while the document is parsed).
const PARALLEL_CHECK_BYTES: usize = 256 * 1024;

/// A loaded document: its format (when it could be told), the model (when it
/// could be built) and every problem. Valid means no problems.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub format: Option<Format>,
    pub set: Option<ReviewSet>,
    pub problems: Vec<Problem>,
    /// The parsed document, kept only when asked for (projection and
    /// fingerprint commands): a large artifact's value costs more memory than
    /// its model, so the model-only loaders free it as soon as it is built.
    pub value: Option<Value>,
}

impl Loaded {
    /// True when the document passed every check.
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty() && self.format.is_some()
    }

    fn failed(format: Option<Format>, problem: Problem) -> Loaded {
        Loaded {
            format,
            set: None,
            problems: vec![problem],
            value: None,
        }
    }
}

/// Errors reading the input itself (before any JSON rule applies).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

/// Reads a path (`-` = stdin) and loads it. The raw bytes are freed as soon
/// as the model is built, and the parsed value (on the slow path) as soon as
/// the model is built from it, so the peak memory of a large artifact stays a
/// small multiple of its size.
pub fn load_path(path: &Path, forced: Option<Format>) -> Result<Loaded, LoadError> {
    if path.as_os_str() == "-" {
        return Ok(load_doc(&read_input(path)?, forced, false));
    }
    let file = open(path)?;
    let len = file.metadata().ok().filter(|m| m.is_file()).map_or(0, |m| m.len());
    let input = input::read_whole(file, len, (MAX_INPUT_BYTES + 1) as u64).map_err(|e| io_error(path, e))?;
    Ok(load_doc(input.as_ref(), forced, false))
}

/// Like [`load_path`], but keeps the parsed value in [`Loaded::value`].
pub fn load_path_keeping_value(path: &Path, forced: Option<Format>) -> Result<Loaded, LoadError> {
    let bytes = read_input(path)?;
    Ok(load_doc(&bytes, forced, true))
}

/// Reads a path (`-` = stdin) into memory, refusing more than [`MAX_INPUT_BYTES`] + 1.
pub fn read_input(path: &Path) -> Result<Vec<u8>, LoadError> {
    let limit = (MAX_INPUT_BYTES + 1) as u64;
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(|e| io_error(path, e))?;
        return Ok(bytes);
    }
    let file = open(path)?;
    let len = file.metadata().map_or(0, |m| m.len());
    input::read_heap(file, len, limit).map_err(|e| io_error(path, e))
}

fn open(path: &Path) -> Result<std::fs::File, LoadError> {
    std::fs::File::open(path).map_err(|e| io_error(path, e))
}

fn io_error(path: &Path, source: std::io::Error) -> LoadError {
    LoadError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Loads a document from memory (the parsed value is not kept).
pub fn load_bytes(bytes: &[u8], forced: Option<Format>) -> Loaded {
    load_doc(bytes, forced, false)
}

/// Loads a document from memory on the `Value` path only (see [`load_doc`]):
/// the reference the fast path is tested against. Slower; same result.
pub fn load_bytes_via_value(bytes: &[u8], forced: Option<Format>) -> Loaded {
    let mut loaded = load_doc(bytes, forced, true);
    loaded.value = None;
    loaded
}

/// Parses once into a [`Doc`], tells the format, then takes one of two paths:
///
/// - the fast path, for agent results and v3 outputs: the schema check and
///   the typed decoding work on the `Doc` itself, and most documents are
///   done there;
/// - the `Value` path, for the other formats, for documents the fast path
///   finds fault with, and when the value is to be kept: the document's
///   `serde_json::Value` is built and every check words its problems.
///
/// Both paths apply the same schemas and rules, so they agree on every
/// verdict (a test compares them on every file of the conformance set).
fn load_doc(bytes: &[u8], forced: Option<Format>, keep_value: bool) -> Loaded {
    let raw_len = bytes.len();
    if keep_value || raw_len < PARALLEL_CHECK_BYTES {
        let (doc, format) = match parse_and_detect(bytes, forced) {
            Ok(parsed) => parsed,
            Err(failed) => return *failed,
        };
        if !keep_value
            && let Some(loaded) = fast_path(format, doc.root(), raw_len, || {
                super::schema::conforms(format, doc.root())
            })
        {
            return loaded;
        }
        let value = doc.root().to_value();
        drop(doc);
        return check(value, raw_len, format, keep_value);
    }
    large::load(bytes, forced)
}

/// Parses and tells the format, or says why neither could be done.
fn parse_and_detect(bytes: &[u8], forced: Option<Format>) -> Result<(Doc<'_>, Format), Box<Loaded>> {
    let doc = parse(bytes).map_err(|problem| Box::new(Loaded::failed(forced, problem)))?;
    match forced.or_else(|| detect(doc.root())) {
        Some(format) => Ok((doc, format)),
        None => Err(Box::new(Loaded::failed(
            None,
            Problem::new(
                "format",
                "",
                "cannot tell the format: expected a ReviewGate agent result, review output or disposition, \
                 or a River Review artifact or run output (use --kind to force one)",
            ),
        ))),
    }
}

/// The formats checked on the `Doc` itself.
fn has_fast_path(format: Format) -> bool {
    matches!(format, Format::AgentResult | Format::ArtifactV3)
}

fn parse(bytes: &[u8]) -> Result<Doc<'_>, Problem> {
    let limits = ReadLimits {
        max_bytes: MAX_INPUT_BYTES,
        ..ReadLimits::default()
    };
    read_doc(bytes, &limits)
}

/// The checks of an agent result or v3 output on its `Doc`: the typed
/// decoding and the rules here, then the schema verdict from `conforms`.
/// `None` when the format has no fast path or the document does not conform
/// to its schema or does not decode (the `Value` path then says exactly why).
fn fast_path(
    format: Format,
    root: DocNode<'_>,
    raw_len: usize,
    conforms: impl FnOnce() -> Option<bool>,
) -> Option<Loaded> {
    use super::reviewgate;
    let checked = match format {
        Format::AgentResult => reviewgate::check_agent_result_doc(root, raw_len),
        Format::ArtifactV3 => reviewgate::check_artifact_doc(root),
        _ => None,
    };
    let checked = checked.filter(|_| conforms() == Some(true))?;
    let mut problems = checked.problems;
    dedup_problems(&mut problems);
    Some(Loaded {
        format: Some(format),
        set: checked.set,
        problems,
        value: None,
    })
}

/// Runs the schema and the rules on one parsed value (the `Value` path).
fn check(value: Value, raw_len: usize, format: Format, keep_value: bool) -> Loaded {
    let (mut problems, checked) = if raw_len >= PARALLEL_CHECK_BYTES {
        // The schema and the rules only read the value: on a large document
        // they run side by side, on two cores (see `placement`).
        std::thread::scope(|scope| {
            let (handshake, started) = placement::handshake();
            let schema = scope.spawn(|| {
                started.started();
                super::schema::check(format, &value)
            });
            handshake.wait();
            let checked = check_format(format, &value, raw_len);
            let problems = schema.join().unwrap_or_else(|_| {
                vec![Problem::new(
                    "schema",
                    "",
                    "internal error: the schema check stopped unexpectedly",
                )]
            });
            (problems, checked)
        })
    } else {
        (
            super::schema::check(format, &value),
            check_format(format, &value, raw_len),
        )
    };
    problems.extend(checked.problems);
    dedup_problems(&mut problems);
    Loaded {
        format: Some(format),
        set: checked.set,
        problems,
        value: keep_value.then_some(value),
    }
}

fn check_format(format: Format, value: &Value, raw_len: usize) -> Checked {
    use super::{reviewgate, river};
    match format {
        Format::AgentResult => reviewgate::check_agent_result(value, raw_len),
        Format::ArtifactV3 => reviewgate::check_artifact(value),
        Format::ArtifactLegacy => reviewgate::check_legacy_artifact(value),
        Format::Disposition => match super::disposition::validate_payload(value) {
            Ok(_) => Checked::default(),
            Err(problems) => Checked { set: None, problems },
        },
        Format::RiverArtifact => river::check_artifact(value),
        Format::RiverRun => river::check_run_output(value),
    }
}

/// Removes exact repeats (the schema and the typed rules can both see one fault).
fn dedup_problems(problems: &mut Vec<Problem>) {
    let mut seen = std::collections::HashSet::new();
    problems.retain(|p| seen.insert((p.rule.clone(), p.path.clone(), p.message.clone())));
}

/// Tells the format from the content alone.
pub fn detect(root: DocNode<'_>) -> Option<Format> {
    match root.kind() {
        Kind::Object => detect_object(root),
        // Positional-array form (P10): upstream reads structs as arrays; the
        // first element of an agent result or payload is its schema_version.
        Kind::Array => match root.items().next().and_then(|first| first.as_str()) {
            Some(s) if s.starts_with("reviewgate-agent-result") => Some(Format::AgentResult),
            Some(s) if s.starts_with("reviewgate-agent-dispositions") => Some(Format::Disposition),
            _ => None,
        },
        _ => None,
    }
}

fn detect_object(map: DocNode<'_>) -> Option<Format> {
    if let Some(version) = map.get("schema_version") {
        let v = version.as_str().unwrap_or("");
        if v.starts_with("reviewgate-agent-dispositions") || map.has("submission") {
            return Some(Format::Disposition);
        }
        return Some(Format::AgentResult);
    }
    if map.has("submission") {
        return Some(Format::Disposition);
    }
    if map.has("version") && (map.has("phase") || map.has("timestamp")) {
        return Some(Format::RiverArtifact);
    }
    if map.has("issues") && !map.has("verdict") {
        return Some(Format::RiverRun);
    }
    let artifact_keys = ["verdict", "models", "notes", "reviewed_sha"];
    if artifact_keys.iter().filter(|k| map.has(k)).count() >= 2 {
        return Some(if super::reviewgate::is_legacy_artifact(map) {
            Format::ArtifactLegacy
        } else {
            Format::ArtifactV3
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/conformance")
            .join(name);
        std::fs::read(path).expect("fixture")
    }

    fn fast(bytes: &[u8]) -> Option<Loaded> {
        let doc = parse(bytes).expect("json");
        let format = detect(doc.root()).expect("format");
        fast_path(format, doc.root(), bytes.len(), || {
            super::super::schema::conforms(format, doc.root())
        })
    }

    #[test]
    fn conforming_documents_are_done_on_the_fast_path() {
        let demo = include_bytes!("../../assets/demo-agent-result.json");
        let loaded = fast(demo).expect("the demo agent result takes the fast path");
        assert!(loaded.is_valid() && loaded.set.is_some());
        let v3 = fast(&fixture("artifact/valid-tracked-first-review.json")).expect("a v3 output takes the fast path");
        assert_eq!(v3.format, Some(Format::ArtifactV3));
        // Rule faults are still found there: the schema holds, a rule does not.
        let rule = fast(&fixture("artifact/invalid-angle-score-mismatch.json")).expect("schema-valid");
        assert!(!rule.problems.is_empty());
    }

    #[test]
    fn a_schema_fault_sends_the_document_to_the_value_path() {
        let bytes = fixture("artifact/invalid-confidence-negative.json");
        let loaded = load_bytes(&bytes, None);
        assert!(
            loaded.problems.iter().any(|p| p.rule == "schema"),
            "{:?}",
            loaded.problems
        );
        assert!(fast(&bytes).is_none());
    }
}
