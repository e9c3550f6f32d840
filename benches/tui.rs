//! The screen's cost per keystroke: `update` with one key plus drawing the
//! whole frame into a 120x40 TestBackend, at 100, 1,000 and 10,000 findings
//! (criterion's upper confidence bound is the figure to compare with the
//! 4 ms budget), also with a pull request's ledger of 100 decisions shown.
//! Also: the first frame of a 1 MiB agent result (load,
//! prepare, draw; highlighting is never waited for).

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::hint::black_box;
use triage::tui::app::{App, Source};
use triage::tui::update::{Msg, update};
use triage::tui::{document, view};

#[path = "../tests/support/fixture.rs"]
mod fixture;

#[path = "synth/mod.rs"]
mod synth;

const SIZES: [usize; 3] = [100, 1_000, 10_000];

fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(120, 40)).unwrap_or_else(|e| panic!("{e}"))
}

/// A screen on `n` findings showing all of them, somewhere in the middle.
fn screen(n: usize) -> App {
    let mut app = fixture::app(fixture::scaled(n), (120, 40));
    update(&mut app, key('2'));
    for _ in 0..n / 2 {
        update(&mut app, key('j'));
    }
    app
}

/// `j` then `k`, each followed by a full frame: the selection moves, the
/// detail and evidence panes are rebuilt, the list window is drawn.
fn move_and_draw(c: &mut Criterion) {
    moves(c, "keystroke_update_and_draw", screen);
}

/// `j` and `k` in turn on the screen `make` builds for each size, each
/// followed by a full frame, as the group `name`.
fn moves(c: &mut Criterion, name: &str, make: impl Fn(usize) -> App) {
    let mut group = c.benchmark_group(name);
    for n in SIZES {
        let mut app = make(n);
        let mut term = terminal();
        let mut down = true;
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                let k = if down { 'j' } else { 'k' };
                down = !down;
                black_box(update(&mut app, key(k)));
                term.draw(|f| view::draw(f, &app)).unwrap_or_else(|e| panic!("{e}"));
            })
        });
    }
    group.finish();
}

/// The pull request's ledger holding `k` decisions, on every `n / k`-th
/// finding, alternately attested and by someone without write permission.
fn with_ledger(mut app: App, k: usize) -> App {
    use triage::model::finding::SubmittedDisposition;
    use triage::model::ledger::{Authorised, Ledger, LedgerScope, LedgerState, Recorded, RecordedDecision};
    let n = app.doc.findings().len();
    let head = app
        .doc
        .set
        .as_ref()
        .and_then(|s| s.reviewed_sha.clone())
        .unwrap_or_default();
    let entries = (0..k)
        .map(|j| Recorded {
            comment_id: j as u64 + 1,
            author: Some("octo-reviewer".into()),
            decision: Some(RecordedDecision {
                fingerprint: app.doc.findings()[j * n / k].key.as_str().to_owned(),
                disposition: SubmittedDisposition::Fixed,
                evidence: "Checked on the head.".into(),
                actor: "octo-reviewer".into(),
                reviewed_sha: head.clone(),
            }),
            body_digest: format!("receipt-sha256:{j:064x}"),
            authorised: if j % 2 == 0 {
                Authorised::Receipt
            } else {
                Authorised::None {
                    reason: "no write permission".into(),
                }
            },
        })
        .collect();
    let generation = match triage::tui::recorded::load(&mut app).as_slice() {
        [triage::tui::effect::Effect::LoadLedger { generation, .. }] => *generation,
        other => panic!("no ledger read: {other:?}"),
    };
    let scope = LedgerScope {
        repository: "acme/webhooks".into(),
        pull_request: 42,
        head,
    };
    let ledger = Ledger {
        scope,
        pull_url: "https://github.com/acme/webhooks/pull/42".into(),
        entries,
    };
    let state = LedgerState::Known(ledger);
    update(&mut app, Msg::LedgerLoaded { generation, state });
    app
}

/// `j` / `k` and the frame after it, with a ledger of 100 decisions shown:
/// the header counts what is awaiting and unapplied, rows show their marks.
fn move_and_draw_with_ledger(c: &mut Criterion) {
    moves(c, "keystroke_update_and_draw_with_ledger", |n| {
        with_ledger(screen(n), 100.min(n))
    });
}

/// One more character of a `/` search, and the frame after it.
fn search_and_draw(c: &mut Criterion) {
    let mut group = c.benchmark_group("search_keystroke_update_and_draw");
    for n in SIZES {
        let mut base = screen(n);
        update(&mut base, key('/'));
        update(&mut base, key('r'));
        let mut term = terminal();
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter_batched(
                || base.clone(),
                |mut app| {
                    black_box(update(&mut app, key('e')));
                    term.draw(|f| view::draw(f, &app)).unwrap_or_else(|e| panic!("{e}"));
                    app
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

/// From the bytes of a 1 MiB agent result to the first drawn frame.
fn first_frame(c: &mut Criterion) {
    let doc = synth::agent_result(1024 * 1024 - 4096, 3);
    let mut term = terminal();
    c.bench_function("first_frame_1MiB_agent_result", |b| {
        b.iter(|| {
            let loaded = triage::model::load::load_bytes(doc.as_bytes(), None);
            let mut app = fixture::app_on(document(Source::Stdin, loaded), (120, 40));
            app.ui.size = (120, 40);
            term.draw(|f| view::draw(f, &app)).unwrap_or_else(|e| panic!("{e}"));
            black_box(app.browse.visible.len())
        })
    });
}

criterion_group!(
    benches,
    move_and_draw,
    move_and_draw_with_ledger,
    search_and_draw,
    first_frame
);
criterion_main!(benches);
