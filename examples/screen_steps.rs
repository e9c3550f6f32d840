//! Where the screen's first complete frame goes, step by step, for a review
//! file: the load (bytes to model, as `triage validate` does it), then each
//! step the screen takes after the model exists (the display rows, the
//! search fields, the App with its list, the background highlight queue,
//! the start-up effects, the first resize and draw into a 120x40
//! TestBackend), then a `/retry` search typed one character at a time
//! (the first answer, and every chunk until the ranking is complete).
//!
//! usage: cargo run --release --example screen_steps -- FILE [RUNS]
//!
//! Prints the median over RUNS (default 5) of each step in milliseconds,
//! then the load and the complete frame of the first run alone: the later
//! runs reuse heap pages the first one faulted in, which a fresh process
//! (the screen a reviewer starts) does not.
//! Figures vary on a shared machine; compare medians of one run.

// A benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;
use triage::tui::app::{App, Document, Settings, Source};
use triage::tui::update::{Msg, update};

fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

/// Times one step into `out` under `name`.
fn timed<T>(out: &mut Vec<(String, f64)>, name: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let v = f();
    out.push((name.to_owned(), t.elapsed().as_secs_f64() * 1000.0));
    v
}

fn settings() -> Settings {
    Settings {
        keymap: triage::tui::keymap::Keymap::builtin().unwrap_or_default(),
        theme: triage::tui::theme::Theme::colored(),
        color: true,
        split_shift: 0,
    }
}

fn one_run(path: &Path) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    let whole = Instant::now();
    let loaded = timed(&mut out, "load (bytes to model)", || {
        triage::session::load::load_or_problem(path, None)
    });
    let set = loaded.set.clone().unwrap();
    timed(&mut out, "  every row built (before: at load)", || {
        set.findings.iter().map(triage::tui::prepared::Row::new).count()
    });
    timed(&mut out, "  rank order alone", || set.ranked().len());
    timed(&mut out, "  four search fields copied (before: at load)", || {
        let cut = |t: &str| -> Box<str> {
            t.chars()
                .take(triage::tui::fuzzy::FIELD_CHARS)
                .collect::<String>()
                .into()
        };
        set.findings
            .iter()
            .map(|f| {
                [
                    cut(f.title.as_deref().unwrap_or("")),
                    cut(f.claim.as_deref().unwrap_or("")),
                    cut(f.path.as_deref().unwrap_or("")),
                    cut(f.key.as_str()),
                ]
            })
            .collect::<Vec<_>>()
            .len()
    });
    let doc = timed(&mut out, "document (rows, counts, search fields)", || {
        Document::new(
            Source::File("review.json".into()),
            loaded.format,
            loaded.set,
            loaded.problems,
        )
    });
    let mut app = timed(&mut out, "App::new (list, marks, states)", || {
        App::new(doc, settings(), (120, 40))
    });
    timed(&mut out, "highlights switched on", || {
        app.evidence.highlights = triage::tui::highlight::Highlights::new(true);
    });
    let queued = timed(&mut out, "every excerpt as a highlight job (before: at start)", || {
        app.doc
            .findings()
            .iter()
            .flat_map(|f| f.evidence.iter().map(triage::tui::present::evidence::excerpt_job))
            .count()
    });
    let effects = timed(&mut out, "start-up effects (ledger, offer, drafts)", || {
        let ledger = triage::tui::recorded::load(&mut app);
        triage::tui::offer::startup(&app).len() + triage::tui::drafts::startup(&app).len() + ledger.len()
    });
    let first = timed(&mut out, "first resize (detail, evidence, priorities)", || {
        update(&mut app, Msg::Resize(120, 40)).len()
    });
    let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
    timed(&mut out, "first draw", || {
        term.draw(|f| triage::tui::view::draw(f, &app)).unwrap();
    });
    out.push((
        "= complete frame after spawn".into(),
        whole.elapsed().as_secs_f64() * 1000.0,
    ));
    std::hint::black_box((queued, effects, first));
    search(&mut out, &mut app, &mut term);
    out
}

/// `/retry`, one character at a time: the first answer and its frame, then
/// the chunks until the ranking is complete.
fn search(out: &mut Vec<(String, f64)>, app: &mut App, term: &mut Terminal<TestBackend>) {
    update(app, key('/'));
    let mut first = Vec::new();
    let mut complete = Vec::new();
    let mut chunk = Vec::<f64>::new();
    for c in "retry".chars() {
        let t = Instant::now();
        update(app, key(c));
        term.draw(|f| triage::tui::view::draw(f, app)).unwrap();
        first.push(t.elapsed().as_secs_f64() * 1000.0);
        while app.browse.search.pending() {
            let u = Instant::now();
            update(app, Msg::Tick);
            chunk.push(u.elapsed().as_secs_f64() * 1000.0);
        }
        term.draw(|f| triage::tui::view::draw(f, app)).unwrap();
        complete.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    for (c, (f, d)) in "retry".chars().zip(first.iter().zip(&complete)) {
        out.push((format!("search: '{c}' to first frame"), *f));
        out.push((format!("search: '{c}' complete"), *d));
    }
    out.push(("search: key to first frame (max of 5)".into(), max(&first)));
    out.push(("search: key to complete ranking (max of 5)".into(), max(&complete)));
    out.push(("search: one chunk (max)".into(), max(&chunk)));
    out.push(("search: chunks for the 5 keys".into(), chunk.len() as f64));
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: screen_steps FILE [RUNS]");
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let mut order = Vec::new();
    let mut all: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut cold = Vec::new();
    for run in 0..runs {
        let steps = one_run(Path::new(&path));
        if run == 0 {
            cold = steps.clone();
        }
        for (name, ms) in steps {
            if !all.contains_key(&name) {
                order.push(name.clone());
            }
            all.entry(name).or_default().push(ms);
        }
    }
    for name in order {
        let mut v = all.remove(&name).unwrap_or_default();
        v.sort_by(f64::total_cmp);
        println!("{name:<48} {:>9.2}", v[v.len() / 2]);
    }
    // The medians are of a warm process: its heap pages were touched by the
    // runs before. A spawned screen pays the first run, page faults and all.
    for (name, ms) in cold.iter().filter(|(n, _)| n.starts_with("load") || n.starts_with('=')) {
        println!("{:<48} {ms:>9.2}", format!("first run: {}", name.trim()));
    }
}
