//! Turns `jsonschema` errors into short, plain problems: a JSON pointer to
//! the offending value and one sentence saying what is wrong.
//!
//! Conditional rules (`if`/`then`/`else`) name their condition, read from the
//! schema itself, e.g. "`score` must be null (when `status` is `review_error`)".

use super::{Problem, SCHEMA_RULE};
use crate::model::problem::push_pointer;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError};
use serde_json::Value;

/// How every unknown-member message starts (used to pick them out).
pub(super) const UNKNOWN_MEMBER: &str = "unknown member";

/// Longest rendering of a producer value inside a message, in characters.
const MAX_SHOWN: usize = 60;

/// Appends the problems one validation error stands for.
pub(super) fn describe(error: &ValidationError<'_>, schema: &Value, out: &mut Vec<Problem>) {
    let path = error.instance_path().as_str().to_string();
    let keyword = KeywordSite::of(error, schema);
    let condition = keyword.as_ref().and_then(|k| k.condition(schema)).unwrap_or_default();
    let instance: &Value = error.instance();
    let message = match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            for name in unexpected {
                let at = push_pointer(&path, name);
                out.push(problem(at, format!("{UNKNOWN_MEMBER} `{name}`{condition}")));
            }
            return;
        }
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            describe_alternatives(error, context, schema, out);
            return;
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().map_or_else(|| property.to_string(), str::to_string);
            let trigger = keyword
                .as_ref()
                .and_then(|k| k.dependency_trigger(schema, &name, instance));
            match trigger {
                Some(trigger) => format!("missing member `{name}` (it must come with `{trigger}`)"),
                None => format!("missing required member `{name}`"),
            }
        }
        kind => {
            size_sentence(kind, instance, &subject(&path)).unwrap_or_else(|| value_sentence(error, &subject(&path)))
        }
    };
    out.push(problem(path, format!("{message}{condition}")));
}

/// Sentences about string lengths and array sizes.
fn size_sentence(kind: &ValidationErrorKind, instance: &Value, subject: &str) -> Option<String> {
    let chars = || char_count(instance);
    let items = || item_count(instance);
    Some(match kind {
        ValidationErrorKind::MinLength { limit: 1 } | ValidationErrorKind::MinItems { limit: 1 } => {
            format!("{subject} must not be empty")
        }
        ValidationErrorKind::MinLength { limit } => {
            format!("{subject} must have at least {limit} characters (has {})", chars())
        }
        ValidationErrorKind::MaxLength { limit } => {
            format!("{subject} must have at most {limit} characters (has {})", chars())
        }
        ValidationErrorKind::MinItems { limit } => {
            format!("{subject} must have at least {limit} items (has {})", items())
        }
        ValidationErrorKind::MaxItems { limit: 0 } => format!("{subject} must be empty"),
        ValidationErrorKind::MaxItems { limit } => {
            format!("{subject} must have at most {limit} items (has {})", items())
        }
        _ => return None,
    })
}

/// Sentences about a value's type, allowed values, bounds and shape.
fn value_sentence(error: &ValidationError<'_>, subject: &str) -> String {
    let instance: &Value = error.instance();
    let got = shown(instance);
    match error.kind() {
        ValidationErrorKind::Type { kind } => {
            format!("{subject} must be {} (got {})", expected_types(kind), kind_of(instance))
        }
        ValidationErrorKind::Constant { expected_value } => {
            format!("{subject} must be {} (got {got})", literal(expected_value))
        }
        ValidationErrorKind::Enum { options } => {
            format!("{subject} must be one of {} (got {got})", choices(options))
        }
        ValidationErrorKind::Minimum { limit } => {
            format!("{subject} must be >= {limit} (got {got})")
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("{subject} must be <= {limit} (got {got})")
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("{subject} must be > {limit} (got {got})")
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("{subject} must be < {limit} (got {got})")
        }
        ValidationErrorKind::Pattern { pattern } => {
            format!("{subject} must match the pattern `{pattern}` (got {got})")
        }
        ValidationErrorKind::Format { format } => {
            format!("{subject} is not a valid {format} (got {got})")
        }
        ValidationErrorKind::UniqueItems => {
            format!("{subject} must not contain the same item twice")
        }
        ValidationErrorKind::FalseSchema => format!("{subject} is not allowed here"),
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            format!("{subject} matches more than one of the allowed forms")
        }
        // The instance is an outline (see `doc_json::outline`): masked, not shown.
        _ => format!("{subject}: {}", clip(&error.masked().to_string())),
    }
}

fn problem(path: String, message: String) -> Problem {
    Problem::new(SCHEMA_RULE, path, message)
}

