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

/// 10^0 ..= 10^308, each the correctly rounded double (a `1eK` literal is
/// rounded correctly by the compiler, as serde_json's own table is).
const POW10: [f64; 309] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39,
    1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47, 1e48, 1e49, 1e50, 1e51, 1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58,
    1e59, 1e60, 1e61, 1e62, 1e63, 1e64, 1e65, 1e66, 1e67, 1e68, 1e69, 1e70, 1e71, 1e72, 1e73, 1e74, 1e75, 1e76, 1e77,
    1e78, 1e79, 1e80, 1e81, 1e82, 1e83, 1e84, 1e85, 1e86, 1e87, 1e88, 1e89, 1e90, 1e91, 1e92, 1e93, 1e94, 1e95, 1e96,
    1e97, 1e98, 1e99, 1e100, 1e101, 1e102, 1e103, 1e104, 1e105, 1e106, 1e107, 1e108, 1e109, 1e110, 1e111, 1e112, 1e113,
    1e114, 1e115, 1e116, 1e117, 1e118, 1e119, 1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127, 1e128, 1e129,
    1e130, 1e131, 1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139, 1e140, 1e141, 1e142, 1e143, 1e144, 1e145,
    1e146, 1e147, 1e148, 1e149, 1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159, 1e160, 1e161,
    1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169, 1e170, 1e171, 1e172, 1e173, 1e174, 1e175, 1e176, 1e177,
    1e178, 1e179, 1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189, 1e190, 1e191, 1e192, 1e193,
    1e194, 1e195, 1e196, 1e197, 1e198, 1e199, 1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207, 1e208, 1e209,
    1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219, 1e220, 1e221, 1e222, 1e223, 1e224, 1e225,
    1e226, 1e227, 1e228, 1e229, 1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239, 1e240, 1e241,
    1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249, 1e250, 1e251, 1e252, 1e253, 1e254, 1e255, 1e256, 1e257,
    1e258, 1e259, 1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269, 1e270, 1e271, 1e272, 1e273,
    1e274, 1e275, 1e276, 1e277, 1e278, 1e279, 1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287, 1e288, 1e289,
    1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299, 1e300, 1e301, 1e302, 1e303, 1e304, 1e305,
    1e306, 1e307, 1e308,
];

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

#[cfg(test)]
mod pow10_tests {
    #[test]
    fn every_power_of_ten_is_the_correctly_rounded_double() {
        for (k, &power) in super::POW10.iter().enumerate() {
            let parsed: f64 = format!("1e{k}").parse().unwrap_or(f64::NAN);
            assert_eq!(power.to_bits(), parsed.to_bits(), "1e{k}");
        }
    }
}
