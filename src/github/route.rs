//! REST routes built from encoded segments, and the repository name type.
//!
//! No route is ever assembled by string concatenation of outside text: every
//! variable part goes through [`Route::new`], which percent-encodes it, so a
//! value cannot add path segments, a query or another host.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use std::fmt;

/// What a path segment keeps raw: RFC 3986's unreserved `A-Z a-z 0-9 - _ . ~`
/// (so no `/`, `?`, `#` or `%` of a value survives into the route).
const PATH_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// A segment that is only dots (`.`, `..`) would move up the path once a
/// server resolves it, so every byte of it is escaped: nothing stays raw.
const DOT_SEGMENT: &AsciiSet = NON_ALPHANUMERIC;

/// What a query key or value keeps raw: the unreserved bytes, as in a path
/// segment (no `&`, `=` or `+` of a value survives).
const QUERY_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// A REST route relative to the API base (`/repos/o/r/pulls/1?per_page=100`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    path: String,
    query: Vec<(String, String)>,
}

impl Route {
    /// Joins segments, percent-encoding every byte outside `A-Z a-z 0-9 - _ . ~`
    /// (and the whole segment when it is `.` or `..`).
    pub fn new<S: AsRef<str>>(segments: impl IntoIterator<Item = S>) -> Route {
        let mut path = String::new();
        for segment in segments {
            path.push('/');
            path.push_str(&encode_segment(segment.as_ref()));
        }
        if path.is_empty() {
            path.push('/');
        }
        Route {
            path,
            query: Vec::new(),
        }
    }

    /// A route under `/repos/{owner}/{name}/`.
    pub fn repo<S: AsRef<str>>(repo: &RepoName, rest: impl IntoIterator<Item = S>) -> Route {
        let mut segments: Vec<String> = vec!["repos".into(), repo.owner().into(), repo.name().into()];
        segments.extend(rest.into_iter().map(|s| s.as_ref().to_owned()));
        Route::new(segments)
    }

    /// Adds a query parameter (key and value encoded).
    pub fn query(mut self, key: &str, value: impl fmt::Display) -> Route {
        self.query.push((key.to_owned(), value.to_string()));
        self
    }

    /// The path without the query.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Path and query, ready to be joined to the API base.
    pub fn path_and_query(&self) -> String {
        let mut out = self.path.clone();
        for (i, (k, v)) in self.query.iter().enumerate() {
            out.push(if i == 0 { '?' } else { '&' });
            out.extend(utf8_percent_encode(k, QUERY_COMPONENT));
            out.push('=');
            out.extend(utf8_percent_encode(v, QUERY_COMPONENT));
        }
        out
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path_and_query())
    }
}

fn encode_segment(s: &str) -> String {
    let set = if s.bytes().all(|b| b == b'.') {
        DOT_SEGMENT
    } else {
        PATH_SEGMENT
    };
    utf8_percent_encode(s, set).to_string()
}

/// A repository `OWNER/NAME` whose parts GitHub could actually have: owner of
/// `A-Z a-z 0-9 -`, name of `A-Z a-z 0-9 . _ -` (not `.` or `..`), each at
/// most 100 bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RepoName {
    full: String,
    slash: usize,
}

impl RepoName {
    /// Parses `OWNER/NAME`, refusing anything else (the text is kept exactly).
    pub fn parse(full: &str) -> Result<RepoName, RepoNameError> {
        let (owner, name) = full.split_once('/').ok_or(RepoNameError::NoSlash)?;
        let owner_ok =
            !owner.is_empty() && owner.len() <= 100 && owner.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        let name_ok = !name.is_empty()
            && name.len() <= 100
            && name != "."
            && name != ".."
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
        if !owner_ok || !name_ok {
            return Err(RepoNameError::Characters);
        }
        Ok(RepoName {
            full: full.to_owned(),
            slash: owner.len(),
        })
    }

    /// The owner part.
    pub fn owner(&self) -> &str {
        &self.full[..self.slash]
    }

    /// The name part.
    pub fn name(&self) -> &str {
        &self.full[self.slash + 1..]
    }

    /// `OWNER/NAME` exactly as given.
    pub fn as_str(&self) -> &str {
        &self.full
    }
}

impl fmt::Display for RepoName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.full)
    }
}

/// Why a repository name cannot be used on GitHub.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RepoNameError {
    /// Not of the form `OWNER/NAME`.
    #[error("the repository must be OWNER/NAME")]
    NoSlash,
    /// Characters GitHub does not allow in owner or repository names.
    #[error(
        "the repository name has characters GitHub does not allow (OWNER: letters, digits, '-'; NAME: letters, digits, '.', '_', '-')"
    )]
    Characters,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_cannot_escape_their_place() {
        let r = Route::new(["repos", "a/b", "..", "c?d#e", "x y", "é"]);
        assert_eq!(r.path(), "/repos/a%2Fb/%2E%2E/c%3Fd%23e/x%20y/%C3%A9");
        let q = Route::new(["user"]).query("per_page", 100).query("a&b", "c=d");
        assert_eq!(q.path_and_query(), "/user?per_page=100&a%26b=c%3Dd");
        let kept = Route::new(["A-z_0.9~", ".x", "...", "", "%41"]);
        assert_eq!(kept.path(), "/A-z_0.9~/.x/%2E%2E%2E//%2541");
        let plus = Route::new(["s"]).query("q", "a+b c~%/?");
        assert_eq!(plus.path_and_query(), "/s?q=a%2Bb%20c~%25%2F%3F");
    }

    #[test]
    fn repository_routes() {
        let repo = RepoName::parse("LVTD-LLC/review.gate_x").unwrap();
        assert_eq!(repo.owner(), "LVTD-LLC");
        assert_eq!(repo.name(), "review.gate_x");
        let r = Route::repo(&repo, ["pulls", "48"]);
        assert_eq!(r.path(), "/repos/LVTD-LLC/review.gate_x/pulls/48");
    }

    #[test]
    fn repository_names_github_cannot_have_are_refused() {
        for bad in [
            "noslash", "/x", "x/", "a/b/c", "a b/c", "a/..", "a/.", "own_er/x", "a/b?c", "ä/b",
        ] {
            assert!(RepoName::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(RepoName::parse("noslash"), Err(RepoNameError::NoSlash));
    }
}
