//! Ranked fuzzy matching for `/` search, on `nucleo-matcher`.
//!
//! A query is split at whitespace into words; a finding matches when every
//! word matches one of its fields (title, claim, path, fingerprint) as a
//! fuzzy subsequence. Its score is the sum, over the words, of the best
//! field's score, so consecutive characters and word starts rank first
//! (`retry` ranks `app/retry.py` above `r-e-t-r-y`).
//!
//! Each finding's fields are folded once, the first time a search scores
//! that finding ([`SearchIndex`]): lower-cased and with Latin letters
//! stripped of their accents, so later keystrokes compare characters and
//! fold nothing. Folding is not done at load: it would delay the first
//! complete frame for every review, searched or not, and the search already
//! scores in bounded chunks, so the folding is bounded with it. The query is folded
//! the same way. Folding drops nucleo's bonus for camel-case humps; a
//! lower-case word start still earns its boundary bonus.

use nucleo_matcher::pattern::{Atom, AtomKind, CaseMatching, Normalization};
use nucleo_matcher::{Config, Matcher, Utf32Str, Utf32String};
use std::sync::{Arc, OnceLock};

/// The longest part of a field that search looks at: past this a claim is
/// not searched, which keeps one finding's cost bounded.
pub const FIELD_CHARS: usize = 600;

/// Folds text as search compares it: lower case, Latin accents removed.
pub fn fold(text: &str) -> String {
    text.chars()
        .map(|c| nucleo_matcher::chars::normalize(nucleo_matcher::chars::to_lower_case(c)))
        .collect()
}

/// At most [`FIELD_CHARS`] characters of `text`.
fn searched_part(text: &str) -> &str {
    text.char_indices().nth(FIELD_CHARS).map_or(text, |(i, _)| &text[..i])
}

fn folded_field(text: &str) -> Utf32String {
    let folded = fold(text);
    if folded.is_ascii() {
        Utf32String::Ascii(folded.into_boxed_str())
    } else {
        // One entry per char (not per grapheme), like the displayed text.
        Utf32String::Unicode(folded.chars().collect())
    }
}

/// The search fields of every finding, kept at load (the searched part
/// only) and folded on first use; shared, so cloning an
/// [`crate::tui::app::App`] copies neither.
#[derive(Clone, Default)]
pub struct SearchIndex {
    fields: Arc<Vec<Entry>>,
}

/// One finding's fields: as given, and folded once a search needs them.
#[derive(PartialEq)]
struct Entry {
    raw: [Box<str>; 4],
    folded: OnceLock<[Utf32String; 4]>,
}

impl Entry {
    fn folded(&self) -> &[Utf32String; 4] {
        self.folded.get_or_init(|| self.raw.each_ref().map(|f| folded_field(f)))
    }
}

impl SearchIndex {
    /// Keeps the fields of each finding: title, claim, path, fingerprint.
    pub fn new<'a>(findings: impl IntoIterator<Item = [&'a str; 4]>) -> SearchIndex {
        let fields = findings
            .into_iter()
            .map(|f| Entry {
                raw: f.map(|t| Box::from(searched_part(t))),
                folded: OnceLock::new(),
            })
            .collect();
        SearchIndex {
            fields: Arc::new(fields),
        }
    }

    /// Number of findings indexed.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }
}

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SearchIndex({} findings)", self.fields.len())
    }
}

impl PartialEq for SearchIndex {
    fn eq(&self, other: &SearchIndex) -> bool {
        Arc::ptr_eq(&self.fields, &other.fields) || self.fields == other.fields
    }
}

/// A parsed query: one fuzzy atom per word, and the matcher's scratch space.
pub struct Query {
    atoms: Vec<Atom>,
    matcher: Matcher,
}

impl Query {
    /// Parses a typed query for the folded index (`None`: nothing to search for).
    pub fn folded(query: &str) -> Option<Query> {
        Query::parse(&fold(query), CaseMatching::Respect, Normalization::Never)
    }

    /// Parses a typed query for matching displayed (unfolded) text, as the
    /// list does to highlight the matched characters.
    pub fn display(query: &str) -> Option<Query> {
        Query::parse(query, CaseMatching::Ignore, Normalization::Smart)
    }

