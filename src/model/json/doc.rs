//! A parsed document that lends its strings out of the input.
//!
//! The strict reader writes every value onto a flat tape of 8-byte cells,
//! in document order: one cell per value and member name, but two for a
//! number (a cell naming its kind, then its 64 bits). A container's cell
//! records how many members or items it has and where the cell after its
//! last one is, so a reader can step over it; an object's members are a
//! name cell followed by the value's cells. Strings without escapes point
//! into the input text; strings with escapes are decoded once into one side
//! buffer. Nothing else is allocated, which makes a document a fraction of
//! the size of a `serde_json::Value` tree and much cheaper to build. The
//! tape is most of what a load writes besides the input, so its cells are
//! kept small: offsets, lengths and cell indices take 30 bits each, which
//! bounds a document's text to [`MAX_TEXT_BYTES`].
//!
//! A document either borrows its text (a document read from bytes in memory)
//! or owns it (a file read by the loader, whose bytes become the text without
//! a copy), so a loaded document can be kept beside its model.
//!
//! [`DocNode`] is a cheap handle on one value; its methods mirror
//! `serde_json::Value`'s (`get`, `as_str`, `members`, `items`, `kind`).
//! [`DocNode::to_value`] builds the equivalent `serde_json::Value` for code
//! that wants one (error wording, small documents read by hand).

use serde_json::{Map, Number, Value};
use std::borrow::Cow;

/// One value as read off the tape (see [`Cell`] for how it is stored).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Tok {
    Null,
    True,
    False,
    /// A plain non-negative integer literal.
    U64(u64),
    /// A plain negative integer literal.
    I64(i64),
    /// Every other number, converted as serde_json converts it.
    F64(f64),
    /// A string without escapes: `text[at..at + len]`.
    Raw {
        at: u32,
        len: u32,
    },
    /// A string with escapes, decoded: `escaped[at..at + len]`.
    Esc {
        at: u32,
        len: u32,
    },
    /// An array of `len` items; `end` is the index of the cell after it.
    Arr {
        len: u32,
        end: u32,
    },
    /// An object of `len` members; `end` is the index of the cell after it.
    Obj {
        len: u32,
        end: u32,
    },
}

/// The most bytes of text a document may be read from: every offset,
/// length, count and cell index of its tape then fits a cell's 30-bit
/// fields (a value takes at least one byte of text, and only a number,
/// which is always followed by a delimiter unless it is the whole
/// document, takes two cells).
pub const MAX_TEXT_BYTES: usize = (1 << FIELD_BITS) - 2;

const FIELD_BITS: u32 = 30;
const FIELD_MASK: u64 = (1 << FIELD_BITS) - 1;
const TAG_BITS: u32 = 4;

/// The kinds of cell, in the low [`TAG_BITS`] bits.
mod tag {
    pub const NULL: u64 = 0;
    pub const TRUE: u64 = 1;
    pub const FALSE: u64 = 2;
    pub const U64: u64 = 3;
    pub const I64: u64 = 4;
    pub const F64: u64 = 5;
    pub const RAW: u64 = 6;
    pub const ESC: u64 = 7;
    pub const ARR: u64 = 8;
    pub const OBJ: u64 = 9;
}

/// One cell of the tape: a tag and two 30-bit fields (`at` and `len` of a
/// string; `len` and `end` of a container), or the 64 bits of the number
/// whose head cell precedes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cell(u64);

const _: () = assert!(std::mem::size_of::<Cell>() == 8);

impl Cell {
    fn new(tag: u64, a: u32, b: u32) -> Cell {
        debug_assert!(u64::from(a) <= FIELD_MASK && u64::from(b) <= FIELD_MASK);
        Cell(tag | (u64::from(a) & FIELD_MASK) << TAG_BITS | (u64::from(b) & FIELD_MASK) << (TAG_BITS + FIELD_BITS))
    }

    fn tag(self) -> u64 {
        self.0 & ((1 << TAG_BITS) - 1)
    }

    fn a(self) -> u32 {
        ((self.0 >> TAG_BITS) & FIELD_MASK) as u32
    }

    fn b(self) -> u32 {
        ((self.0 >> (TAG_BITS + FIELD_BITS)) & FIELD_MASK) as u32
    }

    /// The cell of a container whose contents are on the tape (`end` is the
    /// index of the cell after them).
    pub(crate) fn container(array: bool, len: u32, end: u32) -> Cell {
        Cell::new(if array { tag::ARR } else { tag::OBJ }, len, end)
    }

    /// True for the cell of an array.
    pub(crate) fn is_array(self) -> bool {
        self.tag() == tag::ARR
    }
}

