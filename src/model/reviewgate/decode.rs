//! Typed decoding of a parsed document, with problems that name a rule and a
//! JSON pointer.
//!
//! Decoding borrows every string from the parsed document, so it costs one
//! pass and no copies (see `strict_doc`, which also knows where a fault is). serde
//! stops at the first fault, so when decoding fails the document's parts are
//! decoded one by one (only on that error path) to report every failing
//! part, and integer members are scanned so that every P8 fault is named.

use super::strict_doc::{Trail, from_doc, from_doc_lent};
use crate::model::json::{DocNode, Kind, Strings};
use crate::model::problem::{Problem, push_pointer};
use serde::Deserialize;

/// Decodes `value` as `T`; on failure returns every located problem.
///
/// `locate` refines a failure into problems at the failing parts (it is
/// given the document, its pointer and the output list).
pub(crate) fn decode<'a, T: Deserialize<'a>>(value: DocNode<'a>, locate: Locator<'a>) -> Result<T, Vec<Problem>> {
    decode_lent(value, value.strings(), locate)
}

/// [`decode`] lending `strings` (see `strict_doc::from_doc_lent`): the
/// decoded value outlives the borrow of `value`'s document.
pub(crate) fn decode_lent<'t, 's, T: Deserialize<'s>>(
    value: DocNode<'t>,
    strings: Strings<'s>,
    locate: Locator<'t>,
) -> Result<T, Vec<Problem>> {
    if let Ok(typed) = from_doc_lent::<T>(value, strings, &Trail::new("")) {
        return Ok(typed);
    }
    // The error path reads members in name order, as it always has (see
    // `DocNode::in_name_order`): the first fault serde meets is the one named.
    let value = value.in_name_order();
    let trail = Trail::new("");
    let err = match from_doc_lent::<T>(value, strings, &trail) {
        Ok(typed) => return Ok(typed),
        Err(err) => err,
    };
    let mut problems = Vec::new();
    scan_integers(value, "", &mut problems);
    let located_from = problems.len();
    locate(value, "", &mut problems);
    if problems.len() == located_from {
        problems.push(serde_problem(&err.to_string(), &trail.failed_at()));
    }
    // serde's report of a number fault the P8 scan already named is a repeat.
    let mut seen = std::collections::HashSet::new();
    problems.retain(|p| seen.insert((p.rule.clone(), p.path.clone())));
    Err(problems)
}

/// Refines a decoding failure at `(value, pointer)` into problems.
pub(crate) type Locator<'a> = fn(DocNode<'a>, &str, &mut Vec<Problem>);

/// Decodes `value` as `T`. On failure, runs `deeper` (which probes the
/// parts); if that finds nothing, reports serde's own message at `path`.
pub(crate) fn probe<'a, T: Deserialize<'a>>(
    value: DocNode<'a>,
    path: &str,
    out: &mut Vec<Problem>,
    deeper: impl FnOnce(DocNode<'a>, &mut Vec<Problem>),
) {
    let trail = Trail::new(path);
    let Err(err) = from_doc::<T>(value, &trail) else {
        return;
    };
    let before = out.len();
    if value.is_object() {
        deeper(value, out);
    }
    if out.len() == before {
        out.push(serde_problem(&err.to_string(), &trail.failed_at()));
    }
}

/// A leaf probe: decode `T`, report serde's message at `path` on failure.
pub(crate) fn leaf<'a, T: Deserialize<'a>>(value: DocNode<'a>, path: &str, out: &mut Vec<Problem>) {
    probe::<T>(value, path, out, |_, _| {});
}

/// Probes member `name` of `map` with `locate` when it is present and not null.
pub(crate) fn member<'a>(map: DocNode<'a>, base: &str, name: &str, out: &mut Vec<Problem>, locate: Locator<'a>) {
    if let Some(v) = map.get(name).filter(|v| !v.is_null()) {
        locate(v, &push_pointer(base, name), out);
    }
}

/// Probes every item of array member `name` of `map` with `locate`.
pub(crate) fn items<'a>(map: DocNode<'a>, base: &str, name: &str, out: &mut Vec<Problem>, locate: Locator<'a>) {
    if let Some(list) = map.get(name).filter(DocNode::is_array) {
        let path = push_pointer(base, name);
        for (i, v) in list.items().enumerate() {
            locate(v, &format!("{path}/{i}"), out);
        }
    }
}

/// Turns one serde message about the value at `path` into a problem with
/// the best rule id.
fn serde_problem(message: &str, path: &str) -> Problem {
    let field = between_backticks(message);
    let rule = if message.starts_with("unknown field") {
        "P11"
    } else if message.starts_with("missing field") {
        "P12"
    } else if message.starts_with("invalid type: null") {
        "P13"
    } else if message.starts_with("unknown variant") {
        "P7"
    } else if message.starts_with("invalid type: sequence, expected struct") {
        "P10"
    } else if is_integer_complaint(message) {
        "P8"
    } else {
        "type"
    };
    let message = if message.starts_with("unknown field") {
        format!("unknown member {:?} (every object is closed)", field.unwrap_or("?"))
    } else if message.starts_with("invalid type: sequence, expected struct") {
        format!("{message} (objects written as positional arrays are not accepted)")
    } else {
        message.to_owned()
    };
    Problem::new(rule, path, message)
}

