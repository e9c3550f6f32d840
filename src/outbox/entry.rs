//! One kept decision: the draft, where it came from, and how its attempts went.

use crate::decision::decide::Step;
use crate::decision::draft::{Draft, LocalProblem};
use crate::decision::outcome::Outcome;
use crate::model::review::{ReviewSet, Scope};
use crate::time::now_rfc3339;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A decision on disk. Never holds a token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// 16 lowercase hex digits derived from the decision itself, so the same
    /// decision written twice is one entry (and a second submit of it knows
    /// that an earlier attempt may have posted).
    pub id: String,
    /// When the decision was first kept (UTC, RFC 3339).
    pub created_at: String,
    /// The decision.
    #[serde(flatten)]
    pub draft: Draft,
    /// The result file it was made from, if any (for people; never read back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Attempts made so far.
    #[serde(default)]
    pub attempts: u32,
    /// When the last attempt ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_attempt_at: Option<String>,
    /// How the last attempt ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_outcome: Option<LastOutcome>,
    /// The GitHub API the decision is sent to (its base URL, as
    /// [`crate::github::endpoint::ApiBase::url`] writes it), written before
    /// the first request: a retry that talks to another API (another
    /// `--api-url` or `$GITHUB_API_URL`) does not send it there. `None` in
    /// an entry never sent (and in entries kept before this was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api: Option<String>,
    /// Comments a clean-up DELETE was (or is about to be) sent for, written
    /// before the DELETE goes out. The next attempt deletes them first and
    /// never reuses them; the entry cannot leave the outbox while any is here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_deletes: Vec<u64>,
}

/// The kind of an attempt's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    Recorded,
    Rejected,
    Failed,
}

/// A stored summary of an [`Outcome`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastOutcome {
    pub kind: OutcomeKind,
    /// The one-line summary (may quote GitHub: sanitise before display).
    pub message: String,
    /// A comment that exists on GitHub because of this entry, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment_id: Option<u64>,
    /// True when a rejection was a stale head (the draft needs re-binding).
    #[serde(default)]
    pub stale_head: bool,
}

impl LastOutcome {
    /// Summarises an outcome for storage.
    pub fn of(outcome: &Outcome) -> LastOutcome {
        use crate::decision::decide::Rejection;
        let message = outcome.summary();
        match outcome {
            Outcome::Recorded(r) => LastOutcome {
                kind: OutcomeKind::Recorded,
                message,
                comment_id: Some(r.comment_id),
                stale_head: false,
            },
            Outcome::Rejected {
                reason, comment_left, ..
            } => {
                let stale_head = matches!(
                    reason,
                    Rejection::StaleHead { .. } | Rejection::HeadMoved { .. } | Rejection::HeadUnreadable { .. }
                );
                LastOutcome {
                    kind: OutcomeKind::Rejected,
                    message,
                    comment_id: *comment_left,
                    stale_head,
                }
            }
            Outcome::Failed { comment_left, step, .. } => LastOutcome {
                kind: OutcomeKind::Failed,
                message,
                comment_id: *comment_left,
                stale_head: *step == Step::HeadRecheck,
            },
        }
    }
}

/// How a kept draft relates to the result now loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Staleness {
    /// Same pull request, same reviewed head.
    Current,
    /// Same pull request, another head: re-bind only after the user
    /// re-confirms the decision against the current result.
    OtherHead { draft_sha: String, current_sha: String },
    /// Another repository or pull request (or a local result).
    Unrelated,
}

impl Entry {
    /// Comments earlier attempts may have left on the pull request: the
    /// clean-up deletes that never finished, then the comment of an attempt
    /// whose answer was lost (posted, maybe attested: ReviewGate's replay
    /// applies it whatever the outbox says), when it is not one of those.
    pub fn left_on_pull_request(&self) -> (Vec<u64>, Option<u64>) {
        let deletes = self.pending_deletes.clone();
        let posted = self
            .last_outcome
            .as_ref()
            .and_then(|o| o.comment_id)
            .filter(|c| !deletes.contains(c));
        (deletes, posted)
    }

    /// A new entry for `draft` (not yet written).
    pub fn new(draft: Draft, source: Option<String>) -> Entry {
        Entry {
            id: entry_id(&draft),
            created_at: now_rfc3339(),
            draft,
            source,
            attempts: 0,
            last_attempt_at: None,
            last_outcome: None,
            api: None,
            pending_deletes: Vec::new(),
        }
    }

    /// True when the draft was made for another head than `current_sha`.
    pub fn is_stale(&self, current_sha: &str) -> bool {
        self.draft.is_stale(current_sha)
    }

