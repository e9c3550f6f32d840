//! The background lane of highlighting, filled a batch at a time.
//!
//! Every excerpt of the review is highlighted in the end, in document order,
//! behind the selected and visible findings ([`super::queue`]). Making a job
//! copies the excerpt's lines, so queueing the whole review at start would
//! cost the event loop time in proportion to the review (at 100,000
//! findings, many milliseconds before the first complete frame). Instead the
//! loop tops the lane up after each frame: when fewer than [`LOW`] blocks
//! wait, the excerpts of the next [`BATCH`] findings are queued. The
//! highlighting thread reports every block it makes (and the last one of a
//! batch even when it was made before), so the loop wakes to queue the next
//! batch; with nothing left it stays asleep.

use super::HighlightJob;
use super::queue::{Lane, Queue};
use crate::model::finding::Finding;

/// Findings whose excerpts are queued per top-up.
pub const BATCH: usize = 64;
/// The lane is topped up when fewer blocks than this wait in all lanes.
pub const LOW: usize = 16;

/// How far the background lane has been filled.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RestFeed {
    /// The first finding whose excerpts are not queued yet.
    next: usize,
}

impl RestFeed {
    /// Queues the next batch when the queue runs low; returns how many
    /// blocks were queued.
    pub fn top_up(&mut self, queue: &Queue, findings: &[Finding]) -> usize {
        if self.next >= findings.len() || queue.waiting() >= LOW {
            return 0;
        }
        let end = (self.next + BATCH).min(findings.len());
        let jobs = jobs(&findings[self.next..end]);
        self.next = end;
        let n = jobs.len();
        queue.add(Lane::Rest, jobs);
        n
    }

    /// True once every finding's excerpts have been queued.
    pub fn done(&self, findings: &[Finding]) -> bool {
        self.next >= findings.len()
    }
}

/// The highlight jobs of these findings' excerpts, in order.
pub fn jobs(findings: &[Finding]) -> Vec<HighlightJob> {
    findings
        .iter()
        .flat_map(|f| f.evidence.iter().map(crate::tui::present::evidence::excerpt_job))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture;

    #[test]
    fn batches_follow_document_order_and_wait_for_the_queue_to_run_low() {
        let set = fixture::scaled(BATCH * 2 + 3);
        let findings = &set.findings;
        let queue = Queue::new();
        let mut feed = RestFeed::default();
        let first = feed.top_up(&queue, findings);
        assert_eq!(first, jobs(&findings[..BATCH]).len());
        assert!(first >= LOW, "the fixture has an excerpt per finding");
        assert_eq!(feed.top_up(&queue, findings), 0, "enough is waiting");
        let want: Vec<HighlightJob> = jobs(findings);
        let mut got = Vec::new();
        while !feed.done(findings) || queue.waiting() > 0 {
            match queue.take() {
                Some(job) => got.push(job),
                None => assert!(feed.top_up(&queue, findings) > 0 || feed.done(findings)),
            }
            feed.top_up(&queue, findings);
        }
        assert_eq!(got, want, "every excerpt once, in document order");
        assert_eq!(feed.top_up(&queue, findings), 0);
    }
}
