//! ReviewGate agent-disposition payloads (REVIEWGATE-RULES §7, INTEROP §4):
//! the typed payload, its rules D1–D6, the comment body that carries it (D8),
//! the receipt digest and status context (D9), and reading a body back (D10).

use super::finding::SubmittedDisposition;
use super::fingerprint::hex;
use super::json::{ReadLimits, read_strict, to_canonical_vec};
use super::problem::{Problem, push_pointer};
use super::text::is_blank;
use crate::model::json::type_name;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The payload's `schema_version` constant (D2).
pub const PAYLOAD_SCHEMA_VERSION: &str = "reviewgate-agent-dispositions/v1";
/// Largest `submission.evidence`, in UTF-8 bytes of the decoded string (D6).
pub const MAX_EVIDENCE_BYTES: usize = 4096;
/// What a disposition comment body starts with (note the trailing space).
pub const BODY_PREFIX: &str = "<!-- reviewgate-agent-dispositions ";
/// What ends the encoded payload in a body.
pub const BODY_PAYLOAD_END: &str = " -->";
/// Prefix of the receipt digest (D9).
pub const RECEIPT_PREFIX: &str = "receipt-sha256:";
/// Prefix of the commit-status context (D9).
pub const STATUS_CONTEXT_PREFIX: &str = "reviewgate/disposition/";

/// One recorded disposition, exactly as ReviewGate reads and writes it.
/// Field order is the C1 member order, so the canonical serialization of this
/// struct is the payload's canonical form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DispositionPayload {
    /// Always [`PAYLOAD_SCHEMA_VERSION`] in a valid payload.
    pub schema_version: String,
    /// The pull request the disposition is for.
    pub scope: PayloadScope,
    /// The head SHA the finding was reviewed at.
    pub reviewed_sha: String,
    /// What is submitted for which finding.
    pub submission: Submission,
}

/// A payload's scope: always a pull request (D4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PayloadScope {
    /// The scope kind; only `pull_request` exists for payloads.
    pub kind: ScopeKind,
    /// `owner/name` by convention (the shape is not checked).
    pub repository: String,
    /// The pull request number (≥ 1, any u64).
    pub pull_request_number: u64,
}

/// The one scope kind a payload may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScopeKind {
    /// `"pull_request"`.
    PullRequest,
}

/// The submitted decision about one finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    /// The target finding's semantic fingerprint (raw, byte for byte).
    pub semantic_fingerprint: String,
    /// One of the six agent values.
    pub disposition: SubmittedDisposition,
    /// Why; non-blank and at most [`MAX_EVIDENCE_BYTES`] bytes.
    pub evidence: String,
    /// The authenticated login that submits it.
    pub actor: String,
}

impl DispositionPayload {
    /// Builds a payload for a pull request (not yet checked: see [`Self::problems`]).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        repository: impl Into<String>,
        pull_request_number: u64,
        reviewed_sha: impl Into<String>,
        semantic_fingerprint: impl Into<String>,
        disposition: SubmittedDisposition,
        evidence: impl Into<String>,
        actor: impl Into<String>,
    ) -> Self {
        DispositionPayload {
            schema_version: PAYLOAD_SCHEMA_VERSION.to_string(),
            scope: PayloadScope {
                kind: ScopeKind::PullRequest,
                repository: repository.into(),
                pull_request_number,
            },
            reviewed_sha: reviewed_sha.into(),
            submission: Submission {
                semantic_fingerprint: semantic_fingerprint.into(),
                disposition,
                evidence: evidence.into(),
                actor: actor.into(),
            },
        }
    }

    /// Every D-rule problem of this payload (empty when it is valid).
    pub fn problems(&self) -> Vec<Problem> {
        match serde_json::to_value(self) {
            Ok(value) => validate_payload(&value).err().unwrap_or_default(),
            Err(e) => vec![Problem::new("schema", "", format!("cannot represent the payload: {e}"))],
        }
    }

    /// The canonical (§8) serialization: what the comment body encodes.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        to_canonical_vec(self)
    }

    /// UTF-8 length of the evidence (the D6 measure).
    pub fn evidence_bytes(&self) -> usize {
        self.submission.evidence.len()
    }
}

