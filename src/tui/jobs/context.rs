//! Evidence context (`Msg::EvidenceLoaded`), on a thread of its own: each
//! excerpt's file from the reviewed commit in the local repository, else
//! from GitHub's copy at the reviewed commit, else from the working tree
//! ([`crate::checkout::source`] decides the order). GitHub is connected to
//! only when an item needs it, once per job.

use crate::checkout::source::{RemoteFile, read_context};
use crate::checkout::{Checkout, inspect_text};
use crate::github::Client;
use crate::github::pr_files::file_at;
use crate::github::route::RepoName;
use crate::model::finding::Evidence;
use crate::tui::diff::PullRef;
use crate::tui::evidence_state::LocalResult;
use crate::tui::highlight::{HighlightJob, Highlighter};
use crate::tui::update::Msg;
use crate::tui::view::evidence::context_job;
use std::cell::OnceCell;
use std::sync::Arc;
use std::sync::mpsc::Sender;

/// What one context read needs.
pub struct ContextRequest {
    pub finding: usize,
    pub evidence: Vec<Evidence>,
    pub reviewed_sha: Option<String>,
    /// The pull request, when GitHub may be asked.
    pub pull: Option<PullRef>,
    /// Lines of context around each excerpt.
    pub lines: usize,
}

/// A connection made on first use (or why none could be made).
type Connection = Result<(tokio::runtime::Runtime, Client, RepoName), String>;

fn connect(api_url: Option<&str>, pull: &PullRef) -> Connection {
    let repo = RepoName::parse(&pull.repository).map_err(|e| e.to_string())?;
    let (runtime, config) = super::connect(api_url)?;
    let client = {
        let _inside = runtime.enter();
        super::client(config)?
    };
    Ok((runtime, client, repo))
}

/// Starts the read; the answers and then the highlighting come back as messages.
pub fn load(
    checkout: Option<Arc<Checkout>>,
    highlighter: Option<Arc<Highlighter>>,
    api_url: Option<String>,
    request: ContextRequest,
    tx: Sender<Msg>,
) {
    std::thread::spawn(move || {
        let connection: OnceCell<Connection> = OnceCell::new();
        let fetch = |path: &str, sha: &str| -> Result<Vec<u8>, String> {
            let Some(pull) = &request.pull else {
                return Err("the review names no pull request".into());
            };
            let (runtime, client, repo) = connection
                .get_or_init(|| connect(api_url.as_deref(), pull))
                .as_ref()
                .map_err(Clone::clone)?;
            runtime
                .block_on(file_at(client, repo, path, sha))
                .map_err(|e| e.to_string())
        };
        let github: Option<RemoteFile<'_>> = request.pull.as_ref().map(|_| &fetch as _);
        let sha = request.reviewed_sha.as_deref();
        let items: Vec<LocalResult> = request
            .evidence
            .iter()
            .map(|e| {
                read_context(checkout.as_deref(), github, &e.path, e.side, sha)
                    .map(|file| inspect_text(&file, e, request.lines))
            })
            .collect();
        let jobs: Vec<HighlightJob> = request
            .evidence
            .iter()
            .zip(&items)
            .filter_map(|(e, r)| r.as_ref().ok().map(|local| context_job(&e.path, local)))
            .collect();
        let _ = tx.send(Msg::EvidenceLoaded {
            finding: request.finding,
            items,
        });
        if let Some(hl) = highlighter {
            for job in jobs {
                hl.highlight(&job.path, &job.lines);
                let _ = tx.send(Msg::Highlighted(hl.key(&job.path, &job.lines)));
            }
        }
    });
}
