//! The `/` search over the listed findings: ranked best first, narrowed as
//! the query grows, and bounded per keystroke.
//!
//! The search keeps one step per query prefix typed. A longer query only
//! scores the matches of the step it extends (a finding that does not match
//! `re` cannot match `ret`), and deleting a character goes back to the step
//! already computed for the shorter query, scoring nothing. A step scores at
//! most [`CHUNK`] findings and [`BUDGET`] work per message (the work counts
//! the characters compared with each word and, for findings no search has
//! reached before, their folding, see `Cost`): a keystroke answers at once
//! with the best matches found so far, and the rest are scored on the following turns
//! of the event loop (which does not wait for input while a search is
//! unfinished, see [`Search::pending`]), so typing never waits for a whole
//! large review. The list title shows how far an unfinished search is.
//!
//! Ties keep the order of the list without a query (rank, or the drift
//! lane's order).

use super::app::{App, Level};
use super::fuzzy::{Fields, Haystack, Prepared, Query};
use crate::model::finding::Finding;

/// The most findings scored per message.
pub const CHUNK: usize = 2048;
/// The most work per message, in [`Cost`] units (about a millisecond of
/// one core): a message stops at whichever of this and [`CHUNK`] comes
/// first, so the first frame after a keystroke waits on bounded work
/// whatever the review holds: long claims, a query of several words, or
/// findings no search has folded yet.
pub const BUDGET: usize = 400_000;

/// What scoring costs, in units of about a quarter of the time it takes to
/// compare one folded character with one word of the query. Measured with
/// the release build on generated agent results (a finding's fields about
/// 170 characters): comparing costs each character about 7-11 ns per word
/// of two or more characters and about 2 ns for a one-character word (a plain
/// scan for it), and folding a character about 13-23 ns, so one folding
/// counts as two comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cost {
    /// Units per character compared: the sum over the query's words.
    per_char: usize,
}

impl Cost {
    /// Per character compared with a word of two or more characters.
    const WORD: usize = 4;
    /// Per character compared with a one-character word.
    const LETTER: usize = 1;
    /// Per character folded (the first search to reach a finding).
    const FOLD: usize = 8;
    /// What a finding costs beyond its characters (the calls, the matcher's
    /// set-up for each word and field).
    const PER_FINDING: usize = 64;

    fn of(query: &Query) -> Cost {
        let per_char = query
            .word_lens()
            .map(|n| if n > 1 { Cost::WORD } else { Cost::LETTER })
            .sum();
        Cost { per_char }
    }

    /// The work of scoring one finding as [`Haystack::prepare`] found it.
    fn finding(self, prep: Prepared) -> usize {
        let fold = if prep.folded_now { Cost::FOLD } else { 0 };
        prep.chars * (self.per_char + fold) + Cost::PER_FINDING
    }
}

/// The search of the list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Search {
    /// The list without the query (finding indices, in view order).
    base: Vec<usize>,
    /// One step per query prefix typed, the current one last; empty: no query.
    steps: Vec<Step>,
    /// Room for merging a chunk's matches into the ranking, kept empty
    /// between merges: a large review's ranking is merged into after every
    /// chunk, and a fresh list of that size each time is fresh memory.
    spare: Vec<(u32, u32)>,
}

/// The matches of one query.
#[derive(Debug, Clone, PartialEq)]
struct Step {
    /// The query as typed.
    query: String,
    /// Matches scored so far as (score, position in `base`), best first.
    ranked: Vec<(u32, u32)>,
    /// Positions in `base` still to score.
    todo: Vec<u32>,
}

impl Step {
    fn ranked_positions(&self) -> impl Iterator<Item = u32> + '_ {
        self.ranked.iter().map(|&(_, pos)| pos)
    }
}

impl Search {
    /// Sets the list without the query and the query, and scores the first
    /// chunk. A new base starts over; the same base reuses the steps of the
    /// query's prefixes.
    pub fn set<F: Fields + ?Sized>(&mut self, hay: Haystack<'_, F>, base: Vec<usize>, query: &str) {
        if base != self.base {
            self.base = base;
            self.steps.clear();
        }
        self.query(hay, query);
    }

