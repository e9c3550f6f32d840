//! Byte scanning helpers: JSON white space (for the reader) and the next
//! byte inside a string that needs attention (quote, backslash, control
//! character), which the reader unescapes and the canonical writer escapes.

const LANE: usize = 8;
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Skips space, tab, LF and CR (the only white space JSON allows, P3).
///
/// The spaces after a line feed (the indentation of a pretty-printed
/// document) are stepped over eight bytes at a time.
#[inline]
pub(crate) fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    loop {
        match bytes.get(i) {
            Some(b' ' | b'\t' | b'\r') => i += 1,
            Some(b'\n') => i = skip_spaces(bytes, i + 1),
            _ => return i,
        }
    }
}

/// Skips the spaces at `i`, a word at a time, stopping at the last word
/// that does not fit (the byte loop of [`skip_ws`] finishes the run).
#[inline]
fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    while i + LANE <= bytes.len() {
        let other = word_at(bytes, i) ^ (ONES * u64::from(b' '));
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += LANE;
    }
    i
}

/// The eight bytes at `i` as a little-endian word (`i + 8` is in bounds).
#[inline]
fn word_at(bytes: &[u8], i: usize) -> u64 {
    let mut lane = [0u8; LANE];
    lane.copy_from_slice(&bytes[i..i + LANE]);
    u64::from_le_bytes(lane)
}

/// Marks the high bit of every byte lane of `word` that is zero. The lowest
/// marked lane is always a true zero (higher marks may be borrow artefacts).
#[inline]
fn zero_lanes(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGH
}

/// Marks lanes holding `"`, `\` or a byte below 0x20 (lowest mark exact).
#[inline]
fn special_lanes(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    control | zero_lanes(word ^ (ONES * u64::from(b'"'))) | zero_lanes(word ^ (ONES * u64::from(b'\\')))
}

#[inline]
fn is_special(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// Offset of the first `"`, `\` or control byte at or after `i`, or
/// `bytes.len()` when there is none.
#[inline]
pub(crate) fn find_string_special(bytes: &[u8], mut i: usize) -> usize {
    while i + LANE <= bytes.len() {
        let marks = special_lanes(word_at(bytes, i));
        if marks != 0 {
            return i + (marks.trailing_zeros() / 8) as usize;
        }
        i += LANE;
    }
    while i < bytes.len() && !is_special(bytes[i]) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(bytes: &[u8], i: usize) -> usize {
        bytes[i..]
            .iter()
            .position(|&b| is_special(b))
            .map_or(bytes.len(), |p| i + p)
    }

    #[test]
    fn finds_the_first_special_byte_in_every_lane_position() {
        for len in 0..40 {
            for at in 0..len {
                for special in [b'"', b'\\', 0x00, 0x1F, 0x0A] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = special;
                    // Bytes around the target that must not be mistaken for it.
                    if at + 1 < len {
                        bytes[at + 1] = 0xFF;
                    }
                    for start in 0..=at {
                        assert_eq!(
                            find_string_special(&bytes, start),
                            at,
                            "len {len} at {at} start {start}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn agrees_with_a_plain_loop_on_all_byte_values() {
        let bytes: Vec<u8> = (0..=255u8).rev().chain(0..=255u8).chain([b'a'; 9]).collect();
        for start in 0..bytes.len() {
            assert_eq!(
                find_string_special(&bytes, start),
                naive(&bytes, start),
                "start {start}"
            );
        }
        let plain = "héllo wörld, no specials here at all 😀".as_bytes();
        assert_eq!(find_string_special(plain, 0), plain.len());
    }

    #[test]
    fn skips_white_space_runs_of_every_length_and_mix() {
        for len in 0..40 {
            for stop in [&b"x"[..], b"\x0c", "\u{a0}".as_bytes(), b""] {
                for filler in [b' ', b'\n', b'\t', b'\r'] {
                    let mut bytes = vec![b' '; len];
                    if len > 3 {
                        bytes[len / 2] = filler;
                    }
                    bytes.extend_from_slice(stop);
                    if !stop.is_empty() {
                        // Spaces after the stop must not be reached.
                        bytes.extend_from_slice(b"          ");
                    }
                    for start in 0..=len {
                        assert_eq!(skip_ws(&bytes, start), len, "len {len} start {start} stop {stop:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn skips_only_json_white_space() {
        assert_eq!(skip_ws(b" \t\r\n x", 0), 5);
        assert_eq!(skip_ws(b"\x0c", 0), 0);
        assert_eq!(skip_ws("\u{a0}".as_bytes(), 0), 0);
        assert_eq!(skip_ws(b"   ", 1), 3);
    }
}
