//! The matched characters of the `/` query, marked in a list row's
//! location and headline as drawn (underlined and bold, so the mark shows
//! without colour too). Only the rows on screen are matched, against the
//! text they show, so the marks are the characters the reader sees.

use crate::tui::fuzzy::Query;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;

/// The style of a matched character over the style of its field.
pub fn matched(base: Style) -> Style {
    base.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
}

/// `text` split into spans, the characters of `query`'s words that match it marked.
pub fn spans(query: &mut Query, text: &str, style: Style) -> Vec<Span<'static>> {
    let positions = query.positions(text);
    if positions.is_empty() {
        return vec![Span::styled(text.to_string(), style)];
    }
    let mut out: Vec<Span<'static>> = Vec::new();
    let mut run = String::new();
    let mut run_hit = false;
    let mut hits = positions.iter().peekable();
    for (i, c) in text.chars().enumerate() {
        let hit = hits.peek().is_some_and(|&&p| p as usize == i);
        if hit {
            hits.next();
        }
        if hit != run_hit && !run.is_empty() {
            out.push(Span::styled(
                std::mem::take(&mut run),
                if run_hit { matched(style) } else { style },
            ));
        }
        run_hit = hit;
        run.push(c);
    }
    if !run.is_empty() {
        out.push(Span::styled(run, if run_hit { matched(style) } else { style }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matched_characters_get_their_own_spans() {
        let mut q = Query::display("try").unwrap_or_else(|| unreachable!());
        let got = spans(&mut q, "a retry", Style::new());
        let texts: Vec<&str> = got.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(texts, ["a re", "try"]);
        assert_eq!(got[1].style, matched(Style::new()));
        assert_eq!(got[0].style, Style::new());
        let got = spans(&mut q, "nothing here", Style::new());
        assert_eq!(got.len(), 1);
    }
}
