//! One attempt of a kept thread action, the same for `triage thread` and
//! the screen: the entry is claimed (an advisory lock beside its file, so
//! two processes never send it at once), read again under the claim
//! (another process may have settled it meanwhile), sent, and settled in
//! the store (removed once done or refused, kept with its attempt counted
//! after a failure).
//!
//! Without the claim, `triage thread retry` and a screen sending the same
//! reply together would both look for it in the thread, both find none,
//! and both post it.

use crate::github::Client;
use crate::github::thread_action::ThreadOutcome;
use crate::github::thread_send::send_thread_action;
use crate::outbox::thread_actions::{ThreadEntry, ThreadStore};
use crate::outbox::{ApiBinding, OutboxError};
use crate::sanitize::clean_line;

/// How one attempt ended.
#[derive(Debug)]
pub enum Attempt {
    /// GitHub was asked (or no client could be had: then failed, and kept);
    /// `settle` is the store's error while settling afterwards.
    Sent {
        outcome: ThreadOutcome,
        settle: Option<OutboxError>,
    },
    /// Another triage process is sending it right now: nothing was sent and
    /// the entry is left as it is.
    Busy,
    /// It was no longer kept once claimed (another process settled it):
    /// nothing was sent.
    Gone,
    /// The action was sent to another GitHub API before: nothing was sent
    /// to this one, and it stays kept as it was. The words say which.
    OtherApi(String),
    /// The claim or the read under it failed: nothing was sent.
    Store(OutboxError),
}

/// Claims, re-reads, sends and settles the kept entry `entry` (`client`
/// is the GitHub client, or why there is none).
pub async fn attempt(store: &ThreadStore, client: Result<&Client, String>, entry: &ThreadEntry) -> Attempt {
    let claim = match store.claim(&entry.id) {
        Ok(claim) => claim,
        Err(OutboxError::Busy { .. }) => return Attempt::Busy,
        Err(e) => return Attempt::Store(e),
    };
    let mut entry = match store.get(&entry.id) {
        Ok(Some(entry)) => entry,
        Ok(None) => return Attempt::Gone,
        Err(e) => return Attempt::Store(e),
    };
    // Bound to the API of its first attempt, on disk before that request.
    if let Ok(client) = client {
        let here = client.api_base().url();
        match ApiBinding::of(entry.api.as_deref(), &here) {
            ApiBinding::Here => {}
            ApiBinding::Elsewhere(api) => {
                let api = clean_line(&api);
                return Attempt::OtherApi(format!(
                    "kept for the GitHub API at {api}, and this run talks to {here}: not sent; run it with --api-url {api} (it stays kept)"
                ));
            }
            ApiBinding::Unbound => {
                entry.api = Some(here);
                if let Err(e) = store.put(&entry) {
                    return Attempt::Store(e);
                }
            }
        }
    }
    let outcome = match client {
        Ok(client) => send_thread_action(client, &entry.request).await,
        Err(reason) => ThreadOutcome::Failed { reason },
    };
    let settle = store.settle(&claim, &entry, &outcome).err();
    Attempt::Sent { outcome, settle }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::thread_action::{ThreadRequest, ThreadVerb};

    fn run(store: &ThreadStore, entry: &ThreadEntry) -> Attempt {
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
        runtime.block_on(attempt(store, Err("no token".into()), entry))
    }

    fn kept(store: &ThreadStore) -> ThreadEntry {
        store
            .keep(ThreadRequest {
                repository: "o/r".into(),
                pull_request: 3,
                fingerprint: "defect:a".into(),
                expected_head: None,
                verb: ThreadVerb::Reply { body: "words".into() },
            })
            .expect("keep")
    }

    #[test]
    fn a_held_entry_is_left_as_it_is_and_a_settled_one_is_not_sent() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = ThreadStore::open(dir.path().join("threads")).expect("store");
        let entry = kept(&store);
        let claim = store.claim(&entry.id).expect("claim");
        assert!(matches!(run(&store, &entry), Attempt::Busy));
        assert_eq!(store.get(&entry.id).expect("get"), Some(entry.clone()), "untouched");
        drop(claim);
        store.remove(&entry.id).expect("remove");
        assert!(matches!(run(&store, &entry), Attempt::Gone));
        assert_eq!(store.get(&entry.id).expect("get"), None, "not written back");
    }

    #[test]
    fn without_a_client_the_attempt_fails_and_stays_kept_with_its_count() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = ThreadStore::open(dir.path().join("threads")).expect("store");
        let entry = kept(&store);
        match run(&store, &entry) {
            Attempt::Sent {
                outcome: ThreadOutcome::Failed { reason },
                settle: None,
            } => assert_eq!(reason, "no token"),
            other => panic!("{other:?}"),
        }
        let after = store.get(&entry.id).expect("get").expect("kept");
        assert_eq!(after.attempts, 1);
        // The claim is released once the attempt ends.
        drop(store.claim(&entry.id).expect("claimable again"));
    }
}
