//! Highlighter tests: syntax choice, styling, sanitising, cache, background
//! thread, and (ignored by default) a cold/cached timing report.

use super::*;
use crate::sanitize::is_forbidden;
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn owned(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|s| s.to_string()).collect()
}

fn text_of(block: &[StyledLine]) -> Vec<String> {
    block
        .iter()
        .map(|l| l.iter().map(|(_, t)| t.as_str()).collect())
        .collect()
}

#[test]
fn syntax_is_chosen_by_file_name() {
    let h = Highlighter::new(ThemeChoice::Ansi);
    assert_eq!(h.syntax_for_path("src/main.rs"), "Rust");
    assert_eq!(h.syntax_for_path("web/app.ts"), "TypeScript");
    assert_eq!(h.syntax_for_path("Cargo.toml"), "TOML");
    assert_eq!(h.syntax_for_path("docker/Dockerfile"), "Dockerfile");
    assert_eq!(h.syntax_for_path("a\\b\\X.PY"), "Python");
    assert_eq!(h.syntax_for_path("notes.unknown-ext"), "Plain Text");
    assert_eq!(h.syntax_for_path(""), "Plain Text");
}

#[test]
fn rust_is_styled_and_text_is_kept() {
    let h = Highlighter::new(ThemeChoice::Ansi);
    let lines = owned(&["fn main() {", "    let s = \"hi\"; // note", "}"]);
    let out = h.highlight("src/main.rs", &lines).lines.clone();
    assert_eq!(text_of(&out), lines);
    let styles: std::collections::HashSet<Style> = out.iter().flatten().map(|(s, _)| *s).collect();
    assert!(styles.len() >= 3, "keywords, strings and comments differ: {styles:?}");
    // The ANSI theme uses palette colours only.
    for style in &styles {
        assert!(!matches!(style.fg, Some(Color::Rgb(..))), "{style:?}");
        assert_eq!(style.bg, None);
    }
}

#[test]
fn named_theme_gives_rgb_and_unknown_falls_back() {
    let nord = Highlighter::new(ThemeChoice::Named("nord".to_string()));
    let out = nord.highlight("a.rs", &owned(&["fn f() {}"])).lines.clone();
    assert!(out.iter().flatten().any(|(s, _)| matches!(s.fg, Some(Color::Rgb(..)))));
    let unknown = Highlighter::new(ThemeChoice::Named("no such theme".to_string()));
    assert!(unknown.is_styled());
}

#[test]
fn plain_theme_gives_unstyled_sanitised_spans() {
    let h = Highlighter::new(ThemeChoice::for_terminal(true));
    assert!(!h.is_styled());
    let out = h
        .highlight("src/main.rs", &owned(&["fn\tx() {}", "\u{1b}[31m"]))
        .lines
        .clone();
    assert_eq!(text_of(&out), ["fn  x() {}", "␛[31m"]);
    assert!(out.iter().flatten().all(|(s, _)| *s == Style::default()));
    assert!(h.syntaxes.get().is_none(), "plain never loads syntect");
}

#[test]
fn hostile_text_is_sanitised_before_highlighting() {
    let h = Highlighter::new(ThemeChoice::Ansi);
    let lines = owned(&[
        "let access = \"user\u{202E} \u{2066}// admin\u{2069} \u{2066}\";",
        "\u{1b}]0;title\u{7}\tx\r\ny\u{200b}",
    ]);
    let out = h.highlight("x.rs", &lines).lines.clone();
    for (_, text) in out.iter().flatten() {
        assert!(!text.chars().any(is_forbidden), "{text:?}");
    }
    let all = text_of(&out).concat();
    assert!(all.contains("⟨U+202E⟩") && all.contains("␛]0;title␇") && all.contains("⏎y⟨U+200B⟩"));
}

#[test]
fn oversized_blocks_stay_plain() {
    let h = Highlighter::new(ThemeChoice::Ansi);
    let long = format!("fn f() {{ {} }}", "x".repeat(MAX_LINE_BYTES));
    let out = h.highlight("a.rs", std::slice::from_ref(&long)).lines.clone();
    assert_eq!(out.as_slice(), [vec![(Style::default(), long)]]);
    let many = vec!["fn f() {}".to_string(); MAX_LINES + 1];
    assert!(
        h.highlight("a.rs", &many)
            .lines
            .iter()
            .flatten()
            .all(|(s, _)| *s == Style::default())
    );
}

#[test]
fn cache_answers_only_for_the_same_text_and_file_name() {
    let h = Highlighter::new(ThemeChoice::Ansi);
    let lines = owned(&["let x = 1;"]);
    assert!(h.cached("a.rs", &lines).is_none());
    let first = h.highlight("a.rs", &lines);
    let again = h
        .cached("dir/A.RS", &lines)
        .expect("same file name, any case or directory");
    assert!(Arc::ptr_eq(&first, &again));
    assert!(h.cached("a.py", &lines).is_none());
    assert!(h.cached("a.rs", &owned(&["let x = 2;"])).is_none());
    assert_ne!(h.key("a.rs", &lines), h.key("a.rs", &owned(&["let x = 2;"])));
}

