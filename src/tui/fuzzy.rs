//! A small subsequence matcher for `/` search (no regex anywhere near a keystroke).
//!
//! A query matches a text when its characters appear in the text in order,
//! case-insensitively. The score favours matches that are consecutive or that
//! start words, so `retry` ranks `retry_exhausted` above `r-e-t-r-y`. The
//! texts are lower-cased once at load ([`crate::tui::prepared::Row`]).

/// Lower-cases a query the same way the haystacks were.
pub fn normalize_query(query: &str) -> String {
    query.to_lowercase()
}

/// Scores a lower-cased `query` against a lower-cased `text`: `None` when it
/// is not a subsequence, otherwise a higher-is-better score. An empty query
/// matches everything with score 0.
pub fn score(query: &str, text: &str) -> Option<u32> {
    let mut wanted = query.chars().filter(|c| !c.is_whitespace()).peekable();
    if wanted.peek().is_none() {
        return Some(0);
    }
    let mut total = 0u32;
    let mut run = 0u32;
    let mut prev: Option<char> = None;
    let mut next = wanted.next();
    for c in text.chars() {
        let Some(w) = next else { break };
        if c == w {
            run += 1;
            let boundary = prev.is_none_or(|p| !p.is_alphanumeric());
            total += 1 + run * 2 + if boundary { 4 } else { 0 };
            next = wanted.next();
        } else {
            run = 0;
        }
        prev = Some(c);
    }
    if next.is_some() { None } else { Some(total) }
}

/// The best score of `query` over several texts (`None`: no text matches).
pub fn best<'a>(query: &str, texts: impl IntoIterator<Item = &'a str>) -> Option<u32> {
    texts.into_iter().filter_map(|t| score(query, t)).max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsequence_in_order_matches() {
        assert!(score("rtx", "retry exhausted").is_some());
        assert!(score("xtr", "retry exhausted").is_none());
        assert_eq!(score("", "anything"), Some(0));
        assert_eq!(score("  ", "anything"), Some(0));
        assert!(score("a", "").is_none());
    }

    #[test]
    fn consecutive_and_word_start_rank_higher() {
        let tight = score("retry", "app/retry.py").unwrap_or(0);
        let loose = score("retry", "r-e-t-r-y").unwrap_or(0);
        assert!(tight > loose, "{tight} <= {loose}");
        let start = score("tok", "parse token").unwrap_or(0);
        let middle = score("tok", "stokes").unwrap_or(0);
        assert!(start > middle);
    }

    #[test]
    fn spaces_in_the_query_are_ignored_and_best_picks_max() {
        assert!(score("web hook", "webhooks").is_some());
        assert_eq!(best("zz", ["abc", "def"]), None);
        assert_eq!(best("ab", ["xaxb", "ab"]), score("ab", "ab"));
    }

    #[test]
    fn non_ascii_is_matched_by_char() {
        let q = normalize_query("ÄÖ");
        assert!(score(&q, &"prüfe äöü".to_lowercase()).is_some());
    }
}
