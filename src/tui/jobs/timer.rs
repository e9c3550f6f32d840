//! The draft-save timer: one thread, started on first use, that delivers
//! `Msg::DraftIdle(generation)` once [`IDLE`] has passed without a newer
//! generation being set. Each set replaces the pending one, so a burst of
//! typing costs one message.

use crate::tui::autosave::IDLE;
use crate::tui::update::Msg;
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};

/// Handle of the timer thread.
#[derive(Debug, Default)]
pub struct Timer {
    to_thread: Option<Sender<u64>>,
}

impl Timer {
    /// (Re)arms the timer for `generation`; the message goes to `tx`.
    pub fn set(&mut self, generation: u64, tx: &Sender<Msg>) {
        if let Some(to) = &self.to_thread
            && to.send(generation).is_ok()
        {
            return;
        }
        let (to, from) = channel::<u64>();
        let tx = tx.clone();
        let spawned = std::thread::Builder::new().name("draft-timer".into()).spawn(move || {
            let mut pending: Option<u64> = None;
            loop {
                let next = match pending {
                    None => from.recv().map_err(|_| RecvTimeoutError::Disconnected),
                    Some(_) => from.recv_timeout(IDLE),
                };
                match next {
                    Ok(g) => pending = Some(g),
                    Err(RecvTimeoutError::Timeout) => {
                        if let Some(g) = pending.take()
                            && tx.send(Msg::DraftIdle(g)).is_err()
                        {
                            return;
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
        });
        if spawned.is_ok() && to.send(generation).is_ok() {
            self.to_thread = Some(to);
        }
    }
}
