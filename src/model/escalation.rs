//! The escalation packet: a bounded Markdown summary of one finding for the
//! person who has to decide it (a `needs_human` decision, or thread drift).
//!
//! Safety of untrusted text (claims, excerpts, logins, replies, paths):
//! - it only ever appears inside fenced code blocks whose fence is longer than
//!   any backtick run in the text, so it cannot close the block or add headings,
//!   links or images;
//! - `@` becomes `＠` (U+FF20) so pasting the packet into GitHub mentions nobody;
//! - `<!--` and `-->` are broken up (`<! --`, `-- >`) so it cannot open or close
//!   an HTML comment (which would hide or forge parts of the packet);
//! - control characters (except newline and tab), bidi and other invisible
//!   format controls become U+FFFD.
//!
//! Only enum names, counts and the question are written outside the fences.
//! The whole packet stays under [`MAX_PACKET_BYTES`]: long fields are cut at a
//! character boundary with a visible `[… N bytes cut]` marker, and if the
//! packet is still too big every field budget is halved until it fits.

mod render;
#[cfg(test)]
mod tests;
mod untrusted;

pub use untrusted::{cut, fenced, neutralise};

use super::finding::Finding;
use super::review::Scope;
use render::{minimal, render};

/// The packet is always strictly shorter than 4 KiB.
pub const MAX_PACKET_BYTES: usize = 4095;

/// Why the finding is being escalated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EscalationReason {
    /// The reviewer chose `needs_human` (optionally with the evidence they drafted).
    NeedsHuman {
        /// The reviewer's draft evidence, if any.
        note: Option<String>,
    },
    /// GitHub's thread state disagrees with the canonical state.
    Drift,
}

/// Everything the packet describes.
#[derive(Debug, Clone, Copy)]
pub struct EscalationInput<'a> {
    pub finding: &'a Finding,
    pub reason: &'a EscalationReason,
    pub scope: &'a Scope,
    pub reviewed_sha: Option<&'a str>,
    /// Why thread state is unknown, when it is.
    pub threads_unavailable: Option<&'a str>,
}

/// Per-field byte budgets; halved until the packet fits.
#[derive(Debug, Clone, Copy)]
struct Budget {
    field: usize,
    long: usize,
    items: usize,
}

/// Builds the packet (always < 4 KiB).
pub fn escalation_packet(input: &EscalationInput<'_>) -> String {
    let mut budget = Budget {
        field: 300,
        long: 900,
        items: 6,
    };
    loop {
        let packet = render(input, budget);
        if packet.len() <= MAX_PACKET_BYTES {
            return packet;
        }
        if budget.field <= 16 {
            return minimal(input);
        }
        budget = Budget {
            field: budget.field / 2,
            long: budget.long / 2,
            items: budget.items.max(2) - 1,
        };
    }
}