    /// Sets the query over the base already held (the query was typed:
    /// neither the view nor the facets changed) and scores the first chunk.
    pub fn query<F: Fields + ?Sized>(&mut self, hay: Haystack<'_, F>, query: &str) {
        if query.trim().is_empty() {
            self.steps.clear();
            return;
        }
        let keep = self.steps.iter().rposition(|s| query.starts_with(s.query.as_str()));
        self.steps.truncate(keep.map_or(0, |k| k + 1));
        if self.steps.last().is_some_and(|s| s.query == query) {
            self.advance(hay);
            return;
        }
        let todo: Vec<u32> = match self.steps.last() {
            // The previous best first: the new best are most likely among them.
            Some(prev) => prev.ranked_positions().chain(prev.todo.iter().copied()).collect(),
            None => (0..self.base.len()).filter_map(|p| u32::try_from(p).ok()).collect(),
        };
        self.steps.push(Step {
            query: query.to_string(),
            ranked: Vec::new(),
            todo,
        });
        self.advance(hay);
    }

    /// Scores the next chunk of the current step; true when some work was done.
    pub fn advance<F: Fields + ?Sized>(&mut self, hay: Haystack<'_, F>) -> bool {
        let Some(step) = self.steps.last_mut() else {
            return false;
        };
        if step.todo.is_empty() {
            return false;
        }
        let Some(mut query) = Query::folded(&step.query) else {
            step.todo.clear();
            return false;
        };
        let cost = Cost::of(&query);
        let (mut spent, mut taken) = (0, 0);
        let mut found: Vec<(u32, u32)> = Vec::new();
        for &pos in &step.todo {
            if taken == CHUNK || spent >= BUDGET {
                break;
            }
            taken += 1;
            let Some(&finding) = self.base.get(pos as usize) else {
                continue;
            };
            spent += cost.finding(hay.prepare(finding));
            found.extend(query.score(hay, finding).map(|score| (score, pos)));
        }
        step.todo.drain(..taken);
        found.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut merged = std::mem::take(&mut self.spare);
        merge_into(&step.ranked, &found, &mut merged);
        self.spare = std::mem::replace(&mut step.ranked, merged);
        self.spare.clear();
        true
    }

    /// True while the current query has findings left to score.
    pub fn pending(&self) -> bool {
        self.steps.last().is_some_and(|s| !s.todo.is_empty())
    }

    /// How far the current query is, as (scored, to score), when unfinished.
    pub fn progress(&self) -> Option<(usize, usize)> {
        let step = self.steps.last().filter(|s| !s.todo.is_empty())?;
        let total = self
            .steps
            .iter()
            .rev()
            .nth(1)
            .map_or(self.base.len(), |p| p.ranked.len() + p.todo.len());
        Some((total.saturating_sub(step.todo.len()), total))
    }

    /// The findings listed: the matches so far, best first; without a query, the base.
    pub fn listed(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.listed_into(&mut out);
        out
    }

    /// [`Search::listed`] into `out` (its room is reused: a large review's
    /// list is rebuilt after every chunk of an unfinished search).
    pub fn listed_into(&self, out: &mut Vec<usize>) {
        out.clear();
        match self.steps.last() {
            None => out.extend_from_slice(&self.base),
            Some(step) => out.extend(
                step.ranked_positions()
                    .filter_map(|pos| self.base.get(pos as usize).copied()),
            ),
        }
    }

    /// True when a query is applied.
    pub fn active(&self) -> bool {
        !self.steps.is_empty()
    }
}

