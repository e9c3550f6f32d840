//! Numbers in the canonical form: integers in plain decimal, doubles in
//! their shortest round-trip digits laid out by C3.
//!
//! serde_json's float writer (serde_json 1.0.154) picks the same shortest
//! round-trip digits as ryu, but it puts a `+` into positive exponents
//! (`1e+16`), which C3 does not. The digits are therefore taken from
//! serde_json's writer and laid out by the C3 rules here.

use super::{CanonicalError, Sink};
use serde_json::ser::{CompactFormatter, Formatter};
use std::io;

/// Enough `0` bytes for any run C3 pads with (at most 15 after the digits,
/// at most 4 after `0.`).
const ZEROS: [u8; 16] = [b'0'; 16];

/// Writes a finite double by C3.
pub(super) fn write_f64<S: Sink>(sink: &mut S, value: f64) -> Result<(), CanonicalError> {
    let mut raw = StackText::default();
    CompactFormatter.write_f64(&mut raw, value).map_err(number_text)?;
    write_c3(sink, raw.as_str())
}

/// Writes a finite single by C3 (from its own shortest digits).
pub(super) fn write_f32<S: Sink>(sink: &mut S, value: f32) -> Result<(), CanonicalError> {
    let mut raw = StackText::default();
    CompactFormatter.write_f32(&mut raw, value).map_err(number_text)?;
    write_c3(sink, raw.as_str())
}

fn number_text(e: io::Error) -> CanonicalError {
    CanonicalError::custom(e)
}

/// Writes `value` in plain decimal.
pub(super) fn write_i64<S: Sink>(sink: &mut S, value: i64) -> Result<(), CanonicalError> {
    if value < 0 {
        sink.put(b"-")?;
    }
    write_u64(sink, value.unsigned_abs())
}

/// Writes `value` in plain decimal.
pub(super) fn write_u64<S: Sink>(sink: &mut S, mut value: u64) -> Result<(), CanonicalError> {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            return sink.put(&buf[at..]);
        }
    }
}

/// Writes `value` in plain decimal.
pub(super) fn write_i128<S: Sink>(sink: &mut S, value: i128) -> Result<(), CanonicalError> {
    if value < 0 {
        sink.put(b"-")?;
    }
    write_u128(sink, value.unsigned_abs())
}

/// Writes `value` in plain decimal; 128-bit division only past `u64::MAX`.
pub(super) fn write_u128<S: Sink>(sink: &mut S, mut value: u128) -> Result<(), CanonicalError> {
    if let Ok(small) = u64::try_from(value) {
        return write_u64(sink, small);
    }
    let mut buf = [0u8; 39];
    let mut at = buf.len();
    while value != 0 {
        at -= 1;
        buf[at] = b'0' + (value % 10) as u8;
        value /= 10;
    }
    sink.put(&buf[at..])
}

/// Shortest digits of a number and the decimal exponent of its first digit:
/// value = 0.d1d2..dn x 10^(point), digits without leading or trailing zeros
/// (`"0"` for zero).
struct Decimal<'a> {
    negative: bool,
    int: &'a str,
    frac: &'a str,
    exp: i32,
}

impl<'a> Decimal<'a> {
    /// Splits number text such as `-12.5`, `0.00001` or `1.5e+16`.
    fn parse(text: &'a str) -> Self {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exp) = rest.split_once(['e', 'E']).unwrap_or((rest, "0"));
        let exp = exp.trim_start_matches('+').parse().unwrap_or(0);
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        Decimal {
            negative,
            int,
            frac,
            exp,
        }
    }

    /// The significant digits (into `out`) and p = position of the decimal
    /// point relative to the first significant digit (value = 0.digits x 10^p).
    fn digits(&self, out: &mut StackText) -> i32 {
        for part in [self.int, self.frac] {
            let _ = io::Write::write_all(out, part.as_bytes());
        }
        let all = out.as_str();
        let leading = all.len() - all.trim_start_matches('0').len();
        let significant = all.trim_matches('0').len();
        if significant == 0 {
            out.set("0");
            return 1;
        }
        out.keep(leading, leading + significant);
        self.int.len() as i32 - leading as i32 + self.exp
    }
}

/// Lays out serde_json's number text by C3: digits d (n of them) with
/// value d x 10^k and p = n + k.
fn write_c3<S: Sink>(sink: &mut S, raw: &str) -> Result<(), CanonicalError> {
    let decimal = Decimal::parse(raw);
    let mut buffer = StackText::default();
    let p = decimal.digits(&mut buffer);
    let digits = buffer.as_str();
    let n = digits.len() as i32;
    let k = p - n;
    if decimal.negative {
        sink.put(b"-")?;
    }
    if k >= 0 && p <= 16 {
        sink.put(digits.as_bytes())?;
        sink.put(&ZEROS[..k as usize])?;
        sink.put(b".0")
    } else if 0 < p && p <= 16 {
        let (int, frac) = digits.split_at(p as usize);
        sink.put(int.as_bytes())?;
        sink.put(b".")?;
        sink.put(frac.as_bytes())
    } else if -5 < p && p <= 0 {
        sink.put(b"0.")?;
        sink.put(&ZEROS[..(-p) as usize])?;
        sink.put(digits.as_bytes())
    } else {
        let (first, rest) = digits.split_at(1);
        sink.put(first.as_bytes())?;
        if !rest.is_empty() {
            sink.put(b".")?;
            sink.put(rest.as_bytes())?;
        }
        sink.put(b"e")?;
        write_i64(sink, i64::from(p - 1))
    }
}

/// A small fixed buffer for number text (no allocation while serializing).
struct StackText {
    buf: [u8; 48],
    len: usize,
}

impl Default for StackText {
    fn default() -> Self {
        StackText { buf: [0; 48], len: 0 }
    }
}

impl StackText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }

    fn set(&mut self, s: &str) {
        self.len = 0;
        let _ = io::Write::write_all(self, s.as_bytes());
    }

    /// Keeps only bytes `start..end`.
    fn keep(&mut self, start: usize, end: usize) {
        self.buf.copy_within(start..end, 0);
        self.len = end - start;
    }
}

impl io::Write for StackText {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let end = self.len + bytes.len();
        if end > self.buf.len() {
            return Err(io::Error::other("number text too long"));
        }
        self.buf[self.len..end].copy_from_slice(bytes);
        self.len = end;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
