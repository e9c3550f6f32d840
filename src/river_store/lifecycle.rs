//! Which suppressions of the memory index hide a finding, as each River
//! Review line reads them, and how an undo takes one out of force on both.
//!
//! Checked against River Review's own gate code:
//! - 1.15.0 (s977043/river-reviewer c36106a, `suppression-apply.mjs` with the
//!   loader of `memory-context.mjs`) indexes suppressions by
//!   `context.fingerprint` when it is a 16-character string, and nothing else
//!   about the entry: `context.active`, resurface entries, `expiresAt` and
//!   `fingerprintAlgo` are ignored (a v2 value simply matches no finding
//!   there). When two entries share a fingerprint, the later one wins.
//! - The newer line (s977043/river-review 1.110.x) drops an entry whose
//!   `context.active` is `false`, one revoked by a `resurface` entry, an
//!   expired one (an unparseable `context.expiresAt` counts as expired) and
//!   one with an unknown `fingerprintAlgo`; `v2` entries match the finding's
//!   line-anchored fingerprint.
//!
//! Both lines' gates then skip a matching entry (so the finding is still
//! reported) when the finding is `major` or `critical` and the entry's
//! `feedbackType` is not `accepted_risk`, and when the finding's severity is
//! above the entry's `context.minSeverityToAutoSuppress`; the entry that
//! matches is the last one with the fingerprint, and its conditions decide.
//! The memory loader of both keeps only entries of the run's phase
//! (`metadata.phase`; 1.15.0 drops an entry without one, the newer line keeps
//! it) and, when the run has changed files, entries none of whose
//! `metadata.relatedFiles` is among them. The newer line takes any falsy
//! `context.active` (`false`, `null`, `0`, `""`) as off.
//!
//! So an undo that works on both lines sets `context.active` to false,
//! appends the revoking resurface entry (the newer lifecycle's record), and
//! moves the 16-hex `context.fingerprint` to `context.revokedFingerprint`, a
//! member neither gate reads: the revoked entry then has no fingerprint that
//! 1.15.0 could match, while `triage` can still tell which finding it was
//! about. A later suppression of the same finding is a new entry carrying the
//! fingerprint again, and applies on both lines.

use super::ordered::{Json, Num};
use crate::model::finding::RiverSeverity;
use crate::model::river::{days_from_civil, parse_date, parse_date_time};
use std::collections::HashSet;

/// The member a revoked suppression keeps its fingerprint in.
pub const REVOKED_FINGERPRINT: &str = "revokedFingerprint";

/// The fingerprints that identify one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingIds<'a> {
    /// The v1 fingerprint (the finding's key).
    pub v1: &'a str,
    /// Its line-anchored v2 fingerprints (one per line it occurs at).
    pub v2: &'a [String],
}

/// One suppression entry of a finding, as read from the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuppressionView {
    /// The entry's `id` (empty when it has none: River 1.15.0 matches such
    /// an entry all the same).
    pub id: String,
    /// Its position in the index's `entries`.
    pub position: usize,
    /// 1.15.0 can match it to the finding: its `context.fingerprint` is the
    /// finding's v1 fingerprint, whatever `fingerprintAlgo` says (1.15.0
    /// indexes entries by that member alone).
    pub v1_match: bool,
    /// The newer line can match it: a `v1` entry holding the v1 fingerprint,
    /// or a `v2` entry holding one of the line-anchored ones.
    pub algo_match: bool,
    /// `context.fingerprintAlgo` as written (`v1` when absent).
    pub algo: String,
    /// `context.fingerprint`, when it is a string.
    pub fingerprint: Option<String>,
    /// `context.active` is present and falsy in JavaScript's sense
    /// (`false`, `null`, `0`, `""`): the newer line takes the entry as off.
    pub inactive: bool,
    /// `metadata.phase`, when it is a string.
    pub phase: Option<String>,
    /// `metadata.relatedFiles` (its strings).
    pub related_files: Vec<String>,
    /// `metadata.relatedFiles` has items that are not strings: they count
    /// toward its length but equal no changed file, as River compares them.
    pub related_other: bool,
    /// `context.minSeverityToAutoSuppress`, when it is a non-empty string.
    pub min_severity: Option<String>,
    /// A resurface entry revokes it.
    pub revoked: bool,
    pub expires_at: Option<String>,
    pub feedback_type: Option<String>,
    /// Newer provenance members, shown as they are.
    pub skill_id: Option<String>,
    pub skill_version: Option<String>,
    pub rules_digest: Option<String>,
    pub rules_digest_algo: Option<String>,
}

