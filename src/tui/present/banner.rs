//! The banner under the header: an invalid (read-only) file and a review
//! that did not complete are impossible to miss. The full lists are in the
//! problems overlay.

use crate::model::problem::Problem;
use crate::model::review::AngleError;
use crate::sanitize::clean_line;
use crate::tui::app::App;
use crate::tui::text::{TextLine, Tone};

/// Items listed per kind before "… and N more".
const SHOWN: usize = 3;

/// One problem as a line: `[rule] at path: message`.
pub fn problem_line(p: &Problem) -> TextLine {
    let path = if p.path.is_empty() {
        "(document)".to_string()
    } else {
        clean_line(&p.path)
    };
    TextLine::one(Tone::Label, format!("[{}]", clean_line(&p.rule)))
        .push(Tone::Dim, format!(" at {path}: "))
        .push(Tone::Plain, clean_line(&p.message))
}

/// One angle error as a line: name (id): kind, retryable — message.
pub fn angle_error_line(e: &AngleError) -> TextLine {
    let retry = if e.retryable { "retryable" } else { "not retryable" };
    TextLine::one(
        Tone::Label,
        format!("{} ({})", clean_line(&e.angle_name), clean_line(&e.angle_id)),
    )
    .push(Tone::Plain, format!(": {}, {retry}", clean_line(&e.kind)))
    .push(Tone::Dim, format!(" ({}) ", clean_line(&e.model)))
    .push(Tone::Plain, clean_line(&e.message))
}

fn more(out: &mut Vec<TextLine>, total: usize) {
    if total > SHOWN {
        out.push(TextLine::one(
            Tone::Dim,
            format!("… and {} more: press ! to see all", total - SHOWN),
        ));
    }
}

/// The lines about the live pull request: a stale result, unknown threads.
fn live_lines(app: &App, out: &mut Vec<TextLine>) {
    if let Some(head) = &app.live.stale_head {
        let reviewed = app
            .doc
            .set
            .as_ref()
            .and_then(|s| s.reviewed_sha.as_deref())
            .map_or_else(String::new, |s| format!(" (this result reviewed {})", short(s)));
        out.push(TextLine::one(
            Tone::Error,
            format!(
                " STALE RESULT: the pull request head is now {}{reviewed}. ",
                short(head)
            ),
        ));
        out.push(TextLine::one(
            Tone::Plain,
            " Submission is off until a result for the current head is loaded: press R to refresh.",
        ));
    }
    if app.decide.open_elsewhere.is_some() {
        out.push(
            TextLine::one(Tone::Warning, " Open in another triage screen too. ").push(
                Tone::Plain,
                " Drafts here are kept apart from that screen's; a finding drafted in both gets both texts, joined, next time.",
            ),
        );
    }
    if let Some(why) = &app.live.threads_unavailable {
        out.push(
            TextLine::one(
                Tone::Warning,
                " Thread state unknown: every finding shows thread unknown. ",
            )
            .push(Tone::Plain, format!(" {}", clean_line(why))),
        );
    }
}

fn short(sha: &str) -> String {
    clean_line(&sha.chars().take(12).collect::<String>())
}

/// The banner's lines (empty: no banner).
pub fn lines(app: &App) -> Vec<TextLine> {
    let doc = &app.doc;
    let mut out = Vec::new();
    live_lines(app, &mut out);
    if !doc.is_valid() {
        let n = doc.problems.len();
        let what = if doc.set.is_none() {
            "could not be read"
        } else {
            "failed validation"
        };
        out.push(TextLine::one(
            Tone::Error,
            format!(
                " READ-ONLY: this file {what} ({n} problem{}); nothing can be submitted from it ",
                plural(n)
            ),
        ));
        out.extend(doc.problems.iter().take(SHOWN).map(problem_line));
        more(&mut out, n);
    } else if doc.set.is_none() {
        let what = doc.format.map_or("this file", |f| f.label());
        out.push(TextLine::one(
            Tone::Warning,
            format!(" Nothing to triage: {what} holds no review findings (it is valid; see `triage validate`) "),
        ));
    }
    if let Some(set) = doc.set.as_ref().filter(|s| s.status.is_error()) {
        let n = set.angle_errors.len();
        out.push(TextLine::one(
            Tone::Error,
            format!(
                " {}: the review did not complete; it is NOT a pass ({n} angle error{}) ",
                set.status.as_str(),
                plural(n)
            ),
        ));
        out.extend(set.angle_errors.iter().take(SHOWN).map(angle_error_line));
        more(&mut out, n);
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Rows one banner line may wrap to; a longer one ends in a pointer to the
/// problems overlay, so a huge message cannot push the list off the screen.
const ROWS_PER_LINE: usize = 3;

/// The banner's lines wrapped to the inside of its border, so nothing is
/// cut off at any width (the full lists stay in the problems overlay).
pub fn shown(app: &App) -> Vec<TextLine> {
    let width = app.ui.size.0.saturating_sub(2);
    let mut out = Vec::new();
    for line in lines(app) {
        let rows = crate::tui::text::wrap(std::slice::from_ref(&line), width);
        let cut = rows.len() > ROWS_PER_LINE;
        out.extend(rows.into_iter().take(ROWS_PER_LINE));
        if cut {
            out.push(TextLine::one(Tone::Dim, "… (longer: press ! to see it whole)"));
        }
    }
    out
}

/// Rows the banner takes (0 without a banner).
pub fn height(app: &App) -> u16 {
    let n = shown(app).len();
    if n == 0 {
        0
    } else {
        u16::try_from(n + 2).unwrap_or(u16::MAX)
    }
}
