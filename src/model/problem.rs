//! A validation problem: which rule, where (JSON pointer), and what.

use serde::Serialize;
use std::fmt;

/// One reason a document is invalid (or, for notices, worth knowing).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Rule id: `P4`, `R19`, `A14`, `D6`, `schema`, `size` ... (see README).
    pub rule: String,
    /// RFC 6901 JSON pointer to the offending value (`""` for the whole file).
    pub path: String,
    /// Plain-language message. May quote producer text, so sanitise before display.
    pub message: String,
}

impl Problem {
    /// Builds a problem.
    pub fn new(rule: impl Into<String>, path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            rule: rule.into(),
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "(document)" } else { &self.path };
        write!(f, "[{}] at {}: {}", self.rule, path, self.message)
    }
}

/// Appends one RFC 6901 reference token to a pointer (`~` -> `~0`, `/` -> `~1`).
pub fn push_pointer(base: &str, token: &str) -> String {
    let mut out = String::with_capacity(base.len() + token.len() + 1);
    out.push_str(base);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}