/// Writes one value's cells at the end of the tape (inlined, so that a
/// caller's known kind of value leaves only its own push).
#[inline(always)]
pub(crate) fn put(tape: &mut Vec<Cell>, tok: Tok) {
    let cell = |tag| Cell::new(tag, 0, 0);
    match tok {
        Tok::Null => tape.push(cell(tag::NULL)),
        Tok::True => tape.push(cell(tag::TRUE)),
        Tok::False => tape.push(cell(tag::FALSE)),
        Tok::U64(n) => tape.extend([cell(tag::U64), Cell(n)]),
        Tok::I64(n) => tape.extend([cell(tag::I64), Cell(n as u64)]),
        Tok::F64(f) => tape.extend([cell(tag::F64), Cell(f.to_bits())]),
        Tok::Raw { at, len } => tape.push(Cell::new(tag::RAW, at, len)),
        Tok::Esc { at, len } => tape.push(Cell::new(tag::ESC, at, len)),
        Tok::Arr { len, end } => tape.push(Cell::container(true, len, end)),
        Tok::Obj { len, end } => tape.push(Cell::container(false, len, end)),
    }
}

/// The value whose cells start at `i` (`None` past the end).
pub(crate) fn get(tape: &[Cell], i: usize) -> Option<Tok> {
    let cell = *tape.get(i)?;
    let bits = || tape.get(i + 1).map(|c| c.0);
    let (a, b) = (cell.a(), cell.b());
    Some(match cell.tag() {
        tag::NULL => Tok::Null,
        tag::TRUE => Tok::True,
        tag::FALSE => Tok::False,
        tag::U64 => Tok::U64(bits()?),
        tag::I64 => Tok::I64(bits()? as i64),
        tag::F64 => Tok::F64(f64::from_bits(bits()?)),
        tag::RAW => Tok::Raw { at: a, len: b },
        tag::ESC => Tok::Esc { at: a, len: b },
        tag::ARR => Tok::Arr { len: a, end: b },
        tag::OBJ => Tok::Obj { len: a, end: b },
        _ => return None,
    })
}

/// The index of the cell after the value whose cells start at `i`.
fn after(tape: &[Cell], i: u32) -> u32 {
    match tape.get(i as usize) {
        Some(&c) if matches!(c.tag(), tag::ARR | tag::OBJ) => c.b(),
        Some(&c) if matches!(c.tag(), tag::U64 | tag::I64 | tag::F64) => i + 2,
        _ => i + 1,
    }
}

/// A whole parsed document.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc<'s> {
    pub(crate) text: Cow<'s, str>,
    pub(crate) tape: Vec<Cell>,
    pub(crate) escaped: Cow<'s, str>,
}

/// The order in which a node, and every node reached from it, hands out
/// an object's members (see [`DocNode::in_name_order`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// As they stand in the document.
    Document,
    /// Sorted by name.
    Names,
}

/// The kind of a value, as JSON names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl<'s> Doc<'s> {
    /// The top-level value.
    pub fn root(&self) -> DocNode<'_> {
        DocNode {
            doc: self,
            at: 0,
            order: Order::Document,
        }
    }

    /// The document of a value built in memory (written out and read back
    /// by the strict reader, so it is exactly what reading that text gives).
    pub fn of_value(value: &Value) -> Result<Doc<'static>, crate::model::problem::Problem> {
        let text = serde_json::to_vec(value).unwrap_or_default();
        super::read_doc_owned(text, &super::ReadLimits::default()).map_err(|(problem, _)| problem)
    }

    /// Splits the document into its strings (a document without tokens) and
    /// its tape, so that the tape can be freed while values decoded from it
    /// still borrow the strings (see [`Doc::over`] and [`Doc::strings`]).
    pub(crate) fn split(self) -> (Doc<'s>, Vec<Cell>) {
        let strings = Doc {
            text: self.text,
            tape: Vec::new(),
            escaped: self.escaped,
        };
        (strings, self.tape)
    }

    /// The document of `tape` over the strings of `strings` (the halves
    /// [`Doc::split`] gave), borrowing them.
    pub(crate) fn over<'b>(strings: &'b Doc<'_>, tape: Vec<Cell>) -> Doc<'b> {
        Doc {
            text: Cow::Borrowed(&strings.text),
            tape,
            escaped: Cow::Borrowed(&strings.escaped),
        }
    }

    /// The strings of this document, for lending them out beyond its tape.
    pub fn strings(&self) -> Strings<'_> {
        Strings {
            text: &self.text,
            escaped: &self.escaped,
        }
    }

    /// The number of cells on the tape (one per value and member name,
    /// two per number).
    pub fn cell_count(&self) -> usize {
        self.tape.len()
    }

    /// A one-string document (the `escaped` buffer holds `s`).
    pub(crate) fn single_string(s: &str) -> Doc<'static> {
        let mut doc = Doc {
            text: Cow::Borrowed(""),
            tape: Vec::with_capacity(1),
            escaped: Cow::Owned(String::new()),
        };
        doc.set_single_string(s);
        doc
    }

    /// Makes this a one-string document holding `s`, reusing its buffers.
    pub(crate) fn set_single_string(&mut self, s: &str) {
        self.tape.clear();
        let escaped = self.escaped.to_mut();
        escaped.clear();
        escaped.push_str(s);
        put(
            &mut self.tape,
            Tok::Esc {
                at: 0,
                len: s.len() as u32,
            },
        );
    }

    fn str_of(&self, tok: Tok) -> Option<&str> {
        token_str(&self.text, &self.escaped, tok)
    }

    /// The size in bytes of the text the document was read from.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }
}