    /// Compares the draft with a loaded result.
    pub fn staleness(&self, current: &ReviewSet) -> Staleness {
        let same_pull = matches!(
            &current.scope,
            Scope::PullRequest { repository, pull_request_number }
                if *repository == self.draft.repository && *pull_request_number == self.draft.pull_request
        );
        match (same_pull, current.reviewed_sha.as_deref()) {
            (true, Some(sha)) if sha == self.draft.reviewed_sha => Staleness::Current,
            (true, Some(sha)) => Staleness::OtherHead {
                draft_sha: self.draft.reviewed_sha.clone(),
                current_sha: sha.to_owned(),
            },
            _ => Staleness::Unrelated,
        }
    }

    /// The same decision bound to `current` (its head), after the finding is
    /// found there again. Call only once the user has re-confirmed it; the
    /// result is a new draft (a new entry id).
    pub fn rebind(&self, current: &ReviewSet) -> Result<Draft, Vec<LocalProblem>> {
        let mut draft = Draft::for_finding(
            current,
            &self.draft.fingerprint,
            self.draft.status,
            &self.draft.evidence,
        )?;
        draft.actor = self.draft.actor.clone();
        Ok(draft)
    }
}

/// 16 hex digits of SHA-256 over the decision's fields (JSON array, so no
/// two different decisions share an encoding).
pub fn entry_id(draft: &Draft) -> String {
    let fields = serde_json::json!([
        draft.repository,
        draft.pull_request,
        draft.reviewed_sha,
        draft.fingerprint,
        draft.status.as_str(),
        draft.evidence,
        draft.actor,
    ]);
    let digest = Sha256::digest(fields.to_string().as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// True for a string that can be an entry id (guards file names).
pub fn is_entry_id(s: &str) -> bool {
    s.len() == 16 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::finding::SubmittedDisposition;

    fn draft(evidence: &str) -> Draft {
        Draft {
            repository: "o/r".into(),
            pull_request: 3,
            reviewed_sha: "abc".into(),
            fingerprint: "defect:a:b".into(),
            status: SubmittedDisposition::Accepted,
            evidence: evidence.into(),
            actor: None,
        }
    }

    #[test]
    fn ids_follow_the_decision() {
        let a = Entry::new(draft("one"), None);
        let b = Entry::new(draft("one"), Some("x.json".into()));
        let c = Entry::new(draft("two"), None);
        assert_eq!(a.id, b.id);
        assert_ne!(a.id, c.id);
        assert!(is_entry_id(&a.id), "{}", a.id);
        assert!(!is_entry_id("../../etc/passwd"));
        assert!(!is_entry_id("ABCDEF0123456789"));
    }

    #[test]
    fn staleness_against_the_loaded_result() {
        let set = crate::decision::draft::tests::fixture_set("valid-scope-pull-request.json");
        let fp = "reliability_risk:app.webhooks.retry.py:webhook.retry.exhaustion.missing.regression";
        let current = Draft {
            repository: "LVTD-LLC/reviewgate".into(),
            pull_request: 48,
            reviewed_sha: "abc123".into(),
            fingerprint: fp.into(),
            ..draft("why")
        };
        assert_eq!(Entry::new(current.clone(), None).staleness(&set), Staleness::Current);
        let old = Entry::new(
            Draft {
                reviewed_sha: "0ld".into(),
                ..current.clone()
            },
            None,
        );
        assert!(old.is_stale("abc123"));
        assert_eq!(
            old.staleness(&set),
            Staleness::OtherHead {
                draft_sha: "0ld".into(),
                current_sha: "abc123".into()
            }
        );
        let other_pr = Entry::new(
            Draft {
                pull_request: 49,
                ..current.clone()
            },
            None,
        );
        assert_eq!(other_pr.staleness(&set), Staleness::Unrelated);
        let rebound = old.rebind(&set).unwrap();
        assert_eq!(rebound, current);
        assert_ne!(entry_id(&rebound), old.id, "a re-bound draft is a new entry");
        let gone = Entry::new(
            Draft {
                fingerprint: "defect:gone:x".into(),
                ..current
            },
            None,
        );
        assert!(
            gone.rebind(&set).is_err(),
            "a finding no longer in the result cannot be re-bound"
        );
    }

    #[test]
    fn round_trips_through_json_without_surprises() {
        let mut e = Entry::new(draft("evidence\nwith lines"), Some("r.json".into()));
        e.attempts = 2;
        e.last_outcome = Some(LastOutcome {
            kind: OutcomeKind::Failed,
            message: "m".into(),
            comment_id: Some(9),
            stale_head: false,
        });
        let text = serde_json::to_string(&e).unwrap();
        assert!(text.contains("\"status\":\"accepted\""), "{text}");
        let back: Entry = serde_json::from_str(&text).unwrap();
        assert_eq!(back, e);
    }
}