/// The run and finding a suppression is judged for: the finding's severity,
/// the run's phase and changed files (as the review artifact gives them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GateRun<'a> {
    pub severity: Option<RiverSeverity>,
    pub phase: Option<&'a str>,
    pub changed_files: &'a [String],
}

/// River's severity ranks (`SEVERITY_RANK`); unknown names have none.
fn severity_rank(name: &str) -> Option<u8> {
    match name.to_ascii_lowercase().as_str() {
        "info" => Some(0),
        "minor" => Some(1),
        "major" => Some(2),
        "critical" => Some(3),
        _ => None,
    }
}

/// `expiresAt` in Unix milliseconds: an RFC 3339 date-time, or a date
/// (its start, UTC). `None` when it cannot be read.
pub fn expiry_millis(text: &str) -> Option<i64> {
    if let Some(parts) = parse_date_time(text) {
        return Some(parts.unix_millis());
    }
    let (y, m, d) = parse_date(text)?;
    Some(days_from_civil(y, m, d) * 86_400_000)
}

impl SuppressionView {
    /// How the entry is named to people: its id, or a stand-in when it has
    /// none.
    pub fn label(&self) -> &str {
        if self.id.is_empty() {
            "(an entry without an id)"
        } else {
            &self.id
        }
    }

    /// The newer line: past its `expiresAt` (an unreadable one counts as past).
    pub fn expired(&self, now_ms: i64) -> bool {
        self.expires_at
            .as_deref()
            .is_some_and(|t| expiry_millis(t).is_none_or(|at| at <= now_ms))
    }

    /// Whether the newer line's gate can apply it (lengths are JavaScript's
    /// UTF-16 lengths, as River's `fp.length` checks them).
    pub fn in_force_newer(&self, now_ms: i64) -> bool {
        self.algo_match
            && !self.inactive
            && !self.revoked
            && !self.expired(now_ms)
            && matches!(self.algo.as_str(), "v1" | "v2")
            && self
                .fingerprint
                .as_deref()
                .is_some_and(|f| f.encode_utf16().count() == 16)
    }

    /// Whether 1.15.0's gate can apply it: a 16-character fingerprint that
    /// is the finding's v1 fingerprint (a true v2 value never is).
    pub fn matchable_115(&self) -> bool {
        self.v1_match
            && self
                .fingerprint
                .as_deref()
                .is_some_and(|f| f.encode_utf16().count() == 16)
    }

    /// Whether either line could still hide the finding with it.
    pub fn hides_anywhere(&self, now_ms: i64) -> bool {
        self.in_force_newer(now_ms) || self.matchable_115()
    }

    /// Why both lines' gates skip this entry for `run` although it matches
    /// the finding (none when they apply it).
    pub fn skipped_for(&self, run: &GateRun<'_>) -> Option<String> {
        // River reads a missing severity as `info`.
        let severity = run.severity.map_or("info", RiverSeverity::as_str);
        if !self.related_kept(run) {
            return Some("none of its relatedFiles is among the run's changed files".to_owned());
        }
        if let Some(cap) = &self.min_severity
            && let (Some(have), Some(max)) = (severity_rank(severity), severity_rank(cap))
            && have > max
        {
            return Some(format!(
                "the finding is {severity}, above its minSeverityToAutoSuppress {cap}"
            ));
        }
        if matches!(severity, "major" | "critical") && self.feedback_type.as_deref() != Some("accepted_risk") {
            return Some(format!(
                "the finding is {severity}, and River suppresses major and critical findings only for accepted_risk"
            ));
        }
        None
    }