/// The strings of a document (its text and its decoded escapes), which a
/// string token of a document over them can be read from.
#[derive(Debug, Clone, Copy)]
pub struct Strings<'s> {
    text: &'s str,
    escaped: &'s str,
}

impl<'s> Strings<'s> {
    /// The text of a string token.
    pub(crate) fn of(&self, tok: Tok) -> Option<&'s str> {
        token_str(self.text, self.escaped, tok)
    }
}

/// The text of a string token, from the raw text or the side buffer of
/// decoded escapes (`None` for any other token).
pub(crate) fn token_str<'t>(text: &'t str, escaped: &'t str, tok: Tok) -> Option<&'t str> {
    match tok {
        Tok::Raw { at, len } => text.get(at as usize..(at + len) as usize),
        Tok::Esc { at, len } => escaped.get(at as usize..(at + len) as usize),
        _ => None,
    }
}

/// The empty one-string document (the scratch `jsonschema` names members in).
impl Default for Doc<'static> {
    fn default() -> Self {
        Doc::single_string("")
    }
}

/// A handle on one value of a [`Doc`]; copying it is free.
#[derive(Clone, Copy)]
pub struct DocNode<'a> {
    pub(crate) doc: &'a Doc<'a>,
    pub(crate) at: u32,
    pub(crate) order: Order,
}

impl std::fmt::Debug for DocNode<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DocNode({:?} at {})", self.tok(), self.at)
    }
}

impl<'a> DocNode<'a> {
    pub(crate) fn tok(&self) -> Tok {
        get(&self.doc.tape, self.at as usize).unwrap_or(Tok::Null)
    }

    /// What kind of value this is.
    pub fn kind(&self) -> Kind {
        match self.tok() {
            Tok::Null => Kind::Null,
            Tok::True | Tok::False => Kind::Bool,
            Tok::U64(_) | Tok::I64(_) | Tok::F64(_) => Kind::Number,
            Tok::Raw { .. } | Tok::Esc { .. } => Kind::String,
            Tok::Arr { .. } => Kind::Array,
            Tok::Obj { .. } => Kind::Object,
        }
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&'a str> {
        self.doc.str_of(self.tok())
    }

