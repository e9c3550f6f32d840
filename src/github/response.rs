//! Reading an HTTP answer: statuses to [`GhError`], JSON bodies to types.

use super::error::GhError;
use crate::time::from_epoch_seconds;
use http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::time::{Duration, SystemTime};

/// A complete answer: status, headers and body bytes.
#[derive(Debug, Clone)]
pub struct Raw {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub bytes: Vec<u8>,
}

impl Raw {
    /// Decodes the body as `T`.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, GhError> {
        serde_json::from_slice(&self.bytes).map_err(|e| GhError::Decode { message: e.to_string() })
    }
}

/// The longest GitHub message quoted in an error.
const MAX_MESSAGE_CHARS: usize = 300;

/// Maps a non-success answer to an error. `now` dates a `retry-after`.
pub fn error_from_response(raw: &Raw, now: SystemTime) -> GhError {
    let status = raw.status.as_u16();
    let message = message_of(raw);
    if let Some(reset) = rate_limit(raw.status, &raw.headers, says_secondary_limit(&message), now) {
        return GhError::RateLimited { reset };
    }
    match status {
        401 => GhError::Unauthorized,
        403 => GhError::Forbidden { message },
        404 => GhError::NotFound { message },
        _ => GhError::Http { status, message },
    }
}

/// How long GitHub asks a client to wait after a secondary rate limit that
/// gives no time ("otherwise, wait for at least one minute before
/// retrying").
pub const SECONDARY_LIMIT_WAIT: Duration = Duration::from_secs(60);

/// True when GitHub's message says the answer is a secondary rate limit
/// (`You have exceeded a secondary rate limit ...`), in any case.
fn says_secondary_limit(message: &str) -> bool {
    message.to_lowercase().contains("secondary rate limit")
}

/// `Some(reset)` when the answer is a rate limit: 429, or 403 with
/// `x-ratelimit-remaining: 0`, a `retry-after` header, or a message that
/// says it is a secondary rate limit (`secondary`; GitHub may send one
/// without any header, and it is a wait, never a refusal). The reset is
/// GitHub's documented order: `retry-after` (seconds from now), else
/// `x-ratelimit-reset` (epoch seconds) when the limit is exhausted, else, for
/// a secondary limit, [`SECONDARY_LIMIT_WAIT`] from now, else
/// `x-ratelimit-reset` when given.
pub fn rate_limit(
    status: StatusCode,
    headers: &HeaderMap,
    secondary: bool,
    now: SystemTime,
) -> Option<Option<SystemTime>> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    let retry_after = header("retry-after").and_then(|v| v.parse::<u64>().ok());
    let exhausted = header("x-ratelimit-remaining") == Some("0");
    let limited = status == StatusCode::TOO_MANY_REQUESTS
        || (status == StatusCode::FORBIDDEN && (exhausted || secondary || header("retry-after").is_some()));
    if !limited {
        return None;
    }
    let reset_at = header("x-ratelimit-reset")
        .and_then(|v| v.parse::<u64>().ok())
        .map(from_epoch_seconds);
    let reset = match (retry_after, reset_at) {
        (Some(secs), _) => Some(now + Duration::from_secs(secs)),
        (None, Some(at)) if exhausted => Some(at),
        (None, _) if secondary => Some(now + SECONDARY_LIMIT_WAIT),
        (None, at) => at,
    };
    Some(reset)
}

#[derive(Deserialize)]
struct ErrorBody {
    message: Option<String>,
}

/// GitHub's `message`, else the status reason; one line, bounded.
fn message_of(raw: &Raw) -> String {
    let from_body = serde_json::from_slice::<ErrorBody>(&raw.bytes)
        .ok()
        .and_then(|b| b.message);
    let text = from_body.unwrap_or_else(|| raw.status.canonical_reason().unwrap_or("error").to_owned());
    let line: String = text
        .lines()
        .next()
        .unwrap_or_default()
        .chars()
        .take(MAX_MESSAGE_CHARS)
        .collect();
    line
}

#[derive(Deserialize)]
struct GraphqlAnswer<T> {
    data: Option<T>,
    #[serde(default)]
    errors: Vec<GraphqlError>,
}

#[derive(Deserialize)]
struct GraphqlError {
    message: String,
    #[serde(default, rename = "type")]
    kind: Option<Value>,
}