    /// Whether both lines' loaders keep it for the run's changed files: a
    /// run without changed files keeps every entry, and an entry with an
    /// empty (or no) `relatedFiles` is kept; otherwise one of its files must
    /// be among the changed ones (`Array.prototype.some` with `includes`).
    fn related_kept(&self, run: &GateRun<'_>) -> bool {
        run.changed_files.is_empty()
            || (self.related_files.is_empty() && !self.related_other)
            || self.related_files.iter().any(|f| run.changed_files.contains(f))
    }

    /// Whether the loader of 1.15.0 / the newer line keeps it for a run of
    /// `phase` (unknown: only an entry without a phase is judged).
    fn phase_kept(&self, phase: Option<&str>) -> (bool, bool) {
        match (&self.phase, phase) {
            (None, _) => (false, true),
            (Some(own), Some(run)) => (own == run, own == run),
            (Some(_), None) => (true, true),
        }
    }

    /// Whether each line's gate indexes it for `run`: its loader keeps it
    /// and the entry can match (before the severity conditions).
    fn indexed(&self, now_ms: i64, run: &GateRun<'_>) -> (bool, bool) {
        let related = self.related_kept(run);
        let (phase_115, phase_newer) = self.phase_kept(run.phase);
        (
            related && phase_115 && self.matchable_115(),
            related && phase_newer && self.in_force_newer(now_ms),
        )
    }

    /// One line for people about this entry alone (see [`describe_all`]).
    pub fn describe(&self, now_ms: i64, run: &GateRun<'_>) -> String {
        describe_all(std::slice::from_ref(self), now_ms, run).remove(0)
    }

    /// Whether it hides the finding for `run` on 1.15.0 and on the newer
    /// line, given the later entries that shadow it on each.
    fn applies(&self, now_ms: i64, run: &GateRun<'_>, shadowed: (Option<&str>, Option<&str>)) -> (bool, bool) {
        let (indexed_115, indexed_newer) = self.indexed(now_ms, run);
        let skipped = self.skipped_for(run).is_some();
        (
            indexed_115 && shadowed.0.is_none() && !skipped,
            indexed_newer && shadowed.1.is_none() && !skipped,
        )
    }

