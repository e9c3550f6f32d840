//! The `format: date-time` check exactly as River Review's validator applies
//! it (Ajv 2020 with ajv-formats 3.0.1, "full" formats), so a timestamp River
//! accepts is accepted here and one it rejects is rejected here.
//!
//! ajv-formats splits the text at `T`, `t` or any JavaScript whitespace
//! character into exactly two parts, then checks:
//! - date `DDDD-DD-DD` (ASCII digits), month 1..=12, day within the month
//!   (February 29 in Gregorian leap years);
//! - time `DD:DD:DD[.D+]` then a zone that must be present: `Z`/`z`, or
//!   `+`/`-` `HH`, optionally followed by `MM` or `:MM` (so `+09`, `+0900` and
//!   `+09:00` all pass), zone hours <= 23 and minutes <= 59;
//! - hour <= 23, minute <= 59, seconds < 60; otherwise a leap second, which
//!   is accepted only when the time converted to UTC is 23:59 (seconds < 61).
//!   So `2026-06-30T23:59:60Z` passes and `2026-06-30T12:59:60Z` fails.
//!
//! This is looser than RFC 3339 in places (space separator, short zones) and
//! is deliberate: River's own gate is the judge of what River reads.

use crate::model::fingerprint::is_js_space;

/// A date-time's parts as written (before any conversion to UTC).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DateTimeParts {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    /// Seconds with their fraction (`60.x` only for an accepted leap second).
    pub second: f64,
    /// The fraction's first three digits, as milliseconds.
    pub millis: u32,
    /// The zone offset east of UTC, in minutes.
    pub offset_minutes: i64,
}

/// True when River's validator accepts `s` as `format: date-time`.
pub fn is_rfc3339_date_time(s: &str) -> bool {
    parse_date_time(s).is_some()
}

/// Parses a date-time as ajv-formats accepts it (see the module documentation).
pub fn parse_date_time(s: &str) -> Option<DateTimeParts> {
    let mut parts = s.split(|c: char| c == 'T' || c == 't' || is_js_space(c));
    let (date, time) = (parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let (year, month, day) = parse_date(date)?;
    let (hour, minute, second, offset_minutes) = parse_time(time)?;
    let millis = time.split_once('.').map_or(0, |(_, frac)| {
        let digits: Vec<u32> = frac
            .bytes()
            .take_while(u8::is_ascii_digit)
            .map(|d| u32::from(d - b'0'))
            .collect();
        (0..3).fold(0, |acc, i| acc * 10 + digits.get(i).copied().unwrap_or(0))
    });
    Some(DateTimeParts {
        year,
        month,
        day,
        hour,
        minute,
        second,
        millis,
        offset_minutes,
    })
}

/// `YYYY-MM-DD` with a valid month and day.
pub fn parse_date(s: &str) -> Option<(i64, u32, u32)> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = digits(&b[0..4])?;
    let month = digits(&b[5..7])?;
    let day = digits(&b[8..10])?;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    Some((i64::from(year), month, day))
}

fn digits(part: &[u8]) -> Option<u32> {
    part.iter()
        .all(u8::is_ascii_digit)
        .then(|| part.iter().fold(0u32, |acc, d| acc * 10 + u32::from(d - b'0')))
}

