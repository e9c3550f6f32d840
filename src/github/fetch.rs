//! The newest exact-head ReviewGate result of a pull request (INTEROP.md
//! section 4, last part): head, completed runs for that head, newest eligible
//! run and attempt, its artifact, bounded unzip, strict validation, scope and
//! SHA checks, and the head read again at the end.
//!
//! Every refusal is one sentence that names the failed check and what to do.

use super::artifact_zip::{ArtifactZipError, read_result_json};
use super::client::Client;
use super::error::GhError;
use super::route::{RepoName, Route};
use crate::model::load::{Loaded, load_bytes};
use crate::model::review::{Format, ReviewSet, Scope};
use crate::model::threads::ThreadObservation;
use serde::Deserialize;

/// Pages of 100 read at most when listing runs or artifacts.
pub const MAX_PAGES: u32 = 10;

/// The largest artifact zip downloaded (the result inside is at most 1 MiB).
pub const MAX_ZIP_BYTES: usize = 8 * 1024 * 1024;

/// Run conclusions whose artifacts can be used (a review that found problems
/// fails its run; a cancelled or skipped run uploaded nothing trustworthy).
const ELIGIBLE_CONCLUSIONS: [&str; 3] = ["success", "failure", "neutral"];

/// What to fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchRequest {
    pub repo: RepoName,
    pub pr: u64,
    /// Workflow file name (or numeric id), e.g. `reviewgate.yml`.
    pub workflow: String,
}

/// A validated exact-head result and where it came from.
#[derive(Debug, Clone)]
pub struct FetchedResult {
    /// The strictly validated document.
    pub loaded: Loaded,
    /// `result.json` exactly as downloaded.
    pub bytes: Vec<u8>,
    pub repository: RepoName,
    pub pull_request: u64,
    /// The head the result was reviewed at (checked before and after).
    pub head_sha: String,
    pub run_id: u64,
    pub attempt: u32,
    pub artifact_name: String,
    /// Live thread state, once read and applied to `loaded.set` (`None`: not read).
    pub threads: Option<ThreadObservation>,
}

impl FetchedResult {
    /// A short name for headers and messages: `OWNER/NAME#N @ abcdef123456`.
    pub fn display_name(&self) -> String {
        let short: String = self.head_sha.chars().take(12).collect();
        format!("{}#{} @ {short}", self.repository, self.pull_request)
    }
}

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
    /// Completed runs exist for the head, but none can hold a result (cancelled, skipped, another event).
    #[error(
        "the {count} completed run(s) of {workflow} for the current head {head} were cancelled, skipped or not pull_request runs; rerun the review for {head}"
    )]
    NoEligibleRun { workflow: String, head: String, count: u64 },
    /// The newest run has no usable artifact.
    #[error(
        "the newest review run for {head} (run {run_id}, attempt {attempt}) has {what} artifact {name}; rerun the review for {head}"
    )]
    NoArtifact {
        head: String,
        run_id: u64,
        attempt: u32,
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
    /// The process exit code (`crate::cli::exit`): 4 when GitHub could not be
    /// talked to, 1 for an invalid or unreadable result, 3 for every refusal.
    pub fn exit_code(&self) -> u8 {
        match self {
            FetchError::GitHub { cause, .. } if !cause.is_refusal() => 4,
            FetchError::Zip(_) | FetchError::Invalid { .. } | FetchError::TooLarge { .. } => 1,
            _ => 3,
        }
    }
}

/// `GET /repos/{repo}/pulls/{n}`, only what is checked.
#[derive(Debug, Deserialize)]
struct PullInfo {
    number: u64,
    head: CommitRef,
    base: BaseRef,
}

#[derive(Debug, Deserialize)]
struct CommitRef {
    sha: String,
}

#[derive(Debug, Deserialize)]
struct BaseRef {
    repo: Option<RepoInfo>,
}

#[derive(Debug, Deserialize)]
struct RepoInfo {
    full_name: String,
}

/// One page of `GET .../actions/workflows/{workflow}/runs`.
#[derive(Debug, Deserialize)]
struct RunsPage {
    #[serde(default)]
    total_count: u64,
    #[serde(default)]
    workflow_runs: Vec<WorkflowRun>,
}

/// One workflow run.
#[derive(Debug, Clone, Deserialize)]
struct WorkflowRun {
    id: u64,
    #[serde(default)]
    run_number: u64,
    run_attempt: Option<u32>,
    head_sha: String,
    event: String,
    status: Option<String>,
    conclusion: Option<String>,
}

/// One page of `GET .../actions/artifacts`.
#[derive(Debug, Deserialize)]
struct ArtifactsPage {
    #[serde(default)]
    total_count: u64,
    #[serde(default)]
    artifacts: Vec<ArtifactInfo>,
}

/// One artifact.
#[derive(Debug, Clone, Deserialize)]
struct ArtifactInfo {
    id: u64,
    name: String,
    #[serde(default)]
    size_in_bytes: u64,
    #[serde(default)]
    expired: bool,
    workflow_run: Option<ArtifactRun>,
}

