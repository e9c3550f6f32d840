//! The event loop: draw, wait for a terminal event or a background result,
//! `update`, run the effects, repeat until the state says quit.

use super::app::App;
use super::effect::Runner;
use super::terminal::TerminalGuard;
use super::update::{Msg, update};
use super::view;
use anyhow::Context;
use ratatui::crossterm::event::{self, Event, KeyEventKind};
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

/// Runs the screen until the user quits.
pub fn event_loop(
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
