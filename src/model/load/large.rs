//! Large documents, on two threads.
//!
//! Compiling a schema validator costs a fresh process about as much as
//! parsing a megabyte (most of it is `jsonschema` building its draft 2020-12
//! meta-schema validator, once per process). So for a large document a
//! helper thread starts compiling the validator of the format the document
//! most likely has before the input is even read, while this thread reads
//! and parses it; then the helper checks the parsed document against the
//! schema while this thread decodes it and runs the rules.
//!
//! The guess is only a head start: the format is told from the parsed
//! document, and a wrong guess costs the spare core's time, nothing else.

use super::{Loaded, fast_path, has_fast_path, parse_and_detect};
use crate::model::json::Doc;
use crate::model::review::Format;
use crate::model::schema;
use std::borrow::Cow;
use std::io::{Read, Seek, SeekFrom};
use std::sync::{OnceLock, mpsc};

/// How much of each end of a document [`likely_format`] looks at.
const EDGE: usize = 4096;

/// Loads a large document whose bytes `read` provides. The validator of
/// `guess` is compiled while `read` runs and the document is parsed.
/// `read` failing ends the load with its error.
pub(super) fn load<'b, E>(
    guess: Option<Format>,
    forced: Option<Format>,
    read: impl FnOnce() -> Result<Cow<'b, [u8]>, E>,
) -> Result<Loaded, E> {
    let guess = guess.filter(|f| has_fast_path(*f));
    let input: OnceLock<Cow<'b, [u8]>> = OnceLock::new();
    let parsed: OnceLock<Doc<'_>> = OnceLock::new();
    let (to_helper, from_main) = mpsc::channel::<Format>();
    std::thread::scope(|scope| {
        // Dropped on every way out of this closure, which lets the helper end.
        let to_helper = to_helper;
        let parsed = &parsed;
        let helper = scope.spawn(move || {
            if let Some(format) = guess {
                schema::prepare(format);
            }
            let format = from_main.recv().ok()?;
            schema::conforms(format, parsed.get()?.root())
        });
        let data = read()?;
        let bytes: &[u8] = input.get_or_init(|| data);
        let (doc, format) = match parse_and_detect(bytes, forced) {
            Ok(parsed) => parsed,
            Err(failed) => return Ok(*failed),
        };
        let doc = parsed.get_or_init(|| doc);
        if has_fast_path(format) && to_helper.send(format).is_ok() {
            let verdict = || helper.join().ok().flatten();
            if let Some(loaded) = fast_path(format, doc.root(), bytes.len(), verdict) {
                return Ok(loaded);
            }
        }
        Ok(super::check(doc.root().to_value(), bytes.len(), format, false))
    })
}

/// A guess at the format of a document in memory (see [`likely_format`]).
pub(super) fn guess_in(bytes: &[u8]) -> Option<Format> {
    let head = &bytes[..bytes.len().min(EDGE)];
    let tail = &bytes[bytes.len().saturating_sub(EDGE)..];
    likely_format(head, tail)
}

/// A guess at the format of a file from its two ends, read before the file
/// itself is; the file is left at its start. `None` when it cannot be read
/// (the read proper then reports why).
pub(super) fn guess_in_file(file: &mut std::fs::File, len: u64) -> Option<Format> {
    let mut head = Vec::with_capacity(EDGE);
    let mut tail = Vec::with_capacity(EDGE);
    (&mut *file).take(EDGE as u64).read_to_end(&mut head).ok()?;
    file.seek(SeekFrom::Start(len.saturating_sub(EDGE as u64))).ok()?;
    (&mut *file).take(EDGE as u64).read_to_end(&mut tail).ok()?;
    file.seek(SeekFrom::Start(0)).ok()?;
    likely_format(&head, &tail)
}

/// A guess at the format from raw bytes, before parsing: the member names
/// that tell the formats apart, looked for near either end of the document
/// (where writers put top-level members). Never trusted: see
/// [`super::detect`].
fn likely_format(head: &[u8], tail: &[u8]) -> Option<Format> {
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
    use std::io::Write;

    const DEMO: &[u8] = include_bytes!("../../../assets/demo-agent-result.json");

    #[test]
    fn the_guess_reads_either_end_of_a_file_and_leaves_it_at_its_start() {
        // The telling member far from the start, as in a document whose
        // members are written in alphabetical order.
        let middle = format!("\"{}\"", "x".repeat(3 * EDGE));
        let bytes = format!("{{\"findings\": [{middle}], \"schema_version\": \"reviewgate-agent-result/v1\"}}").into_bytes();
        let mut file = tempfile::tempfile().expect("tempfile");
        file.write_all(&bytes).expect("write");
        let len = bytes.len() as u64;
        assert_eq!(guess_in_file(&mut file, len), Some(Format::AgentResult));
        assert_eq!(guess_in(&bytes), Some(Format::AgentResult));
        let mut again = Vec::new();
        file.read_to_end(&mut again).expect("read");
        assert_eq!(again, bytes, "the file is read whole after the guess");
    }

    #[test]
    fn a_wrong_or_missing_guess_changes_nothing_but_the_time() {
        let reference = super::super::load_bytes_via_value(DEMO, None);
        assert!(reference.is_valid(), "{:?}", reference.problems.first());
        for guess in [None, Some(Format::AgentResult), Some(Format::ArtifactV3), Some(Format::RiverRun)] {
            let read = || Ok::<_, std::convert::Infallible>(Cow::Borrowed(DEMO));
            let Ok(loaded) = load(guess, None, read);
            assert_eq!(loaded, reference, "guess {guess:?}");
        }
    }

    #[test]
    fn a_failed_read_ends_the_load_with_its_error() {
        let read = || Err::<Cow<'_, [u8]>, _>("unreadable");
        assert_eq!(load(Some(Format::AgentResult), None, read).err(), Some("unreadable"));
    }
}
