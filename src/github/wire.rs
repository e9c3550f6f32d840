//! The few GitHub REST shapes this program reads and writes, as small serde
//! structs (octocrab's typed models demand complete documents). Unknown
//! members are ignored; everything read here is untrusted text until checked.

use serde::{Deserialize, Serialize};

/// `GET /user`, and the `user`/`creator` of comments and statuses.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Account {
    pub login: String,
}

/// `GET /repos/{repo}/collaborators/{login}/permission`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PermissionLevel {
    /// `admin`, `write`, `read` or `none` (maintain reads as write, triage as read).
    pub permission: String,
    /// The finer role (`admin`, `maintain`, `write`, `triage`, `read`, or a custom name).
    #[serde(default)]
    pub role_name: Option<String>,
}

/// `GET /repos/{repo}`: only the authenticated user's permissions on it,
/// which GitHub includes in an authenticated answer. The protocol's write
/// check reads them here rather than from
/// `collaborators/{login}/permission`: the same fact about the token's user,
/// without waiting for `GET /user` to name the login first.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RepositoryAccess {
    #[serde(default)]
    pub permissions: Option<RepoPermissions>,
}

/// The role flags of [`RepositoryAccess`] (an absent flag is false).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub struct RepoPermissions {
    #[serde(default)]
    pub admin: bool,
    #[serde(default)]
    pub maintain: bool,
    #[serde(default)]
    pub push: bool,
    #[serde(default)]
    pub triage: bool,
    #[serde(default)]
    pub pull: bool,
}

impl RepositoryAccess {
    /// The highest role as the collaborator endpoint names it (`push` is
    /// `write`; no flags, or no `permissions` at all, is `none`).
    pub fn level(&self) -> PermissionLevel {
        let p = self.permissions.unwrap_or_default();
        let role = match () {
            _ if p.admin => "admin",
            _ if p.maintain => "maintain",
            _ if p.push => "write",
            _ if p.triage => "triage",
            _ if p.pull => "read",
            _ => "none",
        };
        PermissionLevel {
            permission: role.to_owned(),
            role_name: Some(role.to_owned()),
        }
    }
}

/// `GET /repos/{repo}/pulls/{n}` (the members the protocol checks).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PullRequest {
    pub number: u64,
    pub state: String,
    pub head: PullHead,
    pub base: PullBase,
}

/// The head of a pull request.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PullHead {
    pub sha: String,
}

/// The base of a pull request.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PullBase {
    /// Absent or null when the repository is not visible.
    #[serde(default)]
    pub repo: Option<BaseRepository>,
}

/// The base repository of a pull request.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct BaseRepository {
    pub full_name: String,
}

/// One issue comment (`GET`/`POST /repos/{repo}/issues/{n}/comments`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct IssueComment {
    pub id: u64,
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub user: Option<Account>,
}

/// Body of `POST /repos/{repo}/issues/{n}/comments`.
#[derive(Debug, Clone, Serialize)]
pub struct NewComment<'a> {
    pub body: &'a str,
}

/// Body of `POST /repos/{repo}/statuses/{sha}`.
#[derive(Debug, Clone, Serialize)]
pub struct NewStatus<'a> {
    pub state: &'a str,
    pub target_url: &'a str,
    pub description: &'a str,
    pub context: &'a str,
}

/// Answer of `POST /repos/{repo}/statuses/{sha}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct CreatedStatus {
    #[serde(default)]
    pub id: Option<u64>,
    #[serde(default)]
    pub creator: Option<Account>,
}

/// `GET /repos/{repo}/commits/{sha}/status`: the combined status (one page).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct CombinedStatus {
    /// Required: an answer without it is not a combined status.
    pub statuses: Vec<StatusEntry>,
}

/// One status of a combined status (members may be null).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct StatusEntry {
    #[serde(default)]
    pub context: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub state: Option<String>,
    #[serde(default)]
    pub creator: Option<Account>,
}
