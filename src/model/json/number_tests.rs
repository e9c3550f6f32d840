//! Number conversion tests: a table of tricky literals with expected bits,
//! and agreement with serde_json wherever the conversion is exact.

use super::*;

fn read(s: &str) -> Result<Value, Problem> {
    read_strict(s.as_bytes(), &ReadLimits::default())
}

/// Expected reading of a number literal.
#[derive(Debug, Clone, Copy)]
enum Want {
    U(u64),
    I(i64),
    F(u64),
    Err,
}
use Want::{Err as E, F, I, U};

/// Expected values computed with an independent implementation of serde_json's
/// default algorithm (u64 significand, one multiply/divide by a correctly
/// rounded power of ten), in IEEE doubles. Comments give the decimal value
/// and, where it differs, the correctly rounded double.
const NUMBERS: &[(&str, Want)] = &[
    ("0", U(0)),
    ("-0", F(0x8000000000000000)),
    ("1", U(1)),
    ("-1", I(-1)),
    ("18446744073709551615", U(18446744073709551615)),
    ("18446744073709551616", F(0x43f0000000000000)),
    ("18446744073709551625", F(0x43f0000000000000)),
    ("-18446744073709551615", F(0xc3f0000000000000)),
    ("-9223372036854775808", I(-9223372036854775808)),
    ("-9223372036854775809", F(0xc3e0000000000000)),
    ("99999999999999999999", F(0x4415af1d78b58c40)),
    ("123456789012345678901234567890", F(0x45f8ee90ff6c373e)),
    ("-0.0", F(0x8000000000000000)),
    ("0.0", F(0x0000000000000000)),
    ("0e0", F(0x0000000000000000)),
    ("-0e5", F(0x8000000000000000)),
    ("1.0", F(0x3ff0000000000000)),
    ("1.0000000000000001", F(0x3ff0000000000000)),
    ("0.8499999999999999", F(0x3feb333333333332)),
    ("0.85", F(0x3feb333333333333)),
    ("0.850", F(0x3feb333333333333)),
    ("0.86", F(0x3feb851eb851eb85)),
    ("1e400", E),
    ("1e308", F(0x7fe1ccf385ebc8a0)),
    ("1.7976931348623157e308", F(0x7fefffffffffffff)),
    // Correctly rounded this is f64::MAX; the one-multiply conversion overflows.
    ("1.7976931348623158e308", E),
    ("1.7976931348623159e308", E),
    ("2e308", E),
    ("5e-324", F(0x0000000000000001)),
    ("4.9406564584124654e-324", F(0x0000000000000001)),
    // Correctly rounded: 0x0000000000000001.
    ("2.4703282292062328e-324", F(0x0000000000000000)),
    ("1e-400", F(0x0000000000000000)),
    ("-1e-400", F(0x8000000000000000)),
    ("2.2250738585072014e-308", F(0x0010000000000000)),
    // Correctly rounded: 0x000fffffffffffff.
    ("2.2250738585072011e-308", F(0x0010000000000000)),
    // Correctly rounded: 0x01aa74fe1c1e8908.
    ("1.2345678901234567e-300", F(0x01aa74fe1c1e8909)),
    ("0.1", F(0x3fb999999999999a)),
    ("0.3", F(0x3fd3333333333333)),
    ("0.30000000000000004", F(0x3fd3333333333334)),
    ("123.456e-5", F(0x3f543a1eb4cbfa14)),
    ("1E2", F(0x4059000000000000)),
    ("1e+2", F(0x4059000000000000)),
    ("1e-2", F(0x3f847ae147ae147b)),
    ("0e999999999999", F(0x0000000000000000)),
    ("0e99999999999999999999", F(0x0000000000000000)),
    ("1e99999999999", E),
    ("1e-99999999999", F(0x0000000000000000)),
    ("-1e-99999999999", F(0x8000000000000000)),
    // Correctly rounded: 0x37364cfda3281e39.
    ("0.000000000000000000000000000000000000000001", F(0x37364cfda3281e38)),
    // Digits past the 19th are dropped. Correctly rounded: 0x3ff0000000000000.
    (
        "1.00000000000000011102230246251565404236316680908203125",
        F(0x3ff0000000000001),
    ),
    // Correctly rounded: 0x4340000000000000.
    ("9007199254740993.0", F(0x4340000000000001)),
    ("9007199254740993e0", F(0x4340000000000000)),
    ("9007199254740993", U(9007199254740993)),
    // The integer part overflows, then fraction digits accumulate again.
    ("184467440737095516161.5", F(0x4424000000000000)),
    ("184467440737095516161.9", F(0x4424000000000000)),
    ("18446744073709551615.5", F(0x43f0000000000000)),
    ("123456789012345678901234567890e-10", F(0x43e56a95319d63e1)),
    ("1e-5", F(0x3ee4f8b588e368f1)),
    ("1e22", F(0x4480f0cf064dd592)),
    ("1e23", F(0x44b52d02c7e14af6)),
    ("1e-22", F(0x3b5e392010175ee6)),
    // Correctly rounded: 0x3b282db34012b251.
    ("1e-23", F(0x3b282db34012b252)),
    ("8.98846567431158e307", F(0x7fe0000000000000)),
    ("3.141592653589793238462643383279", F(0x400921fb54442d18)),
    ("2.718281828459045", F(0x4005bf0a8b145769)),
    ("1e-7", F(0x3e7ad7f29abcaf48)),
    ("0.1e1", F(0x3ff0000000000000)),
    ("12345678901234567890.123", F(0x43e56a95319d63e1)),
    ("0.99999999999999999", F(0x3ff0000000000000)),
    // Correctly rounded: 0x3fefffffffffffff (just below 1).
    ("0.9999999999999999", F(0x3ff0000000000000)),
    ("1.9999999999999999", F(0x4000000000000000)),
    ("7.2057594037927933e16", F(0x4370000000000000)),
    ("1e-308", F(0x000730d67819e8d2)),
    ("1e-309", F(0x0000b8157268fdaf)),
    ("1e-320", F(0x00000000000007e8)),
    ("0.0000001", F(0x3e7ad7f29abcaf48)),
    ("1e2147483647", E),
    ("1e2147483648", E),
    ("1e-2147483648", F(0x0000000000000000)),
    ("1e-2147483649", F(0x0000000000000000)),
    (
        "100000000000000000000000000000000000000000000000000000000000e-340",
        F(0x05973c115074bc6a),
    ),
    ("4.35e-1", F(0x3fdbd70a3d70a3d7)),
    ("3.0", F(0x4008000000000000)),
    ("-3.5e3", F(0xc0ab580000000000)),
    ("1e-10", F(0x3ddb7cdfd9d7bdbb)),
    ("6.02214076e23", F(0x44dfe185ca57c517)),
    // Correctly rounded: 0x3c07a4da290c1653.
    ("1.602176634e-19", F(0x3c07a4da290c1654)),
];

