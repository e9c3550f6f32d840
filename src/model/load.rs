//! Loading: bytes -> strict JSON -> detected format -> schema -> rules -> model.
//!
//! There is one path for every document, valid or not: the strict reader
//! writes a compact [`Doc`] that lends its strings out of the input (see
//! [`crate::model::json::doc`]); the format is told from it, the schema is
//! checked on it (the yes/no answer and, for an invalid document, the
//! wording of every problem), and the ReviewGate formats are decoded from it
//! by one strict serde deserializer into typed structs that borrow its
//! strings, on which the rules run. A file's bytes become the document's
//! text without a copy, so a loaded file costs its size, one 8-byte cell
//! per value and member name (two per number), and the typed structs.
//!
//! The disposition payload and the River formats are small documents whose
//! readers walk a `serde_json::Value` by hand: they get the document's
//! `Value` ([`crate::model::json::DocNode::to_value`]) after the schema
//! check and detection ran on the document.

use super::json::{Doc, DocNode, Infinite, Kind, ReadLimits, read_as_javascript, read_doc, read_doc_owned};
use super::problem::Problem;
use super::review::{Checked, Format, ReviewSet};
use std::borrow::Cow;
use std::path::Path;

mod input;
mod prefix;

/// The largest input read at all (a v3 artifact can be large; agent results
/// are further limited to 1 MiB by rule R1).
pub const MAX_INPUT_BYTES: usize = 256 * 1024 * 1024;

/// A loaded document: its format (when it could be told), the model (when it
/// could be built) and every problem. Valid means no problems.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub format: Option<Format>,
    pub set: Option<ReviewSet>,
    pub problems: Vec<Problem>,
    /// The parsed document (owning the file's bytes), kept only when asked
    /// for (projection and fingerprint commands); the model-only loaders
    /// free it as soon as the model is built. [`load_path_for_value`] builds
    /// no model of a v3 review output beside it (`set` is `None`): a model
    /// beside the document would be the largest part of those commands'
    /// peak memory.
    pub doc: Option<Doc<'static>>,
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
            doc: None,
        }
    }
}

/// Errors reading the input itself (before any JSON rule applies).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
    /// The path names something other than a regular file (a FIFO, a
    /// device, a directory ...), which is refused before it is read.
    #[error("cannot read {path}: it is {what}; only regular files and - (standard input) are read")]
    NotAFile { path: String, what: &'static str },
}

/// The most bytes a document of `format` may have, enforced while reading:
/// 1 MiB for agent results (R1), [`MAX_INPUT_BYTES`] for the rest. A
/// disposition payload has no size rule: ReviewGate's consumer
/// (`extract_agent_disposition_state`) reads one whole and its validation
/// limits only the evidence (D6); what GitHub can carry in a comment is
/// `submit`'s concern, not the payload's verdict.
///
/// When the format is forced, its cap applies from the first byte. When it
/// is told from the content, the first 1 MiB + 1 bytes are read; a longer
/// document whose prefix shows a capped format (see [`prefix`]) is refused
/// there, and any other is read on up to [`MAX_INPUT_BYTES`] and judged
/// whole (a capped format shown only after the first MiB is then judged by
/// R1 after the full read).
pub fn max_bytes(format: Format) -> usize {
    match format {
        Format::AgentResult => super::reviewgate::MAX_BYTES,
        _ => MAX_INPUT_BYTES,
    }
}

/// Reads a path (`-` = stdin) and loads it. The bytes and the parsed
/// document are freed as soon as the model is built.
pub fn load_path(path: &Path, forced: Option<Format>) -> Result<Loaded, LoadError> {
    load_path_with(path, forced, Keep::Model)
}

/// Like [`load_path`], but keeps the parsed document in [`Loaded::doc`].
pub fn load_path_keeping_value(path: &Path, forced: Option<Format>) -> Result<Loaded, LoadError> {
    load_path_with(path, forced, Keep::ModelAndValue)
}

