//! The strict recursive-descent reader behind [`super::read_strict`].
//!
//! It works on text already checked to be UTF-8 and builds the
//! `serde_json::Value` directly, in one pass. Errors carry the byte offset
//! where they were found; the JSON pointer is assembled while the error
//! unwinds (each object or array frame adds its member name or index), so a
//! successful read pays nothing for error paths.

mod fail;
mod strings;

use super::number::{NumberError, Parsed, scan_number};
use super::scan::skip_ws;
use crate::model::problem::push_pointer;
pub(crate) use fail::Fail;
use fail::{fail, number_fail, within};
use serde_json::{Map, Number, Value};

type Res<T> = Result<T, Box<Fail>>;

/// Parser state over validated UTF-8 text.
pub(crate) struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth_left: usize,
    depth_limit: usize,
    /// Set in JavaScript-number mode only (see [`super::read_javascript_numbers`]).
    js: Option<JsNumbers>,
}

/// The JavaScript-number mode's state: the pointer tokens of the value being
/// read, and each literal beyond a double's range found so far.
#[derive(Default)]
struct JsNumbers {
    tokens: Vec<String>,
    found: Vec<super::Infinite>,
}

impl<'a> Reader<'a> {
    /// A reader rejecting containers nested `depth_limit` deep.
    pub(crate) fn new(text: &'a str, depth_limit: usize) -> Self {
        Reader {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            depth_left: depth_limit,
            depth_limit,
            js: None,
        }
    }

    /// A reader that reads a literal beyond a double's range as JavaScript's
    /// `JSON.parse` does (an infinity), recording where.
    pub(crate) fn javascript_numbers(text: &'a str, depth_limit: usize) -> Self {
        Reader {
            js: Some(JsNumbers::default()),
            ..Reader::new(text, depth_limit)
        }
    }

    /// The infinities found (JavaScript-number mode).
    pub(crate) fn infinities(&mut self) -> Vec<super::Infinite> {
        self.js.take().map(|js| js.found).unwrap_or_default()
    }

    fn js_enter(&mut self, token: impl FnOnce() -> String) {
        if let Some(js) = &mut self.js {
            js.tokens.push(token());
        }
    }

    fn js_leave(&mut self) {
        if let Some(js) = &mut self.js {
            js.tokens.pop();
        }
    }

    /// In JavaScript-number mode, an out-of-range literal at `start` is an
    /// infinity: returns the offset past it and the placeholder to keep.
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
    pub(crate) fn document(&mut self) -> Res<Value> {
        self.pos = skip_ws(self.bytes, 0);
        if self.pos >= self.bytes.len() {
            let what = if self.bytes.is_empty() {
                "the input is empty"
            } else {
                "the input holds only white space"
            };
            return Err(fail("P3", self.pos, format!("{what}: expected one JSON value")));
        }
        let value = self.value()?;
        self.pos = skip_ws(self.bytes, self.pos);
        if self.pos < self.bytes.len() {
            return Err(self.after_value_error("trailing characters after the JSON value"));
        }
        Ok(value)
    }

    fn value(&mut self) -> Res<Value> {
        match self.bytes.get(self.pos) {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
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

    fn literal(&mut self, word: &'static str, value: Value) -> Res<Value> {
        let end = self.pos + word.len();
        if self.bytes.get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            return Ok(value);
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

    fn number(&mut self) -> Res<Value> {
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
        let number = match parsed {
            Parsed::U64(n) => Number::from(n),
            Parsed::I64(n) => Number::from(n),
            Parsed::F64(f) => match Number::from_f64(f).or_else(|| {
                let (_, placeholder) = self.js_infinity(start)?;
                Number::from_f64(placeholder)
            }) {
                Some(n) => n,
                None => return Err(fail("P9", start, "number is out of range for a double")),
            },
        };
        Ok(Value::Number(number))
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
    fn object(&mut self) -> Res<Value> {
        self.enter()?;
        self.pos += 1;
        let mut map = Map::new();
        let mut repeat: Option<(usize, String)> = None;
        self.pos = skip_ws(self.bytes, self.pos);
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            self.depth_left += 1;
            return Ok(Value::Object(map));
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
            self.js_enter(|| key.clone());
            let value = match self.value() {
                Ok(value) => value,
                Err(e) => return Err(within(e, key)),
            };
            self.js_leave();
            if repeat.is_none() && map.contains_key(&key) {
                repeat = Some((key_at, key));
            } else {
                map.insert(key, value);
            }
            self.pos = skip_ws(self.bytes, self.pos);
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos = skip_ws(self.bytes, self.pos + 1),
                Some(b'}') => {
                    self.pos += 1;
                    self.depth_left += 1;
                    if let Some((at, name)) = repeat {
                        let message = format!("duplicate member name {:?} in the same object", name);
                        return Err(within(fail("P4", at, message), name));
                    }
                    return Ok(Value::Object(map));
                }
                Some(_) => return Err(self.structure_error("expected ',' or '}' after an object member")),
                None => return Err(self.eof("inside an object")),
            }
        }
    }

    fn array(&mut self) -> Res<Value> {
        self.enter()?;
        self.pos += 1;
        let mut items = Vec::new();
        self.pos = skip_ws(self.bytes, self.pos);
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            self.depth_left += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.js_enter(|| items.len().to_string());
            match self.value() {
                Ok(value) => items.push(value),
                Err(e) => return Err(within(e, items.len().to_string())),
            }
            self.js_leave();
            self.pos = skip_ws(self.bytes, self.pos);
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos = skip_ws(self.bytes, self.pos + 1),
                Some(b']') => {
                    self.pos += 1;
                    self.depth_left += 1;
                    return Ok(Value::Array(items));
                }
                Some(_) => return Err(self.structure_error("expected ',' or ']' after an array element")),
                None => return Err(self.eof("inside an array")),
            }
        }
    }
}