    fn line(&self, now_ms: i64, run: &GateRun<'_>, shadowed: (Option<&str>, Option<&str>)) -> String {
        let (indexed_115, indexed_newer) = self.indexed(now_ms, run);
        let skipped = self.skipped_for(run);
        let (on_115, on_newer) = self.applies(now_ms, run, shadowed);
        let state = match (on_115, on_newer) {
            (true, true) => "applies on River 1.15.0 and newer releases".to_owned(),
            (true, false) if !self.algo_match => "applies on River 1.15.0 only (newer releases match its \
                                                  fingerprintAlgo v2 to a line-anchored fingerprint, which this is not)"
                .to_owned(),
            (true, false) => "applies on River 1.15.0 only (revoked or expired for newer releases)".to_owned(),
            (false, true) if indexed_115 && skipped.is_none() && shadowed.0.is_some() => format!(
                "applies on newer River releases only (River 1.15.0 uses the later entry {} with the same \
                 fingerprint instead)",
                shadowed.0.unwrap_or_default()
            ),
            (false, true) if self.matchable_115() && self.phase.is_none() => {
                "applies on newer River releases only (River 1.15.0 ignores a suppression without a phase)".to_owned()
            }
            (false, true) => "applies on newer River releases only".to_owned(),
            (false, false) if indexed_115 || indexed_newer => {
                let why = match (&skipped, shadowed.0.or(shadowed.1)) {
                    (Some(why), _) => why.clone(),
                    (None, Some(later)) => format!("the later entry {later} with the same fingerprint is used instead"),
                    (None, None) => "it is shadowed".to_owned(),
                };
                format!("matches but applies on no River release: {why}")
            }
            (false, false) => {
                let related = self.related_kept(run);
                match (&self.phase, run.phase) {
                    _ if !self.hides_anywhere(now_ms) => "revoked: applies on no River release".to_owned(),
                    _ if !related => "applies on no River release to this run: none of its relatedFiles is among \
                                      the run's changed files"
                        .to_owned(),
                    (Some(own), Some(now)) if own != now => {
                        format!("applies on no River release to this run: it is for phase {own}, the run is {now}")
                    }
                    _ => "applies on no River release: River 1.15.0 ignores a suppression without a phase, and newer \
                          releases have it revoked or expired"
                        .to_owned(),
                }
            }
        };
        let mut text = format!(
            "{} ({}, {}): {state}",
            self.label(),
            self.algo,
            self.feedback_type.as_deref().unwrap_or("no feedbackType")
        );
        for (label, value) in [
            ("expires", &self.expires_at),
            ("skillId", &self.skill_id),
            ("skillVersion", &self.skill_version),
            ("rulesDigest", &self.rules_digest),
            ("rulesDigestAlgo", &self.rules_digest_algo),
        ] {
            if let Some(v) = value {
                text.push_str(&format!("; {label} {v}"));
            }
        }
        text
    }
}

/// One line for people per entry of one finding, in order: the entry, its
/// algorithm and reason, and where it applies for `run`. Each line's gate
/// indexes entries by fingerprint and the last one wins, so an earlier entry
/// with the same algorithm and fingerprint is used on no line where a later
/// one is indexed (unsanitised: callers clean the lines before display).
pub fn describe_all(views: &[SuppressionView], now_ms: i64, run: &GateRun<'_>) -> Vec<String> {
    views
        .iter()
        .enumerate()
        .map(|(i, v)| v.line(now_ms, run, shadowed_by(views, i, now_ms, run)))
        .collect()
}

/// A suppression that hides the finding for a run on some River line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StillHidden {
    /// The entry's id (see [`SuppressionView::label`]).
    pub id: String,
    /// River Review 1.15.0 applies it.
    pub on_115: bool,
    /// Newer River releases apply it.
    pub on_newer: bool,
}

impl std::fmt::Display for StillHidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lines = match (self.on_115, self.on_newer) {
            (true, true) => "River 1.15.0 and newer releases",
            (true, false) => "River 1.15.0",
            _ => "newer River releases",
        };
        write!(
            f,
            "the earlier suppression {} still hides this finding on {lines}: River keeps it hidden until that \
             suppression is revoked (`u` on the screen, `submit --undo`)",
            self.id
        )
    }
}

/// The entries of one finding that still hide it for `run` on some River
/// line, in order. A decision that writes no suppression leaves these in
/// force, so River keeps the finding hidden whatever the feedback log says.
pub fn still_hiding(views: &[SuppressionView], now_ms: i64, run: &GateRun<'_>) -> Vec<StillHidden> {
    views
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            let (on_115, on_newer) = v.applies(now_ms, run, shadowed_by(views, i, now_ms, run));
            (on_115 || on_newer).then(|| StillHidden {
                id: v.label().to_owned(),
                on_115,
                on_newer,
            })
        })
        .collect()
}

/// The later entry with the same algorithm and fingerprint that each line's
/// gate indexes instead of `views[i]` (1.15.0, the newer line): the last
/// one wins.
fn shadowed_by<'v>(
    views: &'v [SuppressionView],
    i: usize,
    now_ms: i64,
    run: &GateRun<'_>,
) -> (Option<&'v str>, Option<&'v str>) {
    let v = &views[i];
    let later = |same: &dyn Fn(&SuppressionView) -> bool, line: fn((bool, bool)) -> bool| {
        views[i + 1..]
            .iter()
            .rev()
            .find(|w| w.fingerprint == v.fingerprint && same(w) && line(w.indexed(now_ms, run)))
            .map(SuppressionView::label)
    };
    // 1.15.0 keys its map by the fingerprint alone; the newer line by the
    // algorithm too.
    (later(&|_| true, |(a, _)| a), later(&|w| w.algo == v.algo, |(_, b)| b))
}

