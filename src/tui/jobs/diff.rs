//! Reading the pull request's change around a finding's evidence
//! (`Msg::DiffLoaded`), on a thread of its own: from the local repository
//! when it has the reviewed commit (`git diff` from the merge base), else
//! from GitHub's list of the pull request's files with their patches. The
//! hunks are highlighted afterwards (`Msg::Highlighted`), so the view shows
//! plain text first and never waits.

use super::worker::Net;
use crate::checkout::diff::{DiffLine, FileDiff, Hunk, MAX_PATCH_BYTES, parse_patch};
use crate::checkout::local_diff::LocalChange;
use crate::checkout::{Checkout, check_path, excerpt_lines, source::not_local};
use crate::github::Client;
use crate::github::pr_files::changed_files;
use crate::github::route::RepoName;
use crate::model::finding::{Evidence, Side};
use crate::sanitize::{DEFAULT_TAB_WIDTH, clean, clean_line};
use crate::tui::diff::{DiffReport, DiffRequest, ItemChange, ItemDiff, hunk_lines};
use crate::tui::highlight::Highlighter;
use crate::tui::message::failure::{DiffError, LocalDiffError, Shared};
use crate::tui::update::Msg;
use std::sync::Arc;
use std::sync::mpsc::Sender;

/// What the job may use.
pub struct Means {
    pub checkout: Option<Arc<Checkout>>,
    pub highlighter: Option<Arc<Highlighter>>,
    /// The session's network access (runtime and client).
    pub net: Arc<Net>,
}

/// Starts reading the change; the answer carries `generation`.
pub fn start(means: Means, generation: u64, request: DiffRequest, tx: Sender<Msg>) {
    std::thread::spawn(move || {
        let report = read(&means, &request);
        let jobs: Vec<(String, Vec<String>)> = report
            .as_ref()
            .map(|r| {
                r.items
                    .iter()
                    .filter_map(|i| match &i.change {
                        ItemChange::Hunk(h) => Some((i.path.clone(), hunk_lines(h))),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let _ = tx.send(Msg::DiffLoaded { generation, report });
        if let Some(hl) = means.highlighter {
            for (path, lines) in jobs {
                let _ = tx.send(Msg::Highlighted(hl.highlight(&path, &lines)));
            }
        }
    });
}

/// The local repository first; GitHub when it cannot answer.
fn read(means: &Means, request: &DiffRequest) -> Result<DiffReport, DiffError> {
    let paths: Vec<String> = request.evidence.iter().map(|e| e.path.clone()).collect();
    let mut local = None;
    if let Some(checkout) = &means.checkout {
        match checkout.pull_change(request.reviewed_sha.as_deref(), request.base_sha.as_deref(), &paths) {
            Ok(change) => return Ok(from_local(&change, &request.evidence)),
            Err(e) => {
                local = Some(LocalDiffError {
                    not_local: not_local(&e),
                    error: Shared::new(e),
                })
            }
        }
    }
    let Some(pull) = &request.pull else {
        return Err(DiffError::NoPull { local });
    };
    let client = means.net.client().map_err(|why| DiffError::NoClient { local, why })?;
    means.net.block_on(from_github(
        &client,
        pull.repository.as_str(),
        pull.number,
        &request.evidence,
    ))
}

/// The report of a local `git diff`.
pub fn from_local(change: &LocalChange, evidence: &[Evidence]) -> DiffReport {
    DiffReport {
        origin: clean_line(&change.origin()),
        items: evidence.iter().map(|e| item(e, &change.files, None)).collect(),
    }
}

/// The report from GitHub's files of pull request `number` of `repository`
/// (untrusted: parsed before any request).
pub async fn from_github(
    client: &Client,
    repository: &str,
    number: u64,
    evidence: &[Evidence],
) -> Result<DiffReport, DiffError> {
    let repo = RepoName::parse(repository).map_err(DiffError::BadRepository)?;
    let wanted: Vec<String> = evidence.iter().filter_map(|e| check_path(&e.path).ok()).collect();
    let files = changed_files(client, &repo, number, &wanted)
        .await
        .map_err(DiffError::Files)?;
    let mut no_patch = Vec::new();
    let diffs: Vec<FileDiff> = files
        .iter()
        .map(|f| {
            let mut d = match &f.patch {
                Some(patch) => parse_patch(patch, MAX_PATCH_BYTES),
                None => {
                    no_patch.push(f.filename.clone());
                    FileDiff::default()
                }
            };
            d.new_path = (f.status != "removed").then(|| f.filename.clone());
            d.old_path = match (&f.previous_filename, f.status.as_str()) {
                (Some(prev), _) => Some(prev.clone()),
                (None, "added") => None,
                (None, _) => Some(f.filename.clone()),
            };
            d.renamed = f.previous_filename.is_some();
            d
        })
        .collect();
    Ok(DiffReport {
        origin: clean_line(&format!(
            "GitHub: pull request {repository}#{number}, its files' patches"
        )),
        items: evidence.iter().map(|e| item(e, &diffs, Some(&no_patch))).collect(),
    })
}

/// The change of one evidence item among the changed files.
fn item(e: &Evidence, files: &[FileDiff], no_patch: Option<&Vec<String>>) -> ItemDiff {
    let count = u32::try_from(excerpt_lines(&e.excerpt).len().max(1)).unwrap_or(1);
    let mut out = ItemDiff {
        path: clean_line(&e.path),
        renamed_from: None,
        side: e.side,
        lines: (e.line, e.line.saturating_add(count - 1)),
        truncated: false,
        change: ItemChange::NotInChange,
    };
    let path = match check_path(&e.path) {
        Ok(p) => p,
        Err(problem) => {
            out.change = ItemChange::RefusedPath(problem);
            return out;
        }
    };
    let on_side = |f: &&FileDiff| match e.side {
        Side::New => f.new_path.as_deref() == Some(path.as_str()),
        Side::Old => f.old_path.as_deref() == Some(path.as_str()),
    };
    let Some(file) = files.iter().find(on_side) else {
        return out;
    };
    out.truncated = file.truncated;
    if file.renamed && e.side == Side::New {
        out.renamed_from = file.old_path.as_deref().map(clean_line);
    }
    out.change = if file.binary {
        ItemChange::Binary
    } else if file.hunks.is_empty() && no_patch.is_some_and(|n| n.iter().any(|p| Some(p) == file.new_path.as_ref())) {
        ItemChange::NoPatch
    } else {
        match file.hunk_at(e.side, e.line) {
            Some(h) => ItemChange::Hunk(sanitised(h)),
            None => ItemChange::Unchanged {
                hunks: file.hunks.len(),
            },
        }
    };
    out
}

/// A hunk with its text made safe to show (control characters, escapes and
/// bidi overrides as visible placeholders; tabs expanded).
fn sanitised(h: &Hunk) -> Hunk {
    Hunk {
        section: clean_line(&h.section),
        lines: h
            .lines
            .iter()
            .map(|l| DiffLine {
                text: clean(&l.text, DEFAULT_TAB_WIDTH).into_owned(),
                ..l.clone()
            })
            .collect(),
        ..h.clone()
    }
}
