//! The string formats of a River memory entry, asserted as River's validator
//! (Ajv with ajv-formats, full mode) asserts them: the schema crate only
//! annotates `format`, so this walk checks the members the schemas mark
//! `date-time` (`metadata.createdAt`, `metadata.updatedAt`, `expiresAt`,
//! `context.expiresAt`) and `uri` (`metadata.links[]`) of one entry.

use super::reader::{is_ajv_uri, is_rfc3339_date_time};
use crate::model::problem::Problem;
use serde_json::Value;

/// Rule id of a malformed `date-time` or `uri` string.
const FORMAT_RULE: &str = "river-format";

/// Every format fault of one memory entry, with its JSON pointer under `base`.
pub fn memory_entry_format_problems(entry: &Value, base: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let date_times = [
        "/metadata/createdAt",
        "/metadata/updatedAt",
        "/expiresAt",
        "/context/expiresAt",
    ];
    for pointer in date_times {
        if let Some(Value::String(s)) = entry.pointer(pointer)
            && !is_rfc3339_date_time(s)
        {
            let message = format!("`{}` is not an RFC 3339 date-time", s.escape_debug());
            out.push(Problem::new(FORMAT_RULE, format!("{base}{pointer}"), message));
        }
    }
    if let Some(Value::Array(links)) = entry.pointer("/metadata/links") {
        for (i, link) in links.iter().enumerate() {
            if let Value::String(s) = link
                && !is_ajv_uri(s)
            {
                let message = format!(
                    "`{}` is not a uri (an absolute URI with a scheme, as River's validator requires)",
                    s.escape_debug()
                );
                out.push(Problem::new(FORMAT_RULE, format!("{base}/metadata/links/{i}"), message));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn links_and_date_times_are_checked_both_ways() {
        let good = json!({
            "metadata": {"createdAt": "2026-06-12T08:00:00Z", "links": ["https://github.com/o/r/pull/7", "urn:x:y"]},
            "expiresAt": "2026-06-12 08:00:00Z",
            "context": {"expiresAt": "2026-06-12T08:00:00+0900"}
        });
        assert_eq!(memory_entry_format_problems(&good, ""), []);
        let bad = json!({
            "metadata": {"createdAt": "2026-06-30T12:59:60Z", "links": ["https://ok.example/", "PR#7", 3]},
            "context": {"expiresAt": "tomorrow"}
        });
        let got: Vec<_> = memory_entry_format_problems(&bad, "/entries/2")
            .into_iter()
            .map(|p| (p.rule, p.path))
            .collect();
        assert_eq!(
            got,
            [
                ("river-format".to_owned(), "/entries/2/metadata/createdAt".to_owned()),
                ("river-format".to_owned(), "/entries/2/context/expiresAt".to_owned()),
                ("river-format".to_owned(), "/entries/2/metadata/links/1".to_owned()),
            ]
        );
    }
}
