//! Checkout tests against real temporary git repositories.

use super::test_git::{git, init};
use super::*;
use std::fs;
use tempfile::TempDir;

/// A repository with two commits: `first` (root) and `second` (HEAD).
struct Repo {
    dir: TempDir,
    first: String,
    second: String,
}

fn repo() -> Repo {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    init(root);
    fs::create_dir_all(root.join("src")).expect("mkdir");
    fs::write(root.join("src/lib.rs"), "fn old() {}\nlet removed = 1;\n").expect("write");
    fs::write(root.join("--output=x"), "dash old\n").expect("write");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "first"]);
    let first = git(root, &["rev-parse", "HEAD"]);
    fs::write(root.join("src/lib.rs"), "fn new() {}\r\n\tlet  added =\t2;\n").expect("write");
    fs::write(root.join("src/added.rs"), "only new\n").expect("write");
    fs::write(root.join("--output=x"), "dash new\n").expect("write");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "second"]);
    let second = git(root, &["rev-parse", "HEAD"]);
    Repo { dir, first, second }
}

impl Repo {
    fn checkout(&self) -> Checkout {
        Checkout::discover(Some(self.dir.path())).expect("checkout")
    }
}

fn lines(text: &[&str]) -> Vec<String> {
    text.iter().map(|s| s.to_string()).collect()
}

#[test]
fn discovers_the_top_level_from_a_subdirectory() {
    let r = repo();
    let found = Checkout::discover_in(None, &r.dir.path().join("src")).expect("found");
    assert_eq!(found.root(), r.dir.path().canonicalize().expect("canonical"));
    let outside = tempfile::tempdir().expect("temp dir");
    assert_eq!(Checkout::discover_in(None, outside.path()), None);
    // An explicit root is taken as given, even without git.
    assert!(Checkout::discover_in(Some(outside.path()), Path::new("/")).is_some());
    assert_eq!(
        Checkout::discover_in(Some(&outside.path().join("missing")), Path::new("/")),
        None
    );
}

#[test]
fn head_is_compared_with_the_reviewed_commit() {
    let r = repo();
    let c = r.checkout();
    assert_eq!(c.head_sha().as_deref(), Some(r.second.as_str()));
    assert_eq!(c.is_reviewed_head(&r.second), HeadMatch::Same);
    assert_eq!(c.is_reviewed_head(&r.second[..7].to_uppercase()), HeadMatch::Same);
    assert_eq!(
        c.is_reviewed_head(&r.first),
        HeadMatch::Different { head: r.second.clone() }
    );
    assert_eq!(c.is_reviewed_head("not-a-sha"), HeadMatch::Unknown);
    assert_eq!(c.is_reviewed_head("abc12"), HeadMatch::Unknown);
    let plain = tempfile::tempdir().expect("temp dir");
    let no_git = Checkout::discover(Some(plain.path())).expect("dir");
    assert_eq!(no_git.head_sha(), None);
    assert_eq!(no_git.is_reviewed_head(&r.second), HeadMatch::Unknown);
}

#[test]
fn new_side_reads_the_working_tree() {
    let r = repo();
    let c = r.checkout();
    let file = c.read_file("./src//lib.rs", Side::New, None).expect("read");
    assert_eq!(file.path, "src/lib.rs");
    assert_eq!(file.revision, Revision::WorkingTree);
    assert_eq!(file.lines, lines(&["fn new() {}", "\tlet  added =\t2;"]));
    let dashed = c.read_file("--output=x", Side::New, None).expect("read");
    assert_eq!(dashed.lines, lines(&["dash new"]));
    assert!(matches!(
        c.read_file("src/nope.rs", Side::New, None),
        Err(CheckoutError::NotFound { .. })
    ));
}

#[test]
fn unsafe_paths_are_refused() {
    let r = repo();
    let c = r.checkout();
    let problem = |p: &str| match c.read_file(p, Side::New, None) {
        Err(CheckoutError::UnsafePath { problem, .. }) => Some(problem),
        _ => None,
    };
    assert_eq!(problem("/etc/passwd"), Some(PathProblem::Absolute));
    assert_eq!(problem("\\etc\\passwd"), Some(PathProblem::Absolute));
    assert_eq!(problem("C:/x"), Some(PathProblem::Absolute));
    assert_eq!(problem("src/../../x"), Some(PathProblem::ParentDir));
    assert_eq!(problem("src\\..\\x"), Some(PathProblem::ParentDir));
    assert_eq!(problem(".git/config"), Some(PathProblem::GitDir));
    assert_eq!(problem("src/.GIT/x"), Some(PathProblem::GitDir));
    assert_eq!(problem("a\0b"), Some(PathProblem::Nul));
    assert_eq!(problem("./"), Some(PathProblem::Empty));
    assert_eq!(problem(""), Some(PathProblem::Empty));
    assert_eq!(problem(&"a/".repeat(3000)), Some(PathProblem::TooLong));
    assert_eq!(problem("src"), Some(PathProblem::NotAFile));
}