/// For a failed `anyOf`/`oneOf`: when exactly one alternative accepts the
/// value's type, its errors are the useful ones; otherwise say it plainly.
fn describe_alternatives(
    error: &ValidationError<'_>,
    context: &[Vec<ValidationError<'static>>],
    schema: &Value,
    out: &mut Vec<Problem>,
) {
    let path = error.instance_path().as_str();
    let plausible: Vec<&Vec<ValidationError<'static>>> = context
        .iter()
        .filter(|branch| {
            !branch.iter().any(|e| {
                e.instance_path().as_str() == path
                    && matches!(
                        e.kind(),
                        ValidationErrorKind::Type { .. } | ValidationErrorKind::Constant { .. }
                    )
            })
        })
        .collect();
    if let [branch] = plausible.as_slice() {
        for inner in branch.iter() {
            describe(inner, schema, out);
        }
    } else {
        out.push(problem(
            path.to_string(),
            format!("{} does not match any of the allowed forms", subject(path)),
        ));
    }
}

/// Where in the bundled schema the failing keyword sits.
struct KeywordSite {
    /// Pointer tokens from the bundle's root to the keyword.
    tokens: Vec<String>,
}

impl KeywordSite {
    /// Follows the error's evaluation path through the bundle: it starts
    /// with the entry point's `$ref` to the bundle's root, and every later
    /// `$ref` step continues at the (local) definition it names.
    fn of(error: &ValidationError<'_>, schema: &Value) -> Option<KeywordSite> {
        let mut tokens: Vec<String> = Vec::new();
        let mut node = schema;
        let mut path = pointer_tokens(error.evaluation_path().as_str());
        if path.next().as_deref() != Some("$ref") {
            return None;
        }
        for token in path {
            if token == "$ref" {
                let target = node.get("$ref")?.as_str()?.strip_prefix('#')?;
                tokens = pointer_tokens(target).collect();
                node = resolve(schema, &tokens)?;
            } else {
                node = resolve(node, std::slice::from_ref(&token))?;
                tokens.push(token);
            }
        }
        Some(KeywordSite { tokens })
    }

    /// For a `dependentRequired` failure, the member present in `instance`
    /// whose presence demands the missing `property`.
    fn dependency_trigger(&self, schema: &Value, property: &str, instance: &Value) -> Option<String> {
        let at = self.tokens.iter().rposition(|t| t == "dependentRequired")?;
        let dependencies = resolve(schema, &self.tokens[..=at])?.as_object()?;
        dependencies
            .iter()
            .find(|(trigger, needs)| {
                instance.get(trigger.as_str()).is_some()
                    && needs.as_array().is_some_and(|list| list.iter().any(|n| n == property))
            })
            .map(|(trigger, _)| trigger.clone())
    }

    /// " (when `k` is `v`)" for a keyword under `then`, " (when `k` is not `v`)" under `else`.
    fn condition(&self, schema: &Value) -> Option<String> {
        let branch = self.tokens.iter().rposition(|t| t == "then" || t == "else")?;
        let parent = resolve(schema, &self.tokens[..branch])?;
        let (member, test) = parent.get("if")?.get("properties")?.as_object()?.iter().next()?;
        let negated = self.tokens[branch] == "else";
        let values = match (test.get("const"), test.get("enum")) {
            (Some(c), _) => vec![c.clone()],
            (None, Some(Value::Array(options))) => options.clone(),
            _ => return None,
        };
        let listed = values.iter().map(literal).collect::<Vec<_>>().join(" or ");
        let verb = if negated { "is not" } else { "is" };
        Some(format!(" (when `{member}` {verb} {listed})"))
    }
}

/// The decoded tokens of a JSON pointer.
fn pointer_tokens(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
}

/// The value at `tokens` below `node`.
fn resolve<'s>(mut node: &'s Value, tokens: &[String]) -> Option<&'s Value> {
    for token in tokens {
        node = match node {
            Value::Object(map) => map.get(token)?,
            Value::Array(list) => list.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// Names the value at a pointer: "`confidence`", "`models` item 2", "the document".
pub(super) fn subject(pointer: &str) -> String {
    let tokens: Vec<String> = pointer_tokens(pointer).collect();
    match tokens.as_slice() {
        [] => "the document".to_string(),
        [.., parent, last] if is_index(last) && !is_index(parent) => {
            format!("`{parent}` item {last}")
        }
        [.., last] if is_index(last) => format!("item {last}"),
        [.., last] => format!("`{last}`"),
    }
}

fn is_index(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

fn expected_types(kind: &TypeKind) -> String {
    let mut names: Vec<&str> = match kind {
        TypeKind::Single(t) => vec![type_name(*t)],
        TypeKind::Multiple(set) => set.iter().map(type_name).collect(),
    };
    // "an integer or null" reads better than "null or an integer".
    names.sort_by_key(|n| *n == "null");
    match names.as_slice() {
        [] => "of another type".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn type_name(t: JsonType) -> &'static str {
    match t {
        JsonType::Null => "null",
        JsonType::Boolean => "a boolean",
        JsonType::Integer => "an integer",
        JsonType::Number => "a number",
        JsonType::String => "a string",
        JsonType::Array => "an array",
        JsonType::Object => "an object",
    }
}

/// The kind of a value, for "(got ...)": a short literal for scalars.
fn kind_of(value: &Value) -> String {
    match value {
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
        Value::String(_) => format!("the string {}", shown(value)),
        other => shown(other),
    }
}

/// A value as it would appear in JSON, clipped.
fn shown(value: &Value) -> String {
    match value {
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(_) => "an object".to_string(),
        other => clip(&other.to_string()),
    }
}

/// An expected value: strings in backticks, anything else as JSON.
fn literal(value: &Value) -> String {
    match value {
        Value::String(s) => format!("`{}`", clip(s)),
        other => clip(&other.to_string()),
    }
}

fn choices(options: &Value) -> String {
    match options {
        Value::Array(list) => list.iter().map(literal).collect::<Vec<_>>().join(", "),
        other => literal(other),
    }
}

fn char_count(value: &Value) -> usize {
    value.as_str().map_or(0, |s| s.chars().count())
}

fn item_count(value: &Value) -> usize {
    value.as_array().map_or(0, Vec::len)
}

fn clip(text: &str) -> String {
    if text.chars().count() <= MAX_SHOWN {
        return text.to_string();
    }
    let mut out: String = text.chars().take(MAX_SHOWN).collect();
    out.push('…');
    out
}