/// Checks a parsed payload against the schema shape and D1–D6. Every problem
/// found is returned, each with its rule id and JSON pointer.
pub fn validate_payload(value: &Value) -> Result<DispositionPayload, Vec<Problem>> {
    let mut problems = Vec::new();
    if let Some(top) = object_at(value, "", "the payload", &mut problems) {
        check_members(top, "", TOP_MEMBERS, &mut problems);
        if let Some(v) = string_member(top, "", "schema_version", &mut problems)
            && v != PAYLOAD_SCHEMA_VERSION
        {
            let message = format!("schema_version must be {PAYLOAD_SCHEMA_VERSION:?}, found {v:?}");
            problems.push(Problem::new("D2", "/schema_version", message));
        }
        if let Some(scope) = top.get("scope") {
            check_scope(scope, &mut problems);
        }
        if let Some(sha) = string_member(top, "", "reviewed_sha", &mut problems)
            && is_blank(sha)
        {
            problems.push(Problem::new("D3", "/reviewed_sha", "reviewed_sha must not be blank"));
        }
        if let Some(submission) = top.get("submission") {
            check_submission(submission, &mut problems);
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    DispositionPayload::deserialize(value).map_err(|e| {
        vec![Problem::new(
            "schema",
            "",
            format!("the payload does not match its type: {e}"),
        )]
    })
}

const TOP_MEMBERS: &[&str] = &["schema_version", "scope", "reviewed_sha", "submission"];
const SCOPE_MEMBERS: &[&str] = &["kind", "repository", "pull_request_number"];
const SUBMISSION_MEMBERS: &[&str] = &["semantic_fingerprint", "disposition", "evidence", "actor"];

fn check_scope(scope: &Value, problems: &mut Vec<Problem>) {
    let Some(map) = object_at(scope, "/scope", "scope", problems) else {
        return;
    };
    check_members(map, "/scope", SCOPE_MEMBERS, problems);
    if let Some(kind) = string_member(map, "/scope", "kind", problems)
        && kind != "pull_request"
    {
        let message = format!("a disposition needs a pull_request scope, found kind {kind:?}");
        problems.push(Problem::new("D4", "/scope/kind", message));
    }
    if let Some(repository) = string_member(map, "/scope", "repository", problems)
        && is_blank(repository)
    {
        problems.push(Problem::new("D4", "/scope/repository", "repository must not be blank"));
    }
    match map.get("pull_request_number") {
        None => {}
        Some(Value::Number(n)) => match n.as_u64() {
            Some(0) => problems.push(Problem::new(
                "D4",
                "/scope/pull_request_number",
                "pull_request_number must be ≥ 1",
            )),
            Some(_) => {}
            None => problems.push(Problem::new(
                "P8",
                "/scope/pull_request_number",
                format!("pull_request_number must be a plain integer literal from 1 to 2^64-1, found {n}"),
            )),
        },
        Some(other) => problems.push(type_problem("/scope/pull_request_number", "an integer", other)),
    }
}

fn check_submission(submission: &Value, problems: &mut Vec<Problem>) {
    let base = "/submission";
    let Some(map) = object_at(submission, base, "submission", problems) else {
        return;
    };
    check_members(map, base, SUBMISSION_MEMBERS, problems);
    for (name, rule) in [("semantic_fingerprint", "D5"), ("actor", "D5")] {
        if let Some(s) = string_member(map, base, name, problems)
            && is_blank(s)
        {
            problems.push(Problem::new(
                rule,
                push_pointer(base, name),
                format!("{name} must not be blank"),
            ));
        }
    }
    if let Some(d) = string_member(map, base, "disposition", problems)
        && SubmittedDisposition::parse(d).is_none()
    {
        let allowed: Vec<&str> = SubmittedDisposition::ALL.iter().map(|d| d.as_str()).collect();
        let message = format!("disposition {d:?} is not one of {}", allowed.join(", "));
        problems.push(Problem::new("D5", "/submission/disposition", message));
    }
    if let Some(evidence) = string_member(map, base, "evidence", problems) {
        if is_blank(evidence) {
            problems.push(Problem::new("D6", "/submission/evidence", "evidence must not be blank"));
        } else if evidence.len() > MAX_EVIDENCE_BYTES {
            let message = format!(
                "evidence is {} UTF-8 bytes; at most {MAX_EVIDENCE_BYTES} are allowed",
                evidence.len()
            );
            problems.push(Problem::new("D6", "/submission/evidence", message));
        }
    }
}

/// The object at `path`, or a problem (P10 for the positional array form).
fn object_at<'v>(
    value: &'v Value,
    path: &str,
    what: &str,
    problems: &mut Vec<Problem>,
) -> Option<&'v Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        Value::Array(_) => {
            let message = format!("{what} must be an object; the positional array form is not accepted");
            problems.push(Problem::new("P10", path, message));
            None
        }
        other => {
            problems.push(type_problem(path, "an object", other));
            None
        }
    }
}

