//! UTC time for the whole program, on `jiff`: the clock, RFC 3339 text in the
//! two shapes `triage` writes, parsing, and waits.
//!
//! - Outbox entries, drafts and rate-limit resets use whole seconds:
//!   `YYYY-MM-DDTHH:MM:SSZ` ([`rfc3339`], [`now_rfc3339`]).
//! - River Review's files use JavaScript's `Date.prototype.toISOString`, with
//!   exactly three fractional digits: `YYYY-MM-DDTHH:MM:SS.mmmZ`
//!   ([`iso_millis`]); time there is always a parameter in Unix milliseconds
//!   and only the command edge reads the clock ([`now_millis`]).
//!
//! The River validator's own date-time reader
//! (`model::river::reader::date_time`) is deliberately not built on this: it
//! reproduces the exact acceptance rules of River's schema checker.
//!
//! Instants outside jiff's range (years -9999..=9999) are clamped to its ends;
//! no clock or file `triage` reads comes near them.

use jiff::{SignedDuration, Timestamp};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, as the edge supplies them.
pub type UnixMillis = i64;

/// The current instant.
pub fn now() -> Timestamp {
    Timestamp::now()
}

/// The current time in Unix milliseconds.
pub fn now_millis() -> UnixMillis {
    now().as_millisecond()
}

/// The current time as [`rfc3339`] text.
pub fn now_rfc3339() -> String {
    format!("{:.0}", now())
}

/// Seconds since the Unix epoch (0 for clocks set before 1970).
pub fn epoch_seconds(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The instant `secs` seconds after the Unix epoch.
pub fn from_epoch_seconds(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

/// `YYYY-MM-DDTHH:MM:SSZ` for an instant (UTC, whole seconds, truncated).
pub fn rfc3339(t: SystemTime) -> String {
    format!("{:.0}", timestamp(t))
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` for a Unix millisecond time (River's form).
pub fn iso_millis(ms: UnixMillis) -> String {
    let at = Timestamp::from_millisecond(ms).unwrap_or(if ms < 0 { Timestamp::MIN } else { Timestamp::MAX });
    format!("{at:.3}")
}

/// `YYYY-MM` of a timestamp written by [`iso_millis`] (the feedback file name).
pub fn month_of(iso: &str) -> &str {
    iso.get(..7).unwrap_or(iso)
}

/// Reads an RFC 3339 date-time with an offset (`Z` or `±HH:MM`); `None` for
/// anything else.
pub fn parse_rfc3339(text: &str) -> Option<Timestamp> {
    text.parse().ok()
}

/// How long from `now` until `at` (zero when `at` has passed).
pub fn until(at: SystemTime, now: SystemTime) -> Duration {
    at.duration_since(now).unwrap_or(Duration::ZERO)
}

/// How long ago `then` was, seen from `now` (zero for a time in the future).
pub fn age(then: Timestamp, now: Timestamp) -> Duration {
    let elapsed: SignedDuration = now.duration_since(then);
    Duration::try_from(elapsed).unwrap_or(Duration::ZERO)
}

/// A `SystemTime` as a jiff instant, clamped to jiff's range.
fn timestamp(t: SystemTime) -> Timestamp {
    Timestamp::try_from(t).unwrap_or(if t < UNIX_EPOCH { Timestamp::MIN } else { Timestamp::MAX })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_seconds_of_known_instants() {
        assert_eq!(rfc3339(from_epoch_seconds(0)), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(from_epoch_seconds(951_782_400)), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(from_epoch_seconds(1_700_000_000)), "2023-11-14T22:13:20Z");
        assert_eq!(rfc3339(from_epoch_seconds(4_102_444_799)), "2099-12-31T23:59:59Z");
        // Sub-second parts are cut, never rounded up.
        assert_eq!(
            rfc3339(from_epoch_seconds(59) + Duration::from_millis(999)),
            "1970-01-01T00:00:59Z"
        );
        assert_eq!(epoch_seconds(from_epoch_seconds(1_234_567)), 1_234_567);
        assert_eq!(epoch_seconds(UNIX_EPOCH - Duration::from_secs(5)), 0);
    }

    #[test]
    fn milliseconds_like_to_iso_string() {
        assert_eq!(iso_millis(0), "1970-01-01T00:00:00.000Z");
        // The feedback example of River Review's own run.
        assert_eq!(iso_millis(1_795_980_984_116), "2026-11-29T19:36:24.116Z");
        assert_eq!(iso_millis(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_millis(1_709_251_199_999), "2024-02-29T23:59:59.999Z");
        assert_eq!(iso_millis(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(month_of("2026-11-29T19:36:24.116Z"), "2026-11");
    }

    #[test]
    fn the_clock_reads_after_2020_in_both_shapes() {
        assert!(now_millis() > 1_577_836_800_000);
        let text = now_rfc3339();
        assert_eq!((text.len(), text.ends_with('Z')), (20, true), "{text}");
        assert!(parse_rfc3339(&text).is_some_and(|t| t.as_second() > 1_577_836_800));
    }

    #[test]
    fn parsing_and_waits() {
        let at = parse_rfc3339("2023-11-14T23:13:20+01:00").map(|t| t.as_second());
        assert_eq!(at, Some(1_700_000_000));
        assert_eq!(parse_rfc3339("2023-11-14"), None);
        assert_eq!(parse_rfc3339("yesterday"), None);
        let (a, b) = (from_epoch_seconds(100), from_epoch_seconds(160));
        assert_eq!((until(b, a), until(a, b)), (Duration::from_secs(60), Duration::ZERO));
        let (then, later) = (Timestamp::from_second(100).ok(), Timestamp::from_second(190).ok());
        let (Some(then), Some(later)) = (then, later) else {
            panic!("in range");
        };
        assert_eq!(
            (age(then, later), age(later, then)),
            (Duration::from_secs(90), Duration::ZERO)
        );
    }
}