/// Like [`load_path_keeping_value`], but a v3 review output gets no model:
/// its problems are the same, its `set` is `None` (a J6 projection failure
/// is not a problem of the file, so it is not looked for here).
pub fn load_path_for_value(path: &Path, forced: Option<Format>) -> Result<Loaded, LoadError> {
    load_path_with(path, forced, Keep::Value)
}

/// What a load keeps besides the problems.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// The model; the parsed document is freed once it is built.
    Model,
    /// The model and the parsed document.
    ModelAndValue,
    /// The parsed document, and the model only of formats other than v3.
    Value,
}

fn load_path_with(path: &Path, forced: Option<Format>, keep: Keep) -> Result<Loaded, LoadError> {
    // The prefix of a file told from its content is scanned once: what it
    // shows picks the cap to read on to and judges the size afterwards.
    let mut shown = None;
    let bytes = match forced {
        Some(format) => input::read_capped(path, max_bytes(format))?,
        None => input::read_in_two_steps(path, super::reviewgate::MAX_BYTES, |prefix| {
            shown = prefix::capped_format(prefix);
            shown.map_or(MAX_INPUT_BYTES, max_bytes)
        })?,
    };
    if let Some(format) = over_cap_as(bytes.len(), forced.or(shown)) {
        return Ok(Loaded::failed(Some(format), over_cap(format, max_bytes(format))));
    }
    Ok(load_owned(bytes, forced, keep))
}

/// The capped format of a document that is longer than that format's cap:
/// the forced format, or the one its first 1 MiB + 1 bytes show (see
/// [`prefix`]). Files and bytes in memory are judged by it alike, so a file
/// whose reading stopped at its cap gets the same verdict as the whole
/// document in memory.
fn over_its_cap(bytes: &[u8], forced: Option<Format>) -> Option<Format> {
    let first = super::reviewgate::MAX_BYTES;
    let format = match forced {
        Some(format) => Some(format),
        None if bytes.len() > first => prefix::capped_format(&bytes[..=first]),
        None => None,
    };
    over_cap_as(bytes.len(), format)
}

/// `format` when it is a capped format and `len` bytes are over its cap.
fn over_cap_as(len: usize, format: Option<Format>) -> Option<Format> {
    let format = format?;
    let cap = max_bytes(format);
    (cap < MAX_INPUT_BYTES && len > cap).then_some(format)
}

/// The problem of a document of a known format that is longer than its cap
/// (reading stopped one byte past it).
fn over_cap(format: Format, cap: usize) -> Problem {
    let rule = if format == Format::AgentResult { "R1" } else { "size" };
    Problem::new(
        rule,
        "",
        format!(
            "the file is over {cap} bytes; a {} is at most {cap} bytes",
            format.label()
        ),
    )
}

/// Reads a path (`-` = stdin) into memory, refusing more than [`MAX_INPUT_BYTES`] + 1.
pub fn read_input(path: &Path) -> Result<Vec<u8>, LoadError> {
    input::read_capped(path, MAX_INPUT_BYTES)
}

/// Reads a path (`-` = stdin) into memory, at most `cap` + 1 bytes: a longer
/// input shows as `cap + 1` bytes and was not read further.
pub fn read_input_within(path: &Path, cap: usize) -> Result<Vec<u8>, LoadError> {
    input::read_capped(path, cap)
}

/// Loads a document from memory (the parsed document is not kept). A
/// document over its format's cap gets the one problem a file of it gets.
pub fn load_bytes(bytes: &[u8], forced: Option<Format>) -> Loaded {
    if let Some(format) = over_its_cap(bytes, forced) {
        return Loaded::failed(Some(format), over_cap(format, max_bytes(format)));
    }
    let limits = read_limits();
    let parsed = match read_doc(bytes, &limits) {
        Ok(doc) => Ok((doc, Vec::new())),
        Err(problem) if read_by_javascript_may_pass(&problem) => {
            // The text passed the UTF-8 rule, or P6 and P9 could not have been met.
            let text = std::str::from_utf8(bytes).unwrap_or_default();
            read_as_river(Cow::Borrowed(text), problem, forced)
        }
        Err(problem) => Err(problem),
    };
    match parsed.and_then(|(doc, infinite)| detected(doc, forced, infinite)) {
        Ok((doc, format, infinite)) => check(doc, format, Keep::Model, &infinite).0,
        Err(problem) => Loaded::failed(forced, problem),
    }
}

