//! The screen's core stays a function of its arguments: `update` and every
//! module it calls (all of `src/tui` except the edges named below) import no
//! drawing code, take no lock, read no clock and name neither the
//! highlighting thread's cache nor the background jobs. Time, sizes and
//! results reach the core in messages; facts both the core and the view need
//! live in `tui::present` (and `tui::layout`).
//!
//! Only code before a file's first `#[cfg(test)]` is read: tests may draw.

// A test stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};

/// The edges of the screen, relative to `src/tui`: drawing (`view/`, the
/// composer's drawing), the runner and its jobs, the terminal, the input
/// reader, the highlighting thread, and the start-up loop. A directory ends
/// with `/`.
const EDGES: &[&str] = &[
    "view/",
    "jobs/",
    "composer/view.rs",
    "effect.rs",
    "runtime.rs",
    "terminal.rs",
    "tty.rs",
    "reader.rs",
    "startup.rs",
    "highlight.rs",
    "highlight/queue.rs",
    "mod.rs",
];

/// Words the core never uses, and why.
const FORBIDDEN: &[(&str, &str)] = &[
    ("Mutex", "a lock"),
    ("RwLock", "a lock"),
    (".lock()", "a lock"),
    ("Instant::now", "a clock"),
    ("SystemTime", "a clock"),
    ("Timestamp::now", "a clock"),
    ("Zoned::now", "a clock"),
    ("time::now", "a clock"),
    ("now_millis", "a clock"),
    ("now_rfc3339", "a clock"),
    (
        "Highlighter",
        "the highlighting thread's cache (use the App's Highlights)",
    ),
    ("tui::jobs", "a background job"),
    ("super::jobs", "a background job"),
    ("tui::view", "drawing code"),
    ("super::view", "drawing code"),
    ("composer::view", "drawing code"),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// True for test-only files (`tests.rs`, `*_tests.rs`, the update scripts).
fn is_test_file(rel: &str) -> bool {
    rel.ends_with("/tests.rs") || rel == "tests.rs" || rel.ends_with("_tests.rs") || rel == "update/script.rs"
}

fn is_edge(rel: &str) -> bool {
    EDGES.iter().any(|e| {
        if e.ends_with('/') {
            rel.starts_with(e)
        } else {
            rel == *e
        }
    })
}

/// The code of a file before its tests, without comments.
fn code_of(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        let code = match line.find("//") {
            // A `//` inside a string literal (a URL) is rare in the core; cut conservatively.
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        out.push((n + 1, code.to_string()));
    }
    out
}

/// `view` named in a grouped import (`use super::{view, x}`), which the
/// plain word search cannot see.
fn grouped_view(code: &[(usize, String)]) -> Option<usize> {
    let mut statement = String::new();
    let mut first = 0;
    for (n, line) in code {
        let t = line.trim();
        if statement.is_empty() && !(t.starts_with("use ") || t.starts_with("pub use ")) {
            continue;
        }
        if statement.is_empty() {
            first = *n;
        }
        statement.push_str(t);
        if !t.ends_with(';') {
            continue;
        }
        if let Some(open) = statement.find('{') {
            let prefix = &statement[..open];
            let up = prefix.contains("super::") || prefix.contains("tui::") || prefix.contains("composer::");
            let named = statement[open..]
                .split(|c: char| c == ',' || c == '{' || c == '}' || c.is_whitespace())
                .any(|item| item == "view" || item.starts_with("view::"));
            if up && named {
                return Some(first);
            }
        }
        statement.clear();
    }
    None
}

/// Every forbidden word in the core files, as `file:line: word (why)`.
fn findings(tui: &Path) -> (Vec<String>, usize) {
    let mut files = Vec::new();
    rust_files(tui, &mut files);
    files.sort();
    let mut found = Vec::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(tui).unwrap().to_string_lossy().replace('\\', "/");
        if is_edge(&rel) || is_test_file(&rel) {
            continue;
        }
        checked += 1;
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        for (n, line) in &code {
            for (word, why) in FORBIDDEN {
                if let Some(at) = line.find(word) {
                    let after = line[at + word.len()..].chars().next();
                    let whole = !after.is_some_and(|c| c.is_alphanumeric() || c == '_') || word.ends_with('(');
                    if whole {
                        found.push(format!("src/tui/{rel}:{n}: {word} ({why})"));
                    }
                }
            }
        }
        if let Some(n) = grouped_view(&code) {
            found.push(format!("src/tui/{rel}:{n}: view in a grouped import (drawing code)"));
        }
    }
    (found, checked)
}

#[test]
fn the_screen_core_takes_no_lock_reads_no_clock_and_calls_no_drawing_code() {
    let tui = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let (found, checked) = findings(&tui);
    assert!(checked >= 40, "the core is most of src/tui ({checked} files read)");
    assert!(
        found.is_empty(),
        "the screen core must be a function of (App, Msg):\n{}",
        found.join("\n")
    );
}

