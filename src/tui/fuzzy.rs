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
//! fold nothing. Nothing is done at load, not even a copy of the fields
//! (they are read from the findings, [`Fields`], when first folded): it
//! would delay the first complete frame of every review, searched or not,
//! and the search already scores in bounded chunks, so the folding is
//! bounded with it (and counted against its budget, see
//! [`crate::tui::search`]). The query is folded the same way. Folding drops
//! nucleo's bonus for camel-case humps; a lower-case word start still earns
//! its boundary bonus.

use crate::model::finding::Finding;
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

/// Where the index reads the fields of an item the first time it folds them.
pub trait Fields {
    /// Title, claim, path and fingerprint of item `i` (`None`: no such item).
    fn fields(&self, i: usize) -> Option<[&str; 4]>;
}

impl Fields for [Finding] {
    fn fields(&self, i: usize) -> Option<[&str; 4]> {
        let f = self.get(i)?;
        Some([
            f.title.as_deref().unwrap_or(""),
            f.claim.as_deref().unwrap_or(""),
            f.path.as_deref().unwrap_or(""),
            f.key.as_str(),
        ])
    }
}

impl Fields for [[&str; 4]] {
    fn fields(&self, i: usize) -> Option<[&str; 4]> {
        self.get(i).copied()
    }
}

/// The folded search fields of every finding, each folded on first use;
/// shared, so cloning an [`crate::tui::app::App`] copies none.
#[derive(Clone, Default)]
pub struct SearchIndex {
    /// Boxed: an unfolded finding costs a pointer, not four fields' size.
    folded: Arc<Vec<OnceLock<Box<[Utf32String; 4]>>>>,
}

impl SearchIndex {
    /// Room for `n` findings, none folded yet.
    pub fn new(n: usize) -> SearchIndex {
        SearchIndex {
            folded: Arc::new((0..n).map(|_| OnceLock::new()).collect()),
        }
    }

    /// Number of findings indexed.
    pub fn len(&self) -> usize {
        self.folded.len()
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.folded.is_empty()
    }
}

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SearchIndex({} findings)", self.folded.len())
    }
}

/// The folded fields are a function of the findings they were made from
/// (which a [`crate::tui::app::Document`] compares), so two indexes are
/// equal when they are for as many findings.
impl PartialEq for SearchIndex {
    fn eq(&self, other: &SearchIndex) -> bool {
        Arc::ptr_eq(&self.folded, &other.folded) || self.folded.len() == other.folded.len()
    }
}

/// An index and the items it folds from: what a search scores.
pub struct Haystack<'a, F: Fields + ?Sized> {
    pub index: &'a SearchIndex,
    pub source: &'a F,
}

impl<F: Fields + ?Sized> Clone for Haystack<'_, F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F: Fields + ?Sized> Copy for Haystack<'_, F> {}

impl<'a, F: Fields + ?Sized> Haystack<'a, F> {
    /// The index of `source`'s items (made for as many items).
    pub fn new(index: &'a SearchIndex, source: &'a F) -> Haystack<'a, F> {
        Haystack { index, source }
    }

    /// Folds item `i` now if it was not before, and says what that took
    /// and what scoring it will compare (the search counts both against its
    /// budget). An item that does not exist has no characters.
    pub fn prepare(&self, i: usize) -> Prepared {
        let fresh = self.index.folded.get(i).is_some_and(|c| c.get().is_none());
        let chars: usize = self.folded(i).map_or(0, |f| f.iter().map(Utf32String::len).sum());
        Prepared {
            chars,
            folded_now: fresh && chars > 0,
        }
    }

    /// The folded fields of item `i`, folded now if they were not before.
    fn folded(&self, i: usize) -> Option<&'a [Utf32String; 4]> {
        let cell = self.index.folded.get(i)?;
        if let Some(done) = cell.get() {
            return Some(done);
        }
        let raw = self.source.fields(i)?;
        Some(cell.get_or_init(|| Box::new(raw.map(|f| folded_field(searched_part(f))))))
    }
}

