//! UTC timestamps in the exact form River Review writes them
//! (JavaScript's `Date.prototype.toISOString`: `YYYY-MM-DDTHH:MM:SS.mmmZ`).
//!
//! Time is always a parameter (Unix milliseconds); only the command edge reads
//! the clock, through [`now_millis`].

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, as the edge supplies them.
pub type UnixMillis = i64;

/// The current time in Unix milliseconds (the only clock read in this module).
pub fn now_millis() -> UnixMillis {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX),
    }
}

/// Civil date (year, month, day) of a day count since 1970-01-01 (proleptic
/// Gregorian calendar; the classic era-based conversion).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` for a Unix millisecond time (years 0..=9999).
pub fn iso_millis(ms: UnixMillis) -> String {
    let days = ms.div_euclid(86_400_000);
    let rest = ms.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let (h, m, s, milli) = (rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

/// `YYYY-MM` of a timestamp written by [`iso_millis`] (the feedback file name).
pub fn month_of(iso: &str) -> &str {
    iso.get(..7).unwrap_or(iso)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_to_iso_string() {
        assert_eq!(iso_millis(0), "1970-01-01T00:00:00.000Z");
        // The feedback example of River Review's own run.
        assert_eq!(iso_millis(1_795_980_984_116), "2026-11-29T19:36:24.116Z");
        assert_eq!(iso_millis(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_millis(1_709_251_199_999), "2024-02-29T23:59:59.999Z");
        assert_eq!(iso_millis(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(month_of("2026-11-29T19:36:24.116Z"), "2026-11");
    }

    #[test]
    fn clock_is_after_2020() {
        assert!(now_millis() > 1_577_836_800_000);
    }
}
