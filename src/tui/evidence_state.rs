//! What the screen knows about evidence beyond the file: the checkout's HEAD,
//! the checkout's verdict and context per excerpt (read in the background),
//! and the highlighting cache. `update` turns it into the
//! [`EvidenceView`] of the selected finding; the view draws that.

use super::highlight::{HighlightKey, Highlighter};
use super::view::evidence::{EvidenceView, ExcerptView, HeadLine, LocalView, excerpt_job};
use crate::checkout::LocalEvidence;
use crate::model::finding::Finding;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The checkout's answer for one excerpt: context, or why there is none.
pub type LocalResult = Result<LocalEvidence, String>;

/// Evidence facts gathered while the screen runs.
#[derive(Debug, Clone, Default)]
pub struct EvidenceState {
    /// A local checkout was found (otherwise nothing is ever requested).
    pub checkout: bool,
    /// The checkout HEAD against the reviewed commit.
    pub head: HeadLine,
    /// Per finding index: the checkout's answer per evidence item.
    pub local: HashMap<usize, Vec<LocalResult>>,
    /// Findings whose checkout read has been requested.
    pub requested: HashSet<usize>,
    /// Shared highlighting cache (`None`: no highlighting, plain text).
    pub highlighter: Option<Arc<Highlighter>>,
    /// The panel of the selected finding.
    pub view: EvidenceView,
    /// The finding `view` was built for.
    pub built_for: Option<usize>,
    /// Blocks in `view` still shown plain, waiting for highlighting.
    pub waiting: Vec<HighlightKey>,
    /// `view` must be rebuilt (new facts arrived).
    pub dirty: bool,
}

impl EvidenceState {
    /// Marks the panel for a rebuild when a block it waits for is ready.
    pub fn highlighted(&mut self, key: HighlightKey) {
        if self.waiting.contains(&key) {
            self.dirty = true;
        }
    }

    /// Rebuilds the panel of `finding` (index `index`) when needed.
    pub fn refresh(&mut self, index: Option<usize>, finding: Option<&Finding>, color: bool) {
        if !self.dirty && self.built_for == index {
            return;
        }
        self.dirty = false;
        self.built_for = index;
        let mut waiting = Vec::new();
        let Some(finding) = finding else {
            self.waiting = waiting;
            self.view = EvidenceView {
                head: self.head.clone(),
                color,
                ..EvidenceView::default()
            };
            return;
        };
        let hl = self.highlighter.as_deref();
        let local = index.and_then(|i| self.local.get(&i));
        let evidence = super::river_evidence::items(finding);
        let mut items = Vec::with_capacity(evidence.len());
        for (n, e) in evidence.iter().enumerate() {
            let view = match local.and_then(|l| l.get(n)) {
                Some(Ok(found)) => {
                    wait_for(hl, &e.path, &found.lines, &mut waiting);
                    LocalView::checked(&e.path, found, hl)
                }
                Some(Err(why)) => LocalView::unavailable(why),
                None if self.checkout => LocalView::Pending,
                None => LocalView::NoCheckout,
            };
            let job = excerpt_job(e);
            wait_for(hl, &job.path, &job.lines, &mut waiting);
            items.push(ExcerptView::new(e, view, hl));
        }
        let stated = super::river_evidence::stated(finding);
        self.waiting = waiting;
        self.view = EvidenceView {
            head: self.head.clone(),
            items,
            stated,
            scroll: 0,
            focused: false,
            color,
        };
    }
}

/// Notes the key of a block that is shown plain until its highlighting is ready.
fn wait_for(hl: Option<&Highlighter>, path: &str, lines: &[String], waiting: &mut Vec<HighlightKey>) {
    if let Some(h) = hl.filter(|h| h.is_styled())
        && h.cached(path, lines).is_none()
    {
        waiting.push(h.key(path, lines));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkout::{ExcerptMatch, Revision};
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
        assert!(matches!(st.view.items[0].local, LocalView::Pending));
        st.local
            .insert(0, vec![Ok(local(ExcerptMatch::Moved { from: 88, to: 87 }))]);
        st.refresh(Some(0), Some(f), true);
        assert!(
            matches!(st.view.items[0].local, LocalView::Pending),
            "not rebuilt without news"
        );
        st.dirty = true;
        st.refresh(Some(0), Some(f), true);
        assert!(
            matches!(&st.view.items[0].local, LocalView::Checked(c) if c.found == ExcerptMatch::Moved { from: 88, to: 87 })
        );
    }

    #[test]
    fn without_checkout_nothing_is_pending() {
        let set = fixture::sample_set();
        let mut st = EvidenceState::default();
        st.refresh(Some(0), Some(&set.findings[0]), false);
        assert!(matches!(st.view.items[0].local, LocalView::NoCheckout));
        assert!(!st.view.color);
        let river = fixture::river_set();
        st.refresh(Some(1), Some(&river.findings[0]), false);
        // Placed at the finding's file:line, so checked (not merely stated).
        assert_eq!(st.view.items.len(), 1);
        assert!(st.view.stated.is_empty());
        let mut unplaced = river.findings[0].clone();
        unplaced.line = None;
        st.refresh(Some(2), Some(&unplaced), false);
        assert_eq!(st.view.stated.len(), 1);
    }
}
