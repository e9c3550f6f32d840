//! The strict recursive-descent reader behind [`super::read_strict`].
//!
//! It works on text already checked to be UTF-8 and writes the document's
//! tape (see [`super::doc`]) directly, in one pass. Errors carry the byte offset where they were
//! found; the JSON pointer is assembled while the error unwinds (each object
//! or array frame adds its member name or index), so a successful read pays
//! nothing for error paths.

mod fail;
mod strings;

use super::doc::{Cell, Tok, put, token_str};
use super::number::{NumberError, Parsed, scan_number};
use super::scan::skip_ws;
use crate::model::problem::push_pointer;
pub(crate) use fail::Fail;
use fail::{fail, number_fail, within};

type Res<T> = Result<T, Box<Fail>>;

/// Parser state over validated UTF-8 text.
pub(crate) struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth_left: usize,
    depth_limit: usize,
    tape: Vec<Cell>,
    escaped: String,
    /// The names of the objects being read (innermost last), each with the
    /// byte offset of its opening quote and a hash: the duplicate check's scratch.
    names: Vec<(Tok, usize, u64)>,
    /// Scratch for the hashes of one large object's names.
    hashes: Vec<u64>,
    /// Set in JavaScript mode only (see [`super::read_as_javascript`]).
    js: Option<JsNumbers>,
}

/// What a read leaves: the tape, the side buffer of decoded escapes and the
/// infinities found in JavaScript mode.
pub(crate) struct Read {
    pub tape: Vec<Cell>,
    pub escaped: String,
    pub infinite: Vec<super::Infinite>,
}

/// The JavaScript mode's state: the pointer tokens of the value being
/// read, and each literal beyond a double's range found so far.
#[derive(Default)]
struct JsNumbers {
    tokens: Vec<String>,
    found: Vec<super::Infinite>,
}

impl<'a> Reader<'a> {
    /// A reader rejecting containers nested `depth_limit` deep.
    pub(crate) fn new(text: &'a str, depth_limit: usize) -> Self {
        // Review documents run at about one cell per 16 to 24 bytes (only
        // what is written is touched, so a larger guess costs nothing).
        let tape = Vec::with_capacity(text.len() / 16 + 4);
        Reader {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            depth_left: depth_limit,
            depth_limit,
            tape,
            escaped: String::new(),
            names: Vec::new(),
            hashes: Vec::new(),
            js: None,
        }
    }

    /// A reader that reads a literal beyond a double's range as JavaScript's
    /// `JSON.parse` does (an infinity), recording where, and a lone
    /// surrogate escape as U+FFFD (see `unicode_escape`).
    pub(crate) fn javascript(text: &'a str, depth_limit: usize) -> Self {
        Reader {
            js: Some(JsNumbers::default()),
            ..Reader::new(text, depth_limit)
        }
    }

    fn js_enter(&mut self, token: impl FnOnce(&Self) -> String) {
        if self.js.is_some() {
            let token = token(self);
            if let Some(js) = &mut self.js {
                js.tokens.push(token);
            }
        }
    }

    fn js_leave(&mut self) {
        if let Some(js) = &mut self.js {
            js.tokens.pop();
        }
    }

    /// In JavaScript mode, an out-of-range literal at `start` is an
    /// infinity: returns the offset past it and the placeholder to keep
    /// (`±f64::MAX`, which a `serde_json::Value` can hold).
    fn js_infinity(&mut self, start: usize) -> Option<(usize, f64)> {
        let js = self.js.as_mut()?;
        let len = self.bytes[start..]
            .iter()
            .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
            .unwrap_or(self.bytes.len() - start);
        let literal = self.text.get(start..start + len)?;
        let x: f64 = literal.parse().ok()?;
        if x.is_finite() {
            return None;
        }
        let pointer = js.tokens.iter().fold(String::new(), |p, t| push_pointer(&p, t));
        let negative = x.is_sign_negative();
        js.found.push(super::Infinite { pointer, negative });
        Some((start + len, if negative { -f64::MAX } else { f64::MAX }))
    }

    /// Reads exactly one value surrounded only by JSON white space (P3).
    pub(crate) fn document(mut self) -> Res<Read> {
        self.pos = skip_ws(self.bytes, 0);
        if self.pos >= self.bytes.len() {
            let what = if self.bytes.is_empty() {
                "the input is empty"
            } else {
                "the input holds only white space"
            };
            return Err(fail("P3", self.pos, format!("{what}: expected one JSON value")));
        }
        self.value()?;
        self.pos = skip_ws(self.bytes, self.pos);
        if self.pos < self.bytes.len() {
            return Err(self.after_value_error("trailing characters after the JSON value"));
        }
        Ok(Read {
            tape: self.tape,
            escaped: self.escaped,
            infinite: self.js.map(|js| js.found).unwrap_or_default(),
        })
    }