#[derive(Debug, Clone, Deserialize)]
struct ArtifactRun {
    id: Option<u64>,
    head_sha: Option<String>,
}

/// The artifact name ReviewGate uploads for a head and run attempt.
pub fn artifact_name(head: &str, attempt: u32) -> String {
    format!("reviewgate-agent-result-{head}-attempt-{attempt}")
}

/// Resolves, downloads and checks the newest exact-head result.
pub async fn fetch_exact_head(client: &Client, req: &FetchRequest) -> Result<FetchedResult, FetchError> {
    let head = current_head(client, req).await?;
    let run = newest_run(client, req, &head).await?;
    let attempt = run.run_attempt.unwrap_or(1).max(1);
    let name = artifact_name(&head, attempt);
    let artifact = find_artifact(client, req, &run, &head, &name).await?;
    if artifact.size_in_bytes > MAX_ZIP_BYTES as u64 {
        return Err(FetchError::TooLarge {
            size: artifact.size_in_bytes,
        });
    }
    let zip_route = Route::repo(&req.repo, ["actions", "artifacts", &artifact.id.to_string(), "zip"]);
    let zip = client
        .get_bytes_following_redirect(&zip_route, MAX_ZIP_BYTES)
        .await
        .map_err(|cause| FetchError::GitHub {
            step: format!("download the artifact {name}"),
            cause,
        })?;
    let bytes = read_result_json(&zip)?;
    let loaded = check_result(&bytes, req, &head)?;
    let now = current_head(client, req).await?;
    if now != head {
        return Err(FetchError::HeadMoved { before: head, now });
    }
    Ok(FetchedResult {
        loaded,
        bytes,
        repository: req.repo.clone(),
        pull_request: req.pr,
        head_sha: head,
        run_id: run.id,
        attempt,
        artifact_name: name,
        threads: None,
    })
}

/// The pull request's current head SHA, after checking the answer is about it
/// (the screen compares it with a loaded result to tell when that went stale).
pub async fn current_head(client: &Client, req: &FetchRequest) -> Result<String, FetchError> {
    let route = Route::repo(&req.repo, ["pulls", &req.pr.to_string()]);
    let pull: PullInfo = client.get_json(&route).await.map_err(|cause| FetchError::GitHub {
        step: format!("read pull request {}#{}", req.repo, req.pr),
        cause,
    })?;
    if pull.number != req.pr {
        return Err(FetchError::Mismatch {
            what: "the pull request",
            detail: format!("number {}", pull.number),
        });
    }
    match pull.base.repo {
        Some(r) if r.full_name.eq_ignore_ascii_case(req.repo.as_str()) => {}
        other => {
            let found = other.map_or_else(|| "no repository".to_owned(), |r| shown(&r.full_name));
            return Err(FetchError::Mismatch {
                what: "the pull request's base repository",
                detail: found,
            });
        }
    }
    if !is_commit_sha(&pull.head.sha) {
        return Err(FetchError::Mismatch {
            what: "the head commit",
            detail: shown(&pull.head.sha),
        });
    }
    Ok(pull.head.sha)
}

/// The newest eligible completed `pull_request` run of the workflow for `head`.
async fn newest_run(client: &Client, req: &FetchRequest, head: &str) -> Result<WorkflowRun, FetchError> {
    let mut best: Option<WorkflowRun> = None;
    let mut seen = 0u64;
    for page in 1..=MAX_PAGES {
        let route = Route::repo(&req.repo, ["actions", "workflows", req.workflow.as_str(), "runs"])
            .query("event", "pull_request")
            .query("status", "completed")
            .query("head_sha", head)
            .query("per_page", 100)
            .query("page", page);
        let step = || format!("list the runs of {} for {head}", req.workflow);
        let runs: RunsPage = client
            .get_json(&route)
            .await
            .map_err(|cause| FetchError::GitHub { step: step(), cause })?;
        let count = runs.workflow_runs.len();
        seen += count as u64;
        for run in runs.workflow_runs.into_iter().filter(|r| is_eligible(r, head)) {
            if best
                .as_ref()
                .is_none_or(|b| (run.run_number, run.id) > (b.run_number, b.id))
            {
                best = Some(run);
            }
        }
        if count < 100 || seen >= runs.total_count {
            break;
        }
    }
    let (workflow, head) = (shown(&req.workflow), head.to_owned());
    match best {
        Some(run) => Ok(run),
        None if seen > 0 => Err(FetchError::NoEligibleRun {
            workflow,
            head,
            count: seen,
        }),
        None => Err(FetchError::NoRun { workflow, head }),
    }
}

fn is_eligible(run: &WorkflowRun, head: &str) -> bool {
    run.head_sha == head
        && run.event == "pull_request"
        && run.status.as_deref() == Some("completed")
        && run
            .conclusion
            .as_deref()
            .is_some_and(|c| ELIGIBLE_CONCLUSIONS.contains(&c))
}

