//! Progress through a review: which findings are decided, how many of the
//! current view remain, the next undecided finding (`n`, `N`), moving on
//! after a decision is confirmed, and the undecided-only filter.
//!
//! Everything asks one predicate, [`decided`], so another source of
//! decisions (such as those already recorded on the pull request) plugs in
//! there and nowhere else.

use super::app::{App, Level, SubmitState};
use super::update::flash;

/// Whether finding `i` counts as decided: a decision of this session is
/// being sent or was recorded, or the pull request already holds an
/// authorised decision for it on this head that awaits the next review (◆).
/// A draft, a rejected or a failed send, or a recorded decision that is not
/// applied here (◇), is not a decision yet (the finding still needs one).
pub fn decided(app: &App, i: usize) -> bool {
    matches!(
        app.submit.get(i),
        Some(SubmitState::Pending { .. } | SubmitState::Recorded(_))
    ) || crate::model::ledger::is_decided(super::recorded::row_mark(app, i))
}

/// Decided and total findings of the current view (filters and search
/// applied, the undecided filter not: hiding decided findings does not make
/// them undone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub decided: usize,
    pub total: usize,
}

impl Progress {
    /// Findings of the view still to decide.
    pub fn remaining(self) -> usize {
        self.total - self.decided
    }
}

/// The progress of the current view.
pub fn of_view(app: &App) -> Progress {
    let view = &app.browse.in_view;
    Progress {
        decided: view.iter().filter(|&&i| decided(app, i)).count(),
        total: view.len(),
    }
}

/// Drops decided findings from the visible list when the undecided filter is on.
pub fn apply_filter(app: &mut App) {
    if !app.browse.filters.undecided_only {
        return;
    }
    let keep: Vec<usize> = app
        .browse
        .visible
        .iter()
        .copied()
        .filter(|&i| !decided(app, i))
        .collect();
    app.browse.visible = keep;
}

/// The position of the next undecided finding after (`forward`) or before
/// the cursor, wrapping around the list; `None` when every one is decided.
fn next_position(app: &App, forward: bool) -> Option<usize> {
    let visible = &app.browse.visible;
    let len = visible.len();
    let cursor = app.browse.cursor;
    (1..=len)
        .map(|k| {
            if forward {
                (cursor + k) % len
            } else {
                (cursor + len - k % len) % len
            }
        })
        .find(|&pos| !decided(app, visible[pos]))
}

/// `n` / `N`: moves the selection to the next (previous) undecided finding.
pub fn jump(app: &mut App, forward: bool) {
    match next_position(app, forward) {
        Some(pos) => {
            let wrapped = if forward {
                pos <= app.browse.cursor
            } else {
                pos >= app.browse.cursor
            };
            app.browse.cursor = pos;
            if wrapped && app.browse.visible.len() > 1 {
                flash(app, Level::Info, "Wrapped around the list.");
            }
        }
        None if app.browse.visible.is_empty() => flash(app, Level::Info, "Nothing listed."),
        None => flash(app, Level::Info, "Every listed finding is decided."),
    }
}

/// After a decision is confirmed for `sent`: their marks are cleared, the
/// undecided filter (when on) drops them, and the selection moves to the
/// next undecided finding (it stays where it is when that finding is still
/// undecided, as after a batch on marks, or when none is left).
pub fn after_send(app: &mut App, sent: &[usize]) {
    for &i in sent {
        if let Some(m) = app.browse.marks.get_mut(i) {
            *m = false;
        }
    }
    let target = match app.selected() {
        Some(i) if !decided(app, i) => Some(i),
        _ => next_position(app, true).and_then(|pos| app.browse.visible.get(pos).copied()),
    };
    if app.browse.filters.undecided_only {
        app.refilter();
    }
    if let Some(pos) = target.and_then(|t| app.browse.visible.iter().position(|&i| i == t)) {
        app.browse.cursor = pos;
    }
}
