//! Small command-line frictions: severities in any case, every option of
//! `list` described in `--help`, `outbox retry` naming `--all` in its usage,
//! `outbox list --format json` printing JSON lines as `list` does, and a
//! `review_error` result saying so on stderr.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "support/binary.rs"]
mod binary;
#[path = "support/fixture.rs"]
mod fixture;

use binary::Run;
use std::path::Path;

fn triage(args: &[&str], dir: &Path) -> Run {
    binary::run(args, dir, None)
}

const PR: &str = "tests/fixtures/conformance/agent-result/valid-scope-pull-request.json";
const REVIEW_ERROR: &str = "tests/fixtures/conformance/agent-result/valid-review-error-null-score.json";

#[test]
fn severities_are_accepted_in_any_case_and_unknown_ones_are_usage_errors() {
    let dir = tempfile::tempdir().expect("dir");
    let upper = triage(
        &["list", "--all", "--severity", "P0,P2,P3", "--format", "tsv", PR],
        dir.path(),
    );
    let lower = triage(
        &["list", "--all", "--severity", "p0,p2,p3", "--format", "tsv", PR],
        dir.path(),
    );
    assert_eq!(lower.code, Some(0), "{}", lower.stderr);
    assert_eq!(lower.stdout, upper.stdout);
    let bad = triage(&["list", "--severity", "p9", PR], dir.path());
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("unknown severity \"p9\""), "{}", bad.stderr);
}

#[test]
fn format_and_kind_are_described_in_help() {
    let dir = tempfile::tempdir().expect("dir");
    for cmd in [vec!["list", "--help"], vec!["validate", "--help"]] {
        let help = triage(&cmd, dir.path()).stdout;
        for (flag, words) in [("--format", "Output:"), ("--kind", "Force the input format")] {
            let at = help
                .find(&format!("{flag} <"))
                .unwrap_or_else(|| panic!("{flag} in {help}"));
            let described = help[at..].lines().nth(1).unwrap_or_default();
            assert!(described.contains(words), "{cmd:?} {flag}: {described:?}");
        }
    }
}

