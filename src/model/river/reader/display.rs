//! Display helpers for values quoted in messages.

use serde_json::Value;

/// Compact JSON of a value for display, cut to `max_chars` characters.
pub fn compact(value: &Value, max_chars: usize) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.chars().count() <= max_chars {
        return text;
    }
    let mut cut: String = text.chars().take(max_chars).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn compact_cuts_on_char_boundaries() {
        assert_eq!(compact(&json!("日本語テキスト"), 3), "日本語…");
        assert_eq!(compact(&json!({"a": 1}), 10), "{\"a\":1}");
    }
}