fn between_backticks(message: &str) -> Option<&str> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(&message[start..start + len])
}

fn is_integer_complaint(message: &str) -> bool {
    let expects_int =
        message.ends_with("expected u8") || message.ends_with("expected u32") || message.ends_with("expected u64");
    expects_int
        && (message.starts_with("invalid type: floating point")
            || message.starts_with("invalid value: integer")
            || message.starts_with("invalid type: integer"))
}

/// Integer widths (T3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Width {
    U8,
    U32,
    U64,
}

impl Width {
    fn max(self) -> u64 {
        match self {
            Width::U8 => u64::from(u8::MAX),
            Width::U32 => u64::from(u32::MAX),
            Width::U64 => u64::MAX,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Width::U8 => "u8",
            Width::U32 => "u32",
            Width::U64 => "u64",
        }
    }
}

/// The width of each integer member of the ReviewGate formats (P8). No
/// member name is an integer in one object and a float in another.
fn integer_width(name: &str) -> Option<Width> {
    Some(match name {
        "score" | "target_score" => Width::U8,
        "line"
        | "finding_count"
        | "blocking_finding_count"
        | "inline_eligible_count"
        | "p0_count"
        | "p1_count"
        | "p2_count"
        | "p3_count"
        | "p4_count"
        | "analyzed_line_count"
        | "changed_symbol_count"
        | "candidate_count"
        | "selected_count"
        | "rg_calls"
        | "rg_output_bytes"
        | "selected_bytes"
        | "start_line"
        | "end_line"
        | "bytes" => Width::U32,
        "pull_request_number"
        | "submission_id"
        | "queue_ms"
        | "startup_ms"
        | "model_ms"
        | "publish_ms"
        | "verifier_ms"
        | "prompt_tokens"
        | "completion_tokens" => Width::U64,
        _ => return None,
    })
}

/// Reports every integer member holding something other than a plain
/// integer literal of its width (P8): `3.0`, `1e0`, `-0`, negatives, overflow.
pub(crate) fn scan_integers(value: DocNode<'_>, path: &str, out: &mut Vec<Problem>) {
    match value.kind() {
        Kind::Object => {
            // The members in name order, as a `serde_json::Value`'s map
            // holds them, so the problems come in the order they always had.
            let mut members: Vec<_> = value.members().collect();
            members.sort_by_key(|(name, _)| *name);
            for (name, v) in members {
                if let (Some(width), Some(n)) = (integer_width(name), v.as_number())
                    && let Some(message) = integer_fault(&n, width)
                {
                    out.push(Problem::new("P8", push_pointer(path, name), message));
                }
                if v.is_object() || v.is_array() {
                    scan_integers(v, &push_pointer(path, name), out);
                }
            }
        }
        Kind::Array => {
            for (i, v) in value.items().enumerate() {
                if v.is_object() || v.is_array() {
                    scan_integers(v, &format!("{path}/{i}"), out);
                }
            }
        }
        _ => {}
    }
}

fn integer_fault(n: &serde_json::Number, width: Width) -> Option<String> {
    match n.as_u64() {
        Some(u) if u <= width.max() => None,
        Some(u) => Some(format!(
            "{u} does not fit this member's type ({}: at most {})",
            width.name(),
            width.max()
        )),
        None if n.is_i64() => Some(format!(
            "{n} is negative; this member is an unsigned integer ({})",
            width.name()
        )),
        None => Some(format!(
            "{n} is not a {} integer: this member accepts only a plain integer literal that fits \
             (no fraction, exponent or minus sign)",
            width.name()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integer_scan_names_every_fault_with_its_path() {
        let v = json!({"score": 3.0, "findings": [{"line": -1}, {"line": 4294967296u64}, {"line": 7}],
                       "scope": {"pull_request_number": 18446744073709551615u64}, "confidence": 1});
        let text = v.to_string();
        let doc = crate::model::json::read_doc(text.as_bytes(), &Default::default()).expect("JSON");
        let mut out = Vec::new();
        scan_integers(doc.root(), "", &mut out);
        let paths: Vec<&str> = out.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, ["/findings/0/line", "/findings/1/line", "/score"]);
        assert!(out.iter().all(|p| p.rule == "P8"));
    }

    #[test]
    fn serde_messages_map_to_rules() {
        let p = serde_problem("unknown field `extra`, expected one of `a`, `b`", "/findings/0/extra");
        assert_eq!((p.rule.as_str(), p.path.as_str()), ("P11", "/findings/0/extra"));
        assert_eq!(p.message, "unknown member \"extra\" (every object is closed)");
        assert_eq!(serde_problem("missing field `id`", "/x").rule, "P12");
        assert_eq!(serde_problem("invalid type: null, expected a string", "").rule, "P13");
        assert_eq!(
            serde_problem("unknown variant `p2`, expected one of `P0`", "").rule,
            "P7"
        );
        assert_eq!(
            serde_problem("invalid type: floating point `3`, expected u8", "").rule,
            "P8"
        );
        assert_eq!(
            serde_problem("invalid value: integer `256`, expected u8", "").rule,
            "P8"
        );
        assert_eq!(
            serde_problem("invalid type: sequence, expected struct AgentResult", "").rule,
            "P10"
        );
        assert_eq!(
            serde_problem("invalid type: string \"x\", expected f64", "").rule,
            "type"
        );
    }
}
