//! The order highlighting is done in: what the reviewer looks at first.
//!
//! One thread takes blocks from three lanes, always from the first lane that
//! has one: the selected finding's evidence ([`Lane::Selected`]), then the
//! findings on screen ([`Lane::Visible`]), then every other excerpt of the
//! review ([`Lane::Rest`]). Selecting another finding replaces the first
//! lane (the old selection's blocks that are not done yet go back to waiting
//! behind the visible ones), so a new selection jumps the queue however much
//! background work is left. A block the thread made before is not made
//! again: asked for on the selected or visible lane, its finished copy is
//! handed on at once (the screen may have started its own map over since,
//! and asks again for what it shows); on the rest lane it is skipped.

use super::{HighlightJob, Highlighted, Highlighter};
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// A lane of the queue, most urgent first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// The selected finding's excerpts and checkout context.
    Selected,
    /// The findings on screen.
    Visible,
    /// Everything else, in document order.
    Rest,
}

#[derive(Debug, Default)]
struct Lanes {
    selected: VecDeque<HighlightJob>,
    visible: VecDeque<HighlightJob>,
    rest: VecDeque<HighlightJob>,
    closed: bool,
}

impl Lanes {
    fn pop(&mut self) -> Option<(Lane, HighlightJob)> {
        let tagged = |lane: Lane| move |job| (lane, job);
        self.selected
            .pop_front()
            .map(tagged(Lane::Selected))
            .or_else(|| self.visible.pop_front().map(tagged(Lane::Visible)))
            .or_else(|| self.rest.pop_front().map(tagged(Lane::Rest)))
    }
}

/// The shared lanes and the signal that one has work.
#[derive(Debug, Default)]
struct Shared {
    lanes: Mutex<Lanes>,
    work: Condvar,
}

/// Hands blocks to the highlighting thread, most urgent first.
#[derive(Debug, Clone)]
pub struct Queue {
    shared: Arc<Shared>,
}

impl Queue {
    /// A queue whose thread is not started yet (see [`Queue::start`]).
    pub fn new() -> Queue {
        Queue {
            shared: Arc::new(Shared::default()),
        }
    }

    /// Puts `jobs` in `lane`: the selected and visible lanes are replaced
    /// (their unfinished blocks move to the back of the rest), the rest grows.
    pub fn put(&self, lane: Lane, jobs: Vec<HighlightJob>) {
        let mut lanes = self.shared.lanes.lock().unwrap_or_else(PoisonError::into_inner);
        match lane {
            Lane::Selected => {
                let old = std::mem::replace(&mut lanes.selected, jobs.into());
                lanes.rest.extend(old);
            }
            Lane::Visible => {
                let old = std::mem::replace(&mut lanes.visible, jobs.into());
                lanes.rest.extend(old);
            }
            Lane::Rest => lanes.rest.extend(jobs),
        }
        drop(lanes);
        self.shared.work.notify_one();
    }

    /// Adds `jobs` at the end of `lane` (nothing is replaced).
    pub fn add(&self, lane: Lane, jobs: Vec<HighlightJob>) {
        let mut lanes = self.shared.lanes.lock().unwrap_or_else(PoisonError::into_inner);
        match lane {
            Lane::Selected => lanes.selected.extend(jobs),
            Lane::Visible => lanes.visible.extend(jobs),
            Lane::Rest => lanes.rest.extend(jobs),
        }
        drop(lanes);
        self.shared.work.notify_one();
    }

    /// Blocks waiting in all lanes.
    pub fn waiting(&self) -> usize {
        let lanes = self.shared.lanes.lock().unwrap_or_else(PoisonError::into_inner);
        lanes.selected.len() + lanes.visible.len() + lanes.rest.len()
    }

    /// The next block and its lane, waiting for one; `None` once closed.
    fn next(&self) -> Option<(Lane, HighlightJob)> {
        let mut lanes = self.shared.lanes.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if lanes.closed {
                return None;
            }
            if let Some(job) = lanes.pop() {
                return Some(job);
            }
            lanes = self.shared.work.wait(lanes).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Stops the thread after its current block.
    pub fn close(&self) {
        self.shared.lanes.lock().unwrap_or_else(PoisonError::into_inner).closed = true;
        self.shared.work.notify_all();
    }

    /// Takes the next block without a thread (tests: the order blocks are done in).
    pub fn take(&self) -> Option<HighlightJob> {
        let next = self.shared.lanes.lock().unwrap_or_else(PoisonError::into_inner).pop();
        next.map(|(_, job)| job)
    }

    /// Starts the thread: each block is highlighted (or taken from `hl`'s
    /// cache) and handed to `on_done` (the runtime sends it to the screen).
    pub fn start<F>(&self, hl: Arc<Highlighter>, mut on_done: F) -> std::io::Result<()>
    where
        F: FnMut(Highlighted) + Send + 'static,
    {
        let me = self.clone();
        std::thread::Builder::new().name("highlight".into()).spawn(move || {
            while let Some((lane, job)) = me.next() {
                // Background blocks already sent once are not sent again (a
                // burst of selections leaves many in the rest lane), except
                // the last one waiting: its message wakes the event loop to
                // queue the next batch ([`super::rest`]).
                if lane == Lane::Rest && hl.cached(&job.path, &job.lines).is_some() && me.waiting() > 0 {
                    continue;
                }
                on_done(hl.highlight(&job.path, &job.lines));
            }
        })?;
        Ok(())
    }
}

impl Default for Queue {
    fn default() -> Queue {
        Queue::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(name: &str) -> HighlightJob {
        HighlightJob {
            path: format!("{name}.rs"),
            lines: vec![name.to_owned()],
        }
    }

    fn order(q: &Queue) -> Vec<String> {
        std::iter::from_fn(|| q.take()).map(|j| j.lines[0].clone()).collect()
    }

    #[test]
    fn the_selection_goes_first_then_the_screen_then_the_rest() {
        let q = Queue::new();
        q.put(Lane::Rest, vec![job("r1"), job("r2")]);
        q.put(Lane::Visible, vec![job("v1")]);
        q.put(Lane::Selected, vec![job("s1"), job("s2")]);
        assert_eq!(order(&q), ["s1", "s2", "v1", "r1", "r2"]);
    }

    #[test]
    fn a_new_selection_jumps_the_queue_and_the_old_one_waits_behind() {
        let q = Queue::new();
        q.put(Lane::Rest, (0..1000).map(|i| job(&format!("r{i}"))).collect());
        q.put(Lane::Selected, vec![job("old")]);
        q.put(Lane::Selected, vec![job("new")]);
        let done = order(&q);
        assert_eq!(done[0], "new");
        assert_eq!(done.last().map(String::as_str), Some("old"), "not lost: done last");
        assert_eq!(done.len(), 1002);
    }
}
