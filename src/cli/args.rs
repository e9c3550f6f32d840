//! The command-line surface: every subcommand and option, in one place.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Triage automated code-review findings (ReviewGate, River Review) and record
/// evidenced decisions where the review system honours them.
///
/// With no subcommand, opens the screen on FILE (`-` for stdin, nothing for the
/// bundled demo) or on the current result of `--pr N`.
#[derive(Debug, Parser)]
#[command(name = "triage", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub open: OpenArgs,
}

/// Options of the interactive screen.
#[derive(Debug, Args, Clone, Default)]
pub struct OpenArgs {
    /// Review file to open (`-` reads stdin). Without it (and without --pr) the bundled demo opens.
    pub file: Option<PathBuf>,
    /// Force the input format instead of detecting it from the content.
    #[arg(long, value_enum)]
    pub kind: Option<KindArg>,
    /// Local checkout used for surrounding code (default: the git top-level of the current directory).
    #[arg(long)]
    pub repo_root: Option<PathBuf>,
    #[command(flatten)]
    pub pr: PrArgs,
}

/// Where a pull request lives on GitHub.
#[derive(Debug, Args, Clone, Default)]
pub struct PrArgs {
    /// Pull request number: fetch the newest exact-head ReviewGate result from GitHub.
    #[arg(long)]
    pub pr: Option<u64>,
    /// Repository as OWNER/NAME (default: the `origin` remote of the current checkout).
    #[arg(long)]
    pub repo: Option<String>,
    /// Workflow file that runs the review.
    #[arg(long, default_value = "reviewgate.yml")]
    pub workflow: String,
    /// GitHub API base URL (default: $GITHUB_API_URL or https://api.github.com).
    #[arg(long)]
    pub api_url: Option<String>,
}

impl PrArgs {
    /// The flags as the session layer takes them.
    pub fn target(&self) -> crate::session::fetch::PrTarget {
        crate::session::fetch::PrTarget {
            pr: self.pr,
            repo: self.repo.clone(),
            workflow: self.workflow.clone(),
            api_url: self.api_url.clone(),
        }
    }
}

impl OpenArgs {
    /// The flags as the screen takes them.
    pub fn options(&self) -> crate::session::OpenOptions {
        crate::session::OpenOptions {
            file: self.file.clone(),
            kind: super::common::forced_format(self.kind),
            repo_root: self.repo_root.clone(),
            pr: self.pr.target(),
            esc_returns: false,
        }
    }
}

/// Input format names for `--kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// ReviewGate agent result v1.
    AgentResult,
    /// ReviewGate review output v3.
    Artifact,
    /// ReviewGate review output v1/v2.
    ArtifactLegacy,
    /// ReviewGate agent disposition payload v1.
    Disposition,
    /// River Review review artifact.
    RiverArtifact,
    /// `river run --output json` output.
    RiverRun,
}

/// Subcommands (all headless).
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate review files strictly; exit 0 when all are valid, 1 when any is invalid.
    Validate(ValidateArgs),
    /// List findings ranked by severity (default: the repair set).
    List(ListArgs),
    /// Print the agent-result projection of a v3 artifact (canonical JSON).
    Project(ProjectArgs),
    /// Print the semantic and code fingerprints of every finding of a v3 artifact (JSON lines).
    Fingerprints(FingerprintsArgs),
    /// Record a decision on a finding (ReviewGate on GitHub, or River Review's files).
    Submit(SubmitArgs),
    /// Decisions kept on disk until they are recorded.
    Outbox(OutboxArgs),
    /// Download the newest exact-head ReviewGate result of a pull request.
    Fetch(FetchArgs),
    /// Reply to, resolve or reopen the ReviewGate review thread of a finding.
    Thread(ThreadArgs),
    /// The decisions a pull request already holds (its ReviewGate disposition comments, classified).
    Decisions(DecisionsArgs),
    /// Every open pull request of a repository, ranked by what needs a human.
    Inbox(InboxArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
}

/// Text or JSON output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum TextOrJson {
    #[default]
    Text,
    Json,
}

/// `triage validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Files to validate (`-` for stdin).
    #[arg(required_unless_present = "pr")]
    pub files: Vec<PathBuf>,
    /// Force the input format instead of detecting it from the content.
    #[arg(long, value_enum)]
    pub kind: Option<KindArg>,
    /// Output: `text` for people, `json` for scripts.
    #[arg(long, value_enum, default_value_t)]
    pub format: TextOrJson,
    #[command(flatten)]
    pub pr: PrArgs,
}

/// Output formats of `triage list`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum ListFormat {
    #[default]
    Table,
    Tsv,
    Json,
}

/// `triage list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Review file (`-` for stdin).
    #[arg(required_unless_present = "pr")]
    pub file: Option<PathBuf>,
    /// Only the repair set (the default view).
    #[arg(long, conflicts_with = "all")]
    pub repair_set: bool,
    /// Every finding.
    #[arg(long)]
    pub all: bool,
    /// Only these severities (comma-separated P0..P4, any case).
    #[arg(long, value_delimiter = ',')]
    pub severity: Vec<String>,
    /// Only these canonical dispositions (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub disposition: Vec<String>,
    /// Output: an aligned `table` for people, `tsv` or `json` (one object per line) for scripts.
    #[arg(long, value_enum, default_value_t)]
    pub format: ListFormat,
    /// Force the input format instead of detecting it from the content.
    #[arg(long, value_enum)]
    pub kind: Option<KindArg>,
    #[command(flatten)]
    pub pr: PrArgs,
}

