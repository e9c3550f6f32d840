//! What the screen knows about evidence beyond the file: the checkout's HEAD,
//! the checkout's verdict and context per excerpt (read in the background),
//! and the highlighted blocks sent by the highlighting thread. `update` turns it into the
//! [`EvidenceView`] of the selected finding; the view draws that.

use super::highlight::{HighlightKey, Highlights};
use super::present::evidence::{
    EvidenceView, ExcerptView, HeadLine, LocalView, MAX_FIELD_LINES, Window, excerpt_job, excerpt_shown_lines,
    field_lines, shown_lines, split_count,
};
use crate::model::finding::Finding;
use std::collections::{HashMap, HashSet};

pub use super::message::LocalResult;

/// Evidence facts gathered while the screen runs.
///
/// The panel of a finding with thousands of excerpts (or one field of
/// megabytes) is never built whole: [`EvidenceState::refresh`] counts the
/// lines of every block once per finding (cheap, nothing is formatted), and
/// [`EvidenceState::window`] builds only the blocks that meet the visible
/// lines. Highlighting results for blocks outside the window change nothing.
#[derive(Debug, Clone, Default)]
pub struct EvidenceState {
    /// Context can be read: a local checkout was found, or GitHub holds the
    /// reviewed pull request (otherwise nothing is ever requested).
    pub checkout: bool,
    /// The checkout HEAD against the reviewed commit.
    pub head: HeadLine,
    /// Per finding index: the checkout's answer per evidence item.
    pub local: HashMap<usize, Vec<LocalResult>>,
    /// Findings whose checkout read has been requested.
    pub requested: HashSet<usize>,
    /// The highlighted blocks that arrived (`Msg::Highlighted`), read by
    /// the panel and the diff view; off: plain text, nothing asked for.
    pub highlights: Highlights,
    /// The visible part of the panel of the selected finding.
    pub view: EvidenceView,
    /// The finding `view` was built for.
    pub built_for: Option<usize>,
    /// Blocks in `view` still shown plain, waiting for highlighting.
    pub waiting: HashSet<HighlightKey>,
    /// `view` must be rebuilt (new facts arrived).
    pub dirty: bool,
    /// (selected finding, first row on screen) the last highlight request was made for.
    pub prioritized: Option<(Option<usize>, usize)>,
    /// First line of every block of the whole panel, then the total.
    starts: Vec<usize>,
    /// The clean lines of each stated text of the selected finding.
    stated: Vec<Vec<String>>,
    /// Colours allowed in the panel.
    color: bool,
    /// The block range and first line `view` holds, while it is current.
    built: Option<(usize, usize, usize)>,
}

/// Where the parts of the panel begin among its blocks: the head block, one
/// block per excerpt, then (with stated evidence) the heading and one block
/// per stated text.
struct Blocks {
    items: usize,
}

impl Blocks {
    fn item(&self, block: usize) -> Option<usize> {
        (1..=self.items).contains(&block).then(|| block - 1)
    }
    fn heading(&self) -> usize {
        self.items + 1
    }
    fn stated(&self, block: usize) -> Option<usize> {
        block.checked_sub(self.items + 2)
    }
}

impl EvidenceState {
    /// Marks the panel for a rebuild when a visible block it waits for is ready.
    pub fn highlighted(&mut self, key: HighlightKey) {
        if self.waiting.contains(&key) {
            self.dirty = true;
        }
    }