fn entries(index: &Json) -> &[Json] {
    match index.get("entries") {
        Some(Json::Array(items)) => items,
        _ => &[],
    }
}

fn text(v: Option<&Json>) -> Option<String> {
    v.and_then(Json::as_str).map(str::to_owned)
}

/// JavaScript's falsiness of a JSON value (`!value`).
fn js_falsy(v: &Json) -> bool {
    match v {
        Json::Null => true,
        Json::Bool(b) => !b,
        Json::String(s) => s.is_empty(),
        Json::Number(Num::Unsigned(n)) => *n == 0,
        Json::Number(Num::Signed(n)) => *n == 0,
        Json::Number(Num::Float(x)) => *x == 0.0 || x.is_nan(),
        _ => false,
    }
}

/// Ids of suppressions revoked by a resurface entry.
pub fn revoked_ids(index: &Json) -> HashSet<&str> {
    entries(index)
        .iter()
        .filter(|e| e.get("type").and_then(Json::as_str) == Some("resurface"))
        .filter_map(|e| e.get("context"))
        .filter(|c| c.get("action").and_then(Json::as_str) == Some("revoke"))
        .filter_map(|c| c.get("suppressionId").and_then(Json::as_str))
        .collect()
}

/// Every suppression entry about the finding `ids` (active, revoked or
/// expired alike), in file order. An entry belongs to the finding when its
/// fingerprint (or, once revoked, `revokedFingerprint`) is the v1 key for a
/// v1 entry or one of the v2 values for a v2 entry.
pub fn suppressions_of(index: &Json, ids: &FindingIds<'_>) -> Vec<SuppressionView> {
    let revoked = revoked_ids(index);
    entries(index)
        .iter()
        .enumerate()
        .filter(|(_, e)| e.get("type").and_then(Json::as_str) == Some("suppression"))
        .filter_map(|(position, e)| {
            let id = e.get("id").and_then(Json::as_str).unwrap_or_default();
            let c = e.get("context")?;
            let algo = text(c.get("fingerprintAlgo")).unwrap_or_else(|| "v1".to_owned());
            let fingerprint = text(c.get("fingerprint"));
            let stored = fingerprint.clone().or_else(|| text(c.get(REVOKED_FINGERPRINT)))?;
            let algo_match = match algo.as_str() {
                "v2" => ids.v2.contains(&stored),
                _ => stored == ids.v1,
            };
            let v1_match = fingerprint.as_deref() == Some(ids.v1);
            (algo_match || v1_match).then(|| SuppressionView {
                id: id.to_owned(),
                position,
                v1_match,
                algo_match,
                algo,
                fingerprint,
                inactive: c.get("active").is_some_and(js_falsy),
                phase: text(e.get("metadata").and_then(|m| m.get("phase"))),
                related_files: match e.get("metadata").and_then(|m| m.get("relatedFiles")) {
                    Some(Json::Array(files)) => files.iter().filter_map(Json::as_str).map(str::to_owned).collect(),
                    _ => Vec::new(),
                },
                related_other: matches!(
                    e.get("metadata").and_then(|m| m.get("relatedFiles")),
                    Some(Json::Array(files)) if files.iter().any(|f| f.as_str().is_none())
                ),
                min_severity: text(c.get("minSeverityToAutoSuppress")).filter(|s| !s.is_empty()),
                revoked: !id.is_empty() && revoked.contains(id),
                expires_at: text(c.get("expiresAt")),
                feedback_type: text(c.get("feedbackType")),
                skill_id: text(c.get("skillId")),
                skill_version: text(c.get("skillVersion")),
                rules_digest: text(c.get("rulesDigest")),
                rules_digest_algo: text(c.get("rulesDigestAlgo")),
            })
        })
        .collect()
}

