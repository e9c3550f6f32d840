//! A River decision whose suppression cannot be written (the disk is full)
//! is reported failed, and recording it again leaves one feedback line for
//! it, not two. A binary of its own: the full disk is a file-size limit,
//! which holds for the whole process.

// A test stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use triage::model::load::load_bytes;
use triage::river_store::entries::Note;
use triage::river_store::{DecisionInput, DecisionStatus, FindingFacts, FingerprintAlgo, RiverPaths, record};

const EXAMPLES: &str = "tests/fixtures/reference/river-review/examples";
const NOW: i64 = 1_795_980_984_116;
const FP_MATH: &str = "d6afba8514c186cd";

#[test]
fn a_decision_recorded_again_after_a_failed_suppression_write_has_one_feedback_line() {
    let bytes = fs::read(Path::new(EXAMPLES).join("exec-two-findings.json")).unwrap();
    let set = load_bytes(&bytes, None).set.unwrap();
    let repo = tempfile::tempdir().unwrap();
    let paths = RiverPaths::new(repo.path());
    fs::create_dir_all(paths.index_dir()).unwrap();
    // An index River wrote, a few KiB long.
    let padding = "x".repeat(3000);
    let index = format!(
        "{{\n  \"entries\": [\n    {{\n      \"id\": \"pattern-1\",\n      \"type\": \"pattern\",\n      \"title\": \"t\",\n      \"content\": \"{padding}\",\n      \"metadata\": {{\n        \"createdAt\": \"2026-11-01T00:00:00.000Z\",\n        \"author\": \"river\"\n      }}\n    }}\n  ],\n  \"version\": \"1\"\n}}\n"
    );
    fs::write(paths.index(), &index).unwrap();
    let facts = FindingFacts::from_set(&set, FP_MATH).unwrap();
    let input = DecisionInput {
        status: DecisionStatus::FalsePositive,
        note: Note {
            evidence: "generated file",
            author: "alice",
            pr: None,
        },
        suppress: true,
        algo: FingerprintAlgo::V1,
        expires_at: None,
    };
    // The disk fills up: files may not grow past 2 KiB (SIGXFSZ handled, so
    // the write fails with EFBIG instead of killing the process).
    let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, Arc::new(AtomicBool::new(false))).unwrap();
    use rustix::process::{Resource, Rlimit, setrlimit};
    setrlimit(
        Resource::Fsize,
        Rlimit {
            current: Some(2048),
            maximum: None,
        },
    )
    .unwrap();
    let first = record(&paths, &facts, &input, NOW, false);
    setrlimit(
        Resource::Fsize,
        Rlimit {
            current: None,
            maximum: None,
        },
    )
    .unwrap();
    assert!(first.is_err(), "the index write failed: {first:?}");
    assert_eq!(
        fs::read_to_string(paths.index()).unwrap(),
        index,
        "the index is as it was"
    );
    // The user sees "failed" and records the decision again.
    let again = record(&paths, &facts, &input, NOW + 1, false).unwrap();
    assert!(again.suppression.is_ok(), "{:?}", again.suppression);
    let feedback = fs::read_to_string(paths.feedback("2026-11")).unwrap();
    let lines: Vec<&str> = feedback.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "one decision, {} feedback lines:\n{feedback}",
        lines.len()
    );
    let written = fs::read_to_string(paths.index()).unwrap();
    assert!(
        written.contains("pattern-1") && written.contains("\"type\": \"suppression\""),
        "{written}"
    );
}