    /// Lines of the whole panel before wrapping (for scroll limits).
    pub fn total_lines(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// The evidence item at panel line `scroll` of the finding the panel was
    /// counted for (`items` of them): the item whose block holds that line,
    /// the first one while the head is on top and the last one once the
    /// stated texts are. None without items.
    pub fn item_at(&self, scroll: usize, items: usize) -> Option<usize> {
        if items == 0 {
            return None;
        }
        let block = self.starts.partition_point(|&s| s <= scroll).saturating_sub(1);
        Some(block.clamp(1, items) - 1)
    }

    /// Counts the blocks of `finding` (index `index`) when it changed or new
    /// facts arrived; the view is then rebuilt by the next [`EvidenceState::window`].
    pub fn refresh(&mut self, index: Option<usize>, finding: Option<&Finding>, color: bool) {
        if !self.dirty && self.built_for == index && self.color == color {
            return;
        }
        self.dirty = false;
        self.built_for = index;
        self.color = color;
        self.built = None;
        let Some(finding) = finding else {
            self.starts = vec![0, 1];
            self.stated.clear();
            return;
        };
        self.stated = super::river_evidence::stated(finding)
            .iter()
            .map(|t| field_lines(t))
            .collect();
        let evidence = super::river_evidence::items(finding);
        let local = index.and_then(|i| self.local.get(&i));
        let empty = evidence.is_empty() && self.stated.is_empty();
        let mut starts = Vec::with_capacity(evidence.len() + self.stated.len() + 4);
        let mut at = 0;
        let mut push = |count: usize| {
            starts.push(at);
            at += count;
        };
        push(1 + usize::from(empty));
        for (n, e) in evidence.iter().enumerate() {
            let (verdict, context) = match local.and_then(|l| l.get(n)) {
                Some(Ok(found)) => (1, found.lines.len()),
                Some(Err(_)) => (1, 0),
                None => (usize::from(self.checkout), 0),
            };
            let reason = shown_lines(split_count(&e.reason));
            push(2 + reason + excerpt_shown_lines(&e.excerpt) + verdict + context);
        }
        if !self.stated.is_empty() {
            push(2);
            for lines in &self.stated {
                push(lines.len());
            }
        }
        starts.push(at);
        self.starts = starts;
    }

    /// Makes `view` the part of the panel of `finding` shown from line
    /// `scroll` on, `rows` lines high; rebuilds only when that part changes.
    pub fn window(&mut self, finding: Option<&Finding>, scroll: usize, rows: usize, focused: bool) {
        let blocks = Blocks {
            items: finding.map_or(0, |f| super::river_evidence::items(f).len()),
        };
        let last_block = self.starts.len().saturating_sub(2);
        let block_at = |line: usize| {
            self.starts
                .partition_point(|&s| s <= line)
                .saturating_sub(1)
                .min(last_block)
        };
        let first = block_at(scroll);
        let last = block_at(scroll + rows.max(1) - 1).max(first);
        let stated_cut = blocks.stated(first).is_some();
        let from = if stated_cut {
            scroll
        } else {
            self.starts.get(first).copied().unwrap_or(0)
        };
        if self.built != Some((first, last, from)) {
            self.build(finding, &blocks, (first, last), from, scroll + rows.max(1));
            self.built = Some((first, last, from));
        }
        self.view.scroll = u16::try_from(scroll - from).unwrap_or(u16::MAX);
        self.view.focused = focused;
    }

    /// Builds the blocks `first..=last`; `from` is the first line built and
    /// `end` the line after the last one needed (stated texts are cut to it).
    fn build(
        &mut self,
        finding: Option<&Finding>,
        blocks: &Blocks,
        (first, last): (usize, usize),
        from: usize,
        end: usize,
    ) {
        self.waiting.clear();
        let mut view = EvidenceView {
            head: self.head.clone(),
            color: self.color,
            window: Window {
                skip_head: first > 0,
                skip_stated_heading: first > blocks.heading(),
                total_lines: Some(self.total_lines()),
                total_items: Some(blocks.items),
            },
            ..EvidenceView::default()
        };
        let Some(finding) = finding else {
            self.view = view;
            return;
        };
        let hl = Some(&self.highlights);
        let local = self.built_for.and_then(|i| self.local.get(&i));
        let evidence = super::river_evidence::items(finding);
        for block in first..=last {
            if let Some(n) = blocks.item(block)
                && let Some(e) = evidence.get(n)
            {
                let local = match local.and_then(|l| l.get(n)) {
                    Some(Ok(found)) => {
                        wait_for(hl, &e.path, &found.lines, &mut self.waiting);
                        LocalView::checked(&e.path, found, hl)
                    }
                    Some(Err(why)) => LocalView::unavailable(why),
                    None if self.checkout => LocalView::Pending,
                    None => LocalView::NoCheckout,
                };
                if e.excerpt.lines().count() <= MAX_FIELD_LINES {
                    let job = excerpt_job(e);
                    wait_for(hl, &job.path, &job.lines, &mut self.waiting);
                }
                view.items.push(ExcerptView::new(e, local, hl));
            }
            if let Some(n) = blocks.stated(block)
                && let Some(lines) = self.stated.get(n)
            {
                let start = self.starts.get(block).copied().unwrap_or(0);
                let skip = from.saturating_sub(start).min(lines.len());
                let take = end.saturating_sub(start.max(from)).min(lines.len() - skip);
                view.stated.push(lines[skip..skip + take].join("\n"));
            }
        }
        self.view = view;
    }
}

/// Notes the key of a block that is shown plain until its highlighting is ready.
fn wait_for(hl: Option<&Highlights>, path: &str, lines: &[String], waiting: &mut HashSet<HighlightKey>) {
    waiting.extend(hl.and_then(|h| h.awaited(path, lines)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkout::{ExcerptMatch, LocalEvidence, Revision};
    use crate::tui::fixture;

    fn local(found: ExcerptMatch) -> LocalEvidence {
        LocalEvidence {
            revision: Revision::WorkingTree,
            found,
            first_line: 86,
            lines: vec![
                "for attempt in range(max_attempts):".into(),
                "    if attempts >= max_attempts: return Ok(())".into(),
            ],
            marked: 87..=87,
        }
    }

    #[test]
    fn pending_until_the_checkout_answers() {
        let set = fixture::sample_set();
        let f = &set.findings[0];
        let mut st = EvidenceState {
            checkout: true,
            ..EvidenceState::default()
        };
        st.refresh(Some(0), Some(f), true);
        st.window(Some(f), 0, 40, false);
        assert!(matches!(st.view.items[0].local, LocalView::Pending));
        st.local
            .insert(0, vec![Ok(local(ExcerptMatch::Moved { from: 88, to: 87 }))]);
        st.refresh(Some(0), Some(f), true);
        st.window(Some(f), 0, 40, false);
        assert!(
            matches!(st.view.items[0].local, LocalView::Pending),
            "not rebuilt without news"
        );
        st.dirty = true;
        st.refresh(Some(0), Some(f), true);
        st.window(Some(f), 0, 40, false);
        assert!(
            matches!(&st.view.items[0].local, LocalView::Checked(c) if c.found == ExcerptMatch::Moved { from: 88, to: 87 })
        );
    }

    #[test]
    fn without_checkout_nothing_is_pending() {
        let set = fixture::sample_set();
        let mut st = EvidenceState::default();
        st.refresh(Some(0), Some(&set.findings[0]), false);
        st.window(Some(&set.findings[0]), 0, 40, false);
        assert!(matches!(st.view.items[0].local, LocalView::NoCheckout));
        assert!(!st.view.color);
        let river = fixture::river_set();
        st.refresh(Some(1), Some(&river.findings[0]), false);
        st.window(Some(&river.findings[0]), 0, 40, false);
        // Placed at the finding's file:line, so checked (not merely stated).
        assert_eq!(st.view.items.len(), 1);
        assert!(st.view.stated.is_empty());
        let mut unplaced = river.findings[0].clone();
        unplaced.line = None;
        st.refresh(Some(2), Some(&unplaced), false);
        st.window(Some(&unplaced), 0, 40, false);
        assert_eq!(st.view.stated.len(), 1);
    }
}