/// The `data` of a GraphQL answer; `errors` (even with partial data) fail.
pub fn graphql_data<T: DeserializeOwned>(raw: Raw) -> Result<T, GhError> {
    let answer: GraphqlAnswer<T> = raw.json()?;
    if let Some(first) = answer.errors.first() {
        let more = answer.errors.len() - 1;
        let suffix = if more > 0 {
            format!(" (and {more} more)")
        } else {
            String::new()
        };
        let message: String = first.message.chars().take(MAX_MESSAGE_CHARS).collect();
        // Only a short upper-case word is kept as the type: it is compared, never shown.
        let kind = first
            .kind
            .as_ref()
            .and_then(Value::as_str)
            .filter(|k| k.len() <= 40 && k.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
            .map(str::to_owned);
        return Err(GhError::GraphQl {
            message: format!("{message}{suffix}"),
            kind,
        });
    }
    answer.data.ok_or_else(|| GhError::Decode {
        message: "GraphQL answer without data".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::epoch_seconds;

    fn raw(status: u16, headers: &[(&'static str, &str)], body: &str) -> Raw {
        let mut map = HeaderMap::new();
        for (k, v) in headers {
            map.insert(*k, v.parse().unwrap());
        }
        Raw {
            status: StatusCode::from_u16(status).unwrap(),
            headers: map,
            bytes: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn primary_rate_limit_reports_the_reset_header() {
        let now = from_epoch_seconds(1_000);
        let r = raw(
            403,
            &[("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1700000000")],
            "{}",
        );
        assert_eq!(
            error_from_response(&r, now),
            GhError::RateLimited {
                reset: Some(from_epoch_seconds(1_700_000_000))
            }
        );
    }

    #[test]
    fn retry_after_wins_and_429_is_always_a_limit() {
        let now = from_epoch_seconds(1_000);
        let r = raw(429, &[("retry-after", "60"), ("x-ratelimit-reset", "5")], "{}");
        match error_from_response(&r, now) {
            GhError::RateLimited { reset: Some(t) } => assert_eq!(epoch_seconds(t), 1_060),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            error_from_response(&raw(429, &[], ""), now),
            GhError::RateLimited { reset: None }
        );
        let secondary = raw(403, &[("retry-after", "30")], r#"{"message":"secondary rate limit"}"#);
        assert!(matches!(
            error_from_response(&secondary, now),
            GhError::RateLimited { reset: Some(_) }
        ));
    }

    #[test]
    fn a_secondary_limit_without_headers_is_a_limit_of_at_least_a_minute() {
        let now = from_epoch_seconds(1_000);
        let body = r#"{"message":"You have exceeded a SECONDARY rate limit. Please wait a few minutes before you try again."}"#;
        for status in [403, 429] {
            match error_from_response(&raw(status, &[], body), now) {
                GhError::RateLimited { reset: Some(t) } => assert_eq!(epoch_seconds(t), 1_060, "{status}"),
                other => panic!("{status}: {other:?}"),
            }
        }
        let told = raw(403, &[("retry-after", "5")], body);
        match error_from_response(&told, now) {
            GhError::RateLimited { reset: Some(t) } => assert_eq!(epoch_seconds(t), 1_005),
            other => panic!("{other:?}"),
        }
        let exhausted = raw(
            403,
            &[("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "2000")],
            body,
        );
        match error_from_response(&exhausted, now) {
            GhError::RateLimited { reset: Some(t) } => assert_eq!(epoch_seconds(t), 2_000),
            other => panic!("{other:?}"),
        }
        let refused = raw(403, &[], r#"{"message":"Resource not accessible by integration"}"#);
        assert!(matches!(error_from_response(&refused, now), GhError::Forbidden { .. }));
    }

    #[test]
    fn other_statuses_keep_githubs_message() {
        let now = SystemTime::now();
        let forbidden = raw(
            403,
            &[("x-ratelimit-remaining", "4999")],
            r#"{"message":"Must have push access"}"#,
        );
        assert_eq!(
            error_from_response(&forbidden, now),
            GhError::Forbidden {
                message: "Must have push access".into()
            }
        );
        assert_eq!(error_from_response(&raw(401, &[], "{}"), now), GhError::Unauthorized);
        assert_eq!(
            error_from_response(&raw(404, &[], r#"{"message":"Not Found"}"#), now),
            GhError::NotFound {
                message: "Not Found".into()
            }
        );
        assert_eq!(
            error_from_response(&raw(502, &[], "<html>\nbad gateway"), now),
            GhError::Http {
                status: 502,
                message: "Bad Gateway".into()
            }
        );
    }

    #[test]
    fn graphql_errors_fail_even_with_data() {
        let ok = raw(200, &[], r#"{"data":{"x":1}}"#);
        assert_eq!(
            graphql_data::<serde_json::Value>(ok).unwrap(),
            serde_json::json!({"x":1})
        );
        let bad = raw(
            200,
            &[],
            r#"{"data":{"x":1},"errors":[{"message":"nope"},{"message":"also"}]}"#,
        );
        let err = graphql_data::<serde_json::Value>(bad).unwrap_err();
        assert!(err.to_string().contains("GraphQL error: nope (and 1 more)"), "{err}");
    }
}
