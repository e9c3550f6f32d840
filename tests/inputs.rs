//! What `triage` agrees to read, through the real binary: regular files and
//! standard input only (a FIFO, a device or a directory is refused at once),
//! never more than a format's cap (also when the format is told from the
//! content), and a valid disposition payload given to
//! `list` is named as what it is.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use assert_cmd::Command;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

fn conformance(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/conformance")
        .join(file)
}

fn triage(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("triage")
        .expect("binary")
        .args(args)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("run triage")
}

#[cfg(unix)]
#[test]
fn a_fifo_without_a_writer_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().expect("dir");
    let fifo = dir.path().join("review.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let fifo = fifo.to_str().expect("utf-8 path");
    for args in [
        vec!["list", fifo],
        vec!["validate", fifo],
        vec!["submit", "--payload", fifo, "--dry-run"],
    ] {
        let out = triage(&args);
        // `validate` reports on stdout, the other commands on stderr.
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}: {said}");
        assert!(said.contains("it is a FIFO"), "{args:?}: {said}");
    }
}

#[cfg(unix)]
#[test]
fn devices_and_directories_are_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let dir = dir.path().to_str().expect("utf-8 path");
    for (path, what) in [("/dev/zero", "it is a device"), (dir, "it is a directory")] {
        let out = triage(&["list", path]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{path}: {stderr}");
        assert!(stderr.contains(what), "{path}: {stderr}");
    }
}

/// `submit --payload -` stops reading one byte past 1 MiB: the writer on
/// the other end of the pipe sees it closed long before 64 MiB are taken.
#[test]
fn an_oversize_payload_on_stdin_is_refused_after_its_cap() {
    let (out, written) = endless_stdin(&["submit", "--payload", "-", "--dry-run"], b"", b' ');
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("over 1048576 bytes"), "{stderr}");
    assert!(written < 8 << 20, "{written} bytes were taken from the pipe");
}

#[test]
fn listing_a_valid_payload_says_what_it_is_and_what_to_run() {
    let payload = conformance("disposition/valid-body-escaping.json");
    let payload = payload.to_str().expect("utf-8 path");
    let out = triage(&["list", payload]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("is a ReviewGate agent disposition v1"), "{stderr}");
    assert!(stderr.contains("triage submit --payload"), "{stderr}");
    assert!(!stderr.contains("is not a valid"), "{stderr}");
}

/// Feeds `head` and then endless `pad` bytes to `triage ARGS` on stdin;
/// returns the output and how many bytes the process took before closing
/// the pipe.
fn endless_stdin(args: &[&str], head: &'static [u8], pad: u8) -> (std::process::Output, usize) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("triage"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let mut written = stdin.write(head).unwrap_or(0);
        let chunk = vec![pad; 64 * 1024];
        while written < 64 << 20 {
            match stdin.write(&chunk) {
                Ok(n) => written += n,
                Err(_) => break,
            }
        }
        written
    });
    let out = child.wait_with_output().expect("wait");
    (out, writer.join().expect("writer"))
}

/// A document whose format is told from its content is capped by that
/// format as soon as its first bytes show it: an agent result (object or
/// positional form) stops one byte past 1 MiB, not at 256 MiB. (A
/// disposition payload has no size rule.)
#[test]
fn an_oversize_agent_result_told_from_its_content_stops_at_its_cap() {
    let cases: [(&[u8], &str); 2] = [
        (
            b"{\"schema_version\": \"reviewgate-agent-result/v1\", \"pad\": \"",
            "R1",
        ),
        (b"[\"reviewgate-agent-result/v1\", \"", "R1"),
    ];
    for (head, rule) in cases {
        let (out, written) = endless_stdin(&["validate", "--format", "json", "-"], head, b'x');
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        let verdict: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON verdict");
        let problems = verdict["problems"].as_array().expect("problems");
        assert_eq!(problems.len(), 1, "{stdout}");
        assert_eq!(problems[0]["rule"], rule, "{stdout}");
        assert!(
            problems[0]["message"]
                .as_str()
                .is_some_and(|m| m.contains("over 1048576 bytes")),
            "{stdout}"
        );
        assert!(written < 8 << 20, "{written} bytes were taken from the pipe");
    }
}

/// A large document whose first MiB shows no capped format is read on and
/// judged whole: a 3 MiB file of review-output shape is not refused by size.
#[test]
fn a_large_document_of_an_uncapped_shape_is_read_past_one_mib() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("big.json");
    let mut big = b"{\"verdict\": \"pass\", \"notes\": [\"".to_vec();
    big.extend(std::iter::repeat_n(b'x', 3 << 20));
    big.extend_from_slice(b"\"]}");
    std::fs::write(&path, &big).expect("write");
    let out = triage(&["validate", "--format", "json", path.to_str().expect("utf-8 path")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let verdict: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON verdict");
    let format = verdict["format"].as_str().unwrap_or_default();
    assert!(format.starts_with("artifact"), "{stdout}");
    let problems = verdict["problems"].as_array().expect("problems");
    assert!(!problems.is_empty(), "{stdout}");
    assert!(
        problems.iter().all(|p| p["rule"] != "size" && p["rule"] != "R1"),
        "{stdout}"
    );
}
