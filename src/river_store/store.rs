//! Recording a decision and revoking a suppression: the pure plans of
//! [`super::decide`] and [`super::entries`] applied to the files, under locks.

use super::StoreError;
use super::decide::{DecisionInput, FindingFacts, NoSuppression, plan_decision};
use super::entries::{
    FeedbackEntry, Note, ResurfaceEntry, SuppressionEntry, free_id, resurface_entry, suppression_entry,
};
use super::files::{self, Lock, RiverPaths};
use super::index::{self, Malformed};
use super::lifecycle::{self, FindingIds, SuppressionView};
use super::ordered::Json;
use crate::model::river::memory_formats::memory_entry_format_problems;
use crate::model::schema::{RiverEntrySchema, check_river_entry};
use crate::time::{UnixMillis, month_of};
use serde::Serialize;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// A suppression that was (or, in a dry run, would be) written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenSuppression {
    pub index_file: PathBuf,
    pub entry: SuppressionEntry,
}

/// What recording a decision wrote (or, in a dry run, would write).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub dry_run: bool,
    pub feedback_file: PathBuf,
    pub feedback: FeedbackEntry,
    /// The suppression, or why none was written.
    pub suppression: Result<WrittenSuppression, NoSuppression>,
}

/// What revoking wrote (or would write): each suppression taken out of
/// force and the resurface entry appended for it (`None` when one already
/// revoked it and only its fingerprint was still matchable by River 1.15.0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revoked {
    pub dry_run: bool,
    pub index_file: PathBuf,
    pub revoked: Vec<(String, Option<ResurfaceEntry>)>,
}

fn io_err(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> StoreError {
    move |source| StoreError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

fn take_lock(dir: &Path, dry_run: bool) -> Result<Option<Lock>, StoreError> {
    if dry_run {
        return Ok(None);
    }
    files::lock_dir(dir).map(Some).map_err(io_err("lock", dir))
}

/// Reads the index (a new one when absent); a malformed one is an error and
/// is left as it is.
fn load_index(path: &Path) -> Result<Json, StoreError> {
    match files::read_optional(path).map_err(io_err("read", path))? {
        None => Ok(index::new_index()),
        Some(bytes) => {
            index::parse_index(&bytes).map_err(|Malformed { location, problem }| StoreError::MalformedIndex {
                file: path.to_path_buf(),
                location,
                problem,
            })
        }
    }
}

/// Checks an entry against River's schemas before it is written.
fn validate<T: Serialize>(what: &'static str, entry: &T, suppression: bool) -> Result<(), StoreError> {
    let value = serde_json::to_value(entry).map_err(|e| StoreError::Schema {
        what,
        details: e.to_string(),
    })?;
    let mut problems = check_river_entry(RiverEntrySchema::MemoryEntry, &value);
    problems.extend(memory_entry_format_problems(&value, ""));
    if suppression {
        let context = value.get("context").cloned().unwrap_or_default();
        problems.extend(check_river_entry(RiverEntrySchema::SuppressionContext, &context));
    }
    if problems.is_empty() {
        return Ok(());
    }
    let details = problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
    Err(StoreError::Schema { what, details })
}

fn append_feedback(file: &Path, entry: &FeedbackEntry) -> Result<(), StoreError> {
    files::append_line(file, &entry.to_line()).map_err(io_err("append to", file))
}

/// Records a decision: one feedback line and, where the status means "stop
/// reporting this" and River would apply it, one suppression. Nothing is
/// written when any check fails (malformed index, schema, evidence); with
/// `dry_run` nothing is written at all.
pub fn record(
    paths: &RiverPaths,
    facts: &FindingFacts,
    input: &DecisionInput<'_>,
    now: UnixMillis,
    dry_run: bool,
) -> Result<Recorded, StoreError> {
    let plan = plan_decision(facts, input, now)?;
    let feedback_file = paths.feedback(month_of(&plan.feedback.timestamp));
    let (kind, suppression_facts) = match plan.suppression {
        Err(reason) => {
            if !dry_run {
                append_feedback(&feedback_file, &plan.feedback)?;
            }
            return Ok(Recorded {
                dry_run,
                feedback_file,
                feedback: plan.feedback,
                suppression: Err(reason),
            });
        }
        Ok(s) => s,
    };
    let index_file = paths.index();
    let _lock = take_lock(&paths.index_dir(), dry_run)?;
    let mut index = load_index(&index_file)?;
    let taken = index::ids(&index);
    let id = free_id(&format!("suppression-{}", suppression_facts.fingerprint), now, |id| {
        taken.contains(id)
    });
    let entry = suppression_entry(&suppression_facts, kind, &input.note, id, now);
    validate("suppression entry", &entry, true)?;
    if !dry_run {
        append_feedback(&feedback_file, &plan.feedback)?;
        index::append(&mut index, index::to_json(&entry));
        files::write_atomic(&index_file, index::render(&index).as_bytes()).map_err(io_err("write", &index_file))?;
    }
    let suppression = Ok(WrittenSuppression { index_file, entry });
    Ok(Recorded {
        dry_run,
        feedback_file,
        feedback: plan.feedback,
        suppression,
    })
}

/// Revokes every suppression of the finding `ids` that either River line
/// could still apply (see [`lifecycle`]): each is taken out of force
/// (`context.active` false, its fingerprint moved to `revokedFingerprint`)
/// and, unless a resurface entry already revokes it, one is appended.
pub fn revoke(
    paths: &RiverPaths,
    ids: &FindingIds<'_>,
    note: &Note<'_>,
    now: UnixMillis,
    dry_run: bool,
) -> Result<Revoked, StoreError> {
    let index_file = paths.index();
    let _lock = take_lock(&paths.index_dir(), dry_run)?;
    let mut index = load_index(&index_file)?;
    let targets: Vec<_> = lifecycle::suppressions_of(&index, ids)
        .into_iter()
        .filter(|s| s.hides_anywhere(now))
        .collect();
    if targets.is_empty() {
        return Err(StoreError::NoActiveSuppression(ids.v1.to_owned()));
    }
    let mut taken: HashSet<String> = index::ids(&index);
    let mut revoked = Vec::with_capacity(targets.len());
    for s in targets {
        lifecycle::take_out_of_force(&mut index, &s.id);
        let entry = if s.revoked {
            None
        } else {
            let id = free_id(&format!("resurface-{}", s.id), now, |id| taken.contains(id));
            taken.insert(id.clone());
            let entry = resurface_entry(&s.id, note.evidence, note.author, id, now);
            validate("resurface entry", &entry, false)?;
            index::append(&mut index, index::to_json(&entry));
            Some(entry)
        };
        revoked.push((s.id, entry));
    }
    if !dry_run {
        files::write_atomic(&index_file, index::render(&index).as_bytes()).map_err(io_err("write", &index_file))?;
    }
    Ok(Revoked {
        dry_run,
        index_file,
        revoked,
    })
}

/// The suppressions already recorded for the finding `ids` (none when the
/// index is absent). Read without the lock: a snapshot for display.
pub fn existing(paths: &RiverPaths, ids: &FindingIds<'_>) -> Result<Vec<SuppressionView>, StoreError> {
    let index = load_index(&paths.index())?;
    Ok(lifecycle::suppressions_of(&index, ids))
}
