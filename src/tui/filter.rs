//! Which findings the list shows: the view (repair set, all, drift lane), the
//! facet filters and the search query.

use super::drift::Drift;
use super::prepared::Prepared;
use crate::model::finding::{Classification, Disposition, Finding, Severity, ThreadTransition};

/// The list's view of the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The findings an agent or reviewer must act on (the default).
    #[default]
    Repair,
    /// Every finding.
    All,
    /// Findings whose thread state needs a human, most dangerous first.
    Drift,
}

impl View {
    /// Title of the list pane.
    pub fn title(self) -> &'static str {
        match self {
            View::Repair => "Repair set",
            View::All => "All findings",
            View::Drift => "Drift lane",
        }
    }

    /// The view after this one (for the "next view" key).
    pub fn next(self) -> View {
        match self {
            View::Repair => View::All,
            View::All => View::Drift,
            View::Drift => View::Repair,
        }
    }
}

/// One toggle in the filter menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterItem {
    /// Keep this rank.
    Severity(Severity),
    /// Keep this canonical disposition (ReviewGate findings).
    Disposition(Disposition),
    /// Keep this classification (ReviewGate findings).
    Classification(Classification),
    /// Keep this thread state (ReviewGate findings).
    Thread(ThreadTransition),
    /// Keep only findings whose thread is outdated.
    Outdated,
    /// Keep only findings not yet decided (see [`crate::tui::progress::decided`]).
    Undecided,
    /// Keep findings whose path contains a text (edited in place).
    Path,
}

const TRANSITIONS: [ThreadTransition; 10] = [
    ThreadTransition::ResolvedExternally,
    ThreadTransition::Reopened,
    ThreadTransition::ResolutionPending,
    ThreadTransition::Unknown,
    ThreadTransition::Retained,
    ThreadTransition::NotPublished,
    ThreadTransition::ResolvedFixed,
    ThreadTransition::ResolvedRejectedWithEvidence,
    ThreadTransition::ResolvedIntentionalContract,
    ThreadTransition::ResolvedSuperseded,
];

impl FilterItem {
    /// Every item of the menu, in menu order.
    pub fn all() -> Vec<FilterItem> {
        let mut items: Vec<FilterItem> = Severity::ALL.into_iter().map(FilterItem::Severity).collect();
        items.extend(Disposition::ALL.into_iter().map(FilterItem::Disposition));
        items.extend(Classification::ALL.into_iter().map(FilterItem::Classification));
        items.extend(TRANSITIONS.into_iter().map(FilterItem::Thread));
        items.push(FilterItem::Outdated);
        items.push(FilterItem::Undecided);
        items.push(FilterItem::Path);
        items
    }

    /// The facet this item belongs to, for the menu's group labels.
    pub fn group(self) -> &'static str {
        match self {
            FilterItem::Severity(_) => "severity",
            FilterItem::Disposition(_) => "disposition",
            FilterItem::Classification(_) => "classification",
            FilterItem::Thread(_) | FilterItem::Outdated => "thread",
            FilterItem::Undecided => "progress",
            FilterItem::Path => "path",
        }
    }

    /// The item's label.
    pub fn label(self) -> &'static str {
        match self {
            FilterItem::Severity(s) => s.as_str(),
            FilterItem::Disposition(d) => d.as_str(),
            FilterItem::Classification(c) => c.as_str(),
            FilterItem::Thread(t) => t.as_str(),
            FilterItem::Outdated => "outdated",
            FilterItem::Undecided => "undecided",
            FilterItem::Path => "path contains",
        }
    }
}

/// The facet filters. An empty facet keeps everything; a non-empty one keeps
/// findings with one of its values (findings without that facet drop out).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Filters {
    pub severity: Vec<Severity>,
    pub disposition: Vec<Disposition>,
    pub classification: Vec<Classification>,
    pub thread: Vec<ThreadTransition>,
    pub outdated_only: bool,
    /// Only findings without a decision. It depends on this session's state,
    /// not on the finding, so [`Filters::keeps`] ignores it and
    /// [`crate::tui::app::App::refilter`] applies it.
    pub undecided_only: bool,
    /// Case-insensitive substring of the path (empty: no path filter).
    pub path: String,
}

