//! The RFC 3339 date-time format check used for date-time members.

/// RFC 3339 `date-time` (as JSON Schema's `format: date-time`):
/// `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`, `T`/`Z` in either case.
pub fn is_rfc3339_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 20 || !matches!(b[10], b'T' | b't') {
        return false;
    }
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(range)?;
        if part.iter().all(u8::is_ascii_digit) {
            Some(part.iter().fold(0u32, |acc, d| acc * 10 + u32::from(d - b'0')))
        } else {
            None
        }
    };
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    if b[4] != b'-' || b[7] != b'-' || !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (digits(11..13), digits(14..16), digits(17..19)) else {
        return false;
    };
    if b[13] != b':' || b[16] != b':' || hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match &b[i..] {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => {
            let ok = [h1, h2, m1, m2].iter().all(|d| d.is_ascii_digit());
            ok && (h1 - b'0') * 10 + (h2 - b'0') <= 23 && (m1 - b'0') * 10 + (m2 - b'0') <= 59
        }
        _ => false,
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_times() {
        assert!(is_rfc3339_date_time("2026-11-29T19:36:17.758Z"));
        assert!(is_rfc3339_date_time("2025-01-01T00:00:00Z"));
        assert!(is_rfc3339_date_time("2024-02-29t23:59:60+09:00"));
        assert!(!is_rfc3339_date_time("2025-02-29T00:00:00Z"));
        assert!(!is_rfc3339_date_time("2025-01-01 00:00:00Z"));
        assert!(!is_rfc3339_date_time("2025-01-01T00:00:00"));
        assert!(!is_rfc3339_date_time("2025-01-01T00:00:00.Z"));
        assert!(!is_rfc3339_date_time("2025-13-01T00:00:00Z"));
        assert!(!is_rfc3339_date_time("yesterday"));
    }
}
