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
//! So an undo that works on both lines sets `context.active` to false,
//! appends the revoking resurface entry (the newer lifecycle's record), and
//! moves the 16-hex `context.fingerprint` to `context.revokedFingerprint`, a
//! member neither gate reads: the revoked entry then has no fingerprint that
//! 1.15.0 could match, while `triage` can still tell which finding it was
//! about. A later suppression of the same finding is a new entry carrying the
//! fingerprint again, and applies on both lines.

use super::ordered::Json;
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
    pub id: String,
    /// `context.fingerprintAlgo` as written (`v1` when absent).
    pub algo: String,
    /// `context.fingerprint`, when it is a string.
    pub fingerprint: Option<String>,
    /// `context.active`, when it is a boolean.
    pub active: Option<bool>,
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
    /// The newer line: past its `expiresAt` (an unreadable one counts as past).
    pub fn expired(&self, now_ms: i64) -> bool {
        self.expires_at
            .as_deref()
            .is_some_and(|t| expiry_millis(t).is_none_or(|at| at <= now_ms))
    }

    /// Whether the newer line's gate can apply it (lengths are JavaScript's
    /// UTF-16 lengths, as River's `fp.length` checks them).
    pub fn in_force_newer(&self, now_ms: i64) -> bool {
        self.active != Some(false)
            && !self.revoked
            && !self.expired(now_ms)
            && matches!(self.algo.as_str(), "v1" | "v2")
            && self
                .fingerprint
                .as_deref()
                .is_some_and(|f| f.encode_utf16().count() == 16)
    }

    /// Whether 1.15.0's gate can apply it (a 16-character fingerprint; a v2
    /// value never equals a finding's v1 fingerprint, so it hides nothing).
    pub fn matchable_115(&self) -> bool {
        self.algo != "v2"
            && self
                .fingerprint
                .as_deref()
                .is_some_and(|f| f.encode_utf16().count() == 16)
    }

    /// Whether either line could still hide the finding with it.
    pub fn hides_anywhere(&self, now_ms: i64) -> bool {
        self.in_force_newer(now_ms) || self.matchable_115()
    }

    /// One line for people: the entry, its algorithm and reason, and where
    /// it applies (unsanitised: callers clean it before display).
    pub fn describe(&self, now_ms: i64) -> String {
        let state = match (self.matchable_115(), self.in_force_newer(now_ms)) {
            (true, true) => "applies on River 1.15.0 and newer releases",
            (true, false) => "applies on River 1.15.0 only (revoked or expired for newer releases)",
            (false, true) => "applies on newer River releases only",
            (false, false) => "revoked: applies on no River release",
        };
        let mut text = format!(
            "{} ({}, {}): {state}",
            self.id,
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

fn entries(index: &Json) -> &[Json] {
    match index.get("entries") {
        Some(Json::Array(items)) => items,
        _ => &[],
    }
}

fn text(v: Option<&Json>) -> Option<String> {
    v.and_then(Json::as_str).map(str::to_owned)
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
        .filter(|e| e.get("type").and_then(Json::as_str) == Some("suppression"))
        .filter_map(|e| {
            let id = e.get("id").and_then(Json::as_str)?;
            let c = e.get("context")?;
            let algo = text(c.get("fingerprintAlgo")).unwrap_or_else(|| "v1".to_owned());
            let fingerprint = text(c.get("fingerprint"));
            let stored = fingerprint.clone().or_else(|| text(c.get(REVOKED_FINGERPRINT)))?;
            let belongs = match algo.as_str() {
                "v2" => ids.v2.contains(&stored),
                _ => stored == ids.v1,
            };
            belongs.then(|| SuppressionView {
                id: id.to_owned(),
                algo,
                fingerprint,
                active: match c.get("active") {
                    Some(Json::Bool(b)) => Some(*b),
                    _ => None,
                },
                revoked: revoked.contains(id),
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

/// Takes the suppression `id` out of force on both lines: `context.active`
/// becomes false (added when missing) and `context.fingerprint` is renamed to
/// `revokedFingerprint` in its place. Every other member is unchanged. False
/// when there is no such entry with a context.
pub fn take_out_of_force(index: &mut Json, id: &str) -> bool {
    let Some(Json::Array(items)) = index.get_mut("entries") else {
        return false;
    };
    let Some(Json::Object(context)) = items
        .iter_mut()
        .find(|e| e.get("id").and_then(Json::as_str) == Some(id))
        .and_then(|e| e.get_mut("context"))
    else {
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
        assert_eq!(ids, ["a", "b", "c", "d", "e"]);
        let now = 1_795_980_984_116;
        let newer: Vec<_> = views.iter().map(|v| v.in_force_newer(now)).collect();
        let old: Vec<_> = views.iter().map(SuppressionView::matchable_115).collect();
        assert_eq!(newer, [true, false, false, false, true]);
        assert_eq!(old, [true, true, true, true, false]);
        assert_eq!(views[4].skill_id.as_deref(), Some("rr-x"));
        assert_eq!(
            views[0].describe(now),
            "a (v1, no feedbackType): applies on River 1.15.0 and newer releases"
        );
        assert!(
            views[1]
                .describe(now)
                .ends_with("applies on River 1.15.0 only (revoked or expired for newer releases)")
        );
        assert!(
            views[4]
                .describe(now)
                .contains("applies on newer River releases only; skillId rr-x")
        );
    }

    #[test]
    fn taking_out_of_force_leaves_no_matchable_fingerprint() {
        let mut ix = index(
            r#"{"entries":[{"id":"a","type":"suppression","context":{"scope":"file","active":true,"fingerprint":"0123456789abcdef","fingerprintAlgo":"v1","feedbackType":"false_positive"}}],"version":"1"}"#,
        );
        assert!(take_out_of_force(&mut ix, "a"));
        let text = super::super::ordered::to_compact(&ix);
        assert!(
            text.contains(r#""context":{"scope":"file","active":false,"revokedFingerprint":"0123456789abcdef","fingerprintAlgo":"v1","feedbackType":"false_positive"}"#),
            "{text}"
        );
        let views = suppressions_of(&ix, &FindingIds { v1: FP, v2: &[] });
        assert_eq!(views.len(), 1, "the revoked entry is still known as the finding's");
        assert!(!views[0].hides_anywhere(0));
        assert!(!take_out_of_force(&mut ix, "missing"));
    }

    #[test]
    fn expiry_forms() {
        assert_eq!(expiry_millis("1970-01-02"), Some(86_400_000));
        assert_eq!(expiry_millis("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(expiry_millis("soon"), None);
        let mut v = SuppressionView {
            id: "x".into(),
            algo: "v1".into(),
            fingerprint: Some(FP.into()),
            active: Some(true),
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
