//! The hunk parser on the shapes git and GitHub produce.

use super::*;

const GIT_RENAME: &str = "\
diff --git a/src/old_name.rs b/src/new_name.rs
similarity index 90%
rename from src/old_name.rs
rename to src/new_name.rs
index 1111111..2222222 100644
--- a/src/old_name.rs
+++ b/src/new_name.rs
@@ -1,4 +1,4 @@ fn main() {
 fn a() {}
-fn b() {}
+fn b() { changed() }
--- not a header, a removed line
+++ not a header, an added line
 fn c() {}
";

#[test]
fn renames_keep_both_paths_and_count_lines_by_the_header() {
    let files = parse_git(GIT_RENAME, MAX_PATCH_BYTES);
    assert_eq!(files.len(), 1);
    let f = &files[0];
    assert!(f.renamed && !f.binary && !f.truncated);
    assert_eq!(f.old_path.as_deref(), Some("src/old_name.rs"));
    assert_eq!(f.new_path.as_deref(), Some("src/new_name.rs"));
    let h = &f.hunks[0];
    assert_eq!((h.old_start, h.old_len, h.new_start, h.new_len), (1, 4, 1, 4));
    assert_eq!(h.section, "fn main() {");
    let kinds: Vec<LineKind> = h.lines.iter().map(|l| l.kind).collect();
    use LineKind::*;
    assert_eq!(kinds, vec![Context, Removed, Added, Removed, Added, Context]);
    assert_eq!(h.lines[3].text, "-- not a header, a removed line");
    assert_eq!((h.lines[5].old, h.lines[5].new), (Some(4), Some(4)));
    assert_eq!((h.lines[2].old, h.lines[2].new), (None, Some(2)));
    assert!(f.hunk_at(Side::New, 3).is_some());
    assert!(f.hunk_at(Side::Old, 5).is_none());
}

#[test]
fn no_newline_at_end_marks_the_line_before() {
    let patch = "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n\\ No newline at end of file";
    let f = parse_patch(patch, MAX_PATCH_BYTES);
    let lines = &f.hunks[0].lines;
    assert_eq!(lines.len(), 3);
    assert!(!lines[0].no_newline && lines[1].no_newline && lines[2].no_newline);
    assert_eq!(lines[2].text, "b");
}

#[test]
fn binary_files_have_no_hunks() {
    let out = "diff --git a/logo.png b/logo.png\nindex 1..2 100644\nBinary files a/logo.png and b/logo.png differ\n";
    let files = parse_git(out, MAX_PATCH_BYTES);
    assert_eq!(files.len(), 1);
    assert!(files[0].binary && files[0].hunks.is_empty());
    assert_eq!(files[0].new_path.as_deref(), Some("logo.png"));
}

#[test]
fn several_files_and_added_and_deleted_ones() {
    let out = "\
diff --git a/new.txt b/new.txt
new file mode 100644
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+one
+two
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-only
";
    let files = parse_git(out, MAX_PATCH_BYTES);
    assert_eq!(files.len(), 2);
    assert_eq!(
        (files[0].old_path.as_deref(), files[0].new_path.as_deref()),
        (None, Some("new.txt"))
    );
    assert_eq!(files[0].hunks[0].lines.len(), 2);
    assert_eq!(files[0].hunks[0].lines[1].new, Some(2));
    assert_eq!(
        (files[1].old_path.as_deref(), files[1].new_path.as_deref()),
        (Some("gone.txt"), None)
    );
    let h = &files[1].hunks[0];
    assert_eq!((h.old_start, h.old_len, h.new_start, h.new_len), (1, 1, 0, 0));
    assert!(h.covers(Side::Old, 1) && !h.covers(Side::New, 0));
}

#[test]
fn a_huge_patch_is_cut_at_a_line_and_marked() {
    let mut patch = String::from("@@ -1,100000 +1,100000 @@\n");
    for i in 0..100_000 {
        patch.push_str(&format!(" line {i} é\n"));
    }
    let f = parse_patch(&patch, 4096);
    assert!(f.truncated);
    let lines = &f.hunks[0].lines;
    assert!(!lines.is_empty() && lines.len() < 1000);
    assert!(
        lines
            .iter()
            .all(|l| l.text.starts_with("line ") && l.text.ends_with('é'))
    );
    assert!(!parse_patch("@@ -1 +1 @@\n-a\n+b", 4096).truncated);
}

#[test]
fn garbage_and_hostile_text_do_not_panic() {
    for text in [
        "",
        "@@",
        "@@ -x +y @@",
        "@@ -1,2 +1",
        "\\",
        "+++",
        "diff --git ",
        "@@ -4294967295,1 +1,1 @@\n-a",
    ] {
        let _ = parse_patch(text, 64);
        let _ = parse_git(text, 64);
    }
    let f = parse_patch("@@ -1 +1 @@\n-\u{1b}[2Jx\n+\u{202e}y", 4096);
    assert_eq!(f.hunks[0].lines[0].text, "\u{1b}[2Jx", "kept raw; the screen sanitises");
}
