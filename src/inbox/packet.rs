//! The repository's escalation packet: one bounded Markdown document of
//! every escalation the inbox shows (a `resolved_externally` mismatch, a
//! `needs_human` decision, a review that errored or could not be read),
//! for whoever handles escalations. It follows the per-finding packet's
//! rules ([`crate::model::escalation`]): untrusted text (titles, authors,
//! branch names, reasons) neutralised and fenced, the whole bounded.

use super::row::{Row, drift_text};
use super::{Inbox, ReviewState};
use crate::model::escalation::{cut, fenced, neutralise};
use std::fmt::Write as _;

/// The largest packet, in bytes (pull requests past it are counted, not shown).
pub const MAX_REPO_PACKET_BYTES: usize = 16 * 1024;
/// The most bytes of one pull request's title or reason.
const MAX_TEXT_BYTES: usize = 300;

/// True for the rows the packet lists: escalations, failed and unreadable reviews.
pub fn is_escalation(row: &Row) -> bool {
    row.tier() <= 1
}

/// The packet of `inbox`, links under `web_base` (`https://github.com`).
pub fn repository_packet(inbox: &Inbox, web_base: &str) -> String {
    let rows: Vec<&Row> = inbox.rows.iter().filter(|r| is_escalation(r)).collect();
    let mut out = format!(
        "# Escalations in {}\n\n{} of {} open pull requests need a human.\n\n",
        inbox.repo,
        rows.len(),
        inbox.total_open
    );
    let web = web_base.trim_end_matches('/');
    for (shown, row) in rows.iter().enumerate() {
        let entry = entry(row, &format!("{web}/{}/pull/{}", inbox.repo, row.number));
        let tail = format!("\n{} more left out (the packet is bounded).\n", rows.len() - shown);
        if out.len() + entry.len() + tail.len() > MAX_REPO_PACKET_BYTES {
            out.push_str(&tail);
            return out;
        }
        out.push_str(&entry);
    }
    out
}

fn entry(row: &Row, link: &str) -> String {
    let mut out = format!("## #{} · {}\n\n{link}\n\n", row.number, row.state.as_str());
    let why = match (row.drift.resolved_externally, row.needs_human, row.state) {
        (r, _, _) if r > 0 => format!("{r} finding(s) resolved on GitHub while still open"),
        (_, h, _) if h > 0 => format!("{h} finding(s) routed to a human (needs_human)"),
        (_, _, ReviewState::ReviewError) => "the review of the head did not complete".to_owned(),
        _ => "the review state could not be read".to_owned(),
    };
    let _ = write!(
        out,
        "- why: {why}\n- repair set: {}, undecided: {}, drift (externally/reopened/pending/unknown): {}\n- head: `{}`\n\n",
        row.repair_set.map_or_else(|| "-".to_owned(), |n| n.to_string()),
        row.undecided.map_or_else(|| "-".to_owned(), |n| n.to_string()),
        drift_text(&row.drift),
        neutralise(&cut(&row.head_sha, 64)).replace('`', "'"),
    );
    let author = row.author.as_deref().unwrap_or("ghost");
    let mut text = format!(
        "title: {}\nauthor: {}\nbranch: {} -> {}",
        cut(&row.title, MAX_TEXT_BYTES),
        cut(author, 100),
        cut(&row.head_ref, 200),
        cut(&row.base_ref, 200)
    );
    if let Some(reason) = &row.reason {
        let _ = write!(text, "\nreason: {}", cut(reason, MAX_TEXT_BYTES));
    }
    fenced(&mut out, &text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::RepoName;

    fn row(number: u64, title: &str) -> Row {
        Row::unread(&crate::inbox::row::test_pr(number, title, "mallory"), 0)
    }

    fn inbox(rows: Vec<Row>) -> Inbox {
        Inbox {
            repo: RepoName::parse("octo/app").expect("repo"),
            total_open: rows.len() as u64,
            listed: rows.len(),
            rows,
            rate_remaining: None,
            stats: Default::default(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn only_escalations_are_listed_with_untrusted_text_fenced() {
        let mut drift = row(1, "@team ``` <!-- hidden --> \u{202e}x");
        drift.drift.resolved_externally = 1;
        let mut failed = row(2, "Fails");
        failed.fail("the result artifact could not be downloaded");
        let quiet = row(3, "Quiet");
        let packet = repository_packet(&inbox(vec![drift, failed, quiet]), "https://github.com/");
        assert!(packet.contains("2 of 3 open pull requests need a human"), "{packet}");
        assert!(packet.contains("https://github.com/octo/app/pull/1"));
        assert!(packet.contains("## #2 · unknown"));
        assert!(!packet.contains("#3"), "{packet}");
        assert!(!packet.contains("@team") && !packet.contains("<!--") && !packet.contains('\u{202e}'));
        assert!(
            packet.contains("````text"),
            "a fence longer than the title's backticks: {packet}"
        );
    }

    #[test]
    fn the_packet_is_bounded_and_says_how_many_were_left_out() {
        let rows: Vec<Row> = (1..=400)
            .map(|n| {
                let mut r = row(n, &"long title ".repeat(40));
                r.needs_human = 1;
                r
            })
            .collect();
        let packet = repository_packet(&inbox(rows), "https://github.com");
        assert!(packet.len() <= MAX_REPO_PACKET_BYTES, "{}", packet.len());
        assert!(packet.contains("more left out"), "{packet}");
    }
}
