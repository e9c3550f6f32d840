//! Typing into the one-line inputs: the `/` search query, the path filter
//! and a thread reply.
//! (The evidence editor is the composer's own.)

use super::app::{App, Mode};

/// Enter: keeps the text and leaves the input.
pub fn accept(app: &mut App) {
    match app.ui.mode {
        Mode::Search => app.ui.mode = Mode::Normal,
        Mode::PathInput(menu) => super::overlay::filter_menu::leave_path(app, menu),
        Mode::ThreadReply { finding } => super::thread_act::reply_entered(app, finding),
        _ => {}
    }
}

/// Types one character into the input of the current mode.
pub fn insert(app: &mut App, c: char) {
    match app.ui.mode {
        Mode::Search => {
            app.browse.query.push(c);
            app.narrow_search();
        }
        Mode::PathInput(_) => {
            app.browse.filters.path.push(c);
            app.refilter();
        }
        Mode::ThreadReply { finding } => super::thread_act::insert(app, finding, c),
        _ => {}
    }
}

/// Pasted text in a one-line input: its first line, without control characters.
pub fn paste_line(app: &mut App, text: &str) {
    let line: String = text
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    line.chars().for_each(|c| insert(app, c));
}

/// Deletes the last character of the input.
pub fn delete_back(app: &mut App) {
    match app.ui.mode {
        Mode::Search => {
            app.browse.query.pop();
            return app.narrow_search();
        }
        Mode::PathInput(_) => {
            app.browse.filters.path.pop();
        }
        Mode::ThreadReply { finding } => {
            super::thread_act::reply_mut(app, finding).and_then(String::pop);
            return;
        }
        _ => return,
    }
    app.refilter();
}

/// Clears the input.
pub fn clear_input(app: &mut App) {
    match app.ui.mode {
        Mode::Search => app.browse.query.clear(),
        Mode::PathInput(_) => app.browse.filters.path.clear(),
        Mode::ThreadReply { finding } => return super::thread_act::reply_mut(app, finding).map_or((), String::clear),
        _ => return,
    }
    app.refilter();
}
