//! Drafts kept on disk, so that text typed into the decision composer, or
//! a reply typed for a finding's GitHub thread, survives a crash, a kill or
//! a hang-up before it is confirmed or sent.
//!
//! Location: the `drafts/` directory of the state directory (see
//! [`super::state_dir`]). One JSON file per draft, named by [`draft_id`]:
//! a hash of where the review came from, the reviewed head and the
//! fingerprints the draft is about. Files are written atomically and are
//! readable by the owner only. A draft holds no credential of any kind.

use super::OutboxError;
use super::json_dir::{Claim, JsonDir};
use crate::time::now_rfc3339;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The review a draft belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DraftOrigin {
    /// A pull-request result (ReviewGate), whichever file or fetch it came
    /// from. `api`: the GitHub API the screen talks to when it is not the
    /// public one, so a GitHub Enterprise pull request and a same-named one
    /// on github.com never share drafts (drafts of the public API keep the
    /// id they had before the API was recorded).
    PullRequest {
        repository: String,
        pull_request: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        api: Option<String>,
    },
    /// A result file without a pull request, by its absolute path.
    File { path: String },
}

impl DraftOrigin {
    /// `owner/repo#N` or the file path.
    pub fn identity(&self) -> String {
        match self {
            DraftOrigin::PullRequest {
                repository,
                pull_request,
                api: None,
            } => format!("{repository}#{pull_request}"),
            DraftOrigin::PullRequest {
                repository,
                pull_request,
                api: Some(api),
            } => format!("{repository}#{pull_request}@{api}"),
            DraftOrigin::File { path } => path.clone(),
        }
    }
}

/// What a draft is the text of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DraftKind {
    /// A decision's evidence in the composer (files kept before kinds
    /// existed are these).
    #[default]
    Decision,
    /// A reply for the GitHub thread of its one finding (`evidence` holds
    /// the reply; `status` is none).
    ThreadReply,
}

/// One draft as kept on disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredDraft {
    /// The file name without `.json` ([`draft_id`] of the fields below).
    pub id: String,
    #[serde(default, skip_serializing_if = "is_decision")]
    pub kind: DraftKind,
    pub origin: DraftOrigin,
    /// The head the draft was written against, when the result names one.
    pub reviewed_sha: Option<String>,
    /// The findings the decision is for, in the composer's order.
    pub fingerprints: Vec<String>,
    /// The chosen status's wire name, once one is chosen.
    pub status: Option<String>,
    /// The evidence exactly as typed.
    pub evidence: String,
    /// When the draft was last written (stamped by [`DraftStore::put`]).
    pub updated_at: Option<String>,
}

fn is_decision(kind: &DraftKind) -> bool {
    *kind == DraftKind::Decision
}

/// The id of the decision draft of `fingerprints` on `origin` at
/// `reviewed_sha`: 32 lowercase hex digits of a SHA-256 over the three.
pub fn draft_id(origin: &DraftOrigin, reviewed_sha: Option<&str>, fingerprints: &[String]) -> String {
    draft_id_of(DraftKind::Decision, origin, reviewed_sha, fingerprints)
}

