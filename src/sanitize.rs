//! Sanitising untrusted text for display (being written).

/// One line of untrusted text made safe for a terminal (placeholder until the full sanitiser lands).
pub fn clean_line(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { '\u{fffd}' } else { c }).collect()
}
