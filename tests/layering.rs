//! The layers of `src/lib.rs` hold: every `crate::` path in the code of
//! `src/` (and every `super::` path, resolved) names its own module or a
//! module of a lower layer.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};

/// One layer: its rank and the module paths (`github::error`) it holds.
struct Layer {
    rank: usize,
    modules: Vec<String>,
}

/// Reads the numbered layer list of the crate's doc comment.
fn layers(lib: &str) -> Vec<Layer> {
    let mut out = Vec::new();
    for line in lib.lines() {
        let Some(rest) = line.strip_prefix("//! ") else {
            continue;
        };
        let Some((number, body)) = rest.split_once(". ") else {
            continue;
        };
        let Ok(rank) = number.parse::<usize>() else { continue };
        let modules = body
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect::<Vec<_>>();
        if !modules.is_empty() {
            out.push(Layer { rank, modules });
        }
    }
    out
}

/// The layer (rank, unit) of a module path: the longest listed prefix.
/// Modules of one layer line are one unit when the line says so (layer 3).
fn place(layers: &[Layer], path: &str) -> Option<(usize, String)> {
    let mut best: Option<(usize, &str, usize)> = None;
    for layer in layers {
        for module in &layer.modules {
            let matches = path == module || path.starts_with(&format!("{module}::"));
            if matches && best.is_none_or(|(len, _, _)| module.len() > len) {
                best = Some((module.len(), module, layer.rank));
            }
        }
    }
    best.map(|(_, module, rank)| {
        let unit = if module.contains("::") {
            format!("layer {rank}")
        } else {
            module.to_owned()
        };
        (rank, unit)
    })
}

/// The module path of a source file: `src/github/fetch/head.rs` → `github::fetch::head`.
fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_owned();
    }
    if parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// Every module path a line names through `crate::` or `super::`. An
/// indented `use super::` sits in an inline module (`mod tests`), whose
/// parent is the file's own module.
fn named_paths(module: &str, line: &str) -> Vec<String> {
    let code = line.trim_start();
    let inline = code.len() != line.len();
    if code.starts_with("//") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let preceded = code[..at]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if !preceded {
            out.push(path_at(&code[at + "crate::".len()..]));
        }
    }
    if let Some(rest) = code
        .strip_prefix("use super::")
        .or_else(|| code.strip_prefix("pub use super::"))
    {
        let mut base: Vec<&str> = module.split("::").collect();
        if !inline {
            base.pop();
        }
        let tail = path_at(rest);
        if !base.is_empty() && !tail.is_empty() {
            out.push(format!("{}::{tail}", base.join("::")));
        } else if !base.is_empty() {
            out.push(base.join("::"));
        }
    }
    out.retain(|p| !p.is_empty());
    out
}

/// The leading `a::b::c` of a path (module names are lowercase).
fn path_at(s: &str) -> String {
    let mut segs = Vec::new();
    let mut rest = s;
    loop {
        let len = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        segs.push(&rest[..len]);
        match rest[len..].strip_prefix("::") {
            Some(next) => rest = next,
            None => break,
        }
    }
    segs.join("::")
}

/// Every upward or sideways import of a file's text, as `line: from -> to`.
fn violations(layers: &[Layer], module: &str, text: &str) -> Vec<String> {
    let Some((own_rank, own_unit)) = place(layers, module) else {
        return vec![format!("{module}: in no layer of src/lib.rs")];
    };
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for path in named_paths(module, line) {
            let Some((rank, unit)) = place(layers, &path) else {
                continue;
            };
            if unit != own_unit && rank >= own_rank {
                out.push(format!(
                    "{}: {module} (layer {own_rank}) -> {path} (layer {rank})",
                    n + 1
                ));
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn lib_layers() -> Vec<Layer> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    layers(&lib)
}

#[test]
fn every_import_points_down_the_layers_of_lib_rs() {
    let layers = lib_layers();
    assert!(layers.len() >= 9, "src/lib.rs lists the layers");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        if rel == Path::new("lib.rs") || rel == Path::new("main.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable source");
        for v in violations(&layers, &module_of(rel), &text) {
            found.push(format!("src/{}:{v}", rel.display()));
        }
    }
    assert!(
        found.is_empty(),
        "imports that run up or across the layers:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_catches_an_upward_or_sideways_import() {
    let layers = lib_layers();
    let up = violations(
        &layers,
        "tui::jobs::refresh",
        "use crate::cli::fetch::resolve_target;\n",
    );
    assert_eq!(up.len(), 1, "{up:?}");
    let inline = violations(&layers, "github::batch", "    let x = crate::outbox::Outbox::open();\n");
    assert_eq!(inline.len(), 1, "{inline:?}");
    let vocabulary = violations(&layers, "github::error", "use super::client::Client;\n");
    assert_eq!(vocabulary.len(), 1, "{vocabulary:?}");
    let sideways = violations(&layers, "outbox::entry", "use crate::river_store::Store;\n");
    assert_eq!(sideways.len(), 1, "{sideways:?}");
    let fine = "use crate::github::route::RepoName;\nuse super::draft::Draft;\n// crate::cli in a comment\n";
    assert!(violations(&layers, "decision::decide", fine).is_empty());
    assert!(violations(&layers, "github::error", "use super::wire::Wire;\n").is_empty());
    assert_eq!(module_of(Path::new("github/fetch/mod.rs")), "github::fetch");
    assert_eq!(module_of(Path::new("github/fetch/head.rs")), "github::fetch::head");
}
