//! UTC timestamps without a calendar crate: RFC 3339 text for outbox entries
//! and rate-limit reset times.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch (0 for clocks set before 1970).
pub fn epoch_seconds(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The instant `secs` seconds after the Unix epoch.
pub fn from_epoch_seconds(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

/// `YYYY-MM-DDTHH:MM:SSZ` for an instant (UTC, whole seconds).
pub fn rfc3339(t: SystemTime) -> String {
    let secs = epoch_seconds(t);
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The current time as [`rfc3339`] text.
pub fn now_rfc3339() -> String {
    rfc3339(SystemTime::now())
}

/// Converts days since 1970-01-01 to a proleptic Gregorian (year, month, day).
/// The era arithmetic follows the well-known days-from-civil inversion.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(rfc3339(from_epoch_seconds(0)), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(from_epoch_seconds(951_782_400)), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(from_epoch_seconds(1_700_000_000)), "2023-11-14T22:13:20Z");
        assert_eq!(rfc3339(from_epoch_seconds(4_102_444_799)), "2099-12-31T23:59:59Z");
    }

    #[test]
    fn epoch_round_trip() {
        assert_eq!(epoch_seconds(from_epoch_seconds(1_234_567)), 1_234_567);
    }
}
