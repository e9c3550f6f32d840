//! Where context comes from (the reviewed commit's blob first), the one
//! object reader, and the local pull-request diff, against real repositories.

use super::local_diff::Base;
use super::source::{ContextError, ContextSource, Means, Skip, plan, read_context};
use super::test_git::{git, init};
use super::*;
use std::cell::Cell;
use std::fs;

fn commit(dir: &Path, files: &[(&str, &str)], message: &str) -> String {
    for (path, text) in files {
        let full = dir.join(path);
        fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
        fs::write(full, text).expect("write");
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

/// `main` with a base commit, `feature` with two commits on top of it
/// (the reviewed head), and a working tree that differs from both.
struct Pr {
    dir: tempfile::TempDir,
    base: String,
    head: String,
}

fn pr_repo() -> Pr {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    init(root);
    let base = commit(root, &[("src/pay.rs", "fn a() {}\nfn b() {}\nfn c() {}\n")], "base");
    git(root, &["checkout", "-q", "-b", "feature"]);
    commit(
        root,
        &[("src/pay.rs", "fn a() {}\nfn b() { retry() }\nfn c() {}\n")],
        "one",
    );
    let head = commit(root, &[("notes.txt", "n\n")], "two");
    fs::write(root.join("src/pay.rs"), "edited after the review\n").expect("write");
    Pr { dir, base, head }
}

fn checkout(p: &Pr) -> Checkout {
    Checkout::discover(Some(p.dir.path())).expect("checkout")
}

#[test]
fn new_side_reads_the_reviewed_commit_not_the_working_tree() {
    let p = pr_repo();
    let c = checkout(&p);
    let file = c.read_file("src/pay.rs", Side::New, Some(&p.head)).expect("read");
    assert_eq!(file.revision, Revision::Reviewed(p.head.clone()));
    assert_eq!(file.lines[1], "fn b() { retry() }");
    let at_base = c.read_file("src/pay.rs", Side::New, Some(&p.base[..10])).expect("read");
    assert_eq!(at_base.lines[1], "fn b() {}");
    let elsewhere = c
        .read_file("src/pay.rs", Side::New, Some("deadbeefdeadbeef"))
        .expect("read");
    assert_eq!(elsewhere.revision, Revision::WorkingTree);
    assert_eq!(elsewhere.lines, vec!["edited after the review".to_string()]);
    assert!(matches!(
        c.read_file("src/none.rs", Side::New, Some(&p.head)),
        Err(CheckoutError::NotFound {
            revision: Revision::Reviewed(_),
            ..
        })
    ));
}

#[test]
fn one_object_reader_serves_every_read_and_survives_a_huge_blob() {
    let p = pr_repo();
    let root = p.dir.path();
    git(root, &["checkout", "-q", "-f", "main"]);
    let big = "x".repeat(usize::try_from(MAX_FILE_BYTES).expect("size") + 10);
    let with_big = commit(root, &[("big.txt", &big), ("small.txt", "s\n")], "big");
    let c = checkout(&p);
    assert_eq!(c.objects().running_pid(), None, "started on first use");
    c.read_file("src/pay.rs", Side::New, Some(&p.head)).expect("read");
    let pid = c.objects().running_pid();
    assert!(pid.is_some());
    c.read_file("src/pay.rs", Side::Old, Some(&p.head)).expect("read old");
    c.read_file("notes.txt", Side::New, Some(&p.head)).expect("read");
    assert_eq!(c.objects().running_pid(), pid, "the same process answers every read");
    assert!(matches!(
        c.read_file("big.txt", Side::New, Some(&with_big)),
        Err(CheckoutError::TooLarge { .. })
    ));
    let small = c
        .read_file("small.txt", Side::New, Some(&with_big))
        .expect("after a refused blob");
    assert_eq!(small.lines, vec!["s".to_string()]);
    assert!(
        c.objects().read("HEAD\nHEAD", 10).is_err(),
        "a line break never reaches git"
    );
}

#[test]
fn the_plan_prefers_the_reviewed_commit_then_github_then_the_working_tree() {
    use ContextSource::*;
    let all = Means {
        checkout: true,
        reviewed_sha: true,
        github: true,
    };
    assert_eq!(plan(Side::New, all), vec![Committed, GitHub, WorkingTree]);
    assert_eq!(plan(Side::Old, all), vec![Committed]);
    let no_checkout = Means { checkout: false, ..all };
    assert_eq!(plan(Side::New, no_checkout), vec![GitHub]);
    assert_eq!(plan(Side::Old, no_checkout), Vec::<ContextSource>::new());
    let no_sha = Means {
        reviewed_sha: false,
        ..all
    };
    assert_eq!(plan(Side::New, no_sha), vec![WorkingTree]);
    let offline = Means { github: false, ..all };
    assert_eq!(plan(Side::New, offline), vec![Committed, WorkingTree]);
}

#[test]
fn context_comes_from_the_first_place_that_has_it() {
    let p = pr_repo();
    let c = checkout(&p);
    let calls = Cell::new(0);
    let github = |path: &str, sha: &str| -> Result<Vec<u8>, String> {
        calls.set(calls.get() + 1);
        assert_eq!(path, "src/pay.rs", "a checked, normalised path");
        Ok(format!("from github at {sha}\n").into_bytes())
    };
    let failing = |_: &str, _: &str| -> Result<Vec<u8>, String> { Err("no token".to_string()) };
    let local = read_context(Some(&c), Some(&github), "./src/pay.rs", Side::New, Some(&p.head)).expect("local");
    assert_eq!(local.revision, Revision::Reviewed(p.head.clone()));
    assert_eq!(calls.get(), 0, "GitHub is not asked when the blob is local");
    let missing = "0123456789abcdef0123456789abcdef01234567";
    let remote = read_context(Some(&c), Some(&github), "src/pay.rs", Side::New, Some(missing)).expect("github");
    assert_eq!(remote.revision, Revision::GitHub(missing.to_string()));
    assert_eq!(remote.lines, vec![format!("from github at {missing}")]);
    let tree = read_context(Some(&c), Some(&failing), "src/pay.rs", Side::New, Some(missing)).expect("tree");
    assert_eq!(tree.revision, Revision::WorkingTree);
    assert!(tree.revision.origin().contains("may differ from what was reviewed"));
    let laptop = read_context(None, Some(&github), "src/pay.rs", Side::New, Some(missing)).expect("no checkout");
    assert_eq!(laptop.revision, Revision::GitHub(missing.to_string()));
    let why = read_context(None, Some(&failing), "src/pay.rs", Side::New, Some(missing)).expect_err("nothing");
    assert!(
        matches!(&why, ContextError::Skipped(s) if matches!(s.as_slice(), [Skip::GitHub(t)] if t == "no token")),
        "{why:?}"
    );
    let refused = read_context(None, Some(&github), "../etc/passwd", Side::New, Some(missing)).expect_err("path");
    assert!(
        matches!(refused, ContextError::Read(CheckoutError::UnsafePath { .. })),
        "{refused:?}"
    );
    assert_eq!(calls.get(), 2);
    let old = read_context(None, Some(&github), "src/pay.rs", Side::Old, Some(missing)).expect_err("old");
    assert!(
        matches!(old, ContextError::OldNoRepository { ref sha } if sha == missing),
        "{old:?}"
    );
}

#[test]
fn the_local_change_runs_from_the_merge_base_to_the_reviewed_commit() {
    let p = pr_repo();
    let c = checkout(&p);
    let paths = vec!["src/pay.rs".to_string(), "notes.txt".to_string()];
    let change = c.pull_change(Some(&p.head), None, &paths).expect("diff");
    assert_eq!(
        change.base,
        Base::MergeBase {
            sha: p.base.clone(),
            with: "main".to_string()
        }
    );
    assert_eq!(change.files.len(), 2);
    let pay = change
        .files
        .iter()
        .find(|f| f.new_path.as_deref() == Some("src/pay.rs"))
        .expect("pay.rs changed");
    let hunk = pay.hunk_at(Side::New, 2).expect("line 2 changed");
    assert!(hunk.lines.iter().any(|l| l.text == "fn b() { retry() }"));
    assert!(hunk.lines.iter().any(|l| l.text == "fn b() {}"));
    let hinted = c.pull_change(Some(&p.head), Some(&p.base), &paths[..1]).expect("diff");
    assert!(hinted.origin().contains("with the base commit"), "{}", hinted.origin());
    assert!(c.pull_change(Some(&p.head), None, &["../x".to_string()]).is_err());
    let root_only = c.pull_change(Some(&p.base), None, &paths);
    assert!(root_only.is_err(), "the base commit has no parent and no other base");
}
