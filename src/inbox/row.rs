//! One row of the inbox: an open pull request and the review state of its
//! current head, and the order that puts what needs a human first.

use serde::Serialize;

/// The review state of a pull request's current head.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewState {
    /// ReviewGate's result for the head: score 5, nothing blocks.
    Passed,
    /// ReviewGate's result for the head: score 0..4.
    NeedsChanges,
    /// ReviewGate's review of the head did not complete.
    ReviewError,
    /// No review run for the head has completed; one is queued or in progress.
    Running,
    /// No review run for the head (and none for an older head).
    Missing,
    /// Only an older head of the pull request has a review run.
    Stale,
    /// A read failed: the row's `reason` says which.
    Unknown,
}

impl ReviewState {
    /// The wire name (the JSON `state` and the table's column).
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewState::Passed => "passed",
            ReviewState::NeedsChanges => "needs_changes",
            ReviewState::ReviewError => "review_error",
            ReviewState::Running => "running",
            ReviewState::Missing => "missing",
            ReviewState::Stale => "stale",
            ReviewState::Unknown => "unknown",
        }
    }
}

/// Thread drift of the head's findings, most dangerous first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct DriftCounts {
    /// GitHub shows the thread resolved while the finding is still open or disputed.
    pub resolved_externally: usize,
    /// A settled finding came back with reopening evidence.
    pub reopened: usize,
    /// A decision settled the finding but its thread is still open.
    pub resolution_pending: usize,
    /// The thread state could not be read.
    pub unknown: usize,
}

impl DriftCounts {
    /// Every drifting finding.
    pub fn total(&self) -> usize {
        self.resolved_externally + self.reopened + self.resolution_pending + self.unknown
    }
}

/// One open pull request in the inbox. Text fields are GitHub's, raw:
/// every output sanitises them ([`crate::sanitize`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub number: u64,
    pub title: String,
    /// `None` for a deleted account.
    pub author: Option<String>,
    pub head_sha: String,
    pub head_ref: String,
    pub base_ref: String,
    pub draft: bool,
    pub labels: Vec<String>,
    /// RFC 3339, as GitHub wrote it.
    pub created_at: String,
    pub updated_at: String,
    /// Seconds since `created_at` when the inbox was read (0 when unreadable).
    pub age_seconds: u64,
    pub state: ReviewState,
    /// Why the row is `unknown`, `missing` or `stale` (one sentence).
    pub reason: Option<String>,
    /// ReviewGate's score for the head (0..5), when a result was read.
    pub score: Option<u8>,
    /// Findings in the repair set, when a result was read.
    pub repair_set: Option<usize>,
    /// Findings of the result.
    pub findings: Option<usize>,
    /// Findings the pull request's screen counts still to decide: without an
    /// authorised decision at this head awaiting the next review
    /// ([`crate::model::ledger::is_decided`]).
    pub undecided: Option<usize>,
    pub drift: DriftCounts,
    /// Findings whose newest authorised decision at this head (or, without
    /// one, the result's last) is `needs_human` ([`crate::model::ledger::needs_human`]).
    pub needs_human: usize,
    /// Findings with an authorised decision at this head that the next
    /// review will apply (the screen's ◆).
    pub awaiting: Option<usize>,
    /// The review run used (or running).
    pub run_id: Option<u64>,
    /// A review run of the head newer than `run_id`, queued or in progress:
    /// the counts are of the completed run `run_id` (the result ReviewGate
    /// and `triage --pr N` read) until it ends.
    pub newer_run_id: Option<u64>,
    /// The result artifact read.
    pub artifact_id: Option<u64>,
    /// River Review artifacts published for the head (their names).
    pub river_artifacts: Vec<String>,
}

impl Row {
    /// A row with the pull request's facts and nothing read about its review yet.
    pub fn unread(pr: &crate::github::open_prs::OpenPr, age_seconds: u64) -> Row {
        Row {
            number: pr.number,
            title: pr.title.clone(),
            author: pr.author.clone(),
            head_sha: pr.head_sha.clone(),
            head_ref: pr.head_ref.clone(),
            base_ref: pr.base_ref.clone(),
            draft: pr.draft,
            labels: pr.labels.clone(),
            created_at: pr.created_at.clone(),
            updated_at: pr.updated_at.clone(),
            age_seconds,
            state: ReviewState::Missing,
            reason: None,
            score: None,
            repair_set: None,
            findings: None,
            undecided: None,
            drift: DriftCounts::default(),
            needs_human: 0,
            awaiting: None,
            run_id: None,
            newer_run_id: None,
            artifact_id: None,
            river_artifacts: Vec::new(),
        }
    }

    /// A sentence for people when a newer review run of the head is under
    /// way (the screen's footer and the table say it).
    pub fn newer_run_text(&self) -> Option<String> {
        let newer = self.newer_run_id?;
        let shown = self.run_id.map_or_else(String::new, |id| format!(" of run {id}"));
        Some(format!(
            "review run {newer} of this head is queued or in progress: shown is the result{shown}, as ReviewGate reads it until that run ends"
        ))
    }

    /// Marks the row `unknown` with `reason` (the first failure stands).
    pub fn fail(&mut self, reason: impl Into<String>) {
        if self.state != ReviewState::Unknown {
            self.state = ReviewState::Unknown;
            self.reason = Some(reason.into());
        }
    }

