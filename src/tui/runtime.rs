//! The event loop: draw, block on the one channel (terminal input from the
//! [`super::reader`] thread, every background result, signals), `update`,
//! run the effects, repeat until the state says quit.
//!
//! A frame is drawn after each batch of messages and at no other time: an
//! idle screen writes nothing. While background work runs (the status bar
//! shows a spinner) the wait ends after [`TICK`] with a [`Msg::Tick`]; with
//! nothing running the loop waits without a timeout. An unfinished `/`
//! search does not wait at all: each turn scores one more chunk
//! ([`super::search`]) unless input is waiting. The frame after input is
//! drawn at once; frames that only show a search's progress are drawn at
//! most every [`SEARCH_FRAME`] (and once it is complete), so the ranking
//! is not held up by drawing it after every chunk.
//!
//! SIGHUP, SIGTERM, SIGINT and SIGQUIT arrive as [`Msg::Terminate`] (a
//! watcher thread turns them into a message), so every draft is written and
//! the terminal restored before the process exits with 128 + the signal. In
//! raw mode the terminal sends no SIGINT or SIGQUIT for ctrl-c and ctrl-\
//! (they are keys), so those two come only from another process (`kill
//! -INT`, a supervisor); left at their default action they would end the
//! process with the screen still in raw mode and the typed text unsaved. When the terminal itself
//! fails (a hung-up line), the drafts are written the same way before the
//! error is returned.

use super::app::App;
use super::effect::Runner;
use super::message::notice::Notice;
use super::terminal::TerminalGuard;
use super::update::{Msg, update};
use super::view;
use anyhow::Context;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// How often the spinner advances while background work runs.
pub const TICK: Duration = Duration::from_millis(80);
/// While a search scores in the background, the least time between frames
/// that only show its progress (input is drawn at once).
const SEARCH_FRAME: Duration = Duration::from_millis(16);
/// Messages handled before the next frame: a burst of keys (a paste, a
/// held key) or of results costs one frame, yet a frame still follows soon.
const BURST: usize = 256;

/// The signal that ended the screen, if one did.
pub type EndedBy = Option<i32>;

/// Turns SIGHUP, SIGTERM, SIGINT and SIGQUIT into [`Msg::Terminate`];
/// remembers which came.
#[cfg(unix)]
pub fn watch_signals(runner: &Runner) -> Arc<AtomicI32> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let last = Arc::new(AtomicI32::new(0));
    let seen = Arc::clone(&last);
    let tx = runner.tx.clone();
    match signal_hook::iterator::Signals::new([SIGHUP, SIGTERM, SIGINT, SIGQUIT]) {
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
                runner.send(Msg::Notice(Notice::SignalsUnwatched(e.into())));
            }
        }
        Err(e) => runner.send(Msg::Notice(Notice::SignalsUnwatched(e.into()))),
    }
    last
}

#[cfg(not(unix))]
pub fn watch_signals(_runner: &Runner) -> Arc<AtomicI32> {
    Arc::new(AtomicI32::new(0))
}

/// Starts the input reader on the runner's channel and ties it to the guard
/// (paused while the editor or a stop has the terminal).
pub fn start_input(guard: &mut TerminalGuard, runner: &Runner) -> anyhow::Result<()> {
    let gate = Arc::new(super::reader::Gate::default());
    super::reader::spawn(runner.tx.clone(), Arc::clone(&gate)).context("starting the terminal reader")?;
    guard.attach_input(gate);
    Ok(())
}

/// Runs the screen until the user quits or a signal ends it.
pub fn event_loop(
    app: &mut App,
    guard: &mut TerminalGuard,
    runner: &mut Runner,
    rx: &Receiver<Msg>,
    signal: &AtomicI32,
) -> anyhow::Result<EndedBy> {
    let ended = screen_loop(app, guard, runner, rx);
    if ended.is_err() && !app.ui.quit {
        for effect in update(app, Msg::Terminate) {
            runner.run(effect, guard);
        }
    }
    ended?;
    Ok(signal_seen(signal))
}