/// Takes the suppression at `position` of the index's entries (see
/// [`SuppressionView::position`]: an entry may have no id) out of force on
/// both lines: `context.active` becomes false (added when missing) and
/// `context.fingerprint` is renamed to `revokedFingerprint` in its place.
/// Every other member is unchanged. False when there is no such entry with a
/// context.
pub fn take_out_of_force(index: &mut Json, position: usize) -> bool {
    let Some(Json::Array(items)) = index.get_mut("entries") else {
        return false;
    };
    let Some(Json::Object(context)) = items.get_mut(position).and_then(|e| e.get_mut("context")) else {
        return false;
    };
    match context.iter_mut().find(|(k, _)| k == "active") {
        Some((_, v)) => *v = Json::Bool(false),
        None => context.push(("active".to_owned(), Json::Bool(false))),
    }
    if !context.iter().any(|(k, _)| k == REVOKED_FINGERPRINT)
        && let Some((k, _)) = context.iter_mut().find(|(k, _)| k == "fingerprint")
    {
        *k = REVOKED_FINGERPRINT.to_owned();
    } else {
        context.retain(|(k, _)| k != "fingerprint");
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::river_store::index::parse_index;

    const FP: &str = "0123456789abcdef";

    fn index(text: &str) -> Json {
        parse_index(text.as_bytes()).unwrap()
    }

    #[test]
    fn views_say_what_each_line_applies() {
        let ix = index(
            r#"{"entries":[
            {"id":"a","type":"suppression","context":{"scope":"file","active":true,"fingerprint":"0123456789abcdef","fingerprintAlgo":"v1"}},
            {"id":"b","type":"suppression","context":{"scope":"file","active":false,"fingerprint":"0123456789abcdef"}},
            {"id":"c","type":"suppression","context":{"scope":"file","active":true,"fingerprint":"0123456789abcdef"}},
            {"id":"r","type":"resurface","context":{"suppressionId":"c","action":"revoke"}},
            {"id":"d","type":"suppression","context":{"scope":"file","active":true,"fingerprint":"0123456789abcdef","expiresAt":"2020-01-01T00:00:00Z"}},
            {"id":"e","type":"suppression","context":{"scope":"file","active":true,"fingerprint":"fedcba9876543210","fingerprintAlgo":"v2","skillId":"rr-x"}},
            {"id":"f","type":"suppression","context":{"scope":"file","active":true,"fingerprint":"0123456789abcdef","fingerprintAlgo":"v2"}}
            ],"version":"1"}"#,
        );
        let v2 = ["fedcba9876543210".to_owned()];
        let views = suppressions_of(&ix, &FindingIds { v1: FP, v2: &v2 });
        let ids: Vec<_> = views.iter().map(|v| v.id.as_str()).collect();
        // f is labelled v2 but holds the v1 fingerprint: 1.15.0 indexes
        // entries by that member alone, so it matches there (only there).
        assert_eq!(ids, ["a", "b", "c", "d", "e", "f"]);
        let now = 1_795_980_984_116;
        let newer: Vec<_> = views.iter().map(|v| v.in_force_newer(now)).collect();
        let old: Vec<_> = views.iter().map(SuppressionView::matchable_115).collect();
        assert_eq!(newer, [true, false, false, false, true, false]);
        assert_eq!(old, [true, true, true, true, false, true]);
        assert_eq!(views[4].skill_id.as_deref(), Some("rr-x"));
        let run = GateRun::default();
        assert_eq!(
            views[0].describe(now, &run),
            "a (v1, no feedbackType): applies on newer River releases only (River 1.15.0 ignores a suppression without a phase)"
        );
        assert!(views[1].describe(now, &run).ends_with(
            "applies on no River release: River 1.15.0 ignores a suppression without a phase, and newer releases have it revoked or expired"
        ));
        assert!(
            views[4]
                .describe(now, &run)
                .contains("applies on newer River releases only; skillId rr-x")
        );
    }

    /// The conditions of both gates (River 1.15.0's `suppression-apply.mjs`
    /// and `memory-context.mjs`, and the newer line's): phase, related
    /// files, the severity cap, accepted_risk for major and critical, falsy
    /// `active`, and the last entry with a fingerprint winning.
    #[test]
    fn existing_entries_are_judged_by_the_gates_conditions() {
        let entry = |id: &str, context: &str| {
            format!(
                r#"{{"id":"{id}","type":"suppression","context":{{"scope":"file","fingerprint":"{FP}"{context}}},"metadata":{{"phase":"midstream","relatedFiles":["src/a.js"]}}}}"#
            )
        };
        let judge = |entries: &[String], severity: RiverSeverity, phase: &str, changed: &[String]| {
            let ix = index(&format!(r#"{{"entries":[{}],"version":"1"}}"#, entries.join(",")));
            let views = suppressions_of(&ix, &FindingIds { v1: FP, v2: &[] });
            let run = GateRun {
                severity: Some(severity),
                phase: Some(phase),
                changed_files: changed,
            };
            describe_all(&views, 0, &run)
        };
        let changed = ["src/a.js".to_owned()];
        let fp = entry("fp", r#","feedbackType":"false_positive""#);
        let both = "applies on River 1.15.0 and newer releases";
        assert!(judge(std::slice::from_ref(&fp), RiverSeverity::Minor, "midstream", &changed)[0].ends_with(both));
        // Major and critical findings: only accepted_risk.
        let said = judge(std::slice::from_ref(&fp), RiverSeverity::Major, "midstream", &changed);
        assert!(
            said[0].contains("matches but applies on no River release: the finding is major"),
            "{said:?}"
        );
        let risk = entry("risk", r#","feedbackType":"accepted_risk""#);
        assert!(judge(&[risk], RiverSeverity::Critical, "midstream", &changed)[0].ends_with(both));
        // The per-entry cap.
        let capped = entry(
            "cap",
            r#","feedbackType":"false_positive","minSeverityToAutoSuppress":"info""#,
        );
        let said = judge(
            std::slice::from_ref(&capped),
            RiverSeverity::Minor,
            "midstream",
            &changed,
        );
        assert!(said[0].contains("above its minSeverityToAutoSuppress info"), "{said:?}");
        // Another phase, files the run did not change.
        let said = judge(std::slice::from_ref(&fp), RiverSeverity::Minor, "upstream", &changed);
        assert!(
            said[0].contains("it is for phase midstream, the run is upstream"),
            "{said:?}"
        );
        let said = judge(
            std::slice::from_ref(&fp),
            RiverSeverity::Minor,
            "midstream",
            &["src/b.js".to_owned()],
        );
        assert!(said[0].contains("none of its relatedFiles"), "{said:?}");
        assert!(judge(std::slice::from_ref(&fp), RiverSeverity::Minor, "midstream", &[])[0].ends_with(both));
        // The newer line takes any falsy `active` as off; 1.15.0 ignores it.
        for falsy in ["null", "0", "0.0", r#""""#, "false"] {
            let off = entry("off", &format!(r#","active":{falsy}"#));
            let said = judge(&[off], RiverSeverity::Minor, "midstream", &changed);
            let only_115 = "applies on River 1.15.0 only (revoked or expired for newer releases)";
            assert!(said[0].ends_with(only_115), "{falsy}: {said:?}");
        }
        let on = entry("on", r#","active":1"#);
        assert!(judge(&[on], RiverSeverity::Minor, "midstream", &changed)[0].ends_with(both));
        // The last entry with the fingerprint decides.
        let said = judge(
            &[fp.clone(), capped.replace("\"cap\"", "\"later\"")],
            RiverSeverity::Minor,
            "midstream",
            &changed,
        );
        assert!(
            said[0].contains("the later entry later with the same fingerprint is used instead"),
            "{said:?}"
        );
        assert!(said[1].contains("above its minSeverityToAutoSuppress"), "{said:?}");
    }

    /// River compares `relatedFiles` items with the changed files as they
    /// are: a non-string item counts toward the list but equals no file, so
    /// an entry holding only such items is dropped for a run with changed
    /// files (before, it was judged as having no relatedFiles: kept).
    #[test]
    fn non_string_related_files_match_no_changed_file() {
        let entry = |related: &str| {
            index(&format!(
                r#"{{"entries":[{{"id":"s","type":"suppression","context":{{"scope":"file","fingerprint":"{FP}","feedbackType":"false_positive"}},"metadata":{{"phase":"midstream","relatedFiles":{related}}}}}],"version":"1"}}"#
            ))
        };
        let changed = ["src/a.js".to_owned()];
        let run = GateRun {
            severity: Some(RiverSeverity::Minor),
            phase: Some("midstream"),
            changed_files: &changed,
        };
        let hides = |related: &str| {
            let views = suppressions_of(&entry(related), &FindingIds { v1: FP, v2: &[] });
            !still_hiding(&views, 0, &run).is_empty()
        };
        assert!(hides("[]"));
        assert!(hides(r#"["src/a.js"]"#));
        assert!(hides(r#"[42, "src/a.js"]"#));
        assert!(!hides("[42]"));
        assert!(!hides(r#"["src/b.js"]"#));
        // No changed files in the run: every entry is kept.
        let views = suppressions_of(&entry("[42]"), &FindingIds { v1: FP, v2: &[] });
        let open = GateRun {
            changed_files: &[],
            ..run
        };
        assert!(!still_hiding(&views, 0, &open).is_empty());
    }

    #[test]
    fn taking_out_of_force_leaves_no_matchable_fingerprint() {
        let mut ix = index(
            r#"{"entries":[{"id":"a","type":"suppression","context":{"scope":"file","active":true,"fingerprint":"0123456789abcdef","fingerprintAlgo":"v1","feedbackType":"false_positive"}}],"version":"1"}"#,
        );
        assert!(take_out_of_force(&mut ix, 0));
        let text = super::super::ordered::to_compact(&ix);
        assert!(
            text.contains(r#""context":{"scope":"file","active":false,"revokedFingerprint":"0123456789abcdef","fingerprintAlgo":"v1","feedbackType":"false_positive"}"#),
            "{text}"
        );
        let views = suppressions_of(&ix, &FindingIds { v1: FP, v2: &[] });
        assert_eq!(views.len(), 1, "the revoked entry is still known as the finding's");
        assert!(!views[0].hides_anywhere(0));
        assert!(!take_out_of_force(&mut ix, 1));
    }

    #[test]
    fn expiry_forms() {
        assert_eq!(expiry_millis("1970-01-02"), Some(86_400_000));
        assert_eq!(expiry_millis("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(expiry_millis("soon"), None);
        let mut v = SuppressionView {
            id: "x".into(),
            position: 0,
            v1_match: true,
            algo_match: true,
            algo: "v1".into(),
            fingerprint: Some(FP.into()),
            inactive: false,
            phase: None,
            related_files: Vec::new(),
            related_other: false,
            min_severity: None,
            revoked: false,
            expires_at: Some("soon".into()),
            feedback_type: None,
            skill_id: None,
            skill_version: None,
            rules_digest: None,
            rules_digest_algo: None,
        };
        assert!(v.expired(0), "an unreadable expiry counts as expired on the newer line");
        v.expires_at = Some("1970-01-02".into());
        assert!(!v.expired(86_399_999));
        assert!(v.expired(86_400_000));
    }
}
