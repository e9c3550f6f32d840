//! River Review's own decision files: the feedback log and the suppressions
//! in its memory index, written so that River Review reads and applies them.
//!
//! - Feedback log: one compact JSON line per decision, appended to
//!   `<repo>/.river/feedback/<YYYY-MM>.jsonl` (UTC month of the entry).
//! - Suppressions: `type: "suppression"` entries of
//!   `<repo>/.river/memory/index.json`, scoped to the finding's file and tagged
//!   with the run's phase and the finding's fingerprint, which is what River's
//!   loader matches on. The index is rewritten whole, every other entry kept
//!   byte for byte in its place.
//! - Undo: a `type: "resurface"` entry revoking the suppression,
//!   `context.active` set to false on it, and its fingerprint moved to
//!   `context.revokedFingerprint` so that no River release can match it
//!   ([`lifecycle`]).
//!
//! How each decision status is recorded is tabled in [`status`]. Entries are
//! built by pure functions ([`entries`], [`decide`], [`index`]) that take the
//! time as a parameter; [`files`], [`replace`] and [`store`] do the locked,
//! atomic I/O ([`replace`]: how an index River may be rewriting meanwhile
//! is replaced without losing its entries).
//!
//! River Review's own matching, checked in its code (1.15.0 and the newer
//! 1.110.x line), is restated in [`lifecycle`] (what hides a finding on each
//! line) and [`gate`] (when a suppression about to be written will not apply:
//! changed files, configuration read by [`config`], expiry, phase).

pub mod config;
pub mod decide;
pub mod entries;
pub mod files;
pub mod gate;
pub mod index;
pub mod lifecycle;
pub mod ordered;
pub mod replace;
pub mod root;
pub mod status;
pub mod store;

use std::path::PathBuf;

pub use decide::{DecisionInput, FindingFacts, NoSuppression};
pub use entries::{FingerprintAlgo, Note};
pub use files::RiverPaths;
pub use status::{DecisionStatus, FeedbackType, SuppressionType};
pub use store::{Recorded, Revoked, record, revoke};

/// Why a River decision could not be recorded.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// `--finding` is not a River fingerprint.
    #[error("`{0}` is not a River fingerprint (16 lowercase hex characters)")]
    BadFingerprint(String),
    /// No finding of the review has that fingerprint.
    #[error("no finding with fingerprint {0} in this review")]
    UnknownFinding(String),
    /// A line-anchored (v2) suppression of a fingerprint that occurs at
    /// several lines, without the line (or with one it does not occur at).
    #[error("{fingerprint} occurs at lines {lines}: a v2 suppression is for one of them; give --line N")]
    Occurrence { fingerprint: String, lines: String },
    /// The evidence is blank.
    #[error("evidence is required: say why (--evidence TEXT or --evidence-file FILE)")]
    MissingEvidence,
    /// The finding has no rule id, which the feedback log needs as `skillId`.
    #[error("the finding has no ruleId, which River Review's feedback log requires as skillId")]
    MissingRuleId,
    /// The existing memory index cannot be read as one; it was not touched.
    #[error(
        "{} is malformed at {location}: {problem}; it was left unchanged (fix or move it, then retry)",
        file.display()
    )]
    MalformedIndex {
        file: PathBuf,
        location: String,
        problem: String,
    },
    /// The index changed every time it was about to be replaced (River
    /// Review writing it meanwhile); it was left as River wrote it.
    #[error(
        "{} kept changing while triage was updating it (River Review writing it?); it was left as it is: try again",
        file.display()
    )]
    IndexBusy { file: PathBuf },
    /// Undo found nothing to revoke.
    #[error("no active suppression of {0} to revoke")]
    NoActiveSuppression(String),
    /// An entry failed River's schema (a bug in `triage`, never written).
    #[error("the {what} does not match River Review's schema, so nothing was written: {details}")]
    Schema { what: &'static str, details: String },
    /// A file operation failed.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    /// The repository root could not be determined.
    #[error("{0}")]
    RepoRoot(String),
}

impl StoreError {
    /// The [`StoreError::Io`] of a failed `action` on `path`, for `map_err`.
    pub(crate) fn io(action: &'static str, path: &std::path::Path) -> impl FnOnce(std::io::Error) -> StoreError {
        move |source| StoreError::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }
}