    fn value(&mut self) -> Res<()> {
        match self.bytes.get(self.pos) {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(drop),
            Some(b't') => self.literal("true", Tok::True),
            Some(b'f') => self.literal("false", Tok::False),
            Some(b'n') => self.literal("null", Tok::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(&b) => Err(self.unexpected_value_start(b)),
            None => Err(fail(
                "P3",
                self.pos,
                "the input ends where a value should start (truncated)",
            )),
        }
    }

    fn unexpected_value_start(&self, b: u8) -> Box<Fail> {
        let rest = &self.bytes[self.pos..];
        if b == b'+' || b == b'.' || rest.starts_with(b"NaN") || rest.starts_with(b"Infinity") {
            let shown = if b == b'+' || b == b'.' {
                format!("'{}'", b as char)
            } else {
                "NaN/Infinity".into()
            };
            return fail(
                "P5",
                self.pos,
                format!("invalid number: {shown} is not allowed by the JSON number grammar"),
            );
        }
        fail(
            "P3",
            self.pos,
            format!("expected a JSON value, found {}", self.describe_at(self.pos)),
        )
    }

    fn literal(&mut self, word: &'static str, tok: Tok) -> Res<()> {
        let end = self.pos + word.len();
        if self.bytes.get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            put(&mut self.tape, tok);
            return Ok(());
        }
        if end > self.bytes.len() && word.as_bytes().starts_with(&self.bytes[self.pos..]) {
            return Err(fail(
                "P3",
                self.bytes.len(),
                format!("the input ends inside `{word}` (truncated)"),
            ));
        }
        Err(fail(
            "P3",
            self.pos,
            format!("expected a JSON value, found {}", self.describe_at(self.pos)),
        ))
    }

    fn number(&mut self) -> Res<()> {
        let start = self.pos;
        let (parsed, end) = match scan_number(self.bytes, start) {
            Ok(scanned) => scanned,
            Err(NumberError::OutOfRange { at }) if self.js.is_some() => match self.js_infinity(start) {
                Some((end, placeholder)) => (Parsed::F64(placeholder), end),
                None => return Err(number_fail(NumberError::OutOfRange { at }, self.bytes, start)),
            },
            Err(e) => return Err(number_fail(e, self.bytes, start)),
        };
        if let Some(&b) = self.bytes.get(end)
            && (b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-'))
        {
            return Err(fail(
                "P5",
                end,
                format!("invalid number: unexpected {} after it", self.describe_at(end)),
            ));
        }
        self.pos = end;
        let tok = match parsed {
            Parsed::U64(n) => Tok::U64(n),
            Parsed::I64(n) => Tok::I64(n),
            Parsed::F64(f) if f.is_finite() => Tok::F64(f),
            Parsed::F64(_) => match self.js_infinity(start) {
                Some((_, placeholder)) => Tok::F64(placeholder),
                None => return Err(fail("P9", start, "number is out of range for a double")),
            },
        };
        put(&mut self.tape, tok);
        Ok(())
    }

    fn enter(&mut self) -> Res<()> {
        self.depth_left = self.depth_left.saturating_sub(1);
        if self.depth_left == 0 {
            let limit = self.depth_limit;
            return Err(fail(
                "P15",
                self.pos,
                format!(
                    "nesting is too deep: {limit} levels reached (the limit is {})",
                    limit - 1
                ),
            ));
        }
        Ok(())
    }

    /// Reads an object. A repeated member name (P4) is reported once the
    /// object is read to its end, at the first repeat in document order, so
    /// a fault inside a later member is reported before it.
    fn object(&mut self) -> Res<()> {
        self.enter()?;
        self.pos += 1;
        let slot = self.tape.len();
        self.tape.push(Cell::container(false, 0, 0));
        let names_base = self.names.len();
        self.pos = skip_ws(self.bytes, self.pos);
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            self.depth_left += 1;
            self.close(slot, 0);
            return Ok(());
        }
        loop {
            match self.bytes.get(self.pos) {
                Some(b'"') => {}
                Some(_) => return Err(self.structure_error("expected a member name in double quotes")),
                None => return Err(self.eof("inside an object")),
            }
            let key_at = self.pos;
            let key = self.string()?;
            self.pos = skip_ws(self.bytes, self.pos);
            match self.bytes.get(self.pos) {
                Some(b':') => self.pos += 1,
                Some(_) => return Err(self.structure_error("expected ':' after the member name")),
                None => return Err(self.eof("inside an object")),
            }
            self.pos = skip_ws(self.bytes, self.pos);
            self.js_enter(|r| r.name_of(key).to_owned());
            if let Err(e) = self.value() {
                return Err(within(e, self.name_of(key).to_owned()));
            }
            self.js_leave();
            let hash = name_hash(self.name_of(key).as_bytes());
            self.names.push((key, key_at, hash));
            self.pos = skip_ws(self.bytes, self.pos);
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos = skip_ws(self.bytes, self.pos + 1),
                Some(b'}') => {
                    self.pos += 1;
                    self.depth_left += 1;
                    if let Some(second) = self.repeated_name(names_base) {
                        let (tok, at, _) = self.names[second];
                        let name = self.name_of(tok).to_owned();
                        let message = format!("duplicate member name {:?} in the same object", name);
                        return Err(within(fail("P4", at, message), name));
                    }
                    let len = (self.names.len() - names_base) as u32;
                    self.names.truncate(names_base);
                    self.close(slot, len);
                    return Ok(());
                }
                Some(_) => return Err(self.structure_error("expected ',' or '}' after an object member")),
                None => return Err(self.eof("inside an object")),
            }
        }
    }

    /// The index in `names` of the first repeated name of the object whose
    /// names start at `base`, if any. Names are compared by hash first, so
    /// the exact comparison runs only when two hashes meet.
    fn repeated_name(&mut self, base: usize) -> Option<usize> {
        let names = &self.names[base..];
        if names.len() < 2 {
            return None;
        }
        if names.len() <= 8 {
            let clash = (1..names.len()).any(|j| names[..j].iter().any(|n| n.2 == names[j].2));
            if !clash {
                return None;
            }
        } else {
            if names.len() <= 64 && !filter_meets_twice(names.iter().map(|n| n.2)) {
                return None;
            }
            self.hashes.clear();
            self.hashes.extend(names.iter().map(|n| n.2));
            self.hashes.sort_unstable();
            if !self.hashes.windows(2).any(|w| w[0] == w[1]) {
                return None;
            }
        }
        let names = &self.names[base..];
        first_repeat(names.len(), |i| self.name_of(names[i].0)).map(|i| base + i)
    }

    /// Fills in the container cell at `slot` now that its contents are on the tape.
    fn close(&mut self, slot: usize, len: u32) {
        let end = self.tape.len() as u32;
        self.tape[slot] = Cell::container(self.tape[slot].is_array(), len, end);
    }

    /// The text of a string token already read.
    fn name_of(&self, tok: Tok) -> &str {
        token_str(self.text, &self.escaped, tok).unwrap_or_default()
    }

    fn array(&mut self) -> Res<()> {
        self.enter()?;
        self.pos += 1;
        let slot = self.tape.len();
        self.tape.push(Cell::container(true, 0, 0));
        let mut len = 0u32;
        self.pos = skip_ws(self.bytes, self.pos);
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            self.depth_left += 1;
            self.close(slot, 0);
            return Ok(());
        }
        loop {
            self.js_enter(|_| len.to_string());
            if let Err(e) = self.value() {
                return Err(within(e, len.to_string()));
            }
            self.js_leave();
            len += 1;
            self.pos = skip_ws(self.bytes, self.pos);
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos = skip_ws(self.bytes, self.pos + 1),
                Some(b']') => {
                    self.pos += 1;
                    self.depth_left += 1;
                    self.close(slot, len);
                    return Ok(());
                }
                Some(_) => return Err(self.structure_error("expected ',' or ']' after an array element")),
                None => return Err(self.eof("inside an array")),
            }
        }
    }
}

