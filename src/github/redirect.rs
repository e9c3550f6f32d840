//! Redirects, followed by this program hop by hop, and credentials kept to
//! the API origin.
//!
//! octocrab is built without its follow-redirect layer: a `3xx` answer comes
//! back to [`super::client`], which asks [`next_hop`] where to go. The rules:
//!
//! - An API request (it carries the token) follows a redirect only to the
//!   same origin (scheme, host, port). A redirect anywhere else is refused
//!   with [`GhError::Redirected`]; nothing is sent there.
//! - A download ([`OffOrigin::Anonymous`]) may leave the API origin, but from
//!   the first hop that leaves it every later hop goes through a client that
//!   holds no credentials at all, even if the chain comes back to the API
//!   host. The token can therefore not be re-added by any later hop.
//! - A `Location` with credentials in it (`user:pw@`) is refused.
//! - At most [`MAX_HOPS`] redirects are followed.
//!
//! 303, and 301/302 after a POST, turn the request into a body-less GET (as
//! browsers do); 307 and 308 keep method and body.

use super::endpoint::redact_credentials;
use super::error::GhError;
use http::{Method, StatusCode, Uri};

/// Redirects followed at most, per request.
pub const MAX_HOPS: usize = 5;

/// What a request may do when redirected away from the API origin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffOrigin {
    /// Refuse: the request carries the token (every API call).
    Refuse,
    /// Continue with the credential-free client (artifact downloads).
    Anonymous,
}

/// The next request of a redirect chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    /// Absolute target.
    pub uri: Uri,
    /// Method of the next request.
    pub method: Method,
    /// Whether the original body is sent again (307/308).
    pub keep_body: bool,
    /// Whether the target is on the API origin.
    pub same_origin: bool,
}

/// The origin of `uri` as `url` reads it (scheme, host case-folded, port),
/// written `scheme://host:port` with the default port written out, so
/// `https://H` and `https://h:443` compare equal. `None` for a URI with
/// credentials, without a host, or of a scheme with no default port.
pub fn origin_of(uri: &Uri) -> Option<String> {
    if uri.authority()?.as_str().contains('@') {
        return None;
    }
    let url = url::Url::parse(&uri.to_string()).ok()?;
    let port = url.port_or_known_default()?;
    match url.origin() {
        url::Origin::Tuple(scheme, host, _) => Some(format!("{scheme}://{host}:{port}")),
        url::Origin::Opaque(_) => None,
    }
}

/// Where a redirect answer points, or `None` when `status` is not a
/// redirect. `current` is the absolute URI just requested; `api_origin` is
/// [`origin_of`] the API base.
pub fn next_hop(
    status: StatusCode,
    location: Option<&str>,
    current: &Uri,
    method: &Method,
    api_origin: &str,
) -> Option<Result<Hop, GhError>> {
    let (new_method, keep_body) = match status.as_u16() {
        301 | 302 if *method == Method::POST => (Method::GET, false),
        301 | 302 | 307 | 308 => (method.clone(), true),
        303 => (
            if *method == Method::HEAD {
                Method::HEAD
            } else {
                Method::GET
            },
            false,
        ),
        _ => return None,
    };
    let bad = |why: &str| GhError::Redirected {
        to: redact_credentials(location.unwrap_or("")),
        why: why.to_owned(),
    };
    let Some(location) = location.map(str::trim).filter(|l| !l.is_empty()) else {
        return Some(Err(bad("the answer has no Location")));
    };
    let Some(uri) = resolve(current, location) else {
        return Some(Err(bad("the Location is not a usable http(s) URL")));
    };
    if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        return Some(Err(bad("the Location carries credentials")));
    }
    let Some(origin) = origin_of(&uri) else {
        return Some(Err(bad("the Location is not a usable http(s) URL")));
    };
    Some(Ok(Hop {
        uri,
        method: new_method,
        keep_body,
        same_origin: origin == api_origin,
    }))
}

/// Resolves a `Location` against the URI it answered: absolute, scheme
/// relative (`//host/p`), absolute path (`/p`) or relative path (`p`).
fn resolve(current: &Uri, location: &str) -> Option<Uri> {
    let scheme = current.scheme_str()?;
    let authority = current.authority()?.as_str();
    let text = if location.starts_with("//") {
        format!("{scheme}:{location}")
    } else if location.starts_with('/') {
        format!("{scheme}://{authority}{location}")
    } else if location.contains("://") {
        location.to_owned()
    } else {
        let dir = current.path().rsplit_once('/').map_or("", |(d, _)| d);
        format!("{scheme}://{authority}{dir}/{location}")
    };
    let uri: Uri = text.parse().ok()?;
    match uri.scheme_str() {
        Some("http" | "https") if uri.authority().is_some() => Some(uri),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const API: &str = "https://api.example:443";

    fn hop(status: u16, location: &str, method: Method) -> Result<Hop, GhError> {
        let current: Uri = "https://api.example/repos/o/r/x".parse().unwrap();
        next_hop(
            StatusCode::from_u16(status).unwrap(),
            Some(location),
            &current,
            &method,
            API,
        )
        .unwrap()
    }

    #[test]
    fn origins_compare_with_default_ports_and_case() {
        let a = origin_of(&"https://API.example/x".parse().unwrap()).unwrap();
        let b = origin_of(&"https://api.example:443/y".parse().unwrap()).unwrap();
        assert_eq!(a, b);
        let other = origin_of(&"http://api.example/x".parse().unwrap()).unwrap();
        assert_ne!(a, other, "the scheme is part of the origin");
        assert_ne!(a, origin_of(&"https://api.example:8443/".parse().unwrap()).unwrap());
    }

    #[test]
    fn locations_resolve_against_the_current_uri() {
        assert_eq!(
            hop(302, "/a?b=1", Method::GET).unwrap().uri,
            "https://api.example/a?b=1"
        );
        assert_eq!(
            hop(302, "y", Method::GET).unwrap().uri,
            "https://api.example/repos/o/r/y"
        );
        let far = hop(302, "//blob.example/z", Method::GET).unwrap();
        assert_eq!(far.uri, "https://blob.example/z");
        assert!(!far.same_origin);
        assert!(hop(301, "https://api.example/q", Method::GET).unwrap().same_origin);
    }

    #[test]
    fn methods_change_as_browsers_do() {
        let post = hop(302, "/p", Method::POST).unwrap();
        assert_eq!((post.method, post.keep_body), (Method::GET, false));
        let kept = hop(307, "/p", Method::POST).unwrap();
        assert_eq!((kept.method, kept.keep_body), (Method::POST, true));
        let see_other = hop(303, "/p", Method::DELETE).unwrap();
        assert_eq!((see_other.method, see_other.keep_body), (Method::GET, false));
    }

    #[test]
    fn bad_locations_are_refused_without_echoing_credentials() {
        let err = hop(302, "https://user:s3cret@evil.example/", Method::GET).unwrap_err();
        let text = err.to_string();
        assert!(!text.contains("s3cret"), "{text}");
        assert!(text.contains("credentials"), "{text}");
        assert!(hop(302, "ftp://x/y", Method::GET).is_err());
        assert!(hop(302, "  ", Method::GET).is_err());
        let current: Uri = "https://api.example/".parse().unwrap();
        assert!(next_hop(StatusCode::OK, None, &current, &Method::GET, API).is_none());
        assert!(next_hop(StatusCode::NOT_MODIFIED, None, &current, &Method::GET, API).is_none());
    }
}