fn check_number(literal: &str, want: Want) {
    let got = read(literal);
    match (want, got) {
        (U(n), Ok(Value::Number(num))) => {
            assert!(num.is_u64(), "{literal}: {num:?} should be u64");
            assert_eq!(num.as_u64(), Some(n), "{literal}");
        }
        (I(n), Ok(Value::Number(num))) => {
            assert!(num.is_i64() && !num.is_u64(), "{literal}: {num:?} should be i64");
            assert_eq!(num.as_i64(), Some(n), "{literal}");
        }
        (F(bits), Ok(Value::Number(num))) => {
            assert!(num.is_f64(), "{literal}: {num:?} should be f64");
            let f = num.as_f64().unwrap_or(f64::NAN);
            assert_eq!(f.to_bits(), bits, "{literal}: got {f:e} ({:#018x})", f.to_bits());
        }
        (E, Err(p)) => assert_eq!(p.rule, "P9", "{literal}: {p}"),
        (want, got) => panic!("{literal}: wanted {want:?}, got {got:?}"),
    }
}

#[test]
fn numbers_match_serde_json_default_conversion() {
    for &(literal, want) in NUMBERS {
        check_number(literal, want);
        // The same literal inside a document reads the same.
        let doc = format!("{{\"n\":[{literal}]}}");
        let inner = read(&doc).map(|v| v["n"][0].clone());
        match (want, inner) {
            (E, Err(p)) => assert_eq!((p.rule.as_str(), p.path.as_str()), ("P9", "/n/0")),
            (E, Ok(v)) => panic!("{doc}: accepted as {v:?}"),
            (_, Ok(v)) => assert_eq!(v, read(literal).unwrap_or(Value::Null), "{doc}"),
            (_, Err(p)) => panic!("{doc}: {p}"),
        }
    }
}

