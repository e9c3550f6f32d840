//! What the screen holds about decisions: the open composer, drafts put
//! aside, the last decision sent per finding (for retry), the batch being
//! sent, the GitHub login comments carry, the outbox offer, and a pending
//! escalation packet.

use super::composer::Composer;
use super::effect::RiverDecision;
pub use super::message::Receipt;
use crate::github::draft::Draft;
use crate::outbox::{Entry, Staleness};
use std::collections::BTreeMap;

/// The repository River decisions are written to and whether River's
/// configuration applies suppressions there (looked up off the render path
/// when a River composer first opens; see [`crate::tui::jobs::river`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum RiverTarget {
    /// Not looked up yet.
    #[default]
    Unknown,
    LookingUp,
    /// The absolute repository root and River's suppression setting there.
    Known {
        root: std::path::PathBuf,
        setting: crate::river_store::config::SuppressionSetting,
    },
    /// No repository root could be determined (the reason).
    Unavailable(super::message::failure::Shared<crate::river_store::StoreError>),
}

/// A decision as it was sent, so `r` can send it again unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SentDecision {
    /// A ReviewGate draft (kept in the outbox under the same id).
    ReviewGate(Draft),
    /// A River decision.
    River(RiverDecision),
}

/// The batch being sent (one generation for all of its findings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Batch {
    pub generation: u64,
    pub total: usize,
    pub recorded: usize,
    pub rejected: usize,
    pub failed: usize,
}

impl Batch {
    /// Outcomes received so far.
    pub fn done(&self) -> usize {
        self.recorded + self.rejected + self.failed
    }

    /// The closing summary line.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "Sent {} decision{}: {} recorded, {} rejected, {} failed",
            self.total,
            if self.total == 1 { "" } else { "s" },
            self.recorded,
            self.rejected,
            self.failed
        );
        if self.rejected + self.failed > 0 {
            text.push_str(" (each stays in the outbox; select one and press r to retry)");
        }
        text
    }
}

/// The GitHub login a comment will carry.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Actor {
    /// Not asked yet.
    #[default]
    Unknown,
    /// Being looked up.
    LookingUp,
    /// The authenticated user.
    Known(String),
    /// No login could be read (no token, offline): why.
    Unavailable(super::message::failure::ActorError),
}

/// One outbox entry offered for this review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    pub entry: Entry,
    /// Same head, or made for another head of this pull request.
    pub staleness: Staleness,
    /// The finding it is about in the loaded result, if present.
    pub finding: Option<usize>,
}

/// A kept thread action offered in the outbox overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptThread {
    pub entry: crate::outbox::thread_actions::ThreadEntry,
    /// The finding of its thread in the loaded result, if present.
    pub finding: Option<usize>,
}

/// The outbox overlay's entries: kept decisions, then kept thread actions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Offer {
    pub entries: Vec<Offered>,
    /// This pull request's kept thread actions, as last read from disk
    /// (oldest first; listed after the decisions).
    pub threads: Vec<KeptThread>,
    /// The entry a first drop press armed (a second press drops it).
    pub armed_drop: Option<String>,
    /// The user asked for the overlay (`O`): say so when it is empty.
    pub asked: bool,
}

impl Offer {
    /// The overlay's rows: the decisions, then the thread actions.
    pub fn rows(&self) -> usize {
        self.entries.len() + self.threads.len()
    }
}

/// An escalation packet waiting for its destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packet {
    /// File name used when it goes to a file.
    pub file_name: String,
    /// The Markdown text.
    pub text: String,
}

/// A question with one-key answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Quit although drafts are unsent or decisions are being sent.
    Quit,
    /// Where the escalation packet goes: clipboard or file.
    Escalate,
    /// Revoke the River suppression of this finding.
    Undo { finding: usize },
    /// What to do with this finding's GitHub thread: reply, resolve, reopen.
    ThreadMenu { finding: usize },
    /// The thread is resolved externally: reopen it, or record a decision.
    ThreadRemedies { finding: usize },
    /// Send the pending thread action? (default No)
    ThreadConfirm { finding: usize },
    /// Record this finding's decision over a different one already recorded on this head.
    Supersede { finding: usize },
}

/// Every decision fact of the screen.
#[derive(Debug, Clone, Default)]
pub struct Decisions {
    /// The composer on screen (its stage is in `Mode::Compose`).
    pub composer: Option<Composer>,
    /// Drafts put aside, by their target findings.
    pub drafts: BTreeMap<Vec<usize>, Composer>,
    /// Drafts whose findings left a refreshed result (kept, never dropped silently).
    pub orphans: Vec<Composer>,
    /// The last decision sent per finding.
    pub sent: BTreeMap<usize, SentDecision>,
    /// The batch in flight.
    pub batch: Option<Batch>,
    pub actor: Actor,
    /// Where River decisions of this review are written, once looked up.
    pub river_target: RiverTarget,
    pub offer: Offer,
    pub packet: Option<Packet>,
    /// Spinner frame, advanced by ticks while work runs.
    pub spinner: usize,
    /// The result file's absolute path: where drafts of a result without a
    /// pull request are kept (see [`crate::tui::drafts`]).
    pub result_path: Option<String>,
    /// The GitHub API this screen talks to, when it is not the public one
    /// (resolved once at start: `--api-url`, else `GITHUB_API_URL`).
    pub api: Option<String>,
    /// Edits of the open composer so far (the generation of its save timer).
    pub edits: u64,
    /// Another triage screen had this review open when this one started
    /// (said in the banner): this screen then keeps its drafts in files of
    /// its own, named with this token ([`crate::outbox::drafts::screen_id`]),
    /// and removes none it did not write but those of a confirmed decision.
    /// Drafts of one finding kept by both are joined when the review is
    /// opened next ([`crate::tui::drafts::loaded`]).
    pub open_elsewhere: Option<String>,
}

impl Decisions {
    /// Drafts that exist only in memory (lost on quit).
    pub fn unsent_drafts(&self) -> usize {
        self.drafts.len() + self.orphans.len() + usize::from(self.composer.as_ref().is_some_and(Composer::has_content))
    }
}

/// Spinner frames.
pub const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_summary_counts_and_advises() {
        let b = Batch {
            generation: 1,
            total: 3,
            recorded: 2,
            rejected: 0,
            failed: 1,
        };
        assert_eq!(b.done(), 3);
        assert!(
            b.summary()
                .starts_with("Sent 3 decisions: 2 recorded, 0 rejected, 1 failed")
        );
        assert!(b.summary().contains("press r"));
    }
}
