//! The placeholders of the evidence templates the screen offers
//! (`<what changed>`, `<path@sha#Lnn>` …). Evidence that still holds one was
//! not filled in: the screen and `submit` both refuse it, naming the
//! placeholder. Only these exact texts count, so `Vec<u8>` or `<br>` in real
//! evidence is never mistaken for one.

/// Every placeholder used by a template, ReviewGate's and River's.
pub const PLACEHOLDERS: &[&str] = &[
    "<where and when>",
    "<what changed>",
    "<path@sha#Lnn>",
    "<test or check>",
    "<the repository or platform fact that disproves it>",
    "<where the behaviour exists>",
    "<the behaviour and why it is deliberate>",
    "<what is unclear>",
    "<owner>",
    "<the question>",
    "<change>",
    "<why the code is correct>",
    "<who>",
    "<the risk and why it is acceptable>",
    "<cost against benefit>",
    "<why>",
    "<the other finding or issue>",
    "<what is missing>",
];

/// The first template placeholder left in `evidence` (in text order), if any.
pub fn unfilled(evidence: &str) -> Option<&'static str> {
    PLACEHOLDERS
        .iter()
        .filter_map(|p| evidence.find(p).map(|at| (at, *p)))
        .min_by_key(|(at, _)| *at)
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_placeholder_left() {
        assert_eq!(
            unfilled("Fixed on the reviewed head: <what changed> (<path@sha#Lnn>)."),
            Some("<what changed>")
        );
        assert_eq!(
            unfilled("Fixed: retry stops (src/a.rs@abc#L3). <test or check>"),
            Some("<test or check>")
        );
        assert_eq!(unfilled("Vec<u8> and <br> and a < b > c are not placeholders"), None);
        assert_eq!(unfilled("Fixed in 9f2c: the loop now ends."), None);
    }
}