/// What [`Haystack::prepare`] found for one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prepared {
    /// Characters of its folded fields: what scoring compares each word with.
    pub chars: usize,
    /// True when its fields were folded by this call (the first search that
    /// reached it); folding costs more than comparing.
    pub folded_now: bool,
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

    /// The length in characters of each word, in query order.
    pub fn word_lens(&self) -> impl Iterator<Item = usize> + '_ {
        self.atoms.iter().map(|a| a.needle_text().len())
    }

    /// The score of item `i` of `hay` (`None`: some word matches no field).
    pub fn score<F: Fields + ?Sized>(&mut self, hay: Haystack<'_, F>, i: usize) -> Option<u32> {
        let fields = hay.folded(i)?;
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

/// Items and their index, as the screen holds findings and theirs (for the
/// tests of this module and of the search built on it).
#[cfg(test)]
pub(crate) mod test_items {
    use super::{Haystack, SearchIndex};

    pub(crate) struct Items<'a> {
        rows: Vec<[&'a str; 4]>,
        index: SearchIndex,
    }

    impl<'a> Items<'a> {
        pub(crate) fn hay(&self) -> Haystack<'_, [[&'a str; 4]]> {
            Haystack::new(&self.index, self.rows.as_slice())
        }
    }

    /// Items whose four fields are `rows`.
    pub(crate) fn index<'a>(rows: &[[&'a str; 4]]) -> Items<'a> {
        Items {
            rows: rows.to_vec(),
            index: SearchIndex::new(rows.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_items::index;
    use super::*;

    #[test]
    fn every_word_must_match_some_field() {
        let idx = index(&[["Retry exhausted", "", "app/retry.py", "fp1"], ["token", "", "", ""]]);
        let mut q = Query::folded("rtx").unwrap();
        assert!(q.score(idx.hay(), 0).is_some());
        assert!(q.score(idx.hay(), 1).is_none());
        let mut q = Query::folded("retry py").unwrap();
        assert!(q.score(idx.hay(), 0).is_some(), "words may match different fields");
        let mut q = Query::folded("retry zzz").unwrap();
        assert!(q.score(idx.hay(), 0).is_none());
        assert!(Query::folded("   ").is_none());
        assert!(q.score(idx.hay(), 9).is_none(), "an index past the end matches nothing");
        let none = Prepared {
            chars: 0,
            folded_now: false,
        };
        assert_eq!(idx.hay().prepare(9), none, "an item past the end costs nothing");
        let len = "retry exhausted".len() + "app/retry.py".len() + "fp1".len();
        let fresh = index(&[["Retry exhausted", "", "app/retry.py", "fp1"], ["", "", "", ""]]);
        let first = fresh.hay().prepare(0);
        assert_eq!((first.chars, first.folded_now), (len, true), "folded by the first call");
        let again = fresh.hay().prepare(0);
        assert_eq!((again.chars, again.folded_now), (len, false), "then only compared");
        assert_eq!(fresh.hay().prepare(1), none, "empty fields: nothing to fold");
        let q = Query::folded("r  retry  ümlaut").unwrap();
        assert_eq!(q.word_lens().collect::<Vec<_>>(), vec![1, 5, 6]);
    }

    #[test]
    fn consecutive_and_word_start_rank_higher() {
        let idx = index(&[
            ["r-e-t-r-y", "", "", ""],
            ["", "", "app/retry.py", ""],
            ["stokes", "", "", ""],
        ]);
        let mut q = Query::folded("retry").unwrap();
        let loose = q.score(idx.hay(), 0).unwrap_or(0);
        let tight = q.score(idx.hay(), 1).unwrap_or(0);
        assert!(tight > loose, "{tight} <= {loose}");
        let idx = index(&[["parse token", "", "", ""], ["stokes", "", "", ""]]);
        let mut q = Query::folded("tok").unwrap();
        assert!(q.score(idx.hay(), 0) > q.score(idx.hay(), 1));
    }

    #[test]
    fn case_and_accents_are_folded_once() {
        assert_eq!(fold("Prüfe ÄÖ"), "prufe ao");
        let idx = index(&[["Prüfe die Größe", "", "", ""]]);
        let mut q = Query::folded("GROSSE").unwrap();
        assert!(q.score(idx.hay(), 0).is_none(), "ß is not two letters");
        let mut q = Query::folded("prufe GRO").unwrap();
        assert!(q.score(idx.hay(), 0).is_some());
        let long = "x".repeat(FIELD_CHARS) + "needle";
        let idx = index(&[[long.as_str(), "", "", ""]]);
        assert!(
            Query::folded("needle").unwrap().score(idx.hay(), 0).is_none(),
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