    /// The row's tier in the ranking, lowest first: 0 an escalation
    /// (`resolved_externally` drift or a `needs_human` decision), 1 a head
    /// whose review failed (`review_error`) or could not be read (`unknown`:
    /// a human must look as surely), 2 everything else.
    pub fn tier(&self) -> u8 {
        if self.drift.resolved_externally > 0 || self.needs_human > 0 {
            0
        } else if matches!(self.state, ReviewState::ReviewError | ReviewState::Unknown) {
            1
        } else {
            2
        }
    }
}

/// The fixed cells of a row as text, in [`Row::cells`] order (the title
/// comes after them, given whatever room is left).
pub const CELL_NAMES: [&str; 10] = [
    "PR",
    "STATE",
    "SCORE",
    "REPAIR",
    "UNDECIDED",
    "DRIFT",
    "HUMAN",
    "AWAITING",
    "AGE",
    "AUTHOR",
];

impl Row {
    /// The fixed cells of the row as shown (the author sanitised; the
    /// title is not among them): the table and the screen print the same.
    pub fn cells(&self) -> [String; 10] {
        let count = |n: Option<usize>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
        [
            format!("#{}", self.number),
            self.state.as_str().to_owned(),
            self.score.map_or_else(|| "-".to_owned(), |s| s.to_string()),
            count(self.repair_set),
            count(self.undecided),
            drift_text(&self.drift),
            self.needs_human.to_string(),
            count(self.awaiting),
            age_text(self.age_seconds),
            crate::sanitize::clean_line(self.author.as_deref().unwrap_or("ghost")),
        ]
    }
}

/// An age for people: `45m`, `5h`, `12d`.
pub fn age_text(seconds: u64) -> String {
    match seconds {
        s if s < 3600 => format!("{}m", s / 60),
        s if s < 86_400 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    }
}

/// The drift counts as `resolved_externally/reopened/pending/unknown`, `-` when none.
pub fn drift_text(drift: &DriftCounts) -> String {
    if drift.total() == 0 {
        return "-".to_owned();
    }
    format!(
        "{}/{}/{}/{}",
        drift.resolved_externally, drift.reopened, drift.resolution_pending, drift.unknown
    )
}

/// Puts the rows in the order of what needs a human: by [`Row::tier`], then
/// the larger repair set, then the older pull request, then the lower number.
pub fn rank(rows: &mut [Row]) {
    rows.sort_by(|a, b| {
        a.tier()
            .cmp(&b.tier())
            .then(b.repair_set.unwrap_or(0).cmp(&a.repair_set.unwrap_or(0)))
            .then(b.age_seconds.cmp(&a.age_seconds))
            .then(a.number.cmp(&b.number))
    });
}

/// An open pull request with only a number, a title and an author, for the
/// inbox's unit tests.
#[cfg(test)]
pub(super) fn test_pr(number: u64, title: &str, author: &str) -> crate::github::open_prs::OpenPr {
    crate::github::open_prs::OpenPr {
        number,
        title: title.to_owned(),
        draft: false,
        author: Some(author.into()),
        head_sha: "a".repeat(40),
        head_ref: "topic".into(),
        base_ref: "main".into(),
        created_at: String::new(),
        updated_at: String::new(),
        labels: Vec::new(),
        labels_complete: true,
        threads: Vec::new(),
        threads_complete: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(number: u64, age: u64) -> Row {
        Row::unread(&test_pr(number, &format!("PR {number}"), "a"), age)
    }

    #[test]
    fn escalations_then_errors_then_repair_set_then_age() {
        let mut plain_old = row(1, 900);
        plain_old.state = ReviewState::Passed;
        let mut big_repair = row(2, 10);
        big_repair.state = ReviewState::NeedsChanges;
        big_repair.repair_set = Some(4);
        let mut small_repair = row(3, 5000);
        small_repair.state = ReviewState::NeedsChanges;
        small_repair.repair_set = Some(1);
        let mut error = row(4, 1);
        error.state = ReviewState::ReviewError;
        let mut unknown = row(5, 2);
        unknown.fail("could not read");
        let mut drift = row(6, 3);
        drift.drift.resolved_externally = 1;
        let mut human = row(7, 4);
        human.needs_human = 2;
        let mut young = row(8, 100);
        young.state = ReviewState::Missing;
        let mut rows = vec![plain_old, big_repair, small_repair, error, unknown, drift, human, young];
        rank(&mut rows);
        let order: Vec<u64> = rows.iter().map(|r| r.number).collect();
        assert_eq!(order, vec![7, 6, 5, 4, 2, 3, 1, 8]);
    }

    #[test]
    fn equal_rows_keep_a_stable_order_by_number() {
        let mut rows = vec![row(9, 10), row(3, 10), row(5, 10)];
        rank(&mut rows);
        let order: Vec<u64> = rows.iter().map(|r| r.number).collect();
        assert_eq!(order, vec![3, 5, 9]);
    }

    #[test]
    fn the_first_failure_stands() {
        let mut r = row(1, 0);
        r.fail("first");
        r.fail("second");
        assert_eq!((r.state, r.reason.as_deref()), (ReviewState::Unknown, Some("first")));
    }
}