#[test]
fn thresholds_of_p9() {
    let f = |s: &str| read(s).ok().and_then(|v| v.as_f64()).unwrap_or(f64::NAN);
    assert_eq!(f("1.0000000000000001"), 1.0);
    assert!(f("0.8499999999999999") < 0.85);
    assert_eq!(f("0.85"), 0.85);
    assert_eq!(f("1"), 1.0);
    assert!(f("-0.0").is_sign_negative());
    assert_eq!(f("1e-400"), 0.0);
    assert_eq!(read("1e400").map_err(|p| p.rule), Err("P9".to_string()));
}

/// Literals with at most 15 significant digits and a decimal exponent in
/// -22..=22: the one-operation conversion is then exact-input, correctly
/// rounded, so serde_json in any configuration must give the same value.
#[test]
fn agrees_with_serde_json_where_conversion_is_exact() {
    let significands = [
        "0",
        "1",
        "7",
        "42",
        "85",
        "123456789",
        "999999999999999",
        "314159265358979",
        "5",
    ];
    let mut checked = 0;
    for sig in significands {
        for point in 0..=sig.len() {
            for exp in -22i32..=22 {
                let fraction_digits = (sig.len() - point) as i32;
                if !(-22..=22).contains(&(exp - fraction_digits)) {
                    continue;
                }
                let (int_part, frac_part) = sig.split_at(point);
                let int_part = if int_part.is_empty() { "0" } else { int_part };
                if int_part.len() > 1 && int_part.starts_with('0') {
                    continue;
                }
                let mut literals = vec![
                    format!("{int_part}.{frac_part}e{exp}"),
                    format!("-{int_part}.{frac_part}E{exp:+}"),
                ];
                if frac_part.is_empty() {
                    literals = vec![
                        format!("{int_part}e{exp}"),
                        format!("{int_part}"),
                        format!("-{int_part}"),
                    ];
                }
                for literal in literals {
                    let ours = read(&literal).unwrap_or_else(|p| panic!("{literal}: {p}"));
                    let theirs: Value = serde_json::from_str(&literal).unwrap_or_else(|e| panic!("{literal}: {e}"));
                    assert_eq!(ours, theirs, "{literal}");
                    if let (Some(a), Some(b)) = (ours.as_f64(), theirs.as_f64()) {
                        assert_eq!(a.to_bits(), b.to_bits(), "{literal}");
                    }
                    assert_eq!(ours.is_u64(), theirs.is_u64(), "{literal}");
                    assert_eq!(ours.is_i64(), theirs.is_i64(), "{literal}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} literals compared");
}

#[test]
fn integers_agree_with_serde_json() {
    let mut literals: Vec<String> = Vec::new();
    for n in [
        0u64,
        1,
        9,
        10,
        255,
        256,
        4294967295,
        4294967296,
        9007199254740993,
        u64::MAX - 1,
        u64::MAX,
    ] {
        literals.push(n.to_string());
    }
    for n in [-1i64, -255, -9007199254740993, i64::MIN + 1, i64::MIN] {
        literals.push(n.to_string());
    }
    for literal in literals {
        let ours = read(&literal).unwrap_or_else(|p| panic!("{literal}: {p}"));
        let theirs: Value = serde_json::from_str(&literal).unwrap_or_else(|e| panic!("{literal}: {e}"));
        assert_eq!(ours, theirs, "{literal}");
        assert_eq!(
            (ours.is_u64(), ours.is_i64()),
            (theirs.is_u64(), theirs.is_i64()),
            "{literal}"
        );
    }
}
