//! The help overlay, generated from the key table and the glyph legend, so
//! it always tells the truth about the keys in force.

use crate::model::finding::ThreadTransition;
use crate::tui::app::App;
use crate::tui::keymap::KeyMode;
use crate::tui::prepared::ThreadMark;
use crate::tui::text::{TextLine, Tone};

/// Width of the key column.
const KEYS: usize = 22;

/// The help's lines wrapped to the overlay's inside (what is drawn and scrolled).
pub fn shown(app: &App) -> Vec<TextLine> {
    crate::tui::text::wrap(
        &lines(app),
        crate::tui::layout::Areas::inner(crate::tui::layout::overlay(app)).width,
    )
}

/// Every line of the help overlay.
pub fn lines(app: &App) -> Vec<TextLine> {
    let mut out = Vec::new();
    for mode in KeyMode::ALL {
        out.push(TextLine::one(Tone::Heading, mode.title()));
        for (keys, what) in app.keymap().help_rows(mode) {
            out.push(TextLine::one(Tone::Label, format!("  {keys:<KEYS$} ")).push(Tone::Plain, what));
        }
        out.push(TextLine::blank());
    }
    out.push(TextLine::one(Tone::Heading, "Row columns"));
    out.push(TextLine::one(
        Tone::Plain,
        "  ▶ selected · * marked · decision · P0..P4 rank · ■ blocks the merge · disposition · thread · class · path:line · headline",
    ));
    out.push(TextLine::one(
        Tone::Plain,
        "  decision: ✎ draft kept · ⠋ sending · ✓ recorded (the disposition shows what ReviewGate records) · ✗ rejected · ⟳ failed, r retries",
    ));
    out.push(TextLine::blank());
    out.push(TextLine::one(Tone::Heading, "Thread glyphs"));
    for t in [
        ThreadTransition::NotPublished,
        ThreadTransition::Unknown,
        ThreadTransition::Retained,
        ThreadTransition::Reopened,
        ThreadTransition::ResolutionPending,
        ThreadTransition::ResolvedFixed,
        ThreadTransition::ResolvedExternally,
    ] {
        let name = if t == ThreadTransition::ResolvedFixed {
            "resolved (fixed, rejected, intentional, superseded)"
        } else {
            t.as_str()
        };
        out.push(
            TextLine::one(Tone::Label, format!("  {}  ", ThreadMark::Transition(t).glyph())).push(Tone::Plain, name),
        );
    }
    out.push(TextLine::one(Tone::Label, "  ~  ").push(Tone::Plain, "the thread is outdated (the code moved on)"));
    out.push(TextLine::blank());
    out.push(TextLine::one(
        Tone::Dim,
        "Keys and colours: keymap.json and theme.json in the triage config directory override these (see README).",
    ));
    out
}
