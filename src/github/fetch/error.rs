//! Why a fetch returned no result: [`FetchError`], its exit codes, and how
//! untrusted text is shown in its messages.

use super::MAX_ZIP_BYTES;
use crate::github::artifact_zip::ArtifactZipError;
use crate::github::error::GhError;

/// Why no result was returned. Messages are single sentences; text quoted
/// from GitHub or the file is untrusted (sanitise before display).
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// GitHub failed or refused a request.
    #[error("could not {step}: {cause}")]
    GitHub { step: String, cause: GhError },
    /// GitHub's answer contradicts the request.
    #[error("GitHub's answer about {what} does not match the request ({detail}); refusing to continue")]
    Mismatch { what: &'static str, detail: String },
    /// No completed run of the workflow for the current head.
    #[error(
        "no completed pull_request run of {workflow} exists for the current head {head}; wait for the review of {head} (or start it)"
    )]
    NoRun { workflow: String, head: String },
    /// Completed runs exist for the head, but GitHub ties none of them to
    /// this pull request of this repository (another pull request or
    /// event, or a run from a fork, which GitHub ties to none).
    #[error(
        "none of the {count} completed run(s) of {workflow} for the current head {head} is a pull_request run of #{pr} here (GitHub ties runs from forks to no pull request); refusing a result another pull request's run made"
    )]
    NoRunOfPull {
        workflow: String,
        head: String,
        pr: u64,
        count: usize,
    },
    /// The newest run has no usable artifact (`ended`: its conclusion).
    #[error(
        "the newest review run for {head} (run {run_id}, attempt {attempt}, {ended}) has {what} artifact {name}; rerun the review for {head}"
    )]
    NoArtifact {
        head: String,
        run_id: u64,
        attempt: u32,
        ended: String,
        name: String,
        what: &'static str,
    },
    /// The artifact zip is bigger than any honest one.
    #[error("the result artifact is {size} bytes, more than the {MAX_ZIP_BYTES}-byte limit; refusing to download it")]
    TooLarge { size: u64 },
    /// The zip could not be read safely.
    #[error(transparent)]
    Zip(#[from] ArtifactZipError),
    /// The result failed strict validation.
    #[error(
        "the downloaded result is not a valid ReviewGate agent result ({count} problem(s), first: {first}); rerun the review"
    )]
    Invalid { count: usize, first: String },
    /// The result is about another repository or pull request.
    #[error("the result is for {found}, not {expected}; refusing a result for another {what}")]
    WrongScope {
        what: &'static str,
        found: String,
        expected: String,
    },
    /// The result reviewed another commit than the head.
    #[error("the newest result is for an older commit ({reviewed}); wait for the review of {head}")]
    OlderHead { reviewed: String, head: String },
    /// The head moved while the result was being fetched.
    #[error(
        "the pull request head moved from {before} to {now} while the result was fetched; fetch again once {now} is reviewed"
    )]
    HeadMoved { before: String, now: String },
}

impl FetchError {
    /// The process exit code (the command line's one table maps errors to
    /// it): 4 when GitHub could not be talked to, 1 for an invalid or
    /// unreadable result, 3 for every refusal.
    pub fn exit_code(&self) -> u8 {
        match self {
            FetchError::GitHub { cause, .. } if !cause.is_refusal() => 4,
            FetchError::Zip(_) | FetchError::Invalid { .. } | FetchError::TooLarge { .. } => 1,
            _ => 3,
        }
    }
}

/// Untrusted text for a message: control characters replaced, at most 100 characters.
pub(super) fn shown(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(100)
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    if s.chars().count() > 100 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_one_sentence_with_a_next_step() {
        let head = "c".repeat(40);
        let e = FetchError::OlderHead {
            reviewed: "b".repeat(40),
            head: head.clone(),
        };
        assert_eq!(
            e.to_string(),
            format!(
                "the newest result is for an older commit ({}); wait for the review of {head}",
                "b".repeat(40)
            )
        );
        assert_eq!(e.exit_code(), 3);
        let net = FetchError::GitHub {
            step: "x".into(),
            cause: GhError::Transport {
                message: "reset".into(),
            },
        };
        assert_eq!(net.exit_code(), 4);
        assert_eq!(FetchError::Zip(ArtifactZipError::TooLarge).exit_code(), 1);
        assert_eq!(shown("a\u{1b}b"), "a\u{FFFD}b");
    }
}