/// How `triage inbox` shows the pull requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InboxFormat {
    /// An aligned table for people.
    Table,
    /// One JSON object per pull request and line, ranked (fields in the README).
    Json,
}

/// `triage inbox`.
#[derive(Debug, Args, Clone, Default)]
pub struct InboxArgs {
    /// Repository as OWNER/NAME (default: the `origin` remote of the current checkout).
    #[arg(long)]
    pub repo: Option<String>,
    /// Only pull requests by this login (`@me`: the token's own).
    #[arg(long)]
    pub author: Option<String>,
    /// Only pull requests carrying this label.
    #[arg(long)]
    pub label: Option<String>,
    /// Only pull requests into this base branch.
    #[arg(long)]
    pub base: Option<String>,
    /// Workflow file that runs the review.
    #[arg(long, default_value = "reviewgate.yml")]
    pub workflow: String,
    /// GitHub API base URL (default: $GITHUB_API_URL or https://api.github.com).
    #[arg(long)]
    pub api_url: Option<String>,
    /// Print instead of opening the screen: `table` or `json`.
    #[arg(long, value_enum)]
    pub format: Option<InboxFormat>,
}

impl InboxArgs {
    /// The flags as the inbox takes them.
    pub fn target(&self) -> crate::inbox::InboxTarget {
        crate::inbox::InboxTarget {
            repo: self.repo.clone(),
            workflow: self.workflow.clone(),
            api_url: self.api_url.clone(),
            filters: crate::inbox::Filters {
                author: self.author.clone(),
                label: self.label.clone(),
                base: self.base.clone(),
            },
        }
    }
}

/// `triage project`.
#[derive(Debug, Args)]
pub struct ProjectArgs {
    /// v3 artifact (`-` for stdin).
    pub file: PathBuf,
    /// Scope of the projection: `local` or `OWNER/NAME#N`.
    #[arg(long, default_value = "local")]
    pub scope: String,
}

/// `triage fingerprints`.
#[derive(Debug, Args)]
pub struct FingerprintsArgs {
    /// v3 artifact (`-` for stdin).
    pub file: PathBuf,
}

/// `triage submit`.
#[derive(Debug, Args)]
pub struct SubmitArgs {
    /// A ready disposition payload to post (ReviewGate).
    #[arg(long, conflicts_with_all = ["result", "finding", "status", "evidence", "evidence_file"])]
    pub payload: Option<PathBuf>,
    /// The validated result the finding belongs to (ReviewGate agent result/artifact, or River artifact/run output).
    #[arg(long, requires = "finding")]
    pub result: Option<PathBuf>,
    /// The finding's fingerprint (semantic fingerprint, or River 16-hex fingerprint).
    #[arg(long)]
    pub finding: Option<String>,
    /// Decision status (ReviewGate: accepted, fixed, rejected_with_evidence, already_implemented,
    /// intentional_contract, needs_human; River: accepted, false_positive, accepted_risk, wont_fix,
    /// not_relevant, duplicate, not_actionable, unclear).
    #[arg(long)]
    pub status: Option<String>,
    /// Evidence text.
    #[arg(long, conflicts_with = "evidence_file")]
    pub evidence: Option<String>,
    /// Read the evidence from a file (`-` for stdin).
    #[arg(long)]
    pub evidence_file: Option<PathBuf>,
    /// Validate and print what would be sent; no network call, no file written.
    #[arg(long)]
    pub dry_run: bool,
    /// Record the decision even when a different one is already recorded for the finding on this head.
    #[arg(long)]
    pub supersede: bool,
    /// Output: `text` for people, `json` for scripts.
    #[arg(long, value_enum, default_value_t)]
    pub format: TextOrJson,
    /// River: repository root for `.river/` (default: the artifact's context.repoRoot if it exists here, else git top-level).
    #[arg(long)]
    pub repo_root: Option<PathBuf>,
    /// River: write the feedback entry only, never a suppression.
    #[arg(long)]
    pub no_suppress: bool,
    /// River: revoke the active suppression of this finding instead of recording a decision.
    #[arg(long)]
    pub undo: bool,
    /// River: the author recorded in the suppression (default: $USER).
    #[arg(long)]
    pub author: Option<String>,
    /// River: pull request number recorded in the feedback entry.
    #[arg(long = "river-pr")]
    pub river_pr: Option<u64>,
    /// River: the fingerprint the suppression stores: v1 (every same-kind finding in the file) or
    /// v2 (only the occurrence at the finding's line; newer River releases; needs a line).
    #[arg(long = "fingerprint-algo", value_parser = ["v1", "v2"], default_value = "v1")]
    pub fingerprint_algo: String,
    /// River, with `--fingerprint-algo v2`: the line of the occurrence to
    /// suppress, when findings with the fingerprint stand at several lines
    /// (each line has its own v2 fingerprint).
    #[arg(long, value_name = "N")]
    pub line: Option<u32>,
    /// River: when the suppression stops applying (RFC 3339 date-time, or YYYY-MM-DD for its start
    /// in UTC); newer River releases honour it, 1.15.0 ignores it.
    #[arg(long)]
    pub expires: Option<String>,
    /// GitHub API base URL (default: $GITHUB_API_URL or https://api.github.com).
    #[arg(long)]
    pub api_url: Option<String>,
}