/// The run's unexpired artifact named `name` (listing every page; the newest if several).
async fn find_artifact(
    client: &Client,
    req: &FetchRequest,
    run: &WorkflowRun,
    head: &str,
    name: &str,
) -> Result<ArtifactInfo, FetchError> {
    let (mut live, mut expired) = (None::<ArtifactInfo>, false);
    let mut seen = 0u64;
    for page in 1..=MAX_PAGES {
        // Built by hand: octocrab's typed listing drops per_page and page.
        let route = Route::repo(&req.repo, ["actions", "artifacts"])
            .query("name", name)
            .query("per_page", 100)
            .query("page", page);
        let listed: ArtifactsPage = client.get_json(&route).await.map_err(|cause| FetchError::GitHub {
            step: format!("list the artifacts named {name}"),
            cause,
        })?;
        let count = listed.artifacts.len();
        seen += count as u64;
        for a in listed.artifacts.into_iter().filter(|a| belongs_to(a, run, head, name)) {
            if a.expired {
                expired = true;
            } else if live.as_ref().is_none_or(|l| a.id > l.id) {
                live = Some(a);
            }
        }
        if count < 100 || seen >= listed.total_count {
            break;
        }
    }
    let attempt = run.run_attempt.unwrap_or(1).max(1);
    let missing = |what| FetchError::NoArtifact {
        head: head.to_owned(),
        run_id: run.id,
        attempt,
        name: name.to_owned(),
        what,
    };
    match live {
        Some(a) => Ok(a),
        None if expired => Err(missing("only an expired")),
        None => Err(missing("no")),
    }
}

fn belongs_to(a: &ArtifactInfo, run: &WorkflowRun, head: &str, name: &str) -> bool {
    a.name == name
        && a.workflow_run
            .as_ref()
            .is_some_and(|w| w.id == Some(run.id) && w.head_sha.as_deref() == Some(head))
}

/// Strict validation, then scope and SHA against the request and the head.
/// The repository is compared without ASCII case (GitHub names are
/// case-insensitive and `--repo` may be typed in another case); the PR number
/// and the SHA must be exact.
fn check_result(bytes: &[u8], req: &FetchRequest, head: &str) -> Result<Loaded, FetchError> {
    let loaded = load_bytes(bytes, Some(Format::AgentResult));
    let set: &ReviewSet = match (&loaded.set, loaded.is_valid()) {
        (Some(set), true) => set,
        _ => {
            let first = loaded
                .problems
                .first()
                .map_or_else(|| "no model".to_owned(), |p| shown(&p.to_string()));
            return Err(FetchError::Invalid {
                count: loaded.problems.len().max(1),
                first,
            });
        }
    };
    let expected_repo = req.repo.as_str();
    match &set.scope {
        Scope::Local => {
            return Err(FetchError::WrongScope {
                what: "repository",
                found: "a local review".into(),
                expected: format!("{expected_repo}#{}", req.pr),
            });
        }
        Scope::PullRequest {
            repository,
            pull_request_number,
        } => {
            if !repository.eq_ignore_ascii_case(expected_repo) {
                let found = shown(repository);
                return Err(FetchError::WrongScope {
                    what: "repository",
                    found,
                    expected: expected_repo.to_owned(),
                });
            }
            if *pull_request_number != req.pr {
                let (found, expected) = (format!("pull request #{pull_request_number}"), format!("#{}", req.pr));
                return Err(FetchError::WrongScope {
                    what: "pull request",
                    found,
                    expected,
                });
            }
        }
    }
    match set.reviewed_sha.as_deref() {
        Some(sha) if sha == head => Ok(loaded),
        other => Err(FetchError::OlderHead {
            reviewed: shown(other.unwrap_or("none")),
            head: head.to_owned(),
        }),
    }
}

/// A full commit SHA as GitHub writes it: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits.
pub fn is_commit_sha(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Untrusted text for a message: control characters replaced, at most 100 characters.
fn shown(s: &str) -> String {
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

    fn run(id: u64, number: u64, head: &str, event: &str, conclusion: &str) -> WorkflowRun {
        WorkflowRun {
            id,
            run_number: number,
            run_attempt: Some(1),
            head_sha: head.into(),
            event: event.into(),
            status: Some("completed".into()),
            conclusion: Some(conclusion.into()),
        }
    }

    #[test]
    fn eligibility() {
        let head = "a".repeat(40);
        assert!(is_eligible(&run(1, 1, &head, "pull_request", "success"), &head));
        assert!(is_eligible(&run(1, 1, &head, "pull_request", "failure"), &head));
        assert!(!is_eligible(&run(1, 1, &head, "pull_request", "cancelled"), &head));
        assert!(!is_eligible(&run(1, 1, &head, "push", "success"), &head));
        assert!(!is_eligible(
            &run(1, 1, &"b".repeat(40), "pull_request", "success"),
            &head
        ));
    }

    #[test]
    fn names_and_shas() {
        assert_eq!(artifact_name("abc", 2), "reviewgate-agent-result-abc-attempt-2");
        assert!(is_commit_sha(&"0a".repeat(20)));
        assert!(is_commit_sha(&"f".repeat(64)));
        assert!(!is_commit_sha(&"A".repeat(40)));
        assert!(!is_commit_sha(&"a".repeat(39)));
        assert!(!is_commit_sha("../../x"));
    }

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
