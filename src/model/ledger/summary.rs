//! The head ReviewGate reviewed last, as its summary comment on the pull
//! request says: the head its next review replays decisions against.
//!
//! ReviewGate keeps its state in one summary comment by
//! `github-actions[bot]` holding `<!-- reviewgate-summary -->` and
//! `<!-- reviewgate-state BASE64URL -->` (the JSON state, base64url without
//! padding). When several such comments exist, the one with the most runs
//! (then the most reviewed heads) is the state; without a readable state
//! the last one is (LVTD-LLC/reviewgate, `reviewgate-github`
//! `select_primary_summary_comment`; `reviewgate-core` `extract_summary_state`).
//! The next review replays every disposition comment against that state's
//! `last_reviewed_sha` (`reviewgate-cli` `load_previous_summary_state`), so
//! after a push a decision recorded for that head is still applied, not
//! stale.
//!
//! Only the members needed here are read; the comment text is untrusted,
//! so the head must be a full commit SHA.

use super::CommentRecord;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;

const SUMMARY_MARKER: &str = "<!-- reviewgate-summary -->";
const STATE_PREFIX: &str = "<!-- reviewgate-state ";
const STATE_SUFFIX: &str = " -->";

/// The members of the summary state read here.
#[derive(Deserialize)]
struct State {
    last_reviewed_sha: String,
    #[serde(default)]
    run_count: u32,
    #[serde(default)]
    reviewed_shas: Vec<String>,
}

fn is_summary(c: &CommentRecord) -> bool {
    matches!(c.author.as_deref(), Some("github-actions[bot]" | "github-actions")) && c.body.contains(SUMMARY_MARKER)
}

fn state_of(body: &str) -> Option<State> {
    let start = body.find(STATE_PREFIX)? + STATE_PREFIX.len();
    let end = start + body[start..].find(STATE_SUFFIX)?;
    let raw = URL_SAFE_NO_PAD.decode(&body[start..end]).ok()?;
    serde_json::from_slice(&raw).ok()
}

/// The head ReviewGate's summary comment among `comments` says it reviewed
/// last; `None` when there is no summary comment with a readable state.
pub fn last_reviewed_head(comments: &[CommentRecord]) -> Option<String> {
    let summaries: Vec<&CommentRecord> = comments.iter().filter(|c| is_summary(c)).collect();
    let primary = summaries
        .iter()
        .filter_map(|c| state_of(&c.body).map(|s| (s.run_count, s.reviewed_shas.len(), s)))
        .max_by_key(|(runs, heads, _)| (*runs, *heads))
        .map(|(_, _, s)| s)
        .or_else(|| summaries.last().and_then(|c| state_of(&c.body)))?;
    crate::model::text::is_commit_sha(&primary.last_reviewed_sha).then_some(primary.last_reviewed_sha)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comment(id: u64, author: &str, body: String) -> CommentRecord {
        CommentRecord {
            id,
            author: Some(author.into()),
            body,
        }
    }

    fn summary(sha: &str, runs: u32) -> String {
        let state =
            serde_json::json!({ "version": 1, "last_reviewed_sha": sha, "reviewed_shas": [sha], "run_count": runs });
        format!(
            "{SUMMARY_MARKER}\n# ReviewGate\n{STATE_PREFIX}{}{STATE_SUFFIX}",
            URL_SAFE_NO_PAD.encode(state.to_string())
        )
    }

    #[test]
    fn the_bot_summary_with_the_most_runs_names_the_head() {
        let (a, b) = ("a".repeat(40), "b".repeat(40));
        let comments = vec![
            comment(1, "github-actions[bot]", summary(&a, 3)),
            comment(2, "github-actions[bot]", summary(&b, 2)),
            comment(3, "mallory", summary(&"c".repeat(40), 9)),
        ];
        assert_eq!(last_reviewed_head(&comments), Some(a));
    }

    #[test]
    fn no_readable_state_or_a_head_that_is_not_a_sha_names_none() {
        assert_eq!(last_reviewed_head(&[]), None);
        let plain = comment(1, "github-actions[bot]", format!("{SUMMARY_MARKER}\nno state"));
        assert_eq!(last_reviewed_head(&[plain]), None);
        let broken = comment(
            1,
            "github-actions[bot]",
            format!("{SUMMARY_MARKER}\n{STATE_PREFIX}%%% -->"),
        );
        assert_eq!(last_reviewed_head(&[broken]), None);
        let forged = comment(1, "github-actions[bot]", summary("HEAD; rm -rf /", 1));
        assert_eq!(last_reviewed_head(&[forged]), None);
    }
}
