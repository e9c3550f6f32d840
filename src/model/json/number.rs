//! JSON number literals: strict RFC 8259 grammar (P5) and the exact value
//! serde_json 1.x's *default* conversion produces (P9).
//!
//! The conversion is not correctly rounded, on purpose: ReviewGate reads
//! numbers this way, and thresholds such as `confidence >= 0.85` must decide
//! the same. The rules, as serde_json documents them in its behaviour:
//! - a plain non-negative integer that fits u64 is a u64; a negative one whose
//!   magnitude is 1..=2^63 is an i64; `-0` is the double -0.0;
//! - digits are accumulated into a u64 significand until the next digit would
//!   overflow it; further integer digits only raise the decimal exponent and
//!   further fraction digits are dropped (the fraction starts accumulating
//!   again, digit by digit, even after the integer part overflowed);
//! - the double is `significand as f64`, then one multiplication or division
//!   by an exactly-rounded power of ten (10^0..10^308); exponents below -308
//!   divide by 1e308 first, repeatedly; a result that overflows is an error,
//!   one that underflows becomes 0;
//! - an exponent literal that overflows i32 gives 0 (negative exponent or zero
//!   significand) or an error (positive exponent).

use std::sync::LazyLock;

/// A number as the reader produces it, before it becomes a `serde_json::Number`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Parsed {
    /// A plain non-negative integer literal that fits u64.
    U64(u64),
    /// A plain negative integer literal whose value fits i64.
    I64(i64),
    /// Anything else (fraction, exponent, `-0`, or an integer beyond the ranges above).
    F64(f64),
}

/// Why a literal is not a number this reader accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberError {
    /// The grammar is broken at the given byte offset.
    Grammar { at: usize, what: &'static str },
    /// The input ended inside the literal.
    Eof { at: usize },
    /// The value does not fit a double (P9).
    OutOfRange { at: usize },
}

/// 10^0 ..= 10^308, each the correctly rounded double.
static POW10: LazyLock<[f64; 309]> = LazyLock::new(|| {
    let mut table = [1.0f64; 309];
    for (k, slot) in table.iter_mut().enumerate() {
        // The standard parser is correctly rounded, as a `1eK` literal is.
        *slot = format!("1e{k}").parse().unwrap_or(f64::INFINITY);
    }
    table
});

/// True when `acc * 10 + digit` would exceed `max` (serde_json's test).
#[inline]
fn overflows_u64(acc: u64, digit: u64) -> bool {
    acc >= u64::MAX / 10 && (acc > u64::MAX / 10 || digit > u64::MAX % 10)
}

#[inline]
fn overflows_i32(acc: i32, digit: i32) -> bool {
    acc >= i32::MAX / 10 && (acc > i32::MAX / 10 || digit > i32::MAX % 10)
}

#[inline]
fn digit_at(b: &[u8], i: usize) -> Option<u64> {
    match b.get(i) {
        Some(c @ b'0'..=b'9') => Some(u64::from(c - b'0')),
        _ => None,
    }
}

fn missing_digit(b: &[u8], i: usize, what: &'static str) -> NumberError {
    if i >= b.len() {
        NumberError::Eof { at: i }
    } else {
        NumberError::Grammar { at: i, what }
    }
}

