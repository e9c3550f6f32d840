//! The River-only choices of a decision, offered in the preview (`f`, `x`):
//! which fingerprint the suppression stores (`v1`, the default and the only
//! one River 1.15.0 knows, or the newer line's line-anchored `v2`, which
//! needs a line on every target) and when it expires (the screen's
//! equivalent of `submit --expires`: none, or 7, 30 or 90 days after it is
//! written; River 1.15.0 ignores expiry, the newer line honours it).
//!
//! The expiry is kept as a duration: the clock is read where the entry is
//! written, so the preview says "days after writing" rather than a date.
//! A kept draft does not keep these choices; reopened, it starts at v1 and
//! no expiry, which the preview shows before anything is written.

use super::Composer;
use crate::river_store::{FindingFacts, FingerprintAlgo};
use crate::sanitize::clean_line;
use crate::tui::app::App;
pub use crate::tui::message::{Expiry, RiverOptions};
use crate::tui::text::{TextLine, Tone};

/// Why `v2` cannot be chosen for the composer's targets, if so.
pub fn v2_unavailable(app: &App, c: &Composer) -> Option<String> {
    let set = app.doc.set.as_ref()?;
    let lacking = (c.targets.iter())
        .find(|&&i| FindingFacts::of(set, i).is_ok_and(|facts| facts.v2.is_none()))
        .and_then(|&i| set.findings.get(i))?;
    let which = if c.targets.len() > 1 { " of the batch" } else { "" };
    Some(format!(
        "v2 is line-anchored and finding {}{which} has no line",
        clean_line(lacking.key.as_str())
    ))
}

/// `f`: switches between v1 and v2, or says why v2 cannot be chosen.
pub fn cycle_algo(app: &mut App) -> Result<(), String> {
    let Some(c) = app.decide.composer.as_ref() else {
        return Ok(());
    };
    let next = match c.river.algo {
        FingerprintAlgo::V1 => FingerprintAlgo::V2,
        FingerprintAlgo::V2 => FingerprintAlgo::V1,
    };
    if next == FingerprintAlgo::V2
        && let Some(why) = v2_unavailable(app, c)
    {
        return Err(why);
    }
    if let Some(c) = app.decide.composer.as_mut() {
        c.river.algo = next;
    }
    Ok(())
}

/// `x`: the next expiry.
pub fn cycle_expiry(app: &mut App) {
    if let Some(c) = app.decide.composer.as_mut() {
        c.river.expiry = c.river.expiry.next();
    }
}

/// The preview's lines for both choices, each with the key that changes it.
pub fn lines(app: &App, c: &Composer) -> Vec<TextLine> {
    let algo = match c.river.algo {
        FingerprintAlgo::V1 => "v1 (every same-kind finding in the file; every River release)",
        FingerprintAlgo::V2 => "v2 (this line only; the newer River line, not 1.15.0)",
    };
    let mut out = vec![
        TextLine::one(Tone::Label, "fingerprint: ")
            .push(Tone::Plain, algo)
            .push(Tone::Dim, "  · f: switch"),
    ];
    if c.river.algo == FingerprintAlgo::V1
        && let Some(why) = v2_unavailable(app, c)
    {
        out.push(TextLine::one(Tone::Dim, format!("  v2 unavailable: {why}")));
    }
    out.push(
        TextLine::one(Tone::Label, "expiry: ")
            .push(Tone::Plain, c.river.expiry.label())
            .push(Tone::Dim, "  · x: change"),
    );
    out
}
