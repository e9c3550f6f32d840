//! Unified diffs, read without trusting them: the output of `git diff`
//! (headers, then hunks, possibly several files) and the `patch` member of
//! GitHub's pull-request files (hunks only). Pure: no I/O.
//!
//! Hunk bodies are counted against their `@@ -a,b +c,d @@` header, so a
//! removed line that happens to start with `--- ` is still a removed line.
//! Text is kept raw; the screen sanitises it before display. Input larger
//! than the limit is cut at a line boundary and marked truncated.

use crate::model::finding::Side;

/// The largest patch text read per file, in bytes.
pub const MAX_PATCH_BYTES: usize = 1024 * 1024;

/// What a line of a hunk does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// Unchanged (on both sides).
    Context,
    /// Only on the new side.
    Added,
    /// Only on the old side.
    Removed,
}

/// One line of a hunk, with its numbers on each side it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffLine {
    pub kind: LineKind,
    pub old: Option<u32>,
    pub new: Option<u32>,
    /// The line without its `+`/`-`/space prefix (raw, unsanitised).
    pub text: String,
    /// Followed by `\ No newline at end of file`.
    pub no_newline: bool,
}

/// One hunk: its header's ranges, the section text after `@@` and its lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    pub old_start: u32,
    pub old_len: u32,
    pub new_start: u32,
    pub new_len: u32,
    /// The function or section git names after the second `@@` (raw).
    pub section: String,
    pub lines: Vec<DiffLine>,
}

impl Hunk {
    /// True when 1-based `line` on `side` lies in this hunk's range.
    pub fn covers(&self, side: Side, line: u32) -> bool {
        let (start, len) = match side {
            Side::New => (self.new_start, self.new_len),
            Side::Old => (self.old_start, self.old_len),
        };
        len > 0 && line >= start && line - start < len
    }
}

/// The change of one file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileDiff {
    /// Path before the change (`None`: added file, or not stated).
    pub old_path: Option<String>,
    /// Path after the change (`None`: deleted file, or not stated).
    pub new_path: Option<String>,
    /// The file was renamed (or copied) from `old_path`.
    pub renamed: bool,
    /// A binary file: there are no hunks to show.
    pub binary: bool,
    /// The patch was cut at [`MAX_PATCH_BYTES`] (or GitHub left it out as too large).
    pub truncated: bool,
    pub hunks: Vec<Hunk>,
}

impl FileDiff {
    /// The hunk whose range on `side` holds `line`.
    pub fn hunk_at(&self, side: Side, line: u32) -> Option<&Hunk> {
        self.hunks.iter().find(|h| h.covers(side, line))
    }
}

/// Parses `@@ -a[,b] +c[,d] @@ section`.
fn hunk_header(line: &str) -> Option<Hunk> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, section) = rest.split_once(" @@").unwrap_or((rest, ""));
    let (old, new) = ranges.split_once(" +")?;
    let range = |r: &str| -> Option<(u32, u32)> {
        match r.split_once(',') {
            Some((start, len)) => Some((start.parse().ok()?, len.parse().ok()?)),
            None => Some((r.parse().ok()?, 1)),
        }
    };
    let (old_start, old_len) = range(old)?;
    let (new_start, new_len) = range(new)?;
    Some(Hunk {
        old_start,
        old_len,
        new_start,
        new_len,
        section: section.strip_prefix(' ').unwrap_or(section).to_string(),
        lines: Vec::new(),
    })
}

/// Reads hunks and, for `git diff` output, file headers.
struct Reader {
    files: Vec<FileDiff>,
    /// Lines still expected in the open hunk (old side, new side).
    left: (u32, u32),
    /// Next line numbers in the open hunk (old side, new side).
    next: (u32, u32),
}

impl Reader {
    fn file(&mut self) -> &mut FileDiff {
        if self.files.is_empty() {
            self.files.push(FileDiff::default());
        }
        let last = self.files.len() - 1;
        &mut self.files[last]
    }

    fn in_hunk(&self) -> bool {
        self.left != (0, 0)
    }

    fn line(&mut self, line: &str) {
        if line.starts_with('\\') {
            // `\ No newline at end of file` belongs to the line before it.
            if let Some(last) = self.file().hunks.last_mut().and_then(|h| h.lines.last_mut()) {
                last.no_newline = true;
            }
            return;
        }
        if self.in_hunk() {
            self.body(line);
            return;
        }
        if let Some(hunk) = hunk_header(line) {
            self.left = (hunk.old_len, hunk.new_len);
            self.next = (hunk.old_start, hunk.new_start);
            self.file().hunks.push(hunk);
            return;
        }
        self.header(line);
    }