/// Reports unknown members (D1) and missing required ones (schema).
fn check_members(map: &Map<String, Value>, base: &str, known: &[&str], problems: &mut Vec<Problem>) {
    for name in map.keys().filter(|k| !known.contains(&k.as_str())) {
        problems.push(Problem::new(
            "D1",
            push_pointer(base, name),
            format!("unknown member {name:?}"),
        ));
    }
    for name in known.iter().filter(|k| !map.contains_key(**k)) {
        problems.push(Problem::new(
            "schema",
            base,
            format!("missing required member {name:?}"),
        ));
    }
}

/// The string member `name`, or a type problem; `None` when absent or not a string.
fn string_member<'v>(
    map: &'v Map<String, Value>,
    base: &str,
    name: &str,
    problems: &mut Vec<Problem>,
) -> Option<&'v str> {
    match map.get(name)? {
        Value::String(s) => Some(s),
        other => {
            problems.push(type_problem(&push_pointer(base, name), "a string", other));
            None
        }
    }
}

fn type_problem(path: &str, expected: &str, found: &Value) -> Problem {
    Problem::new(
        "schema",
        path,
        format!("expected {expected}, found {}", type_name(found)),
    )
}

/// D8: the exact comment body (no trailing newline) that records `payload`.
pub fn comment_body(payload: &DispositionPayload) -> String {
    let encoded = URL_SAFE_NO_PAD.encode(payload.canonical_bytes());
    let fingerprint = &payload.submission.semantic_fingerprint;
    format!("{BODY_PREFIX}{encoded}{BODY_PAYLOAD_END}\nReviewGate agent disposition recorded for `{fingerprint}`.")
}

/// D9: `receipt-sha256:` + lowercase hex SHA-256 of the body's bytes.
pub fn receipt_digest(body: &str) -> String {
    format!("{RECEIPT_PREFIX}{}", hex(&Sha256::digest(body.as_bytes())))
}

/// D9: the commit-status context attesting comment `comment_id`.
pub fn status_context(comment_id: u64) -> String {
    format!("{STATUS_CONTEXT_PREFIX}{comment_id}")
}

/// D10: reads the payload back out of a comment body: from the first prefix to
/// the first ` -->` after it, strict unpadded URL-safe base64, then §1 and D1–D6.
pub fn extract_payload(body: &str) -> Result<DispositionPayload, Problem> {
    let malformed = |message: &str| Problem::new("D10", "", message.to_string());
    let start = body
        .find(BODY_PREFIX)
        .ok_or_else(|| malformed("the body has no disposition marker"))?
        + BODY_PREFIX.len();
    let rest = &body[start..];
    let end = rest
        .find(BODY_PAYLOAD_END)
        .ok_or_else(|| malformed("the disposition marker is not closed by ` -->`"))?;
    let bytes = URL_SAFE_NO_PAD
        .decode(&rest[..end])
        .map_err(|e| malformed(&format!("the payload is not unpadded URL-safe base64: {e}")))?;
    let value = read_strict(&bytes, &ReadLimits::default())?;
    validate_payload(&value).map_err(|problems| {
        problems
            .into_iter()
            .next()
            .unwrap_or_else(|| malformed("the payload is not a valid disposition"))
    })
}

#[cfg(test)]
#[path = "disposition_tests.rs"]
mod tests;