#[test]
fn symlinks_may_not_leave_the_root() {
    let r = repo();
    let outside = tempfile::tempdir().expect("temp dir");
    fs::write(outside.path().join("secret"), "secret\n").expect("write");
    let root = r.dir.path();
    std::os::unix::fs::symlink(outside.path().join("secret"), root.join("leak")).expect("symlink");
    std::os::unix::fs::symlink(outside.path(), root.join("leakdir")).expect("symlink");
    std::os::unix::fs::symlink(root.join("src/lib.rs"), root.join("inside")).expect("symlink");
    let c = r.checkout();
    for p in ["leak", "leakdir/secret"] {
        assert!(
            matches!(
                c.read_file(p, Side::New, None),
                Err(CheckoutError::UnsafePath {
                    problem: PathProblem::OutsideRoot,
                    ..
                })
            ),
            "{p}"
        );
    }
    assert_eq!(c.read_file("inside", Side::New, None).expect("read").lines.len(), 2);
}

#[test]
fn large_and_binary_files_are_not_read() {
    let r = repo();
    let root = r.dir.path();
    let big = fs::File::create(root.join("big.txt")).expect("create");
    big.set_len(MAX_FILE_BYTES + 1).expect("size");
    fs::write(root.join("bin.dat"), b"abc\0def").expect("write");
    let c = r.checkout();
    assert!(matches!(
        c.read_file("big.txt", Side::New, None),
        Err(CheckoutError::TooLarge { .. })
    ));
    assert!(matches!(
        c.read_file("bin.dat", Side::New, None),
        Err(CheckoutError::Binary { .. })
    ));
}

#[test]
fn old_side_reads_the_parent_of_the_reviewed_commit() {
    let r = repo();
    let c = r.checkout();
    let file = c.read_file("src/lib.rs", Side::Old, Some(&r.second)).expect("old");
    assert_eq!(file.revision, Revision::Commit(r.first.clone()));
    assert_eq!(file.lines, lines(&["fn old() {}", "let removed = 1;"]));
    let short = c.read_file("--output=x", Side::Old, Some(&r.second[..8])).expect("old");
    assert_eq!(short.lines, lines(&["dash old"]));
    assert!(matches!(
        c.read_file("src/added.rs", Side::Old, Some(&r.second)),
        Err(CheckoutError::NotFound {
            revision: Revision::Commit(_),
            ..
        })
    ));
    assert!(matches!(
        c.read_file("src", Side::Old, Some(&r.second)),
        Err(CheckoutError::NotFound { .. })
    ));
}

#[test]
fn old_side_unavailable_is_explicit() {
    let r = repo();
    let c = r.checkout();
    let outcome = |sha: Option<&str>| c.read_file("src/lib.rs", Side::Old, sha).map(|f| f.lines);
    assert!(matches!(
        outcome(None),
        Err(CheckoutError::OldSideUnavailable(OldUnavailable::NoReviewedSha))
    ));
    assert!(matches!(
        outcome(Some(&r.first)),
        Err(CheckoutError::OldSideUnavailable(OldUnavailable::NoParent { .. }))
    ));
    assert!(matches!(
        outcome(Some("deadbeefdeadbeef")),
        Err(CheckoutError::OldSideUnavailable(OldUnavailable::CommitNotLocal { .. }))
    ));
    for bad in ["HEAD", "--all", "abc", "12345678^", "main", &"a".repeat(65)] {
        assert!(matches!(outcome(Some(bad)), Err(CheckoutError::InvalidSha(_))), "{bad}");
    }
    let plain = tempfile::tempdir().expect("temp dir");
    fs::write(plain.path().join("f"), "x\n").expect("write");
    let no_git = Checkout::discover(Some(plain.path())).expect("dir");
    assert!(matches!(
        no_git.read_file("f", Side::Old, Some(&r.second)),
        Err(CheckoutError::OldSideUnavailable(OldUnavailable::NotARepository))
    ));
}

#[test]
fn excerpt_matches_ignoring_white_space() {
    let file = lines(&["fn a() {", "\tlet  x =\t1;  ", "}", "let x = 1;"]);
    assert_eq!(locate_excerpt(&file, "let x = 1;", 2), ExcerptMatch::AtLine(2));
    assert_eq!(locate_excerpt(&file, "  let x  = 1;\r\n", 4), ExcerptMatch::AtLine(4));
    // Case and punctuation count; white space inside a word does not vanish.
    assert_eq!(locate_excerpt(&file, "LET x = 1;", 2), ExcerptMatch::NotFound);
    assert_eq!(locate_excerpt(&file, "let x=1;", 2), ExcerptMatch::NotFound);
    assert_eq!(
        locate_excerpt(&file, "\u{3000}let\u{a0}x = 1;", 2),
        ExcerptMatch::AtLine(2)
    );
    assert!(same_text(" a\u{2003}b ", "a b"));
    assert!(!same_text("ab", "a b"));
}