    fn body(&mut self, line: &str) {
        let (kind, text) = match line.as_bytes().first() {
            Some(b'+') => (LineKind::Added, &line[1..]),
            Some(b'-') => (LineKind::Removed, &line[1..]),
            Some(b' ') => (LineKind::Context, &line[1..]),
            // Some tools strip the space of an empty context line.
            None => (LineKind::Context, ""),
            Some(_) => (LineKind::Context, line),
        };
        let (old, new) = match kind {
            LineKind::Context => (Some(self.next.0), Some(self.next.1)),
            LineKind::Added => (None, Some(self.next.1)),
            LineKind::Removed => (Some(self.next.0), None),
        };
        if old.is_some() {
            self.next.0 = self.next.0.saturating_add(1);
            self.left.0 = self.left.0.saturating_sub(1);
        }
        if new.is_some() {
            self.next.1 = self.next.1.saturating_add(1);
            self.left.1 = self.left.1.saturating_sub(1);
        }
        if let Some(hunk) = self.file().hunks.last_mut() {
            hunk.lines.push(DiffLine {
                kind,
                old,
                new,
                text: text.to_string(),
                no_newline: false,
            });
        }
    }

    fn header(&mut self, line: &str) {
        if let Some(rest) = line.strip_prefix("diff --git ") {
            let (old, new) = git_paths(rest);
            self.files.push(FileDiff {
                old_path: old,
                new_path: new,
                ..FileDiff::default()
            });
        } else if let Some(p) = line
            .strip_prefix("rename from ")
            .or_else(|| line.strip_prefix("copy from "))
        {
            let f = self.file();
            f.old_path = Some(p.to_string());
            f.renamed = true;
        } else if let Some(p) = line
            .strip_prefix("rename to ")
            .or_else(|| line.strip_prefix("copy to "))
        {
            self.file().new_path = Some(p.to_string());
        } else if let Some(p) = line.strip_prefix("--- ") {
            self.file().old_path = side_path(p, "a/");
        } else if let Some(p) = line.strip_prefix("+++ ") {
            self.file().new_path = side_path(p, "b/");
        } else if line.starts_with("Binary files ") || line == "GIT binary patch" {
            self.file().binary = true;
        }
    }
}

/// A `---`/`+++` path: `/dev/null` is none; the `a/`/`b/` prefix dropped.
fn side_path(p: &str, prefix: &str) -> Option<String> {
    let p = p.split('\t').next().unwrap_or(p);
    (p != "/dev/null").then(|| p.strip_prefix(prefix).unwrap_or(p).to_string())
}

/// The two paths of `diff --git a/x b/y` when they are unquoted and equal in
/// length (the common case); otherwise the `---`/`+++` lines tell.
fn git_paths(rest: &str) -> (Option<String>, Option<String>) {
    let half = rest.len() / 2;
    match (rest.get(..half), rest.get(half + 1..)) {
        (Some(a), Some(b)) if rest.as_bytes().get(half) == Some(&b' ') && a.get(2..) == b.get(2..) => (
            a.strip_prefix("a/").map(str::to_owned),
            b.strip_prefix("b/").map(str::to_owned),
        ),
        _ => (None, None),
    }
}

/// Cuts `text` to at most `limit` bytes at a line boundary.
fn bounded(text: &str, limit: usize) -> (&str, bool) {
    if text.len() <= limit {
        return (text, false);
    }
    let cut = text.as_bytes()[..limit].iter().rposition(|&b| b == b'\n').unwrap_or(0);
    (&text[..cut], true)
}

fn read(text: &str, limit: usize) -> (Vec<FileDiff>, bool) {
    let (text, truncated) = bounded(text, limit);
    let mut reader = Reader {
        files: Vec::new(),
        left: (0, 0),
        next: (0, 0),
    };
    for line in text.split('\n') {
        reader.line(line.strip_suffix('\r').unwrap_or(line));
    }
    (reader.files, truncated)
}

/// Parses GitHub's `patch` of one file (hunks only, no headers).
pub fn parse_patch(patch: &str, limit: usize) -> FileDiff {
    let (files, truncated) = read(patch, limit);
    let mut file = files.into_iter().next().unwrap_or_default();
    file.truncated |= truncated;
    file
}

/// Parses `git diff` output of any number of files. When the output was
/// cut, the last file is marked truncated.
pub fn parse_git(output: &str, limit: usize) -> Vec<FileDiff> {
    let (mut files, truncated) = read(output, limit);
    if truncated && let Some(last) = files.last_mut() {
        last.truncated = true;
    }
    files
}

#[cfg(test)]
mod tests;