/// `HH:MM:SS[.frac]` and a required zone; returns (hour, minute, seconds, offset minutes).
fn parse_time(s: &str) -> Option<(u32, u32, f64, i64)> {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return None;
    }
    let hour = digits(&b[0..2])?;
    let minute = digits(&b[3..5])?;
    digits(&b[6..8])?;
    let mut i = 8;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    // The seconds as JavaScript's unary `+` reads them (plain decimal digits).
    let second: f64 = s[6..i].parse().ok()?;
    let (sign, tz_h, tz_m) = match &b[i..] {
        [b'Z' | b'z'] => (1, 0, 0),
        [sign @ (b'+' | b'-'), rest @ ..] => {
            let sign = if *sign == b'-' { -1 } else { 1 };
            match rest {
                [h1, h2] => (sign, digits(&[*h1, *h2])?, 0),
                [h1, h2, m1, m2] | [h1, h2, b':', m1, m2] => (sign, digits(&[*h1, *h2])?, digits(&[*m1, *m2])?),
                _ => return None,
            }
        }
        _ => return None,
    };
    if tz_h > 23 || tz_m > 59 {
        return None;
    }
    let offset = sign * (i64::from(tz_h) * 60 + i64::from(tz_m));
    if hour <= 23 && minute <= 59 && second < 60.0 {
        return Some((hour, minute, second, offset));
    }
    // A leap second: only at 23:59 UTC.
    let utc_min = i64::from(minute) - i64::from(tz_m) * sign;
    let utc_hr = i64::from(hour) - i64::from(tz_h) * sign - i64::from(utc_min < 0);
    let leap = matches!(utc_hr, 23 | -1) && matches!(utc_min, 59 | -1) && second < 61.0;
    leap.then_some((hour, minute, second, offset))
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

impl DateTimeParts {
    /// The instant in Unix milliseconds, as JavaScript's `Date` reads it (a
    /// leap second counts as the next second; fractions beyond milliseconds
    /// are dropped).
    pub fn unix_millis(&self) -> i64 {
        let days = days_from_civil(self.year, self.month, self.day);
        let whole = self.second.trunc() as i64;
        let millis = i64::from(self.millis);
        let local = days * 86_400_000
            + i64::from(self.hour) * 3_600_000
            + i64::from(self.minute) * 60_000
            + whole * 1000
            + millis;
        local - self.offset_minutes * 60_000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_what_ajv_formats_accepts() {
        for ok in [
            "2026-11-29T19:36:17.758Z",
            "2025-01-01T00:00:00Z",
            "2026-06-12 08:00:00Z",
            "2026-06-12\t08:00:00z",
            "2026-06-12t08:00:00+0900",
            "2026-06-12T08:00:00+09",
            "2026-06-12T08:00:00-09:30",
            "2024-02-29T00:00:00Z",
            "2026-06-30T23:59:60Z",
            "2026-06-30T23:59:60.5Z",
            "2026-07-01T08:59:60+09:00",
            "2026-06-30T22:59:60-01:00",
            "2026-06-12T08:00:00.123456789Z",
        ] {
            assert!(is_rfc3339_date_time(ok), "{ok}");
        }
    }

    #[test]
    fn rejects_what_ajv_formats_rejects() {
        for bad in [
            "2026-06-30T12:59:60Z",
            "2026-06-30T23:58:60Z",
            "2026-06-30T23:59:61Z",
            "2025-02-29T00:00:00Z",
            "2025-01-01T00:00:00",
            "2025-01-01T00:00:00.Z",
            "2025-13-01T00:00:00Z",
            "2025-01-01T24:00:00Z",
            "2025-01-01T00:00:00+9",
            "2025-01-01T00:00:00+090",
            "2025-01-01T00:00:00+24:00",
            "2025-01-01T00:00:00+09:60",
            "2025-01-01T00:00:00Z ",
            "2025-01-01TT00:00:00Z",
            "2025-01-01",
            "２０２５-01-01T00:00:00Z",
            "yesterday",
        ] {
            assert!(!is_rfc3339_date_time(bad), "{bad}");
        }
    }

    #[test]
    fn instants() {
        let at = |s: &str| parse_date_time(s).unwrap().unix_millis();
        assert_eq!(at("1970-01-01T00:00:00Z"), 0);
        assert_eq!(at("2026-11-29T19:36:24.116Z"), 1_795_980_984_116);
        assert_eq!(at("2026-11-30T04:36:24.116+09"), 1_795_980_984_116);
        assert_eq!(at("2000-02-29T00:00:00Z"), 951_782_400_000);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
    }
}