/// `triage outbox`.
#[derive(Debug, Args)]
pub struct OutboxArgs {
    #[command(subcommand)]
    pub command: OutboxCommand,
}

/// Outbox subcommands.
#[derive(Debug, Subcommand)]
pub enum OutboxCommand {
    /// List kept decisions.
    List {
        /// Output: `text` for people, `json` for scripts (one entry object per line, as `list --format json`).
        #[arg(long, value_enum, default_value_t)]
        format: TextOrJson,
    },
    /// Retry one kept decision, or all of them.
    #[command(group(clap::ArgGroup::new("which").required(true).args(["id", "all"])))]
    Retry {
        /// Outbox entry id (as `outbox list` shows it).
        id: Option<String>,
        /// Retry every kept decision, oldest first.
        #[arg(long)]
        all: bool,
        /// Record even over a different decision already recorded for the finding on this head.
        #[arg(long)]
        supersede: bool,
        /// GitHub API base URL (default: $GITHUB_API_URL or https://api.github.com).
        #[arg(long)]
        api_url: Option<String>,
        /// Output: `text` for people, `json` for scripts.
        #[arg(long, value_enum, default_value_t)]
        format: TextOrJson,
    },
    /// Drop a kept decision without sending it.
    Drop {
        /// Outbox entry id.
        id: String,
    },
}

/// `triage fetch`.
#[derive(Debug, Args)]
pub struct FetchArgs {
    #[command(flatten)]
    pub pr: PrArgs,
    /// Write the result here instead of stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// `triage thread`.
#[derive(Debug, Args)]
pub struct ThreadArgs {
    #[command(subcommand)]
    pub command: ThreadCommand,
}

/// Thread actions.
#[derive(Debug, Subcommand)]
pub enum ThreadCommand {
    /// Post a reply in the finding's thread (not posted again when an earlier attempt landed).
    Reply {
        #[command(flatten)]
        target: ThreadTarget,
        /// The reply text.
        #[arg(long, conflicts_with = "body_file", required_unless_present = "body_file")]
        body: Option<String>,
        /// Read the reply from a file (`-` for stdin).
        #[arg(long)]
        body_file: Option<PathBuf>,
    },
    /// Mark the finding's thread resolved.
    Resolve {
        #[command(flatten)]
        target: ThreadTarget,
    },
    /// Reopen the finding's resolved thread.
    Unresolve {
        #[command(flatten)]
        target: ThreadTarget,
    },
    /// Drop a kept thread action without sending it.
    Drop {
        /// Kept thread action id (as `thread list` shows it).
        id: String,
    },
    /// List the thread actions kept after a failure, oldest first.
    List {
        /// Output: `text` for people, `json` for scripts (one entry object per line).
        #[arg(long, value_enum, default_value_t)]
        format: TextOrJson,
    },
    /// Send a kept thread action again: the one with this id, or (with no
    /// id) every one, oldest first.
    Retry {
        /// Kept thread action id (as `thread list` shows it).
        id: Option<String>,
        /// GitHub API base URL (default: $GITHUB_API_URL or https://api.github.com).
        #[arg(long)]
        api_url: Option<String>,
        /// Output: `text` for people, `json` for scripts.
        #[arg(long, value_enum, default_value_t)]
        format: TextOrJson,
    },
}

/// Which thread: the pull request and the finding's semantic fingerprint.
#[derive(Debug, Args)]
pub struct ThreadTarget {
    #[command(flatten)]
    pub pr: PrArgs,
    /// The finding's semantic fingerprint (as in the thread's marker).
    #[arg(long)]
    pub finding: String,
    /// The head commit the action is bound to (the one you reviewed): when
    /// the pull request's head is another, the action is refused (exit 3),
    /// now and on every retry. Without it, the action applies to any head.
    #[arg(long, value_name = "SHA")]
    pub head: Option<String>,
    /// Output: `text` for people, `json` for scripts.
    #[arg(long, value_enum, default_value_t)]
    pub format: TextOrJson,
}

/// `triage completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// Shell to generate for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `triage decisions`.
#[derive(Debug, Args)]
pub struct DecisionsArgs {
    /// A pull-request-scoped result: its pull request's ledger, judged against its reviewed head.
    #[arg(required_unless_present = "pr")]
    pub file: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    pub format: DecisionsFormat,
    #[command(flatten)]
    pub pr: PrArgs,
}

/// Output formats of `triage decisions`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum DecisionsFormat {
    #[default]
    Table,
    Json,
}