/// A quick hash of a member name, only to find candidate repeats: it mixes
/// the length with the first and last eight bytes (names are short), and
/// any two names it cannot tell apart are compared exactly.
fn name_hash(bytes: &[u8]) -> u64 {
    let word = |part: &[u8]| {
        let mut lane = [0u8; 8];
        lane[..part.len()].copy_from_slice(part);
        u64::from_le_bytes(lane)
    };
    let n = bytes.len();
    let (head, tail) = if n <= 8 {
        (word(bytes), 0)
    } else {
        (word(&bytes[..8]), word(&bytes[n - 8..]))
    };
    (head.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ tail.wrapping_mul(0xc2b2_ae3d_27d4_eb4f).rotate_left(31))
        .wrapping_add(n as u64)
}

/// True when two of `hashes` set the same bit of a 4096-bit filter (the
/// hashes folded and spread by a multiplication, so names that differ only
/// in their middle bytes still fall apart). No bit met twice means no two
/// hashes are equal, which for up to 64 names is the usual answer and
/// spares sorting them; a bit met twice only sends the check on to the
/// exact test.
fn filter_meets_twice(hashes: impl Iterator<Item = u64>) -> bool {
    let mut filter = [0u64; 64];
    for hash in hashes {
        let bit = ((hash ^ (hash >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9) >> 52) as usize;
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        if filter[word] & mask != 0 {
            return true;
        }
        filter[word] |= mask;
    }
    false
}

/// The index of the first member (in document order) whose name already
/// appeared earlier in the same object, if any; `name(i)` is member i's name.
fn first_repeat<'n>(count: usize, name: impl Fn(usize) -> &'n str) -> Option<usize> {
    if count < 2 {
        return None;
    }
    if count <= 8 {
        return (1..count).find(|&j| (0..j).any(|i| name(i) == name(j)));
    }
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_unstable_by(|&a, &b| name(a).cmp(name(b)).then(a.cmp(&b)));
    // Within a run of equal names (sorted by position), the second is where
    // the repeat was first met; the earliest such over all runs is reported.
    order
        .windows(2)
        .filter(|w| name(w[0]) == name(w[1]))
        .map(|w| w[1])
        .min()
}