fn toggle<T: PartialEq>(set: &mut Vec<T>, value: T) {
    match set.iter().position(|v| *v == value) {
        Some(i) => {
            set.remove(i);
        }
        None => set.push(value),
    }
}

impl Filters {
    /// True when no filter is set.
    pub fn is_empty(&self) -> bool {
        *self == Filters::default()
    }

    /// Flips one menu item (the path item is edited, not toggled: here it clears).
    pub fn toggle(&mut self, item: FilterItem) {
        match item {
            FilterItem::Severity(s) => toggle(&mut self.severity, s),
            FilterItem::Disposition(d) => toggle(&mut self.disposition, d),
            FilterItem::Classification(c) => toggle(&mut self.classification, c),
            FilterItem::Thread(t) => toggle(&mut self.thread, t),
            FilterItem::Outdated => self.outdated_only = !self.outdated_only,
            FilterItem::Undecided => self.undecided_only = !self.undecided_only,
            FilterItem::Path => self.path.clear(),
        }
    }

    /// True when the menu item is switched on.
    pub fn is_on(&self, item: FilterItem) -> bool {
        match item {
            FilterItem::Severity(s) => self.severity.contains(&s),
            FilterItem::Disposition(d) => self.disposition.contains(&d),
            FilterItem::Classification(c) => self.classification.contains(&c),
            FilterItem::Thread(t) => self.thread.contains(&t),
            FilterItem::Outdated => self.outdated_only,
            FilterItem::Undecided => self.undecided_only,
            FilterItem::Path => !self.path.is_empty(),
        }
    }

    /// True when the finding passes every facet.
    pub fn keeps(&self, finding: &Finding, path_lower: &str) -> bool {
        let rg = finding.reviewgate();
        (self.severity.is_empty() || self.severity.contains(&finding.rank))
            && (self.disposition.is_empty() || rg.is_some_and(|r| self.disposition.contains(&r.disposition)))
            && (self.classification.is_empty() || rg.is_some_and(|r| self.classification.contains(&r.classification)))
            && (self.thread.is_empty() || rg.is_some_and(|r| self.thread.contains(&r.thread.transition)))
            && (!self.outdated_only || rg.is_some_and(|r| r.thread.outdated))
            && (self.path.is_empty() || path_lower.contains(&self.path.to_lowercase()))
    }

    /// A short summary for the list title (`sev P0,P1 · path "api"`).
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        let mut facet = |name: &str, labels: Vec<&str>| {
            if !labels.is_empty() {
                parts.push(format!("{name} {}", labels.join(",")));
            }
        };
        facet("sev", self.severity.iter().map(|s| s.as_str()).collect());
        facet("disp", self.disposition.iter().map(|d| d.as_str()).collect());
        facet("class", self.classification.iter().map(|c| c.as_str()).collect());
        facet("thread", self.thread.iter().map(|t| t.as_str()).collect());
        if self.outdated_only {
            parts.push("outdated".to_string());
        }
        if self.undecided_only {
            parts.push("undecided".to_string());
        }
        if !self.path.is_empty() {
            parts.push(format!("path \"{}\"", crate::sanitize::clean_line(&self.path)));
        }
        parts.join(" · ")
    }
}

/// Inputs of the visible list.
#[derive(Debug, Clone, Copy)]
pub struct Selection<'a> {
    pub view: View,
    pub filters: &'a Filters,
    /// Findings whose recorded decisions are not applied on this head
    /// (unauthorised, or for an older head): listed in the drift lane too,
    /// after the thread lanes.
    pub recorded_drift: &'a [usize],
    /// The list's order ([`super::sort`]).
    pub sort: super::sort::Sort,
}