/// [`load_bytes`] on bytes it owns, which become the document's text.
fn load_owned(bytes: Vec<u8>, forced: Option<Format>, keep: Keep) -> Loaded {
    let limits = read_limits();
    let parsed = match read_doc_owned(bytes, &limits) {
        Ok(doc) => Ok((doc, Vec::new())),
        Err((problem, Some(text))) if read_by_javascript_may_pass(&problem) => {
            read_as_river(Cow::Owned(text), problem, forced)
        }
        Err((problem, _)) => Err(problem),
    };
    match parsed.and_then(|(doc, infinite)| detected(doc, forced, infinite)) {
        Ok((doc, format, infinite)) => {
            let (mut loaded, doc) = check(doc, format, keep, &infinite);
            if keep != Keep::Model {
                loaded.doc = doc;
            }
            loaded
        }
        Err(problem) => Loaded::failed(forced, problem),
    }
}

fn read_limits() -> ReadLimits {
    ReadLimits {
        max_bytes: MAX_INPUT_BYTES,
        ..ReadLimits::default()
    }
}

/// Whether the strict reading failed on something `JSON.parse` reads: a
/// number beyond a double's range (P9) or a string rule (P6, of which only
/// the lone surrogate escape passes the second reading).
fn read_by_javascript_may_pass(problem: &Problem) -> bool {
    matches!(problem.rule.as_str(), "P9" | "P6")
}

/// River Review reads its files with `JSON.parse`, which makes a number
/// beyond a double's range an infinity and keeps a lone surrogate escape
/// (River itself writes one when it cuts a title inside an emoji): a
/// document that fails the strict reading on either and is a River format
/// is read again that way (see [`read_as_javascript`]; the infinities'
/// pointers come along). Every other format keeps the strict problem, and
/// so does a document that fails in the second reading too.
fn read_as_river<'s>(
    text: Cow<'s, str>,
    strict: Problem,
    forced: Option<Format>,
) -> Result<(Doc<'s>, Vec<Infinite>), Problem> {
    let is_river = |f: Option<Format>| matches!(f, Some(Format::RiverArtifact | Format::RiverRun));
    match read_as_javascript(text, &read_limits()) {
        Ok((doc, infinite)) if is_river(forced.or_else(|| detect(doc.root()))) => Ok((doc, infinite)),
        _ => Err(strict),
    }
}

/// The document with its format (forced or told), or why none could be told.
fn detected<'s>(
    doc: Doc<'s>,
    forced: Option<Format>,
    infinite: Vec<Infinite>,
) -> Result<(Doc<'s>, Format, Vec<Infinite>), Problem> {
    match forced.or_else(|| detect(doc.root())) {
        Some(format) => Ok((doc, format, infinite)),
        None => Err(Problem::new(
            "format",
            "",
            "cannot tell the format: expected a ReviewGate agent result, review output or disposition, \
             or a River Review artifact or run output (use --kind to force one)",
        )),
    }
}

