//! Clean-up deletes of disposition comments, written down before they are
//! sent. A DELETE whose answer is lost may still land later; a comment it
//! names is therefore never reused, and the next attempt sends the DELETE
//! again (a 404 counts as done) before it posts afresh.

use super::client::Client;
use super::error::GhError;
use super::route::Route;
use crate::decision::decide::Target;

/// Where a submission writes down the deletes it is about to send (the
/// outbox entry, for the command line and the screen).
pub trait Journal {
    /// Called before a DELETE is sent. An error stops the DELETE: the
    /// comment stays on GitHub and is reported as left behind.
    fn deleting(&mut self, comment_id: u64) -> Result<(), String>;
    /// The comment is known to be gone.
    fn deleted(&mut self, comment_id: u64);
}

/// A journal that keeps nothing (tests, and callers without an outbox).
#[derive(Debug, Default, Clone, Copy)]
pub struct NoJournal;

impl Journal for NoJournal {
    fn deleting(&mut self, _comment_id: u64) -> Result<(), String> {
        Ok(())
    }
    fn deleted(&mut self, _comment_id: u64) {}
}

/// Sends the DELETE of a comment; `Ok` when it is gone (a 404 means already gone).
pub async fn delete_comment(client: &Client, target: &Target, comment_id: u64) -> Result<(), GhError> {
    let id = comment_id.to_string();
    let route = Route::repo(&target.repository, ["issues", "comments", id.as_str()]);
    match client.delete(&route).await {
        Ok(()) | Err(GhError::NotFound { .. }) => Ok(()),
        Err(error) => Err(error),
    }
}

/// Writes the delete down, sends it, and notes when it is done; true when
/// the comment is gone.
pub async fn remove_comment(client: &Client, target: &Target, comment_id: u64, journal: &mut dyn Journal) -> bool {
    if let Err(why) = journal.deleting(comment_id) {
        tracing::warn!(comment_id, %why, "a clean-up delete could not be written down; not sent");
        return false;
    }
    match delete_comment(client, target, comment_id).await {
        Ok(()) => {
            journal.deleted(comment_id);
            true
        }
        Err(error) => {
            tracing::warn!(comment_id, %error, "could not delete a disposition comment");
            false
        }
    }
}