    fn parse(query: &str, case: CaseMatching, norm: Normalization) -> Option<Query> {
        let atoms: Vec<Atom> = query
            .split_whitespace()
            .map(|w| Atom::new(w, case, norm, AtomKind::Fuzzy, false))
            .collect();
        (!atoms.is_empty()).then(|| Query {
            atoms,
            matcher: Matcher::new(Config::DEFAULT),
        })
    }

    /// The score of finding `i` of `index` (`None`: some word matches no field).
    pub fn score(&mut self, index: &SearchIndex, i: usize) -> Option<u32> {
        let fields = index.fields.get(i)?.folded();
        let mut total = 0u32;
        for atom in &self.atoms {
            let best = fields
                .iter()
                .filter_map(|f| atom.score(f.slice(..), &mut self.matcher))
                .max()?;
            total += u32::from(best);
        }
        Some(total)
    }

    /// The char positions in `text` of the words that match it, sorted and
    /// unique (empty when none does). Words that do not match `text` are
    /// skipped: they matched another field.
    pub fn positions(&mut self, text: &str) -> Vec<u32> {
        let chars: Vec<char> = text.chars().collect();
        let hay = Utf32Str::Unicode(&chars);
        let mut out = Vec::new();
        for atom in &self.atoms {
            let mut found = Vec::new();
            if atom.indices(hay, &mut self.matcher, &mut found).is_some() {
                out.extend(found);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(rows: &[[&str; 4]]) -> SearchIndex {
        SearchIndex::new(rows.iter().copied())
    }

    #[test]
    fn every_word_must_match_some_field() {
        let idx = index(&[["Retry exhausted", "", "app/retry.py", "fp1"], ["token", "", "", ""]]);
        let mut q = Query::folded("rtx").unwrap();
        assert!(q.score(&idx, 0).is_some());
        assert!(q.score(&idx, 1).is_none());
        let mut q = Query::folded("retry py").unwrap();
        assert!(q.score(&idx, 0).is_some(), "words may match different fields");
        let mut q = Query::folded("retry zzz").unwrap();
        assert!(q.score(&idx, 0).is_none());
        assert!(Query::folded("   ").is_none());
        assert!(q.score(&idx, 9).is_none(), "an index past the end matches nothing");
    }

    #[test]
    fn consecutive_and_word_start_rank_higher() {
        let idx = index(&[
            ["r-e-t-r-y", "", "", ""],
            ["", "", "app/retry.py", ""],
            ["stokes", "", "", ""],
        ]);
        let mut q = Query::folded("retry").unwrap();
        let loose = q.score(&idx, 0).unwrap_or(0);
        let tight = q.score(&idx, 1).unwrap_or(0);
        assert!(tight > loose, "{tight} <= {loose}");
        let idx = index(&[["parse token", "", "", ""], ["stokes", "", "", ""]]);
        let mut q = Query::folded("tok").unwrap();
        assert!(q.score(&idx, 0) > q.score(&idx, 1));
    }

    #[test]
    fn case_and_accents_are_folded_once() {
        assert_eq!(fold("Prüfe ÄÖ"), "prufe ao");
        let idx = index(&[["Prüfe die Größe", "", "", ""]]);
        let mut q = Query::folded("GROSSE").unwrap();
        assert!(q.score(&idx, 0).is_none(), "ß is not two letters");
        let mut q = Query::folded("prufe GRO").unwrap();
        assert!(q.score(&idx, 0).is_some());
        let long = "x".repeat(FIELD_CHARS) + "needle";
        let idx = index(&[[long.as_str(), "", "", ""]]);
        assert!(
            Query::folded("needle").unwrap().score(&idx, 0).is_none(),
            "past the bound is not searched"
        );
    }

    #[test]
    fn positions_are_char_indices_of_the_displayed_text() {
        let mut q = Query::display("RET").unwrap();
        assert_eq!(q.positions("a Retry"), vec![2, 3, 4]);
        let mut q = Query::display("返金 py").unwrap();
        assert_eq!(q.positions("app/返金/x.py:3"), vec![4, 5, 9, 10]);
        assert!(q.positions("nothing").is_empty());
    }
}
