//! A River finding's evidence on the screen. River gives no code excerpt of
//! its own, only `evidence` strings; when the finding names a `file` and a
//! `line`, each string is looked for in the checkout at that place with the
//! same match / moved / missing check as a ReviewGate excerpt (working tree;
//! River names no reviewed commit), so code quoted as evidence is confirmed
//! or flagged, and the checkout's code around the line is shown. Strings of a
//! finding without a place are shown as stated. Every string is sanitised by
//! the evidence view like any other review text.

use super::evidence_state::LocalResult;
use crate::checkout::ExcerptMatch;
use crate::model::finding::{Evidence, Finding, Origin, Side};
use std::borrow::Cow;

/// The reason shown with each placed River evidence string.
pub const REASON: &str = "River evidence, looked for at the finding's file:line";

/// The evidence items checked against the checkout: a ReviewGate finding's
/// own excerpts, or a River finding's strings placed at its file:line.
pub fn items(f: &Finding) -> Cow<'_, [Evidence]> {
    let Origin::River(r) = &f.origin else {
        return Cow::Borrowed(&f.evidence);
    };
    let (Some(path), Some(line)) = (f.path.as_deref().filter(|p| !p.is_empty()), f.line) else {
        return Cow::Owned(Vec::new());
    };
    Cow::Owned(
        r.evidence
            .iter()
            .filter(|e| !e.trim().is_empty())
            .map(|e| Evidence {
                path: path.to_owned(),
                side: Side::New,
                line,
                excerpt: e.clone(),
                reason: REASON.to_owned(),
            })
            .collect(),
    )
}

/// The lines a River finding names: `line..=lineEnd` (just `line` without
/// a `lineEnd`, or when `lineEnd` is before `line`).
pub fn span(f: &Finding) -> Option<std::ops::RangeInclusive<usize>> {
    let Origin::River(r) = &f.origin else {
        return None;
    };
    let start = f.line? as usize;
    let end = r.line_end.map_or(start, |e| (e as usize).max(start));
    Some(start..=end)
}

/// A River finding's checked strings judged against its whole span: a
/// string found anywhere in `line..=lineEnd` is at its place (not moved), and
/// the span is what is marked, as a ReviewGate excerpt's lines are. A string
/// found outside the span is moved (its found line stays marked); one found
/// nowhere is missing, with the span marked. ReviewGate results pass as they are.
pub fn within_span(f: &Finding, mut items: Vec<LocalResult>) -> Vec<LocalResult> {
    let Some(span) = span(f) else {
        return items;
    };
    for local in items.iter_mut().flatten() {
        // The span as far as the context shows it (all of it when none shows).
        let last_shown = local.first_line + local.lines.len().saturating_sub(1);
        let clamp = |r: &std::ops::RangeInclusive<usize>| {
            let (start, end) = ((*r.start()).max(local.first_line), (*r.end()).min(last_shown));
            if start <= end { start..=end } else { r.clone() }
        };
        match local.found {
            ExcerptMatch::AtLine(_) => local.marked = clamp(&span),
            ExcerptMatch::Moved { to, .. } if span.contains(&to) => {
                local.found = ExcerptMatch::AtLine(to);
                local.marked = clamp(&span);
            }
            ExcerptMatch::Moved { .. } => {}
            ExcerptMatch::NotFound => local.marked = clamp(&span),
        }
    }
    items
}

/// River evidence strings shown as stated (those that could not be placed).
pub fn stated(f: &Finding) -> Vec<String> {
    match &f.origin {
        Origin::River(r) if items(f).is_empty() => r.evidence.clone(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkout::{LocalEvidence, Revision};
    use crate::tui::fixture;

    fn local(found: ExcerptMatch, marked: std::ops::RangeInclusive<usize>) -> LocalResult {
        Ok(LocalEvidence {
            revision: Revision::WorkingTree,
            found,
            first_line: 6,
            lines: (6..=18).map(|n| format!("line {n}")).collect(),
            marked,
        })
    }

    #[test]
    fn a_span_counts_as_the_place_and_is_marked() {
        let set = fixture::river_set();
        let mut f = set.findings[0].clone();
        assert_eq!(f.line, Some(10));
        if let Origin::River(r) = &mut f.origin {
            r.line_end = Some(13);
        }
        assert_eq!(span(&f), Some(10..=13));
        let items = vec![
            local(ExcerptMatch::AtLine(10), 10..=10),
            local(ExcerptMatch::Moved { from: 10, to: 12 }, 12..=12),
            local(ExcerptMatch::Moved { from: 10, to: 17 }, 17..=17),
            local(ExcerptMatch::NotFound, 10..=10),
            Err(crate::tui::message::failure::Shared::new(
                crate::checkout::source::ContextError::NoPlace,
            )),
        ];
        let got: Vec<_> = within_span(&f, items)
            .into_iter()
            .map(|r| r.map(|l| (l.found, l.marked)))
            .collect();
        assert_eq!(
            got,
            [
                Ok((ExcerptMatch::AtLine(10), 10..=13)),
                Ok((ExcerptMatch::AtLine(12), 10..=13)),
                Ok((ExcerptMatch::Moved { from: 10, to: 17 }, 17..=17)),
                Ok((ExcerptMatch::NotFound, 10..=13)),
                Err(crate::tui::message::failure::Shared::new(
                    crate::checkout::source::ContextError::NoPlace
                )),
            ]
        );
        // A ReviewGate finding's results are left alone.
        let rg = &fixture::sample_set().findings[0];
        let same = within_span(rg, vec![local(ExcerptMatch::Moved { from: 1, to: 2 }, 2..=2)]);
        assert_eq!(same[0].as_ref().map(|l| l.marked.clone()), Ok(2..=2));
    }

    #[test]
    fn river_strings_are_placed_at_the_finding_line() {
        let set = fixture::river_set();
        let f = &set.findings[0];
        let placed = items(f);
        assert_eq!(placed.len(), 1);
        assert_eq!((placed[0].path.as_str(), placed[0].line), ("src/config.mjs", 10));
        assert_eq!(placed[0].excerpt, "const KEY = \"sk-live\"");
        assert!(stated(f).is_empty());
        let mut no_line = f.clone();
        no_line.line = None;
        assert!(items(&no_line).is_empty());
        assert_eq!(stated(&no_line), ["const KEY = \"sk-live\""]);
        let rg = &fixture::sample_set().findings[0];
        assert_eq!(items(rg).len(), rg.evidence.len());
        assert!(stated(rg).is_empty());
    }
}
