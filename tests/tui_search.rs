//! The `/` search on the screen: matches ranked best first, the matched
//! characters marked in the rows as drawn, `n`/`N` stepping through the
//! matches while a query is applied, and a large review searched in bounded
//! chunks on the event loop's turns (counted, not timed).

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::crossterm::event::KeyCode;
use ratatui::style::Modifier;
use triage::tui::app::App;
use triage::tui::search::CHUNK;
use triage::tui::update::{Msg, update};
#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/screen.rs"]
mod screen;
use screen::{draw, key, keys};

fn flash(app: &App) -> String {
    app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default()
}

#[test]
fn matches_are_ranked_and_their_characters_marked() {
    let mut app = fixture::app(fixture::sample_set(), (120, 40));
    keys(&mut app, "2/retry");
    key(&mut app, KeyCode::Enter);
    let findings = app.doc.findings();
    let first = &findings[app.browse.visible[0]];
    assert_eq!(
        first.path.as_deref(),
        Some("app/webhooks/retry.py"),
        "the whole word in a path ranks first"
    );
    let term = draw(&app);
    insta::assert_snapshot!("search_ranked", term.backend());
    // The row of the selected match: the `retry` of its path is marked.
    let buf = term.backend().buffer();
    let row = (0..buf.area.height)
        .find(|&y| (0..buf.area.width).any(|x| buf[(x, y)].symbol() == "▶"))
        .unwrap();
    let line: String = (0..buf.area.width)
        .map(|x| buf[(x, row)].symbol().to_string())
        .collect();
    let at = line.find("retry.py").unwrap();
    let col = line[..at].chars().count() as u16;
    for x in col..col + 5 {
        assert!(
            buf[(x, row)].modifier.contains(Modifier::UNDERLINED),
            "column {x} of {line}"
        );
    }
    assert!(!buf[(col + 5, row)].modifier.contains(Modifier::UNDERLINED));
}

#[test]
fn n_and_shift_n_step_through_matches_while_a_search_is_applied() {
    let mut app = fixture::app(fixture::sample_set(), (120, 40));
    keys(&mut app, "2/re");
    key(&mut app, KeyCode::Enter);
    let hits = app.browse.visible.len();
    assert!(hits >= 3, "{hits}");
    keys(&mut app, "gn");
    assert_eq!(app.browse.cursor, 1);
    assert_eq!(flash(&app), format!("Match 2 of {hits}."));
    keys(&mut app, "NN");
    assert_eq!(app.browse.cursor, hits - 1, "wraps to the last match");
    assert!(flash(&app).contains("wrapped around"), "{}", flash(&app));
    let title = draw(&app).backend().to_string();
    assert!(title.contains("n/N: next/previous match"), "{title}");
    // Without a query, n is the next undecided finding again.
    key(&mut app, KeyCode::Esc);
    assert!(!app.browse.search.active());
    keys(&mut app, "gn");
    assert_eq!(app.browse.cursor, 1);
    assert!(!flash(&app).starts_with("Match"));
}

#[test]
fn backspace_goes_back_to_the_shorter_query_and_clearing_restores_the_list() {
    let mut app = fixture::app(fixture::sample_set(), (120, 40));
    keys(&mut app, "2");
    let all = app.browse.visible.clone();
    keys(&mut app, "/r");
    let r = app.browse.visible.clone();
    keys(&mut app, "et");
    assert!(app.browse.visible.len() <= r.len());
    key(&mut app, KeyCode::Backspace);
    key(&mut app, KeyCode::Backspace);
    assert_eq!(app.browse.visible, r);
    key(&mut app, KeyCode::Backspace);
    assert_eq!(app.browse.visible, all);
}

#[test]
fn a_large_review_is_searched_a_chunk_per_turn() {
    let n = CHUNK * 3 + 17;
    let mut app = fixture::app(fixture::scaled(n), (120, 40));
    keys(&mut app, "2/f");
    assert!(app.browse.search.pending(), "one keystroke scores one chunk");
    assert!(app.browse.visible.len() <= CHUNK);
    let text = draw(&app).backend().to_string();
    assert!(text.contains("searching"), "{text}");
    let turns = finish(&mut app);
    assert!(turns >= n / CHUNK, "{turns} turns: at most {CHUNK} findings a turn");
    let matched = app.browse.visible.len();
    assert!(matched > CHUNK, "{matched}");
    let text = draw(&app).backend().to_string();
    assert!(!text.contains("searching"), "{text}");
    // A longer query searches only these matches, folded already: fewer chunks.
    keys(&mut app, "i");
    let more = finish(&mut app);
    assert!(more < turns, "{more} turns after {turns}");
    assert!(app.browse.visible.len() <= matched);
}

/// Ticks until the search is complete; the turns taken (each one scores more).
fn finish(app: &mut App) -> usize {
    let mut turns = 0;
    while let Some((scored, total)) = app.browse.search.progress() {
        update(app, Msg::Tick);
        turns += 1;
        let now = app.browse.search.progress().map_or(total, |(s, _)| s);
        assert!(
            now > scored,
            "turn {turns} scored nothing more than {scored} of {total}"
        );
    }
    turns
}

#[cfg(unix)]
#[test]
fn a_link_no_browser_opened_is_shown_whole_and_copied() {
    use triage::tui::effect::Effect;
    let mut app = fixture::app(fixture::sample_set(), (80, 24));
    let url = format!(
        "https://github.com/acme/webhooks/pull/42/files#diff-{}R88",
        "a".repeat(64)
    );
    let effects = update(
        &mut app,
        Msg::LinkNotOpened {
            url: url.clone(),
            tried: vec![triage::tui::message::failure::OpenFailure::Exited {
                program: "xdg-open".into(),
                status: std::os::unix::process::ExitStatusExt::from_raw(3 << 8),
            }],
        },
    );
    assert_eq!(effects, vec![Effect::Copy(url.clone())]);
    let text = draw(&app).backend().to_string();
    let joined: String = text
        .lines()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<String>();
    let flat: String = joined.chars().filter(|c| *c != '"' && *c != ' ').collect();
    assert!(flat.contains(&url), "the whole URL is on screen: {text}");
    insta::assert_snapshot!("link_not_opened", draw(&app).backend());
}

#[test]
fn s_cycles_the_order_and_by_file_groups_the_list() {
    let mut app = fixture::app(fixture::sample_set(), (120, 40));
    keys(&mut app, "2s");
    assert_eq!(flash(&app), "Sorted by file.");
    let paths: Vec<Option<String>> = app
        .browse
        .visible
        .iter()
        .map(|&i| app.doc.findings()[i].path.clone())
        .collect();
    let mut want = paths.clone();
    want.sort_by_key(|p| (p.is_none(), p.clone()));
    assert_eq!(paths, want);
    let text = draw(&app).backend().to_string();
    assert!(text.contains("· by file"), "{text}");
    insta::assert_snapshot!("sorted_by_file", draw(&app).backend());
    keys(&mut app, "s");
    let conf: Vec<String> = app
        .browse
        .visible
        .iter()
        .map(|&i| app.doc.row(i).unwrap().confidence.clone())
        .collect();
    let mut want = conf.clone();
    want.sort_by(|a, b| b.cmp(a));
    assert_eq!(conf, want, "confidence, highest first");
    keys(&mut app, "ss");
    assert_eq!(app.browse.sort, triage::tui::sort::Sort::Severity);
    // A search keeps ranking by score over the chosen order.
    keys(&mut app, "s/retry");
    assert_eq!(
        app.doc.findings()[app.browse.visible[0]].path.as_deref(),
        Some("app/webhooks/retry.py")
    );
}
