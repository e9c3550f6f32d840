//! The status bar's rows as data: how tall it is (a message wraps onto more
//! rows in the list and search) and what the spinner says is running. The
//! layout and the drawing both read these.

use crate::sanitize::clean_line;
use crate::tui::app::{App, Mode};

/// The most rows a message in the status bar takes.
const MAX_ROWS: u16 = 4;

/// Rows of the status bar: one, or (in the list and search, where no
/// overlay covers the bottom rows) as many as the message needs to be read
/// whole (a link, a reason), up to [`MAX_ROWS`].
pub fn height(app: &App) -> u16 {
    let Some(flash) = &app.ui.flash else {
        return 1;
    };
    if !matches!(app.ui.mode, Mode::Normal | Mode::Search) {
        return 1;
    }
    let width = usize::from(app.ui.size.0.max(1));
    // The mode label, the spinner and its text take at most this much before the message.
    let lead = 14 + busy(app).map_or(0, |b| b.chars().count() + 3);
    let cells = lead + unicode_width::UnicodeWidthStr::width(clean_line(&flash.text).as_str());
    // Wrapping at spaces can need a row more than the cells alone.
    let rows = if cells <= width { 1 } else { cells.div_ceil(width) + 1 };
    u16::try_from(rows)
        .unwrap_or(MAX_ROWS)
        .clamp(1, MAX_ROWS)
        .min(app.ui.size.1 / 4)
        .max(1)
}

/// What runs in the background, for the spinner (`None`: nothing).
pub fn busy(app: &App) -> Option<String> {
    if let Some(b) = app.decide.batch {
        return Some(if b.total == 1 {
            "sending…".to_string()
        } else {
            format!("sending {}/{}…", b.done() + 1, b.total)
        });
    }
    if app.live.thread.sending.is_some() {
        return Some("sending the thread action…".to_string());
    }
    if app.live.refreshing.is_some() {
        return Some("refreshing…".to_string());
    }
    None
}