#[test]
fn update_and_its_sub_states_are_in_the_core() {
    for core in [
        "update.rs",
        "nav.rs",
        "composer/flow.rs",
        "composer/present.rs",
        "offer.rs",
        "ask.rs",
        "decide.rs",
        "evidence_state.rs",
        "diff.rs",
        "present/evidence/build.rs",
        "highlight/block.rs",
        "message.rs",
        "message/failure.rs",
        "message/notice.rs",
        "overlay/help.rs",
        "overlay/problems.rs",
        "overlay/filter_menu.rs",
        "present/failure.rs",
        "present/notice.rs",
    ] {
        assert!(!is_edge(core) && !is_test_file(core), "{core} is checked");
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui").join(core);
        assert!(path.is_file(), "{core} exists");
    }
}

/// The screen modules `message.rs` may name: leaves holding data types,
/// which themselves name no screen module outside this list.
const MESSAGE_NAMES: &[&str] = &[
    "action",
    "keymap",
    "doc",
    "prepared",
    "fuzzy",
    "highlight",
    "present::evidence",
];

/// The files of a screen module, relative to `src/tui`: `a/b.rs` or
/// `a/b/mod.rs`, and the files of its own submodules.
fn module_files(tui: &Path, module: &str) -> Vec<PathBuf> {
    let rel = module.replace("::", "/");
    let mut files = Vec::new();
    for file in [tui.join(format!("{rel}.rs")), tui.join(&rel).join("mod.rs")] {
        if file.is_file() {
            files.push(file);
        }
    }
    if tui.join(&rel).is_dir() {
        rust_files(&tui.join(&rel), &mut files);
    }
    files.sort();
    files.dedup();
    files
}

/// `message.rs` and the files of its submodules.
fn message_files(tui: &Path) -> Vec<PathBuf> {
    let mut files = vec![tui.join("message.rs")];
    rust_files(&tui.join("message"), &mut files);
    files
}

/// `path` names a module inside `module` (its own submodules, named as `super::x` from within).
fn inside(file: &Path, tui: &Path, module: &str, named: &str) -> bool {
    let rel = file.strip_prefix(tui).unwrap().to_string_lossy().replace('\\', "/");
    let own_dir = rel.contains('/') && !rel.ends_with("mod.rs");
    named == module
        || named.starts_with(&format!("{module}::"))
        || own_dir && !named.contains("::") && {
            let parent = rel.rsplit_once('/').map_or("", |(d, _)| d);
            tui.join(parent).join(format!("{named}.rs")).is_file()
        }
}

/// The screen modules a file names as `super::a::b::Item` or
/// `crate::tui::a::b::Item` (lowercase segments are modules).
fn screen_modules(code: &[(usize, String)]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in code {
        for prefix in ["super::", "crate::tui::"] {
            for (at, _) in line.match_indices(prefix) {
                let preceded = line[..at]
                    .chars()
                    .last()
                    .is_some_and(|c| c.is_alphanumeric() || c == ':');
                if preceded {
                    continue;
                }
                let rest = &line[at + prefix.len()..];
                let path: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_' || *c == ':')
                    .collect();
                let modules: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
                // `a::b::Type` names module `a::b`; `a::{X, Y}` or `a::Type` names `a`.
                if !modules.is_empty() {
                    out.push((*n, modules.join("::")));
                }
            }
        }
    }
    out
}

