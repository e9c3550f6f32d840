//! Large documents, on two threads.
//!
//! Compiling a schema validator costs a fresh process about 1.5 ms of CPU,
//! as much as parsing a megabyte (most of it is `jsonschema` building its
//! draft 2020-12 meta-schema validator, once per process). So for a large
//! document a helper thread compiles the validator of the format the
//! document most likely has while this thread parses it; then the helper
//! checks the parsed document against the schema while this thread decodes
//! it and runs the rules.
//!
//! The helper starts once the input is in memory. Starting it before the
//! read, to get a head start, was measured: `list` on a 1 MiB agent result
//! took 6.7 ms instead of 5.2 ms (median of 61 interleaved runs), the
//! read and the helper's start slowing each other far more than the head
//! start gained. This thread waits until the helper runs, on another core
//! than this one (see [`super::placement`]).
//!
//! The guess is only a head start: the format is told from the parsed
//! document, and a wrong guess costs the spare core's time, nothing else.

use super::{Loaded, fast_path, has_fast_path, parse_and_detect};
use crate::model::json::Doc;
use crate::model::review::Format;
use crate::model::schema;
use std::sync::{OnceLock, mpsc};

/// How much of each end of a document [`guess_in`] looks at.
const EDGE: usize = 4096;

/// Loads a large document (see the module documentation).
pub(super) fn load(bytes: &[u8], forced: Option<Format>) -> Loaded {
    let guess = forced.or_else(|| guess_in(bytes)).filter(|f| has_fast_path(*f));
    let parsed: OnceLock<Doc<'_>> = OnceLock::new();
    let (to_helper, from_main) = mpsc::channel::<Format>();
    std::thread::scope(|scope| {
        // Dropped on every way out of this closure, which lets the helper end.
        let to_helper = to_helper;
        let parsed = &parsed;
        let (handshake, started) = super::placement::handshake();
        let helper = scope.spawn(move || {
            started.started();
            if let Some(format) = guess {
                schema::prepare(format);
            }
            let format = from_main.recv().ok()?;
            schema::conforms(format, parsed.get()?.root())
        });
        // Go on once the helper runs, on another core than its own.
        handshake.wait();
        let (doc, format) = match parse_and_detect(bytes, forced) {
            Ok(parsed) => parsed,
            Err(failed) => return *failed,
        };
        let doc = parsed.get_or_init(|| doc);
        if has_fast_path(format) && to_helper.send(format).is_ok() {
            let verdict = || helper.join().ok().flatten();
            if let Some(loaded) = fast_path(format, doc.root(), bytes.len(), verdict) {
                return loaded;
            }
        }
        super::check(doc.root().to_value(), bytes.len(), format, false)
    })
}

/// A guess at the format from raw bytes, before parsing: the member names
/// that tell the formats apart, looked for near either end of the document
/// (where writers put top-level members). Never trusted: see
/// [`super::detect`].
fn guess_in(bytes: &[u8]) -> Option<Format> {
    let head = &bytes[..bytes.len().min(EDGE)];
    let tail = &bytes[bytes.len().saturating_sub(EDGE)..];
    let has = |name: &[u8]| head.windows(name.len()).any(|w| w == name) || tail.windows(name.len()).any(|w| w == name);
    if has(b"\"reviewgate-agent-result/") {
        Some(Format::AgentResult)
    } else if has(b"\"tracked_findings\"") || has(b"\"verdict\"") {
        Some(Format::ArtifactV3)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEMO: &[u8] = include_bytes!("../../../assets/demo-agent-result.json");

    #[test]
    fn the_guess_reads_either_end_of_a_document() {
        // The telling member far from the start, as in a document whose
        // members are written in alphabetical order.
        let middle = format!("\"{}\"", "x".repeat(3 * EDGE));
        let tail = format!("{{\"findings\": [{middle}], \"schema_version\": \"reviewgate-agent-result/v1\"}}");
        assert_eq!(guess_in(tail.as_bytes()), Some(Format::AgentResult));
        let head = format!("{{\"tracked_findings\": [], \"findings\": [{middle}]}}");
        assert_eq!(guess_in(head.as_bytes()), Some(Format::ArtifactV3));
        let neither = format!("{{\"findings\": [{middle}], \"other\": [{middle}]}}");
        assert_eq!(guess_in(neither.as_bytes()), None);
    }

    #[test]
    fn a_wrong_or_missing_guess_changes_nothing_but_the_time() {
        let reference = super::super::load_bytes_via_value(DEMO, None);
        assert!(reference.is_valid(), "{:?}", reference.problems.first());
        for forced in [None, Some(Format::AgentResult)] {
            assert_eq!(load(DEMO, forced), reference, "forced {forced:?}");
        }
        // A v3 output whose text names the agent-result format near its
        // start: guessed wrong, loaded right.
        let v3 = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/conformance/artifact/valid-tracked-first-review.json"
        ))
        .expect("fixture");
        let text = String::from_utf8(v3).expect("utf-8");
        let renamed = text.replace("Helper name is slightly vague", "reviewgate-agent-result/v1");
        assert_eq!(guess_in(renamed.as_bytes()), Some(Format::AgentResult));
        let loaded = load(renamed.as_bytes(), None);
        assert_eq!(loaded.format, Some(Format::ArtifactV3));
        assert_eq!(loaded, super::super::load_bytes_via_value(renamed.as_bytes(), None));
    }
}
