//! The order of the list: by severity (the default: rank, then file order),
//! by file (the findings of one file together, in path order, by line, so
//! the list reads grouped by file), by confidence (highest first), or by
//! disposition (open states first, as the header counts them). Every order
//! is stable: equal keys keep the rank order. The drift lane keeps its own
//! order (most dangerous first) under the severity sort; the others apply to
//! it too. A search ranks its matches by score, ties in this order.

use crate::model::finding::{Finding, Origin};

/// How the list is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// Rank P0 first (the review's own order within a rank).
    #[default]
    Severity,
    /// Grouped by file: path order, then line, then rank.
    File,
    /// Highest confidence first (River's words after every number).
    Confidence,
    /// Open dispositions first.
    Disposition,
}

impl Sort {
    /// The order after this one (for the sort key).
    pub fn next(self) -> Sort {
        match self {
            Sort::Severity => Sort::File,
            Sort::File => Sort::Confidence,
            Sort::Confidence => Sort::Disposition,
            Sort::Disposition => Sort::Severity,
        }
    }

    /// The name shown in the list title and the status line.
    pub fn label(self) -> &'static str {
        match self {
            Sort::Severity => "severity",
            Sort::File => "file",
            Sort::Confidence => "confidence",
            Sort::Disposition => "disposition",
        }
    }

    /// Reorders `indices` (already in rank order) by this sort, stably.
    pub fn apply(self, indices: &mut [usize], findings: &[Finding]) {
        match self {
            Sort::Severity => {}
            Sort::File => indices.sort_by(|&a, &b| {
                let key = |i: usize| {
                    (
                        findings[i].path.is_none(),
                        findings[i].path.as_deref(),
                        findings[i].line,
                    )
                };
                key(a).cmp(&key(b))
            }),
            Sort::Confidence => indices.sort_by(|&a, &b| confidence(&findings[b]).total_cmp(&confidence(&findings[a]))),
            Sort::Disposition => indices.sort_by_key(|&i| {
                findings
                    .get(i)
                    .map_or(usize::MAX, |f| disposition_rank(super::prepared::disposition_label(f)))
            }),
        }
    }
}

/// `s`: the next order, the selection kept.
pub fn cycle(app: &mut super::app::App) {
    app.browse.sort = app.browse.sort.next();
    app.refilter();
    let label = app.browse.sort.label();
    super::update::flash(app, super::app::Level::Info, format!("Sorted by {label}."));
}

/// A finding's confidence as a number for sorting: ReviewGate's value, or
/// River's word mapped high > medium > low; anything else sorts last.
fn confidence(f: &Finding) -> f64 {
    match &f.origin {
        Origin::ReviewGate(r) => r.confidence,
        Origin::River(r) => match r.confidence.as_deref().map(str::to_ascii_lowercase).as_deref() {
            Some("high") => 0.9,
            Some("medium") => 0.6,
            Some("low") => 0.3,
            _ => -1.0,
        },
    }
}

/// Open states first, in the header's order.
fn disposition_rank(label: &str) -> usize {
    const ORDER: [&str; 8] = [
        "open", "disput", "fixed", "reject", "intent", "supers", "suppr", "verif",
    ];
    ORDER.iter().position(|l| *l == label).unwrap_or(ORDER.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture;
    use crate::tui::prepared::Prepared;

    fn sorted(sort: Sort) -> (Vec<usize>, Vec<Finding>) {
        let set = fixture::sample_set();
        let prepared = Prepared::new(Some(&set));
        let mut order = prepared.ranked.clone();
        sort.apply(&mut order, &set.findings);
        (order, set.findings)
    }

    #[test]
    fn every_sort_orders_by_its_key_and_keeps_every_finding() {
        let (order, f) = sorted(Sort::File);
        let paths: Vec<Option<&str>> = order.iter().map(|&i| f[i].path.as_deref()).collect();
        let mut want = paths.clone();
        want.sort_by_key(|p| (p.is_none(), *p));
        assert_eq!(paths, want);
        let (order, f) = sorted(Sort::Confidence);
        let c: Vec<f64> = order.iter().map(|&i| confidence(&f[i])).collect();
        assert!(c.windows(2).all(|w| w[0] >= w[1]), "{c:?}");
        let (order, f) = sorted(Sort::Disposition);
        let prepared = Prepared::new(Some(&fixture::sample_set()));
        let d: Vec<usize> = order
            .iter()
            .map(|&i| disposition_rank(prepared.rows.get(&f, i).unwrap().disposition))
            .collect();
        assert!(d.windows(2).all(|w| w[0] <= w[1]), "{d:?}");
        assert_eq!(order.len(), f.len());
        let (order, _) = sorted(Sort::Severity);
        assert_eq!(order, prepared.ranked);
        let mut s = Sort::default();
        for _ in 0..4 {
            s = s.next();
        }
        assert_eq!(s, Sort::Severity);
    }
}