#[test]
fn excerpt_moved_reports_the_nearest_match() {
    let file = lines(&["x", "target", "y", "z", "target", "w"]);
    assert_eq!(
        locate_excerpt(&file, "target", 4),
        ExcerptMatch::Moved { from: 4, to: 5 }
    );
    assert_eq!(
        locate_excerpt(&file, "target", 1),
        ExcerptMatch::Moved { from: 1, to: 2 }
    );
    // Equal distance: the earlier match wins.
    let tie = lines(&["target", "a", "target"]);
    assert_eq!(
        locate_excerpt(&tie, "target", 2),
        ExcerptMatch::Moved { from: 2, to: 1 }
    );
    // A stated line past the end still finds the excerpt.
    assert_eq!(
        locate_excerpt(&file, "target", 99),
        ExcerptMatch::Moved { from: 99, to: 5 }
    );
    assert_eq!(locate_excerpt(&file, "absent", 2), ExcerptMatch::NotFound);
    assert_eq!(locate_excerpt(&[], "x", 1), ExcerptMatch::NotFound);
    assert_eq!(locate_excerpt(&file, " \n\t", 1), ExcerptMatch::NotFound);
}

#[test]
fn multi_line_excerpts_match_consecutive_lines() {
    let file = lines(&["a", "b", "c", "b", "d"]);
    assert_eq!(locate_excerpt(&file, "b\nc", 2), ExcerptMatch::AtLine(2));
    assert_eq!(
        locate_excerpt(&file, "\n b\r\n  d \n\n", 2),
        ExcerptMatch::Moved { from: 2, to: 4 }
    );
    assert_eq!(locate_excerpt(&file, "c\nd", 3), ExcerptMatch::NotFound);
    assert_eq!(locate_excerpt(&file, "d\ne", 5), ExcerptMatch::NotFound);
    assert_eq!(excerpt_lines("\n\n x\n\ny \n \n"), vec![" x", "", "y "]);
}

#[test]
fn context_windows_clamp_to_the_file() {
    let file: Vec<String> = (1..=10).map(|n| format!("line {n}")).collect();
    let w = context(&file, 5, 2);
    assert_eq!((w.first_line, w.lines), (3, &file[2..7]));
    let w = context(&file, 1, 3);
    assert_eq!((w.first_line, w.lines.len()), (1, 4));
    let w = context(&file, 10, 3);
    assert_eq!((w.first_line, w.lines.len()), (7, 4));
    // Block of lines 4..=6 with one line either side.
    let w = context_block(&file, 4, 3, 1);
    assert_eq!((w.first_line, w.lines), (3, &file[2..7]));
    let w = context(&file, 50, 1);
    assert_eq!((w.first_line, w.lines), (9, &file[8..10]));
    assert_eq!(context(&[], 3, 2).lines.len(), 0);
}

#[test]
fn inspect_checks_an_evidence_item() {
    let r = repo();
    let c = r.checkout();
    let evidence = Evidence {
        path: "src/lib.rs".to_string(),
        side: Side::New,
        line: 1,
        excerpt: "let added = 2;".to_string(),
        reason: "why".to_string(),
    };
    let local = c.inspect(&evidence, Some(&r.second), 3).expect("inspect");
    assert_eq!(local.found, ExcerptMatch::Moved { from: 1, to: 2 });
    assert_eq!(local.marked, 2..=2);
    assert_eq!(
        (local.first_line, local.lines.clone()),
        (1, lines(&["fn new() {}", "    let  added =    2;"]))
    );
    let old = Evidence {
        side: Side::Old,
        line: 2,
        excerpt: "let removed = 1;".to_string(),
        ..evidence.clone()
    };
    let local = c.inspect(&old, Some(&r.second), 0).expect("inspect old");
    assert_eq!(local.found, ExcerptMatch::AtLine(2));
    assert_eq!(local.revision, Revision::Commit(r.first.clone()));
    assert_eq!(local.lines, lines(&["let removed = 1;"]));
    let hostile = Evidence {
        path: "../../etc/passwd".to_string(),
        ..evidence
    };
    assert!(matches!(
        c.inspect(&hostile, None, 3),
        Err(CheckoutError::UnsafePath { .. })
    ));
}

#[test]
fn errors_quote_untrusted_paths() {
    let err = CheckoutError::NotFound {
        path: "a\u{1b}[2Jb".to_string(),
        revision: Revision::WorkingTree,
    };
    let text = err.to_string();
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.contains("the working tree"));
}

/// A review may name a FIFO in the working tree: reading it is refused at
/// once instead of waiting for a writer.
#[cfg(unix)]
#[test]
fn a_fifo_in_the_working_tree_is_refused_without_waiting() {
    let r = repo();
    let made = std::process::Command::new("mkfifo")
        .arg(r.dir.path().join("src/pipe.rs"))
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let c = r.checkout();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let got = c.read_working_file("src/pipe.rs");
        let _ = tx.send(matches!(
            got,
            Err(CheckoutError::UnsafePath {
                problem: PathProblem::NotAFile,
                ..
            })
        ));
    });
    // A blocked open never answers; a generous bound keeps the test from hanging.
    assert_eq!(rx.recv_timeout(std::time::Duration::from_secs(20)), Ok(true));
}