/// [`draft_id`] for a draft of `kind` (a reply's id never equals the
/// decision draft's of the same finding; a decision's is as it always was).
pub fn draft_id_of(
    kind: DraftKind,
    origin: &DraftOrigin,
    reviewed_sha: Option<&str>,
    fingerprints: &[String],
) -> String {
    let mut hash = Sha256::new();
    if kind == DraftKind::ThreadReply {
        hash.update(b"thread-reply\0");
    }
    hash.update(origin.identity().as_bytes());
    hash.update(b"\0@");
    hash.update(reviewed_sha.unwrap_or("").as_bytes());
    for fp in fingerprints {
        hash.update(b"\0");
        hash.update(fp.as_bytes());
    }
    hash.finalize().iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// The id a draft of `id` is kept under by a screen that does not hold its
/// review ([`DraftStore::claim_review`] said another screen does):
/// `screen` names that screen, so its files never replace the other
/// screen's. `None`: the screen holds the review, and `id` is the id.
pub fn screen_id(id: String, screen: Option<&str>) -> String {
    let Some(screen) = screen else { return id };
    let mut hash = Sha256::new();
    hash.update(b"screen\0");
    hash.update(screen.as_bytes());
    hash.update(b"\0");
    hash.update(id.as_bytes());
    hash.finalize().iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// True for a string shaped like a [`draft_id`] (so an id never names another file).
pub fn is_draft_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// All readable drafts and the number of files that could not be read.
#[derive(Debug, Default)]
pub struct DraftListing {
    pub drafts: Vec<StoredDraft>,
    /// Draft files that are damaged (left in place, never deleted).
    pub unreadable: usize,
}

/// A drafts directory.
#[derive(Debug, Clone)]
pub struct DraftStore {
    files: JsonDir,
}

impl DraftStore {
    /// Opens (creating it, owner-only) the drafts directory at `dir`.
    pub fn open(dir: impl Into<PathBuf>) -> Result<DraftStore, OutboxError> {
        Ok(DraftStore {
            files: JsonDir::open(dir, is_draft_id)?,
        })
    }

    /// Opens `drafts/` under the state directory.
    pub fn open_default() -> Result<DraftStore, OutboxError> {
        DraftStore::open(super::state_dir()?.join("drafts"))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        self.files.dir()
    }

    /// Writes a draft atomically, stamped with the current time.
    pub fn put(&self, draft: &StoredDraft) -> Result<(), OutboxError> {
        let stamped = StoredDraft {
            updated_at: Some(now_rfc3339()),
            ..draft.clone()
        };
        self.files.put(&draft.id, &stamped)
    }

    /// Claims `origin` for this screen, held as long as the screen is open
    /// (one try: [`OutboxError::Busy`] means another screen has the review
    /// open and may write the same drafts). The lock file is named by a
    /// hash of the review, so it never names a draft's file.
    pub fn claim_review(&self, origin: &DraftOrigin) -> Result<Claim, OutboxError> {
        let mut hash = Sha256::new();
        hash.update(b"open review\0");
        hash.update(origin.identity().as_bytes());
        let id: String = hash.finalize().iter().take(16).map(|b| format!("{b:02x}")).collect();
        self.files.claim_within(&id, 1)
    }

    /// Removes a draft; false when there was none.
    pub fn remove(&self, id: &str) -> Result<bool, OutboxError> {
        self.files.remove(id)
    }

    /// Every readable draft; damaged or foreign files are counted, not read.
    pub fn list(&self) -> Result<DraftListing, OutboxError> {
        let found = self.files.list(|d: &StoredDraft| &d.id)?;
        let mut drafts = found.values;
        drafts.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(DraftListing {
            drafts,
            unreadable: found.unreadable.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;
    use std::fs;

    fn draft(evidence: &str) -> StoredDraft {
        let origin = DraftOrigin::PullRequest {
            repository: "o/r".into(),
            pull_request: 7,
            api: None,
        };
        let fingerprints = vec!["defect:a:b".to_string()];
        StoredDraft {
            id: draft_id(&origin, Some("abc"), &fingerprints),
            kind: DraftKind::Decision,
            origin,
            reviewed_sha: Some("abc".into()),
            fingerprints,
            status: Some("fixed".into()),
            evidence: evidence.into(),
            updated_at: None,
        }
    }

    /// A draft of the public API keeps the id it had before the API was
    /// recorded (drafts kept by an older triage are still found); a GitHub
    /// Enterprise pull request of the same name has drafts of its own, and
    /// its origin is written down with the API.
    #[test]
    fn a_same_named_pull_request_on_another_api_has_drafts_of_its_own() {
        let public = draft("x");
        assert_eq!(public.id, "fd020e4cdcc7f08633be56b574a92f1d");
        let ghe = DraftOrigin::PullRequest {
            repository: "o/r".into(),
            pull_request: 7,
            api: Some("https://ghe.example/api/v3".into()),
        };
        assert_ne!(draft_id(&ghe, Some("abc"), &public.fingerprints), public.id);
        let json = serde_json::to_string(&ghe).unwrap();
        assert!(json.contains(r#""api":"https://ghe.example/api/v3""#), "{json}");
        let old: DraftOrigin =
            serde_json::from_str(r#"{"kind":"pull_request","repository":"o/r","pull_request":7}"#).unwrap();
        assert_eq!(old, public.origin);
    }

    /// The store under a state directory given as `TRIAGE_STATE_DIR`.
    fn store_in(state: &Path) -> DraftStore {
        let env = |name: &str| (name == "TRIAGE_STATE_DIR").then(|| OsString::from(state));
        let dir = super::super::state_dir_with(env, None).unwrap().join("drafts");
        DraftStore::open(dir).unwrap()
    }

    #[test]
    fn round_trip_keeps_the_text_exactly_and_leaves_no_temporary_file() {
        let tmp = tempfile::tempdir().unwrap();
        let store = store_in(tmp.path());
        assert_eq!(store.dir(), tmp.path().join("drafts"));
        let d = draft("  line one\n\ttabbed «é» \n\nend  ");
        store.put(&d).unwrap();
        let listing = store.list().unwrap();
        assert_eq!(listing.unreadable, 0);
        let [back] = listing.drafts.as_slice() else {
            panic!("one draft expected: {listing:?}");
        };
        assert_eq!(back.evidence, d.evidence);
        assert!(back.updated_at.is_some());
        assert_eq!(
            StoredDraft {
                updated_at: None,
                ..back.clone()
            },
            d
        );
        let names: Vec<_> = fs::read_dir(store.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![OsString::from(format!("{}.json", d.id))]);
        assert!(store.remove(&d.id).unwrap());
        assert!(!store.remove(&d.id).unwrap());
        assert!(store.list().unwrap().drafts.is_empty());
    }

    #[test]
    fn damaged_and_foreign_files_are_counted_not_fatal() {
        let tmp = tempfile::tempdir().unwrap();
        let store = store_in(tmp.path());
        let good = draft("kept");
        store.put(&good).unwrap();
        let garbage = "0123456789abcdef0123456789abcdef.json";
        fs::write(store.dir().join(garbage), b"{not json").unwrap();
        let mut renamed = draft("other");
        renamed.id = "ffffffffffffffffffffffffffffffff".into();
        let wrong_name = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee.json";
        fs::write(store.dir().join(wrong_name), serde_json::to_vec(&renamed).unwrap()).unwrap();
        fs::write(store.dir().join("notes.txt"), b"ignored").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let locked = store.dir().join("dddddddddddddddddddddddddddddddd.json");
            fs::write(&locked, serde_json::to_vec(&good).unwrap()).unwrap();
            fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
        }
        let listing = store.list().unwrap();
        assert_eq!(
            listing.drafts,
            vec![StoredDraft {
                updated_at: listing.drafts[0].updated_at.clone(),
                ..good
            }]
        );
        assert!(listing.unreadable >= 2, "{listing:?}");
        assert!(matches!(store.remove("../x"), Err(OutboxError::BadId { .. })));
    }

    #[test]
    fn the_id_depends_on_origin_head_and_findings() {
        let d = draft("x");
        let fps = d.fingerprints.clone();
        let other_head = draft_id(&d.origin, Some("def"), &fps);
        let file = DraftOrigin::File { path: "/r.json".into() };
        assert!(is_draft_id(&d.id));
        assert_ne!(d.id, other_head);
        assert_ne!(d.id, draft_id(&file, Some("abc"), &fps));
        assert_ne!(d.id, draft_id(&d.origin, Some("abc"), &["defect:a:c".to_string()]));
        assert_eq!(d.id, draft_id(&d.origin, Some("abc"), &fps));
    }

    #[cfg(unix)]
    #[test]
    fn files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let store = store_in(tmp.path());
        let d = draft("x");
        store.put(&d).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&store.dir().join(format!("{}.json", d.id))), 0o600);
        assert_eq!(mode(store.dir()), 0o700);
    }

    #[test]
    fn one_screen_claims_a_review_and_the_claim_is_no_draft() {
        let dir = tempfile::tempdir().unwrap();
        let store = DraftStore::open(dir.path().join("drafts")).unwrap();
        let origin = draft("x").origin;
        let other = DraftOrigin::File {
            path: "/tmp/r.json".into(),
        };
        let first = store.claim_review(&origin).unwrap();
        assert!(matches!(store.claim_review(&origin), Err(OutboxError::Busy { .. })));
        drop(store.claim_review(&other).unwrap());
        let listing = store.list().unwrap();
        assert!(listing.drafts.is_empty() && listing.unreadable == 0, "{listing:?}");
        drop(first);
        drop(store.claim_review(&origin).unwrap());
    }
}
