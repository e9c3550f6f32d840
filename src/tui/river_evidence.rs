//! A River finding's evidence on the screen. River gives no code excerpt of
//! its own, only `evidence` strings; when the finding names a `file` and a
//! `line`, each string is looked for in the checkout at that place with the
//! same match / moved / missing check as a ReviewGate excerpt (working tree;
//! River names no reviewed commit), so code quoted as evidence is confirmed
//! or flagged, and the checkout's code around the line is shown. Strings of a
//! finding without a place are shown as stated. Every string is sanitised by
//! the evidence view like any other review text.

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
    use crate::tui::fixture;

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