/// Runs the schema and the rules on the parsed document; gives the document
/// back unless it was consumed.
///
/// A v3 review output whose document is not kept is consumed: its tape is
/// freed once its typed structs are decoded, before the model is built (the
/// largest files are v3 outputs, and the tape is about two thirds of the
/// file's size).
fn check<'s>(doc: Doc<'s>, format: Format, keep: Keep, infinite: &[Infinite]) -> (Loaded, Option<Doc<'s>>) {
    let mut problems = super::schema::check(format, doc.root());
    super::river::name_infinities(&mut problems, infinite);
    let (checked, doc) = match (keep, format) {
        (Keep::Value, Format::ArtifactV3) => {
            let problems = super::reviewgate::artifact_rule_problems(doc.root());
            (Checked { set: None, problems }, Some(doc))
        }
        (Keep::Model, Format::ArtifactV3) => {
            let (strings, tape) = doc.split();
            let view = Doc::over(&strings, tape);
            (super::reviewgate::check_artifact_freeing(view, strings.strings()), None)
        }
        _ => (check_format(format, doc.root(), doc.text_len(), infinite), Some(doc)),
    };
    problems.extend(checked.problems);
    dedup_problems(&mut problems);
    cap_listed(&mut problems, "problems");
    let mut set = checked.set;
    if let Some(set) = &mut set {
        cap_listed(&mut set.notices, "notices");
    }
    let loaded = Loaded {
        format: Some(format),
        set,
        problems,
        doc: None,
    };
    (loaded, doc)
}

fn check_format(format: Format, root: DocNode<'_>, raw_len: usize, infinite: &[Infinite]) -> Checked {
    use super::{reviewgate, river};
    match format {
        Format::AgentResult => reviewgate::check_agent_result(root, raw_len),
        Format::ArtifactV3 => reviewgate::check_artifact(root),
        Format::ArtifactLegacy => reviewgate::check_legacy_artifact(root),
        Format::Disposition => match super::disposition::validate_payload(&root.to_value()) {
            Ok(_) => Checked::default(),
            Err(problems) => Checked { set: None, problems },
        },
        Format::RiverArtifact => river::check_artifact(&root.to_value(), infinite),
        Format::RiverRun => river::check_run_output(&root.to_value(), infinite),
    }
}

/// Removes exact repeats (the schema and the typed rules can both see one fault).
///
/// Problems are compared by reference, hashed with foldhash: the rules may
/// report one problem for each of a million findings, and copying every
/// problem's strings into the set cost more than finding them.
fn dedup_problems(problems: &mut Vec<Problem>) {
    let keep: Vec<bool> = {
        let mut seen = foldhash::HashSet::with_capacity_and_hasher(problems.len(), Default::default());
        problems
            .iter()
            .map(|p| seen.insert((p.rule.as_str(), p.path.as_str(), p.message.as_str())))
            .collect()
    };
    let mut keep = keep.into_iter();
    problems.retain(|_| keep.next().unwrap_or(true));
}

/// At most this many problems (and as many notices) are kept for one
/// document; the rest are summarised in one final entry. The typed rules
/// and the River reader judge every finding, so a document with a fault in
/// each of a million findings would otherwise print a million lines.
pub const MAX_LISTED: usize = 1000;

/// Keeps the first [`MAX_LISTED`] entries of `list` and summarises the rest
/// in one entry of rule `more`.
fn cap_listed(list: &mut Vec<Problem>, what: &str) {
    if list.len() > MAX_LISTED {
        let more = list.len() - MAX_LISTED;
        list.truncate(MAX_LISTED);
        list.push(Problem::new("more", "", format!("... and {more} more {what}")));
    }
}

/// Tells the format from the content alone.
pub fn detect(root: DocNode<'_>) -> Option<Format> {
    match root.kind() {
        Kind::Object => detect_object(root),
        // Positional-array form (P10): upstream reads structs as arrays; the
        // first element of an agent result or payload is its schema_version.
        Kind::Array => match root.at(0).and_then(|first| first.as_str()) {
            Some(s) if s.starts_with("reviewgate-agent-result") => Some(Format::AgentResult),
            Some(s) if s.starts_with("reviewgate-agent-dispositions") => Some(Format::Disposition),
            _ => None,
        },
        _ => None,
    }
}