#[test]
fn background_thread_fills_the_cache_and_reports_each_block() {
    let h = Arc::new(Highlighter::new(ThemeChoice::Ansi));
    let jobs = vec![
        HighlightJob {
            path: "a.rs".to_string(),
            lines: owned(&["fn a() {}"]),
        },
        HighlightJob {
            path: "b.ts".to_string(),
            lines: owned(&["const b: number = 1;"]),
        },
    ];
    let (tx, rx) = mpsc::channel();
    let queue = queue::Queue::new();
    queue.put(queue::Lane::Rest, jobs.clone());
    let started = queue.start(Arc::clone(&h), move |block| {
        let _ = tx.send(block);
    });
    started.expect("thread starts");
    let blocks: Vec<Highlighted> = rx.iter().take(jobs.len()).collect();
    let keys: Vec<HighlightKey> = blocks.iter().map(|b| b.key()).collect();
    let expected: Vec<HighlightKey> = jobs.iter().map(|j| h.key(&j.path, &j.lines)).collect();
    assert_eq!(keys, expected);
    for (job, block) in jobs.iter().zip(&blocks) {
        assert!(block.is_for(&job.path, &job.lines));
        assert!(h.cached(&job.path, &job.lines).is_some());
    }
    // Asked again for the screen (it may have started its map over): the
    // same block, not made again. In the background lane: not sent again.
    queue.put(queue::Lane::Selected, vec![jobs[0].clone()]);
    let again = rx.iter().next().expect("sent again");
    assert!(Arc::ptr_eq(&again, &blocks[0]));
    let fresh = HighlightJob {
        path: "c.rs".to_string(),
        lines: owned(&["fn c() {}"]),
    };
    queue.put(queue::Lane::Rest, vec![jobs[1].clone(), fresh.clone()]);
    let next = rx.iter().next().expect("the new block");
    assert!(next.is_for(&fresh.path, &fresh.lines), "the known one was skipped");
    // The last block waiting is sent even when known: it wakes the screen to
    // queue the next batch of the background lane.
    queue.put(queue::Lane::Rest, vec![jobs[1].clone()]);
    let wake = rx.iter().next().expect("the last waiting block is sent");
    queue.close();
    assert!(Arc::ptr_eq(&wake, &blocks[1]));
}

#[test]
fn terminal_palette_colours_map_to_named_colours() {
    let c = |r, a| sh::Color { r, g: 0, b: 0, a };
    assert_eq!(convert_color(c(1, 0)), Some(Color::Red));
    assert_eq!(convert_color(c(7, 0)), Some(Color::Gray));
    assert_eq!(convert_color(c(12, 0)), Some(Color::Indexed(12)));
    assert_eq!(convert_color(c(9, 1)), None);
    assert_eq!(
        convert_color(sh::Color {
            r: 1,
            g: 2,
            b: 3,
            a: 255
        }),
        Some(Color::Rgb(1, 2, 3))
    );
}

/// Twenty lines of Rust and of TypeScript, for the timing report.
fn sample(lang: &str, variant: usize) -> Vec<String> {
    (0..20)
        .map(|i| match lang {
            "rs" => {
                format!("    let value_{i}_{variant}: Vec<u32> = items.iter().map(|x| x * {i}).collect(); // step {i}")
            }
            _ => format!("  const value{i}_{variant}: number[] = items.map((x) => x * {i}); // step {i}"),
        })
        .collect()
}

/// Prints cold and cached highlight costs. Run in release:
/// `cargo test --release --lib tui::highlight -- --ignored --nocapture`.
#[test]
#[ignore = "timing report, not a check"]
fn report_highlight_cost() {
    for lang in ["rs", "ts"] {
        let h = Highlighter::new(ThemeChoice::Ansi);
        let path = format!("sample.{lang}");
        let load = time(|| h.syntax_for_path(&path).to_string());
        let cold = time(|| h.highlight(&path, &sample(lang, 0)));
        let mut warm: Vec<Duration> = (1..=15)
            .map(|v| time(|| h.highlight(&path, &sample(lang, v))))
            .collect();
        warm.sort();
        let lines = sample(lang, 1);
        let lookups = 1_000u32;
        let cached = time(|| (0..lookups).filter(|_| h.cached(&path, &lines).is_some()).count()) / lookups;
        println!(
            "{lang}: load {load:?}; first 20 lines (regex compile) {cold:?}; next 20-line blocks min {:?} median {:?}; cached lookup {cached:?}",
            warm[0],
            warm[warm.len() / 2]
        );
    }
}

fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let t = Instant::now();
    std::hint::black_box(f());
    t.elapsed()
}