    /// The boolean, when this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self.tok() {
            Tok::True => Some(true),
            Tok::False => Some(false),
            _ => None,
        }
    }

    /// The number exactly as `serde_json` holds it, when this is one.
    pub fn as_number(&self) -> Option<Number> {
        match self.tok() {
            Tok::U64(n) => Some(Number::from(n)),
            Tok::I64(n) => Some(Number::from(n)),
            Tok::F64(f) => Number::from_f64(f),
            _ => None,
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        self.tok() == Tok::Null
    }

    /// The member or item count of a container (0 for anything else).
    pub fn len(&self) -> usize {
        match self.tok() {
            Tok::Arr { len, .. } | Tok::Obj { len, .. } => len as usize,
            _ => 0,
        }
    }

    /// True when this is not a container or has no members or items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The members of an object, in document order or, for a node of
    /// [`DocNode::in_name_order`], in name order (nothing for other values).
    pub fn members(&self) -> Members<'a> {
        let members = self.members_in_document_order();
        if members.left > 1 && self.order == Order::Names {
            let doc = members.doc;
            let mut all: Vec<(&'a str, DocNode<'a>)> = members.collect();
            all.sort_by_key(|(name, _)| *name);
            return Members {
                sorted: Some(all.into_iter()),
                ..Members::new(doc, 0, 0, self.order)
            };
        }
        members
    }

    /// The items of an array in order (nothing for other values).
    pub fn items(&self) -> Items<'a> {
        match self.tok() {
            Tok::Arr { len, .. } => Items {
                doc: self.doc,
                next: self.at + 1,
                left: len,
                order: self.order,
            },
            _ => Items {
                doc: self.doc,
                next: 0,
                left: 0,
                order: self.order,
            },
        }
    }

    /// Member `name` of an object.
    pub fn get(&self, name: &str) -> Option<DocNode<'a>> {
        self.members_in_document_order()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
    }

    fn members_in_document_order(&self) -> Members<'a> {
        match self.tok() {
            Tok::Obj { len, .. } => Members::new(self.doc, self.at + 1, len, self.order),
            _ => Members::new(self.doc, 0, 0, self.order),
        }
    }

    /// The token of this member value's name, the cell before the value.
    /// Only for the value of an object member: before any other value
    /// stands another value's last cell (perhaps a number's bits).
    pub(crate) fn name_tok(&self) -> Tok {
        self.at
            .checked_sub(1)
            .and_then(|i| get(&self.doc.tape, i as usize))
            .unwrap_or(Tok::Null)
    }

    /// The strings of the document this value belongs to.
    pub fn strings(&self) -> Strings<'a> {
        self.doc.strings()
    }

    /// This value, handing out the members of its objects (and of every
    /// object below it) in name order.
    ///
    /// A `serde_json::Value` (without `preserve_order`) holds an object's
    /// members in name order, and the wording of problems has always
    /// followed it: which of two faulty members a decoding failure names,
    /// and the order of schema problems. The problem paths read the
    /// document through this view, so those stay what they were; the paths
    /// for valid documents keep the document order, which costs nothing.
    pub fn in_name_order(self) -> DocNode<'a> {
        DocNode {
            order: Order::Names,
            ..self
        }
    }

    /// True when this is an object with member `name`.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The item at `index` of an array.
    pub fn at(&self, index: usize) -> Option<DocNode<'a>> {
        self.items().nth(index)
    }

    /// True when this is an object.
    pub fn is_object(&self) -> bool {
        self.kind() == Kind::Object
    }

    /// True when this is an array.
    pub fn is_array(&self) -> bool {
        self.kind() == Kind::Array
    }

    /// An identity for this value, unique among the live nodes of all documents.
    pub(crate) fn address(&self) -> usize {
        std::ptr::from_ref::<Doc<'_>>(self.doc) as usize
    }

    /// The equivalent `serde_json::Value` (a copy).
    pub fn to_value(&self) -> Value {
        match self.tok() {
            Tok::Null => Value::Null,
            Tok::True => Value::Bool(true),
            Tok::False => Value::Bool(false),
            Tok::U64(_) | Tok::I64(_) | Tok::F64(_) => self.as_number().map_or(Value::Null, Value::Number),
            Tok::Raw { .. } | Tok::Esc { .. } => Value::String(self.as_str().unwrap_or_default().to_owned()),
            Tok::Arr { .. } => Value::Array(self.items().map(|v| v.to_value()).collect()),
            Tok::Obj { .. } => Value::Object(
                self.members_in_document_order()
                    .map(|(k, v)| (k.to_owned(), v.to_value()))
                    .collect::<Map<_, _>>(),
            ),
        }
    }
}

/// The members of an object: `(name, value)` in document order (or in name
/// order, see [`DocNode::in_name_order`]).
///
/// The tape and the strings are looked up once, when the iterator is made,
/// so a step reads two cells and slices one name.
#[derive(Clone)]
pub struct Members<'a> {
    doc: &'a Doc<'a>,
    tape: &'a [Cell],
    strings: Strings<'a>,
    next: u32,
    left: u32,
    order: Order,
    sorted: Option<std::vec::IntoIter<(&'a str, DocNode<'a>)>>,
}

impl<'a> Members<'a> {
    fn new(doc: &'a Doc<'a>, next: u32, left: u32, order: Order) -> Self {
        Members {
            doc,
            tape: &doc.tape,
            strings: doc.strings(),
            next,
            left,
            order,
            sorted: None,
        }
    }
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, DocNode<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(sorted) = &mut self.sorted {
            return sorted.next();
        }
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let at = self.next as usize;
        let name = get(self.tape, at)
            .and_then(|tok| self.strings.of(tok))
            .unwrap_or_default();
        let value = DocNode {
            doc: self.doc,
            at: self.next + 1,
            order: self.order,
        };
        self.next = after(self.tape, self.next + 1);
        Some((name, value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.sorted.as_ref().map_or(self.left as usize, ExactSizeIterator::len);
        (left, Some(left))
    }
}

impl ExactSizeIterator for Members<'_> {}

/// The items of an array, in order.
#[derive(Clone)]
pub struct Items<'a> {
    doc: &'a Doc<'a>,
    next: u32,
    left: u32,
    order: Order,
}

impl<'a> Iterator for Items<'a> {
    type Item = DocNode<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let item = DocNode {
            doc: self.doc,
            at: self.next,
            order: self.order,
        };
        self.next = after(&self.doc.tape, self.next);
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Items<'_> {}
