//! When GitHub's rate limit runs low, say so: a line on stderr for the
//! headless commands, a field ([`crate::github::fetch::FetchedResult::rate_remaining`])
//! the screen can show.

/// At or below this many requests left in the window, a notice is given
/// (a refresh of a pull request with a few pages costs about ten).
pub const LOW_RATE_LIMIT: u64 = 100;

/// The notice for `remaining` requests left, when that is low.
pub fn rate_notice(remaining: Option<u64>) -> Option<String> {
    let left = remaining.filter(|left| *left <= LOW_RATE_LIMIT)?;
    Some(format!(
        "GitHub's rate limit is running low: {left} request(s) left in this window"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_low_remainder_is_noticed() {
        assert_eq!(rate_notice(None), None);
        assert_eq!(rate_notice(Some(4999)), None);
        assert_eq!(rate_notice(Some(LOW_RATE_LIMIT + 1)), None);
        let notice = rate_notice(Some(7)).expect("low");
        assert!(notice.contains("7 request(s) left"), "{notice}");
    }
}