fn detect_object(map: DocNode<'_>) -> Option<Format> {
    let has = |k: &str| map.has(k);
    if let Some(version) = map.get("schema_version") {
        let v = version.as_str().unwrap_or("");
        if v.starts_with("reviewgate-agent-dispositions") || has("submission") {
            return Some(Format::Disposition);
        }
        return Some(Format::AgentResult);
    }
    if has("submission") {
        return Some(Format::Disposition);
    }
    if has("version") && (has("phase") || has("timestamp")) {
        return Some(Format::RiverArtifact);
    }
    if has("issues") && !has("verdict") {
        return Some(Format::RiverRun);
    }
    let artifact_keys = ["verdict", "models", "notes", "reviewed_sha"];
    if artifact_keys.iter().filter(|k| has(k)).count() >= 2 {
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

    #[test]
    fn the_format_is_told_from_the_content() {
        let demo = include_bytes!("../../assets/demo-agent-result.json");
        let loaded = load_bytes(demo, None);
        assert_eq!(loaded.format, Some(Format::AgentResult));
        assert!(loaded.is_valid() && loaded.set.is_some(), "{:?}", loaded.problems);
        let payload = br#"{"schema_version": "reviewgate-agent-dispositions/v1"}"#;
        assert_eq!(load_bytes(payload, None).format, Some(Format::Disposition));
        assert_eq!(load_bytes(b"{}", None).problems[0].rule, "format");
    }

    #[test]
    fn a_forced_format_is_capped_while_reading() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("big.json");
        let mut big = b"{\"schema_version\":\"reviewgate-agent-result/v1\",\"pad\":\"".to_vec();
        big.extend(std::iter::repeat_n(b'x', 3 << 20));
        big.extend_from_slice(b"\"}");
        std::fs::write(&path, &big).expect("write");
        let loaded = load_path(&path, Some(Format::AgentResult)).expect("read");
        assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
        assert_eq!(loaded.problems[0].rule, "R1");
        assert!(loaded.problems[0].message.contains("over 1048576 bytes"));
        // Told from its content, the same file stops at the same place.
        let told = load_path(&path, None).expect("read");
        assert_eq!(told, loaded);
    }

    /// ReviewGate sets no size limit on a disposition payload (only its
    /// evidence is limited, D6): a valid one over 1 MiB is valid, read from a
    /// file with its format forced or told from the content.
    #[test]
    fn a_disposition_payload_has_no_size_rule() {
        let payload = serde_json::json!({
            "schema_version": "reviewgate-agent-dispositions/v1",
            "scope": {"kind": "pull_request", "repository": "o/r", "pull_request_number": 7},
            "reviewed_sha": "abc",
            "submission": {"semantic_fingerprint": "fp", "disposition": "fixed", "evidence": "why",
                           "actor": "a".repeat(1_100_000)}
        });
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("payload.json");
        std::fs::write(&path, payload.to_string()).expect("write");
        for forced in [None, Some(Format::Disposition)] {
            let loaded = load_path(&path, forced).expect("read");
            assert_eq!(loaded.format, Some(Format::Disposition));
            assert!(loaded.is_valid(), "{forced:?}: {:?}", loaded.problems);
        }
    }

    /// The River reader judges every finding: a fault in each of many
    /// findings is listed up to a cap, with a count of the rest.
    #[test]
    fn problems_are_capped_with_a_count() {
        let findings = vec![serde_json::json!({}); MAX_LISTED + 10];
        let doc = serde_json::json!({"version": "1", "timestamp": "t", "phase": "midstream", "findings": findings});
        let loaded = load_bytes(doc.to_string().as_bytes(), Some(Format::RiverArtifact));
        assert_eq!(loaded.problems.len(), MAX_LISTED + 1);
        let last = &loaded.problems[MAX_LISTED];
        assert_eq!(last.rule, "more");
        assert!(
            last.message.starts_with("... and ") && last.message.ends_with(" more problems"),
            "{last:?}"
        );
    }
}
