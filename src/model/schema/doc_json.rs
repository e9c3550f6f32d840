//! [`Doc`] as a `jsonschema` instance representation, so a document is
//! validated where it was parsed, without building a `serde_json::Value`.
//!
//! Both questions are asked of it: whether a document conforms and, when it
//! does not, every error. An error carries its instance as a
//! `serde_json::Value` one level deep ([`outline`]): that is all the wording
//! reads, and a full copy would make every error at the root of a large
//! document cost a copy of the document.
//!
//! `jsonschema` lists every error of a document before handing out the
//! first, so a document with an error in each of a million items would make
//! millions of errors (gigabytes, a minute) to show the first few hundred.
//! While errors are listed under [`with_error_budget`], arrays stop handing
//! out items once the budget is spent: the listing stops growing.
//!
//! It implements only the methods `jsonschema` 0.60 and 0.61 both declare;
//! the 0.61 additions have defaults.

use crate::model::json::doc::{Doc, DocNode, Items, Kind, Members};
use jsonschema::JsonType;
use jsonschema::json::{Array, Json, Node, NodeIdentity, Object};
use jsonschema_value::LazyInstance;
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::cell::Cell;

/// The most member names an object's outline keeps.
///
/// Only the wording of a `dependentRequired` failure reads them (is the
/// trigger member present?), on objects of a handful of members; an object
/// of a million members at the root of a document read as the wrong format
/// would otherwise be copied, name by name, into each of its errors.
pub(super) const OUTLINE_MEMBERS: usize = 64;

thread_local! {
    /// The errors the listing under way may still make (see
    /// [`with_error_budget`]); `None` when no listing is budgeted.
    static ERRORS_LEFT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Runs `list` (which lists a document's errors) with at most about
/// `budget` errors made: once they are made, arrays hand out no more items,
/// so no error is made for a later item. Also tells whether the budget ran
/// out, after which the errors listed are not all there are.
pub(super) fn with_error_budget<T>(budget: usize, list: impl FnOnce() -> T) -> (T, bool) {
    /// Ends the budget even if `list` panics, so later validation on this
    /// thread sees every item.
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            ERRORS_LEFT.set(None);
        }
    }
    let _reset = Reset;
    ERRORS_LEFT.set(Some(budget));
    let listed = list();
    (listed, ERRORS_LEFT.get() == Some(0))
}

/// Counts one error made against the budget, if any.
fn spend_one() {
    if let Some(left) = ERRORS_LEFT.get() {
        ERRORS_LEFT.set(Some(left.saturating_sub(1)));
    }
}

/// The `jsonschema` representation marker for [`Doc`].
pub struct DocJson;

impl Json for DocJson {
    type Node<'a> = DocNode<'a>;
    type PreparedKey = Box<str>;
    type StringBuffer = Doc<'static>;

    // A lookup is a scan of the members, so a members pass wins early.
    const KEYS_PER_LOOKUP: usize = 16;

    fn prepare_key(key: &str) -> Box<str> {
        key.into()
    }

    fn with_string_node<T>(buffer: &mut Doc<'static>, string: &str, f: impl FnOnce(DocNode<'_>) -> T) -> T {
        buffer.set_single_string(string);
        f(buffer.root())
    }
}

/// The instance a validation error carries: scalars as they are, an
/// array's items and an object's member values as `null` (and of an object
/// only the first [`OUTLINE_MEMBERS`] members).
///
/// The wording reads no more of an instance than its kind, a string, an
/// array's length and an object's member names (`schema::wording`); errors
/// are made for every violation, and `jsonschema` builds each one's
/// instance when it makes the error, so a full copy would turn a document
/// with problems at its root into a copy of the whole document per problem.
fn outline(node: DocNode<'_>) -> Value {
    match node.kind() {
        Kind::Array => Value::Array(vec![Value::Null; node.len()]),
        Kind::Object => Value::Object(
            node.members()
                .take(OUTLINE_MEMBERS)
                .map(|(name, _)| (name.to_owned(), Value::Null))
                .collect(),
        ),
        _ => node.to_value(),
    }
}

/// An object of a [`Doc`].
#[derive(Clone, Copy)]
pub struct DocObject<'a>(DocNode<'a>);

/// An array of a [`Doc`].
#[derive(Clone, Copy)]
pub struct DocArray<'a>(DocNode<'a>);

/// The items of an array, until an error budget runs out (see
/// [`with_error_budget`]).
pub struct BudgetedItems<'a>(Items<'a>);

impl<'a> Iterator for BudgetedItems<'a> {
    type Item = DocNode<'a>;

    fn next(&mut self) -> Option<DocNode<'a>> {
        match ERRORS_LEFT.get() {
            Some(0) => None,
            _ => self.0.next(),
        }
    }
}

impl<'a> Node<'a, DocJson> for DocNode<'a> {
    type Object = DocObject<'a>;
    type Array = DocArray<'a>;
    type Number = Number;

    fn as_object(&self) -> Option<DocObject<'a>> {
        (self.kind() == Kind::Object).then_some(DocObject(*self))
    }

    fn as_array(&self) -> Option<DocArray<'a>> {
        (self.kind() == Kind::Array).then_some(DocArray(*self))
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        DocNode::as_str(self).map(Cow::Borrowed)
    }

    fn as_number(&self) -> Option<Number> {
        DocNode::as_number(self)
    }

    fn as_boolean(&self) -> Option<bool> {
        self.as_bool()
    }

    fn is_null(&self) -> bool {
        DocNode::is_null(self)
    }

    fn is_number(&self) -> bool {
        self.kind() == Kind::Number
    }

    fn json_type(&self) -> JsonType {
        match self.kind() {
            Kind::Null => JsonType::Null,
            Kind::Bool => JsonType::Boolean,
            Kind::Number => JsonType::Number,
            Kind::String => JsonType::String,
            Kind::Array => JsonType::Array,
            Kind::Object => JsonType::Object,
        }
    }

    fn string_length(&self) -> Option<u64> {
        DocNode::as_str(self).map(|s| s.chars().count() as u64)
    }

    fn equals_value(&self, expected: &Value) -> bool {
        match (self.kind(), expected) {
            (Kind::String, Value::String(e)) => DocNode::as_str(self) == Some(e.as_str()),
            (Kind::String, _) => false,
            (Kind::Null, _) => expected.is_null(),
            (Kind::Bool, _) => self.as_bool() == expected.as_bool(),
            // A container equals only a container of its kind: no copy to find that out.
            (Kind::Array, e) if !e.is_array() => false,
            (Kind::Object, e) if !e.is_object() => false,
            _ => jsonschema::json::cmp::equal(&self.to_value(), expected),
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(DocNode::to_value(self))
    }

    fn lazy_value(&self) -> LazyInstance<'a> {
        // Called once for each error made.
        spend_one();
        LazyInstance::Ready(Cow::Owned(outline(*self)))
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::tagged(self.address(), self.at))
    }
}

impl<'a> Object<'a, DocJson> for DocObject<'a> {
    type Node = DocNode<'a>;
    type MemberName = &'a str;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn get(&self, key: &Box<str>) -> Option<DocNode<'a>> {
        self.0.get(key)
    }

    fn members(&self) -> Members<'a> {
        self.0.members()
    }
}

impl<'a> Array<'a, DocJson> for DocArray<'a> {
    type Node = DocNode<'a>;
    type ElementsIter = BudgetedItems<'a>;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn elements(&self) -> BudgetedItems<'a> {
        BudgetedItems(self.0.items())
    }
}