/// Merges two lists sorted best first (score down, then position up) into `out`.
fn merge_into(a: &[(u32, u32)], b: &[(u32, u32)], out: &mut Vec<(u32, u32)>) {
    out.clear();
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while let (Some(l), Some(r)) = (a.get(i), b.get(j)) {
        if l.0 > r.0 || (l.0 == r.0 && l.1 <= r.1) {
            out.push(*l);
            i += 1;
        } else {
            out.push(*r);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// What the document's search scores: its index and its findings.
fn hay(doc: &super::app::Document) -> Haystack<'_, [Finding]> {
    Haystack::new(&doc.prepared.search, doc.findings())
}

/// Recomputes the listed findings from the view, the facets and the query,
/// keeping the selected finding selected when it is still listed.
pub fn refilter(app: &mut App, base: Vec<usize>) {
    let keep = app.selected();
    app.browse.search.set(hay(&app.doc), base, &app.browse.query);
    show(app, keep);
}

/// The query changed by typing; the view and facets did not, so the list
/// without the query is the one already held.
pub fn retype(app: &mut App) {
    let keep = app.selected();
    app.browse.search.query(hay(&app.doc), &app.browse.query);
    show(app, keep);
}

/// One more chunk of an unfinished search (the event loop's turn without
/// input); nothing when the search is done.
pub fn tick(app: &mut App) {
    let keep = app.selected();
    if app.browse.search.advance(hay(&app.doc)) {
        show(app, keep);
    }
}

/// `n` / `N`: while a query is applied, the next (previous) match in rank
/// order, decided or not, wrapping around; otherwise the next undecided
/// finding ([`super::progress::jump`]).
pub fn next(app: &mut App, forward: bool) {
    if !app.browse.search.active() {
        return super::progress::jump(app, forward);
    }
    let len = app.browse.visible.len();
    if len == 0 {
        return super::update::flash(app, Level::Info, "No match.");
    }
    let cursor = app.browse.cursor.min(len - 1);
    let pos = if forward {
        (cursor + 1) % len
    } else {
        (cursor + len - 1) % len
    };
    app.browse.cursor = pos;
    let wrapped = if forward { pos <= cursor } else { pos >= cursor };
    let more = if app.browse.search.pending() { "+" } else { "" };
    let note = if wrapped && len > 1 { " (wrapped around)" } else { "" };
    super::update::flash(app, Level::Info, format!("Match {} of {len}{more}{note}.", pos + 1));
}

fn show(app: &mut App, keep: Option<usize>) {
    app.browse.search.listed_into(&mut app.browse.in_view);
    app.browse.visible.clone_from(&app.browse.in_view);
    super::progress::apply_filter(app);
    let pos = keep.and_then(|k| app.browse.visible.iter().position(|&i| i == k));
    app.browse.cursor = pos.unwrap_or(0);
    if pos.is_none() {
        app.browse.offset = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fuzzy::test_items::Items;

    /// Items titled so (their other fields empty), and their index.
    fn index<'a>(titles: &[&'a str]) -> Items<'a> {
        let rows: Vec<[&'a str; 4]> = titles.iter().map(|t| [*t, "", "", ""]).collect();
        crate::tui::fuzzy::test_items::index(&rows)
    }

    fn finish(search: &mut Search, idx: &Items<'_>) {
        while search.advance(idx.hay()) {}
    }

    #[test]
    fn ranks_best_first_and_ties_keep_the_base_order() {
        let idx = index(&["r-e-t-r-y", "retry", "no", "the retry", "retry"]);
        let mut s = Search::default();
        s.set(idx.hay(), vec![4, 3, 2, 1, 0], "retry");
        finish(&mut s, &idx);
        assert_eq!(s.listed(), vec![4, 3, 1, 0]);
        assert!(!s.pending() && s.active());
        s.set(idx.hay(), vec![4, 3, 2, 1, 0], "");
        assert_eq!(s.listed(), vec![4, 3, 2, 1, 0]);
        assert!(!s.active());
    }

    #[test]
    fn a_longer_query_scores_only_the_previous_matches_and_backspace_scores_nothing() {
        let idx = index(&["retry", "rust", "token"]);
        let mut s = Search::default();
        s.set(idx.hay(), vec![0, 1, 2], "r");
        assert_eq!(s.steps[0].ranked.len(), 2);
        s.set(idx.hay(), vec![0, 1, 2], "re");
        assert_eq!(s.steps.len(), 2);
        assert_eq!(s.listed(), vec![0]);
        s.set(idx.hay(), vec![0, 1, 2], "r");
        assert_eq!(s.steps.len(), 1, "back to the step already computed");
        assert_eq!(s.listed(), vec![0, 1]);
        s.set(idx.hay(), vec![0, 2], "r");
        assert_eq!(s.listed(), vec![0], "a new base starts over");
        s.set(idx.hay(), vec![0, 2], "x");
        assert!(s.listed().is_empty());
    }

    #[test]
    fn work_is_bounded_per_message_and_the_answer_grows() {
        // Short titles: the count, not the budget, ends each chunk.
        let titles: Vec<String> = (0..CHUNK * 2 + 5).map(|i| format!("fin {i}")).collect();
        let names: Vec<&str> = titles.iter().map(String::as_str).collect();
        let idx = index(&names);
        let mut s = Search::default();
        s.set(idx.hay(), (0..titles.len()).collect(), "fin");
        assert!(s.pending());
        assert_eq!(s.listed().len(), CHUNK);
        assert_eq!(s.progress(), Some((CHUNK, titles.len())));
        s.set(idx.hay(), (0..titles.len()).collect(), "fin");
        assert_eq!(s.listed().len(), CHUNK * 2, "the same query goes on");
        finish(&mut s, &idx);
        assert_eq!(s.listed().len(), titles.len());
        assert_eq!(s.progress(), None);
        s.set(idx.hay(), (0..titles.len()).collect(), "fin 7");
        finish(&mut s, &idx);
        assert!(s.listed().iter().all(|&i| titles[i].contains('7')));
    }

    /// How many findings of `chars` characters a message covers when each
    /// costs `per_char` units a character.
    fn covered(chars: usize, per_char: usize) -> usize {
        BUDGET.div_ceil(chars * per_char + Cost::PER_FINDING)
    }

    #[test]
    fn the_cost_counts_each_word_and_the_folding() {
        let cost = |q: &str| Cost::of(&Query::folded(q).unwrap()).per_char;
        assert_eq!(cost("retry"), Cost::WORD);
        assert_eq!(cost("r"), Cost::LETTER, "a one-letter word is a plain scan");
        assert_eq!(cost("retry  py r"), 2 * Cost::WORD + Cost::LETTER);
        let retry = Cost::of(&Query::folded("retry").unwrap());
        let fresh = Prepared {
            chars: 100,
            folded_now: true,
        };
        let known = Prepared {
            folded_now: false,
            ..fresh
        };
        assert_eq!(
            retry.finding(fresh),
            100 * (Cost::WORD + Cost::FOLD) + Cost::PER_FINDING
        );
        assert_eq!(retry.finding(known), 100 * Cost::WORD + Cost::PER_FINDING);
        let empty = Prepared {
            chars: 0,
            folded_now: false,
        };
        assert_eq!(
            retry.finding(empty),
            Cost::PER_FINDING,
            "even an empty finding costs its call"
        );
    }

    #[test]
    fn a_message_covers_what_the_budget_pays_for() {
        let long = "finding ".repeat(super::super::fuzzy::FIELD_CHARS / 8);
        let chars = long.chars().count();
        let titles: Vec<&str> = vec![long.as_str(); CHUNK];
        let all: Vec<usize> = (0..titles.len()).collect();
        let idx = index(&titles);
        let mut s = Search::default();
        s.set(idx.hay(), all.clone(), "fin");
        let fresh = covered(chars, Cost::WORD + Cost::FOLD);
        assert!(fresh < CHUNK, "the budget, not the count, ends this chunk");
        assert_eq!(s.listed().len(), fresh, "the first answer folds and compares");
        assert_eq!(s.progress(), Some((fresh, CHUNK)));
        s.set(idx.hay(), all.clone(), "fin");
        assert_eq!(s.listed().len(), 2 * fresh, "the next message, as much again");
        finish(&mut s, &idx);
        assert_eq!(s.listed().len(), CHUNK);
        s.set(idx.hay(), all.clone(), "fing");
        assert_eq!(
            s.listed().len(),
            covered(chars, Cost::WORD),
            "folded before: comparing only"
        );
        s.set(idx.hay(), all.clone(), "fin ing");
        assert_eq!(
            s.listed().len(),
            covered(chars, 2 * Cost::WORD),
            "two words, twice the comparing"
        );
        let other = index(&titles);
        let mut s = Search::default();
        s.set(other.hay(), all, "f");
        assert_eq!(s.listed().len(), covered(chars, Cost::LETTER + Cost::FOLD));
    }

    #[test]
    fn short_findings_stop_at_the_chunk_count() {
        let titles = vec!["retry"; CHUNK + 1];
        let idx = index(&titles);
        let mut s = Search::default();
        s.set(idx.hay(), (0..titles.len()).collect(), "retry");
        const { assert!(CHUNK * (5 * (Cost::WORD + Cost::FOLD) + Cost::PER_FINDING) < BUDGET) };
        assert_eq!(s.listed().len(), CHUNK);
        assert!(s.pending());
    }

    #[test]
    fn merge_keeps_score_then_position_order() {
        let mut got = vec![(7, 7)];
        merge_into(&[(9, 0), (5, 2)], &[(9, 1), (5, 1), (1, 0)], &mut got);
        assert_eq!(got, vec![(9, 0), (9, 1), (5, 1), (5, 2), (1, 0)]);
        merge_into(&[], &[(3, 1)], &mut got);
        assert_eq!(got, vec![(3, 1)], "what the room held is gone");
        merge_into(&[(4, 0), (2, 3)], &[], &mut got);
        assert_eq!(got, vec![(4, 0), (2, 3)]);
    }
}