#[test]
fn outbox_retry_without_an_id_names_all_in_its_usage() {
    let dir = tempfile::tempdir().expect("dir");
    let run = triage(&["outbox", "retry"], dir.path());
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("Usage: triage outbox retry <ID|--all>"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_review_error_result_says_so_on_stderr_and_lists_on_stdout() {
    let dir = tempfile::tempdir().expect("dir");
    let run = triage(&["list", "--all", REVIEW_ERROR], dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.starts_with("SEV"), "{}", run.stdout);
    assert!(
        run.stderr
            .starts_with("triage: this result is a review_error: the review did not complete and is not a pass"),
        "{}",
        run.stderr
    );
    let normal = triage(&["list", "--all", PR], dir.path());
    assert!(normal.stderr.is_empty(), "{}", normal.stderr);
}

#[test]
fn outbox_list_reads_only_and_creates_no_state_directory() {
    let dir = tempfile::tempdir().expect("dir");
    for format in ["text", "json"] {
        let run = triage(&["outbox", "list", "--format", format], dir.path());
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(
            !dir.path().join("state").exists(),
            "{format}: the state directory was created"
        );
        if format == "json" {
            assert_eq!(run.stdout, "", "an empty outbox prints no JSON line");
        } else {
            assert!(run.stdout.starts_with("the outbox is empty"), "{}", run.stdout);
        }
    }
    // Without TRIAGE_STATE_DIR the XDG state directory is not created either.
    let out = assert_cmd::Command::cargo_bin("triage")
        .expect("binary")
        .args(["outbox", "list"])
        .env_clear()
        .env("HOME", dir.path())
        .env("XDG_STATE_HOME", dir.path().join("xdg"))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    assert!(!dir.path().join("xdg").exists());
    assert!(!dir.path().join(".local").exists());
}

#[test]
fn outbox_list_json_prints_one_entry_object_per_line_like_list() {
    let dir = tempfile::tempdir().expect("dir");
    let set = fixture::sample_set();
    let outbox = triage::outbox::Outbox::open(dir.path().join("state").join("outbox")).expect("outbox");
    let mut ids = Vec::new();
    for (n, f) in set.findings.iter().take(2).enumerate() {
        let draft = triage::github::draft::Draft::for_finding(
            &set,
            f.key.as_str(),
            triage::model::finding::SubmittedDisposition::Fixed,
            &format!("Fixed by change {n}."),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let entry = triage::outbox::Entry::new(draft, Some("review.json".into()));
        outbox.put(&entry).expect("put");
        ids.push(entry.id);
    }
    let run = triage(&["outbox", "list", "--format", "json"], dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "one line per entry, no array: {}", run.stdout);
    let mut seen: Vec<String> = lines
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            assert!(v.is_object(), "{l}");
            v["id"].as_str().unwrap_or_default().to_string()
        })
        .collect();
    seen.sort();
    ids.sort();
    assert_eq!(seen, ids);
    // `list --format json` has the same shape: one object per line.
    let listed = triage(&["list", "--all", "--format", "json", PR], dir.path());
    assert!(listed.stdout.lines().all(|l| l.starts_with('{')), "{}", listed.stdout);
}

/// `triage list` with `COLUMNS` set (or unset when `None`).
fn list_table(file: &Path, columns: Option<&str>, dir: &Path) -> Run {
    let mut cmd = assert_cmd::Command::cargo_bin("triage").expect("binary");
    cmd.args(["list", "--all"])
        .arg(file)
        .env_clear()
        .env("HOME", dir)
        .env("TRIAGE_STATE_DIR", dir.join("state"))
        .env("NO_COLOR", "1");
    if let Some(c) = columns {
        cmd.env("COLUMNS", c);
    }
    let out = cmd.output().expect("run");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A River artifact with a deep path, a wide-character path and a long title.
fn river_table_fixture(dir: &Path) -> std::path::PathBuf {
    let long_title = "Retry loop never stops when the payment provider keeps answering 503 ".repeat(3);
    let finding = |id: &str, severity: &str, file: &str, line: u32, title: &str| {
        serde_json::json!({"id": id, "ruleId": "rr-midstream-x", "title": title, "message": title,
            "severity": severity, "phase": "midstream", "file": file, "line": line})
    };
    let doc = serde_json::json!({
        "version": "1", "timestamp": "2026-11-29T19:36:17.758Z", "phase": "midstream", "status": "ok",
        "findings": [
            finding("rr-1", "critical", "src/checkout/components/payment/forms/PaymentForm.tsx", 1234, &long_title),
            finding("rr-2", "minor", "サービス/返金/ハンドラ/refunds.py", 7, "返金の再試行が失敗したときに通知されない"),
            finding("rr-3", "info", "README.md", 1, "Short"),
        ]
    });
    let path = dir.join("river-table.json");
    std::fs::write(&path, serde_json::to_vec(&doc).expect("json")).expect("write");
    path
}

fn cells(line: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(line)
}

#[test]
fn the_table_fits_the_width_keeps_file_names_lines_and_fingerprints() {
    let dir = tempfile::tempdir().expect("dir");
    let file = river_table_fixture(dir.path());
    let mut fingerprints = Vec::new();
    for width in [80usize, 120, 200] {
        let run = list_table(&file, Some(&width.to_string()), dir.path());
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert!(lines[0].starts_with("SEV"), "{}", run.stdout);
        assert!(lines[0].ends_with("FINGERPRINT"), "{}", lines[0]);
        assert_eq!(lines.len(), 4, "{}", run.stdout);
        // Every row is exactly as wide as the header up to the fingerprint,
        // so every column lines up, wide characters included.
        let fp_at = cells(&lines[0][..lines[0].find("FINGERPRINT").unwrap()]);
        for line in &lines {
            assert!(cells(line) <= width, "{width}: {line:?} is {} cells", cells(line));
            let fp = line.rsplit(' ').next().unwrap();
            let before = &line[..line.len() - fp.len()];
            assert_eq!(cells(before), fp_at, "{width}: {line:?}");
        }
        assert!(lines[1].contains("PaymentForm.tsx:1234"), "{width}: {}", lines[1]);
        assert!(lines[2].contains("/refunds.py:7"), "{width}: {}", lines[2]);
        assert!(lines[2].starts_with("minor "), "{}", lines[2]);
        assert!(lines[1].starts_with("critical "), "{}", lines[1]);
        let row_fps: Vec<String> = lines[1..]
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap().to_owned())
            .collect();
        assert!(row_fps.iter().all(|fp| fp.len() == 16), "{row_fps:?}");
        fingerprints.push(row_fps);
        if width < 200 {
            assert!(lines[1].contains('…'), "the long title is cut at {width}: {}", lines[1]);
        }
    }
    assert!(fingerprints.windows(2).all(|w| w[0] == w[1]));
    // Not a terminal and no COLUMNS: 120 cells.
    let plain = list_table(&file, None, dir.path());
    let at_120 = list_table(&file, Some("120"), dir.path());
    assert_eq!(plain.stdout, at_120.stdout);
    // The fingerprint is the one `submit --finding` takes.
    let tsv = triage(
        &["list", "--all", "--format", "tsv", file.to_str().unwrap()],
        dir.path(),
    );
    assert!(tsv.stdout.contains(&fingerprints[0][0]), "{}", tsv.stdout);
}

#[test]
fn long_dispositions_do_not_overflow_their_column() {
    let dir = tempfile::tempdir().expect("dir");
    let file = Path::new("tests/fixtures/conformance/agent-result/valid-thread-resolved-intentional.json");
    let run = list_table(file, Some("100"), dir.path());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let thread_at = lines[0].find("THREAD").unwrap();
    let where_at = lines[0].find("WHERE").unwrap();
    let row = lines
        .iter()
        .find(|l| l.contains("resolved_intentional_contract"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    let at = row.find("resolved_intentional_contract").unwrap();
    assert_eq!(at, thread_at, "{}", run.stdout);
    assert!(at + "resolved_intentional_contract".len() < where_at, "{}", run.stdout);
    assert_eq!(row.as_bytes()[where_at - 1], b' ');
}

/// The screen sample in the README: the bundled demo at 120x24.
fn readme_screen() -> String {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let doc = triage::tui::demo_document();
    let app = fixture::app_on(doc, (120, 24));
    let mut terminal = Terminal::new(TestBackend::new(120, 24)).expect("terminal");
    terminal.draw(|f| triage::tui::view::draw(f, &app)).expect("draw");
    terminal.backend().to_string()
}

#[test]
fn readme_screen_sample() {
    insta::assert_snapshot!("readme_screen_sample", readme_screen());
}

const README_OPEN: &str = "<!-- screen sample: generated from tests/snapshots/cli_frictions__readme_screen_sample.snap; \
                           UPDATE_README=1 cargo test --test cli_frictions rewrites it -->";
const README_CLOSE: &str = "<!-- end of screen sample -->";

/// The README block for a TestBackend snapshot: each row without its quotes
/// and trailing spaces, in a fenced block.
fn readme_block(snapshot: &str) -> String {
    let body = snapshot.splitn(3, "---\n").nth(2).expect("insta front matter");
    let mut block = String::from("```\n");
    for row in body.lines().filter(|l| l.starts_with('"')) {
        let inner = row.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(row);
        block.push_str(inner.trim_end());
        block.push('\n');
    }
    block.push_str("```\n");
    block
}

#[test]
fn the_readme_screen_sample_is_the_snapshot() {
    let snapshot = std::fs::read_to_string("tests/snapshots/cli_frictions__readme_screen_sample.snap")
        .expect("the snapshot exists (run the readme_screen_sample test)");
    let readme = std::fs::read_to_string("README.md").expect("README");
    let start = readme.find(README_OPEN).expect("the opening marker") + README_OPEN.len() + 1;
    let end = readme[start..].find(README_CLOSE).expect("the closing marker") + start;
    let wanted = readme_block(&snapshot);
    if std::env::var_os("UPDATE_README").is_some() {
        let updated = format!("{}{wanted}{}", &readme[..start], &readme[end..]);
        std::fs::write("README.md", updated).expect("write README");
        return;
    }
    assert_eq!(
        &readme[start..end],
        wanted,
        "the README's screen sample differs from the snapshot: run UPDATE_README=1 cargo test --test cli_frictions"
    );
}

#[test]
fn long_fingerprints_go_on_their_own_line_when_they_do_not_fit() {
    let dir = tempfile::tempdir().expect("dir");
    let demo = Path::new("assets/demo-agent-result.json");
    let tsv = triage(
        &["list", "--all", "--format", "tsv", "assets/demo-agent-result.json"],
        dir.path(),
    );
    let fingerprints: Vec<&str> = tsv.stdout.lines().map(|l| l.split('\t').nth(1).unwrap()).collect();
    assert!(fingerprints.len() > 3, "{}", tsv.stdout);
    let narrow = list_table(demo, Some("80"), dir.path());
    assert_eq!(narrow.code, Some(0), "{}", narrow.stderr);
    let lines: Vec<&str> = narrow.stdout.lines().collect();
    assert!(!lines[0].contains("FINGERPRINT"), "{}", lines[0]);
    // Every row fits; a fingerprint line is as long as its fingerprint.
    for line in lines.iter().filter(|l| !l.starts_with("    ")) {
        assert!(cells(line) <= 80, "{line:?} is {} cells", cells(line));
    }
    let own: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix("    ")).collect();
    assert_eq!(own, fingerprints, "{}", narrow.stdout);
    // Wide enough: one row per finding, the fingerprint last and whole.
    let wide = list_table(demo, Some("240"), dir.path());
    let lines: Vec<&str> = wide.stdout.lines().collect();
    assert!(lines[0].ends_with("FINGERPRINT"), "{}", lines[0]);
    assert_eq!(lines.len(), fingerprints.len() + 1, "{}", wide.stdout);
    for (line, fp) in lines[1..].iter().zip(&fingerprints) {
        assert!(line.ends_with(fp), "{line}");
        assert!(cells(line) <= 240);
    }
}
