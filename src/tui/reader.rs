//! The terminal-input reader: one thread that turns crossterm events into
//! messages on the screen's one channel, so the event loop blocks on that
//! channel alone and every background result is drawn the moment it arrives.
//!
//! While a child program owns the terminal (`$EDITOR`, a `ctrl-z` stop) the
//! reader must not take its keys: [`Gate::pause`] parks the thread between two
//! polls and returns once it is parked; [`Gate::open`] lets it read again.
//! The reader polls with a short timeout only to notice a pause; a poll that
//! times out sends nothing, so an idle screen receives no message at all.

use super::update::Msg;
use ratatui::crossterm::event::{self, Event, KeyEventKind};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// How long one poll waits before the pause flag is looked at again (the
/// longest a pause waits for the reader to park).
const POLL: Duration = Duration::from_millis(25);

/// Whether the reader may read, and whether it is parked.
#[derive(Debug, Default)]
struct GateState {
    paused: bool,
    parked: bool,
    /// The screen has ended: the thread returns.
    closed: bool,
}

/// Pauses and resumes the reader thread.
#[derive(Debug, Default)]
pub struct Gate {
    state: Mutex<GateState>,
    changed: Condvar,
}

impl Gate {
    fn lock(&self) -> std::sync::MutexGuard<'_, GateState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Stops reading and waits until the reader is parked (at most one poll).
    pub fn pause(&self) {
        let mut state = self.lock();
        state.paused = true;
        while !state.parked && !state.closed {
            state = self.changed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Lets the reader read again.
    pub fn open(&self) {
        self.lock().paused = false;
        self.changed.notify_all();
    }

    /// Ends the reader thread (after its current poll).
    pub fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }

    /// Waits while paused; false once closed.
    fn wait_open(&self) -> bool {
        let mut state = self.lock();
        while state.paused && !state.closed {
            state.parked = true;
            self.changed.notify_all();
            state = self.changed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        state.parked = false;
        !state.closed
    }
}

/// A terminal event as a message (`None`: nothing the screen cares about).
pub fn to_msg(ev: Event) -> Option<Msg> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => Some(Msg::Key(k)),
        Event::Mouse(m) => Some(Msg::Mouse(m)),
        Event::Paste(text) => Some(Msg::Paste(text)),
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}

/// Starts the reader thread; it sends every event to `tx` until the gate
/// closes or the channel is gone. A failure to read the terminal is sent as
/// [`Msg::InputLost`] and ends the thread.
pub fn spawn(tx: Sender<Msg>, gate: Arc<Gate>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("terminal-input".into())
        .spawn(move || {
            while gate.wait_open() {
                let ready = match event::poll(POLL) {
                    Ok(ready) => ready,
                    Err(e) => {
                        let _ = tx.send(Msg::InputLost(e.into()));
                        return;
                    }
                };
                if !ready {
                    continue;
                }
                match event::read() {
                    Ok(ev) => {
                        if let Some(msg) = to_msg(ev)
                            && tx.send(msg).is_err()
                        {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Msg::InputLost(e.into()));
                        return;
                    }
                }
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pause_returns_once_the_reader_is_parked_and_open_releases_it() {
        let gate = Arc::new(Gate::default());
        let (to_test, parked_seen) = std::sync::mpsc::channel();
        let g = Arc::clone(&gate);
        let reader = std::thread::spawn(move || {
            // Stands in for the poll loop: park whenever paused.
            let mut rounds = 0;
            while g.wait_open() {
                rounds += 1;
                let _ = to_test.send(rounds);
                std::thread::yield_now();
            }
            rounds
        });
        let _ = parked_seen.recv();
        gate.pause();
        assert!(gate.lock().parked, "pause returned before the reader parked");
        let before = parked_seen.try_iter().count();
        assert!(
            parked_seen.try_recv().is_err(),
            "a parked reader does not run ({before})"
        );
        gate.open();
        assert!(parked_seen.recv().is_ok(), "an opened gate lets the reader run again");
        gate.close();
        assert!(reader.join().is_ok());
    }
}
