//! The event loop: draw, wait for a terminal event or a background result,
//! `update`, run the effects, repeat until the state says quit.
//!
//! SIGHUP and SIGTERM arrive as [`Msg::Terminate`] (a watcher thread turns
//! them into a message), so every draft is written and the terminal restored
//! before the process exits with 128 + the signal. When the terminal itself
//! fails (a hung-up line), the drafts are written the same way before the
//! error is returned.

use super::app::{App, Level};
use super::effect::Runner;
use super::terminal::TerminalGuard;
use super::update::{Msg, update};
use super::view;
use anyhow::Context;
use ratatui::crossterm::event::{self, Event, KeyEventKind};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// How long to wait for terminal input before checking background results.
const TICK: Duration = Duration::from_millis(50);
/// Terminal events handled before the next frame (keeps scrolling and paste snappy).
const BURST: usize = 64;
/// Background results handled before terminal input is read again: a flood
/// of results (thousands of highlighted blocks) waits for the next frames
/// instead of delaying a key.
const BACKGROUND_BURST: usize = 256;

/// A terminal event as a message (`None`: nothing the screen cares about).
fn to_msg(ev: Event) -> Option<Msg> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => Some(Msg::Key(k)),
        Event::Mouse(m) => Some(Msg::Mouse(m)),
        Event::Paste(text) => Some(Msg::Paste(text)),
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}

/// The signal that ended the screen, if one did.
pub type EndedBy = Option<i32>;

/// Turns SIGHUP and SIGTERM into [`Msg::Terminate`]; remembers which came.
#[cfg(unix)]
fn watch_signals(runner: &Runner) -> Arc<AtomicI32> {
    use signal_hook::consts::{SIGHUP, SIGTERM};
    let last = Arc::new(AtomicI32::new(0));
    let seen = Arc::clone(&last);
    let tx = runner.tx.clone();
    match signal_hook::iterator::Signals::new([SIGHUP, SIGTERM]) {
        Ok(mut signals) => {
            let spawned = std::thread::Builder::new().name("signals".into()).spawn(move || {
                for sig in signals.forever() {
                    seen.store(sig, Ordering::SeqCst);
                    if tx.send(Msg::Terminate).is_err() {
                        return;
                    }
                }
            });
            if let Err(e) = spawned {
                runner.send(Msg::Notice(Level::Warning, format!("Signals are not watched: {e}")));
            }
        }
        Err(e) => runner.send(Msg::Notice(Level::Warning, format!("Signals are not watched: {e}"))),
    }
    last
}

#[cfg(not(unix))]
fn watch_signals(_runner: &Runner) -> Arc<AtomicI32> {
    Arc::new(AtomicI32::new(0))
}

/// Runs the screen until the user quits or a signal ends it.
pub fn event_loop(
    app: &mut App,
    guard: &mut TerminalGuard,
    runner: &mut Runner,
    rx: &Receiver<Msg>,
) -> anyhow::Result<EndedBy> {
    let signal = watch_signals(runner);
    let ended = screen_loop(app, guard, runner, rx);
    if ended.is_err() && !app.ui.quit {
        for effect in update(app, Msg::Terminate) {
            runner.run(effect, guard);
        }
    }
    ended?;
    Ok(Some(signal.load(Ordering::SeqCst)).filter(|&s| s != 0))
}

fn screen_loop(
    app: &mut App,
    guard: &mut TerminalGuard,
    runner: &mut Runner,
    rx: &Receiver<Msg>,
) -> anyhow::Result<()> {
    let size = guard.terminal().size().context("reading the terminal size")?;
    for effect in update(app, Msg::Resize(size.width, size.height)) {
        runner.run(effect, guard);
    }
    loop {
        guard
            .terminal()
            .draw(|frame| view::draw(frame, app))
            .context("drawing the screen")?;
        let mut msgs: Vec<Msg> = rx.try_iter().take(BACKGROUND_BURST).collect();
        for failure in super::terminal::take_worker_panics() {
            msgs.push(Msg::Notice(
                Level::Error,
                format!("A background task failed: {failure}"),
            ));
        }
        // More results waiting: look at the keyboard without waiting.
        let wait = if msgs.len() == BACKGROUND_BURST {
            Duration::ZERO
        } else {
            TICK
        };
        if super::view::status::busy(app).is_some() {
            msgs.push(Msg::Tick);
        }
        if event::poll(wait).context("reading terminal input")? {
            for _ in 0..BURST {
                msgs.extend(to_msg(event::read().context("reading terminal input")?));
                if !event::poll(Duration::ZERO).context("reading terminal input")? {
                    break;
                }
            }
        }
        for msg in msgs {
            for effect in update(app, msg) {
                runner.run(effect, guard);
            }
            if app.ui.quit {
                return Ok(());
            }
        }
    }
}