/// Reads the number literal starting at `start` (a `-` or a digit).
/// Returns the value and the offset just past the literal. The byte after
/// the literal is not examined.
pub(crate) fn scan_number(b: &[u8], start: usize) -> Result<(Parsed, usize), NumberError> {
    let mut i = start;
    let positive = b.get(i) != Some(&b'-');
    if !positive {
        i += 1;
    }
    let mut significand: u64;
    let mut exponent: i32 = 0;
    let mut long = false;
    match digit_at(b, i) {
        None => return Err(missing_digit(b, i, "expected a digit")),
        Some(0) => {
            significand = 0;
            i += 1;
            if digit_at(b, i).is_some() {
                return Err(NumberError::Grammar {
                    at: i,
                    what: "a number may not have a leading zero",
                });
            }
        }
        Some(d) => {
            significand = d;
            i += 1;
            while let Some(d) = digit_at(b, i) {
                i += 1;
                if long {
                    exponent = exponent.saturating_add(1);
                } else if overflows_u64(significand, d) {
                    long = true;
                    exponent = 1;
                } else {
                    significand = significand * 10 + d;
                }
            }
        }
    }
    let next = b.get(i).copied();
    if !long && !matches!(next, Some(b'.' | b'e' | b'E')) {
        return Ok((integer_value(positive, significand), i));
    }
    if next == Some(b'.') {
        i += 1;
        let first = i;
        let mut dropping = false;
        while let Some(d) = digit_at(b, i) {
            i += 1;
            if dropping {
                continue;
            }
            if overflows_u64(significand, d) {
                dropping = true;
            } else {
                significand = significand * 10 + d;
                exponent = exponent.saturating_sub(1);
            }
        }
        if i == first {
            return Err(missing_digit(b, i, "expected a digit after the decimal point"));
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        return scan_exponent(b, i + 1, positive, significand, exponent);
    }
    Ok((
        Parsed::F64(from_parts(positive, significand, exponent).ok_or(NumberError::OutOfRange { at: start })?),
        i,
    ))
}

/// Reads the exponent digits starting at `i` (just after `e`/`E`).
fn scan_exponent(
    b: &[u8],
    mut i: usize,
    positive: bool,
    significand: u64,
    exponent: i32,
) -> Result<(Parsed, usize), NumberError> {
    let start = i;
    let positive_exp = match b.get(i) {
        Some(b'+') => {
            i += 1;
            true
        }
        Some(b'-') => {
            i += 1;
            false
        }
        _ => true,
    };
    let Some(first) = digit_at(b, i) else {
        return Err(missing_digit(b, i, "expected a digit in the exponent"));
    };
    i += 1;
    let mut exp = first as i32;
    while let Some(d) = digit_at(b, i) {
        i += 1;
        let d = d as i32;
        if overflows_i32(exp, d) {
            if significand != 0 && positive_exp {
                return Err(NumberError::OutOfRange { at: start });
            }
            while digit_at(b, i).is_some() {
                i += 1;
            }
            return Ok((Parsed::F64(if positive { 0.0 } else { -0.0 }), i));
        }
        exp = exp * 10 + d;
    }
    let total = if positive_exp {
        exponent.saturating_add(exp)
    } else {
        exponent.saturating_sub(exp)
    };
    match from_parts(positive, significand, total) {
        Some(f) => Ok((Parsed::F64(f), i)),
        None => Err(NumberError::OutOfRange { at: start }),
    }
}

/// The value of a plain integer literal.
#[inline]
fn integer_value(positive: bool, significand: u64) -> Parsed {
    if positive {
        return Parsed::U64(significand);
    }
    let negated = (significand as i64).wrapping_neg();
    if negated >= 0 {
        Parsed::F64(-(significand as f64))
    } else {
        Parsed::I64(negated)
    }
}

/// significand × 10^exponent the way serde_json computes it; `None` when the
/// result would be infinite.
fn from_parts(positive: bool, significand: u64, mut exponent: i32) -> Option<f64> {
    let mut f = significand as f64;
    loop {
        match POW10.get(exponent.unsigned_abs() as usize) {
            Some(&pow) => {
                if exponent >= 0 {
                    f *= pow;
                    if f.is_infinite() {
                        return None;
                    }
                } else {
                    f /= pow;
                }
                break;
            }
            None => {
                if f == 0.0 {
                    break;
                }
                if exponent >= 0 {
                    return None;
                }
                f /= 1e308;
                exponent += 308;
            }
        }
    }
    Some(if positive { f } else { -f })
}