/// The signal [`watch_signals`] saw, if any.
pub fn signal_seen(signal: &AtomicI32) -> EndedBy {
    Some(signal.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

/// Draws one frame of the current state.
pub fn draw(app: &App, guard: &mut TerminalGuard) -> anyhow::Result<()> {
    guard.draw(|frame| view::draw(frame, app)).context("drawing the screen")
}

/// The next message: waits for one, or (while work runs) at most one tick.
fn next(app: &App, rx: &Receiver<Msg>) -> anyhow::Result<Msg> {
    if app.browse.search.pending() {
        // An unfinished search goes on at once unless input is waiting.
        return match rx.try_recv() {
            Ok(msg) => Ok(msg),
            Err(TryRecvError::Empty) => Ok(Msg::Tick),
            Err(TryRecvError::Disconnected) => anyhow::bail!("the screen's message channel closed"),
        };
    }
    if super::view::status::busy(app).is_some() {
        return match rx.recv_timeout(TICK) {
            Ok(msg) => Ok(msg),
            Err(RecvTimeoutError::Timeout) => Ok(Msg::Tick),
            Err(RecvTimeoutError::Disconnected) => anyhow::bail!("the screen's message channel closed"),
        };
    }
    rx.recv().context("the screen's message channel closed")
}

/// Applies one message (terminal facts first: a resize resizes the frame).
pub fn handle(app: &mut App, guard: &mut TerminalGuard, runner: &mut Runner, msg: Msg) -> anyhow::Result<()> {
    match &msg {
        Msg::Resize(w, h) | Msg::Resumed(w, h) => guard.resize(*w, *h).context("resizing the screen")?,
        Msg::InputLost(why) => anyhow::bail!("reading terminal input: {why}"),
        _ => {}
    }
    for effect in update(app, msg) {
        runner.run(effect, guard);
    }
    Ok(())
}

fn screen_loop(
    app: &mut App,
    guard: &mut TerminalGuard,
    runner: &mut Runner,
    rx: &Receiver<Msg>,
) -> anyhow::Result<()> {
    let (w, h) = guard.size();
    handle(app, guard, runner, Msg::Resize(w, h))?;
    // Something changed since the last frame; and something the user waits on.
    let (mut dirty, mut urgent) = (true, true);
    let mut drawn: Option<Instant> = None;
    loop {
        let paced = drawn.is_some_and(|t| t.elapsed() < SEARCH_FRAME) && app.browse.search.pending();
        if dirty && (urgent || !paced) {
            draw(app, guard)?;
            drawn = Some(Instant::now());
            (dirty, urgent) = (false, false);
        }
        runner.top_up_highlights(app.doc.findings());
        let first = next(app, rx)?;
        let mut msgs = vec![first];
        msgs.extend(rx.try_iter().take(BURST));
        if app.browse.search.pending() && !msgs.iter().any(|m| matches!(m, Msg::Tick | Msg::Key(_))) {
            // A stream of background results (the review being highlighted)
            // keeps the channel busy: the search still scores a chunk per turn.
            msgs.push(Msg::Tick);
        }
        for failure in super::terminal::take_worker_panics() {
            msgs.push(Msg::Notice(Notice::Panicked { failure }));
        }
        for msg in msgs {
            let shown = shows(app, &msg);
            dirty |= shown;
            urgent |= shown && !matches!(msg, Msg::Tick);
            handle(app, guard, runner, msg)?;
            if app.ui.quit {
                return Ok(());
            }
        }
    }
}

/// Whether a message can change the frame. A block highlighted in the
/// background that the evidence panel does not wait for changes nothing on
/// screen, so a stream of those (the rest of the review being highlighted)
/// draws no frames.
fn shows(app: &App, msg: &Msg) -> bool {
    match msg {
        Msg::Highlighted(block) => app.evidence.waiting.contains(&block.key()) || app.diff.waits_for(block.key()),
        Msg::EvidenceSuperseded { .. } => false,
        _ => true,
    }
}
