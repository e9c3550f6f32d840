//! Recording a decision and revoking a suppression: the pure plans of
//! [`super::decide`] and [`super::entries`] applied to the files, under
//! locks. The index is changed by a merge [`super::replace`] can do again
//! when River Review rewrites the index meanwhile; slow work (the feedback
//! append and its flush) is done before that read-modify-write, not in it.

use super::StoreError;
use super::decide::{DecisionInput, FindingFacts, NoSuppression, plan_decision};
use super::entries::{
    FeedbackEntry, Note, ResurfaceEntry, SuppressionEntry, free_id, resurface_entry, suppression_entry,
};
use super::files::{self, Lock, RiverPaths};
use super::index;
use super::lifecycle::{self, FindingIds, StillHidden, SuppressionView};
use super::ordered::Json;
use super::replace;
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
    /// When none was written: the suppressions recorded earlier that still
    /// hide the finding from River (its gate suppresses on any matching
    /// entry and never reads the feedback log), so the finding stays hidden
    /// whatever this decision says until they are revoked (undo).
    pub still_hidden_by: Vec<StillHidden>,
}

/// The suppressions recorded earlier that still hide the finding of `facts`
/// (none when the index is absent or cannot be read: the decision itself
/// does not depend on it).
fn still_hidden(paths: &RiverPaths, facts: &FindingFacts, now: UnixMillis) -> Vec<StillHidden> {
    existing(paths, &facts.ids())
        .map(|views| lifecycle::still_hiding(&views, now, &facts.gate_run()))
        .unwrap_or_default()
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

fn take_lock(dir: &Path, dry_run: bool) -> Result<Option<Lock>, StoreError> {
    if dry_run {
        return Ok(None);
    }
    files::lock_dir(dir).map(Some).map_err(StoreError::io("lock", dir))
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

/// Appends the decision's feedback line, unless the log's last line about
/// the finding already records this very decision (see
/// [`FeedbackEntry::repeats_last_of_its_finding`]).
///
/// This is what makes the pair (feedback line, suppression) safe to do
/// again. The line is appended first, outside the index's read-modify-write
/// (see [`super::replace`]), and the suppression after it; when the
/// suppression cannot be written (a full disk, a kill in between, an index
/// River keeps rewriting), the decision is reported failed and its line
/// stays, and recording the decision again (what a user does after
/// "failed") finds that line and writes only the suppression. The other
/// order would leave, after the same failure, a finding hidden by River with
/// no record of why, and a second suppression on the next attempt. River
/// 1.15.0 reads every feedback line as one decision (its feedback tooling
/// groups and counts them) and skips lines it cannot parse, so a doubled
/// line would read as a problem met twice, while a line left by a failed
/// attempt says what was decided, as it was.
fn append_feedback(file: &Path, entry: &FeedbackEntry) -> Result<(), StoreError> {
    files::append_line_unless(file, &entry.to_line(), |log| entry.repeats_last_of_its_finding(log))
        .map(|_| ())
        .map_err(StoreError::io("append to", file))
}

/// Records a decision: one feedback line and, where the status means "stop
/// reporting this" and River would apply it, one suppression. Nothing is
/// written when any check fails (malformed index, schema, evidence); with
/// `dry_run` nothing is written at all. Recording the same decision again
/// after a failure does not double its feedback line ([`append_feedback`]).
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
                still_hidden_by: still_hidden(paths, facts, now),
            });
        }
        Ok(s) => s,
    };
    let index_file = paths.index();
    let _lock = take_lock(&paths.index_dir(), dry_run)?;
    let base = replace::read(&index_file)?;
    // The merge, done again on River's newer index if River wrote meanwhile.
    let merge = |index: &mut Json| {
        let taken = index::ids(index);
        let id = free_id(&format!("suppression-{}", suppression_facts.fingerprint), now, |id| {
            taken.contains(id)
        });
        let entry = suppression_entry(&suppression_facts, kind, &input.note, id, now);
        validate("suppression entry", &entry, true)?;
        index::append(index, index::to_json(&entry));
        Ok(entry)
    };
    // Every check first, on the index as read: nothing is written when one fails.
    let checked = merge(&mut base.index.clone())?;
    let entry = if dry_run {
        checked
    } else {
        append_feedback(&feedback_file, &plan.feedback)?;
        replace::update(&index_file, base, merge)?
    };
    let suppression = Ok(WrittenSuppression { index_file, entry });
    Ok(Recorded {
        dry_run,
        feedback_file,
        feedback: plan.feedback,
        suppression,
        still_hidden_by: Vec::new(),
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
    let base = replace::read(&index_file)?;
    // The merge, done again on River's newer index if River wrote meanwhile.
    let merge = |index: &mut Json| {
        let targets: Vec<_> = lifecycle::suppressions_of(index, ids)
            .into_iter()
            .filter(|s| s.hides_anywhere(now))
            .collect();
        if targets.is_empty() {
            return Err(StoreError::NoActiveSuppression(ids.v1.to_owned()));
        }
        let mut taken: HashSet<String> = index::ids(index);
        let mut revoked = Vec::with_capacity(targets.len());
        for s in targets {
            lifecycle::take_out_of_force(index, s.position);
            // An entry without an id can be named by no resurface entry;
            // taken out of force, it hides the finding on no line.
            let entry = if s.revoked || s.id.is_empty() {
                None
            } else {
                let id = free_id(&format!("resurface-{}", s.id), now, |id| taken.contains(id));
                taken.insert(id.clone());
                let entry = resurface_entry(&s.id, note.evidence, note.author, id, now);
                validate("resurface entry", &entry, false)?;
                index::append(index, index::to_json(&entry));
                Some(entry)
            };
            revoked.push((s.label().to_owned(), entry));
        }
        Ok(revoked)
    };
    let revoked = if dry_run {
        merge(&mut base.index.clone())?
    } else {
        replace::update(&index_file, base, merge)?
    };
    Ok(Revoked {
        dry_run,
        index_file,
        revoked,
    })
}

/// The suppressions already recorded for the finding `ids` (none when the
/// index is absent). Read without the lock: a snapshot for display.
pub fn existing(paths: &RiverPaths, ids: &FindingIds<'_>) -> Result<Vec<SuppressionView>, StoreError> {
    let read = replace::read(&paths.index())?;
    Ok(lifecycle::suppressions_of(&read.index, ids))
}