#[test]
fn messages_name_only_data_modules_of_the_screen() {
    let tui = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let mut files = message_files(&tui);
    for module in MESSAGE_NAMES {
        let found = module_files(&tui, module);
        assert!(!found.is_empty(), "{module} has files");
        files.extend(found);
    }
    let mut stray = Vec::new();
    let mut read = 0;
    for file in &files {
        let rel = file.strip_prefix(&tui).unwrap().to_string_lossy().replace('\\', "/");
        // The highlighting thread's queue is an edge, never named by a message.
        if is_edge(&rel) && rel != "highlight.rs" {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let names = screen_modules(&code);
        read += names.len();
        let module = rel.trim_end_matches(".rs").trim_end_matches("/mod").replace('/', "::");
        for (n, named) in names {
            let allowed = MESSAGE_NAMES
                .iter()
                .any(|m| named == *m || named.starts_with(&format!("{m}::")))
                || named.starts_with("message")
                || inside(file, &tui, &module, &named);
            if !allowed {
                stray.push(format!("src/tui/{rel}:{n}: {named}"));
            }
        }
    }
    assert!(read >= 5, "the check reads the imports ({read} names)");
    assert!(
        stray.is_empty(),
        "messages (and the leaves they name) name logic of the screen:\n{}",
        stray.join("\n")
    );
}

/// The check itself finds what it is for: each kind of breach in a made-up file.
#[test]
fn the_check_sees_locks_clocks_and_drawing_code() {
    let dir = std::env::temp_dir().join(format!("triage-screen-core-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("view")).unwrap();
    std::fs::write(dir.join("view/fine.rs"), "use std::sync::Mutex;\n").unwrap();
    std::fs::write(
        dir.join("bad.rs"),
        "use super::{app, view};\nuse std::sync::Mutex;\nfn f() { let t = std::time::Instant::now(); }\n\
         fn g() { super::view::draw(); } // a comment naming SystemTime is fine\n\
         #[cfg(test)]\nmod tests { use crate::tui::view; }\n",
    )
    .unwrap();
    let (found, checked) = findings(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(checked, 1, "edges are not read");
    let text = found.join("\n");
    assert!(text.contains("bad.rs:1: view in a grouped import"), "{text}");
    assert!(text.contains("bad.rs:2: Mutex"), "{text}");
    assert!(text.contains("bad.rs:3: Instant::now"), "{text}");
    assert!(text.contains("bad.rs:4: super::view"), "{text}");
    assert!(!text.contains("SystemTime"), "comments are not code: {text}");
    assert_eq!(found.len(), 4, "tests are not read: {text}");
}

#[test]
fn module_names_are_read_from_paths() {
    let code = vec![
        (1, "use super::app::{Document, Level};".to_string()),
        (2, "use super::present::evidence::HeadLine;".to_string()),
        (3, "    options: crate::tui::composer::flow::Thing,".to_string()),
    ];
    let names: Vec<String> = screen_modules(&code).into_iter().map(|(_, m)| m).collect();
    assert_eq!(names, ["app", "present::evidence", "composer::flow"]);
    assert!(!MESSAGE_NAMES.contains(&"composer::flow"), "logic is not a data module");
    assert!(!MESSAGE_NAMES.contains(&"app"), "the App is not a leaf");
}

/// Error payloads of messages that are still text, each with why. Every
/// other failure crossing the channel is an enum (`message::failure`,
/// `message::notice`) worded in `present`; a new `String` reason fails
/// [`messages_carry_typed_errors`], and so does an entry here that is gone.
const STILL_TEXT: &[(&str, &str)] = &[
    (
        "message.rs: threads_unavailable: Option<String>,",
        "the model's thread observation carries its reason as text",
    ),
    (
        "message.rs: CannotStart { program: String, reason: String },",
        "inside the typed EditError: the system's words",
    ),
    (
        "message/notice.rs: CopyRefused { why: String },",
        "the clipboard check's sentence, composed by the screen",
    ),
    (
        "message/notice.rs: Panicked { failure: String },",
        "a panic's message (sanitised)",
    ),
];

/// Words that name an error in a field or a variant.
const ERROR_FIELDS: &[&str] = &["reason", "why", "warning", "error", "failure", "cause", "unavailable"];
const ERROR_VARIANTS: &[&str] = &["Failed", "Refused", "Rejected", "Unavailable", "Error", "Lost"];

/// Each line of `code` that carries an error as text: `Result<_, String>`,
/// an error-named field of type `String`, or an error-named variant
/// holding a `String`; as `file: line`.
fn text_errors(file: &str, code: &[(usize, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (_, line) in code {
        let t = line.trim();
        let result = t.contains("Result<") && t.contains(", String>");
        let field = ERROR_FIELDS
            .iter()
            .any(|f| t.contains(&format!("{f}: String")) || t.contains(&format!("{f}: Option<String>")));
        let variant = t
            .split(|c: char| !c.is_alphanumeric() && c != '(' && c != ')')
            .any(|word| {
                word.strip_suffix("(String)")
                    .is_some_and(|name| ERROR_VARIANTS.iter().any(|v| name.ends_with(v)))
            });
        if result || field || variant {
            out.push(format!("{file}: {t}"));
        }
    }
    out
}

#[test]
fn messages_carry_typed_errors() {
    let tui = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let mut found = Vec::new();
    for file in &message_files(&tui) {
        let rel = file.strip_prefix(&tui).unwrap().to_string_lossy().replace('\\', "/");
        found.extend(text_errors(&rel, &code_of(&std::fs::read_to_string(file).unwrap())));
    }
    let new: Vec<&String> = found
        .iter()
        .filter(|f| !STILL_TEXT.iter().any(|(known, _)| known == f))
        .collect();
    assert!(
        new.is_empty(),
        "an error crosses the channel as text (give it an enum in message::failure, worded in present):\n{}",
        new.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    let gone: Vec<&str> = STILL_TEXT
        .iter()
        .map(|(known, _)| *known)
        .filter(|known| !found.iter().any(|f| f == known))
        .collect();
    assert!(gone.is_empty(), "no longer text, drop from STILL_TEXT: {gone:?}");
}

#[test]
fn text_errors_are_seen_in_results_fields_and_variants() {
    let code: Vec<(usize, String)> = [
        "    Actor(Result<String, String>),",
        "    Rejected { reason: String, stale_head: Option<String> },",
        "    Conflict { why: Option<String> },",
        "    Failed(String),",
        "    Actor(Result<String, ActorError>),",
        "    Paste(String),",
        "    pub summary: String,",
    ]
    .iter()
    .enumerate()
    .map(|(n, l)| (n + 1, l.to_string()))
    .collect();
    let found = text_errors("m.rs", &code);
    assert_eq!(
        found,
        [
            "m.rs: Actor(Result<String, String>),",
            "m.rs: Rejected { reason: String, stale_head: Option<String> },",
            "m.rs: Conflict { why: Option<String> },",
            "m.rs: Failed(String),",
        ]
    );
}