/// The finding indices the view and the facets keep, in display order
/// (the search query is applied over these by [`super::search`]).
pub fn visible(findings: &[Finding], prepared: &Prepared, sel: Selection<'_>) -> Vec<usize> {
    let in_view = |i: usize| match sel.view {
        View::Repair => findings[i].in_repair_set(),
        View::All => true,
        View::Drift => Drift::of(&findings[i]).is_some() || sel.recorded_drift.contains(&i),
    };
    let mut out: Vec<usize> = prepared
        .ranked
        .iter()
        .copied()
        .filter(|&i| i < findings.len() && in_view(i))
        .filter(|&i| {
            // Rows are built on first use: only a path filter needs the row of every finding.
            let path = match sel.filters.path.is_empty() {
                true => "",
                false => prepared.rows.get(findings, i).map_or("", |r| r.path_lower.as_str()),
            };
            sel.filters.keeps(&findings[i], path)
        })
        .collect();
    if sel.view == View::Drift {
        out.sort_by_key(|&i| (Drift::of(&findings[i]).is_none(), Drift::of(&findings[i])));
    }
    sel.sort.apply(&mut out, findings);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture;

    fn run(view: View, filters: &Filters, query: &str) -> Vec<usize> {
        let set = fixture::sample_set();
        let prepared = Prepared::new(Some(&set));
        let sel = Selection {
            view,
            filters,
            recorded_drift: &[],
            sort: Default::default(),
        };
        let mut search = crate::tui::search::Search::default();
        let hay = crate::tui::fuzzy::Haystack::new(&prepared.search, set.findings.as_slice());
        search.set(hay, visible(&set.findings, &prepared, sel), query);
        while search.advance(hay) {}
        search.listed()
    }

    #[test]
    fn repair_view_is_the_repair_set() {
        let set = fixture::sample_set();
        let got = run(View::Repair, &Filters::default(), "");
        assert!(!got.is_empty());
        assert!(got.iter().all(|&i| set.findings[i].in_repair_set()));
        let all = run(View::All, &Filters::default(), "");
        assert_eq!(all.len(), set.findings.len());
    }

    #[test]
    fn drift_lane_is_ordered_by_danger() {
        let set = fixture::sample_set();
        let got = run(View::Drift, &Filters::default(), "");
        let lanes: Vec<Drift> = got.iter().filter_map(|&i| Drift::of(&set.findings[i])).collect();
        assert_eq!(lanes.len(), got.len());
        assert_eq!(lanes.first(), Some(&Drift::ResolvedExternally));
        assert!(lanes.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn facets_and_query_combine() {
        let set = fixture::sample_set();
        let mut filters = Filters::default();
        filters.toggle(FilterItem::Severity(Severity::P1));
        let p1 = run(View::All, &filters, "");
        assert!(!p1.is_empty());
        assert!(p1.iter().all(|&i| set.findings[i].rank == Severity::P1));
        filters.toggle(FilterItem::Severity(Severity::P1));
        assert!(filters.is_empty());
        filters.path = "SRC/".into();
        assert!(run(View::All, &filters, "").iter().all(|&i| {
            set.findings[i]
                .path
                .as_deref()
                .is_some_and(|p| p.to_lowercase().contains("src/"))
        }));
        let q = run(View::All, &Filters::default(), "retry");
        assert!(!q.is_empty() && q.len() < set.findings.len());
    }

    #[test]
    fn summary_names_every_active_facet() {
        let mut f = Filters::default();
        f.toggle(FilterItem::Severity(Severity::P0));
        f.toggle(FilterItem::Thread(ThreadTransition::Unknown));
        f.path = "api".into();
        assert_eq!(f.summary(), "sev P0 · thread unknown · path \"api\"");
        assert!(FilterItem::all().iter().all(|i| !i.label().is_empty()));
    }
}
