//! The key help overlay (`?`): generated from the key table, scrolled.

use super::{is_movement, page};
use crate::tui::action::Action;
use crate::tui::app::{App, Mode};
use crate::tui::effect::Effect;
use crate::tui::nav::step;
use crate::tui::present::help;

/// The open help overlay: how far it is scrolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Help {
    pub scroll: usize,
}

/// `?`: opens the help at its top, or closes it when it is open.
pub fn toggle(app: &mut App) {
    app.ui.mode = match app.ui.mode {
        Mode::Help(_) => Mode::Normal,
        _ => Mode::Help(Help::default()),
    };
}

/// An action while the help is open: movement scrolls, `?` and Esc close
/// it; `None` for any other action.
pub fn update(app: &mut App, open: Help, action: Action) -> Option<Vec<Effect>> {
    match action {
        Action::Help | Action::Back => app.ui.mode = Mode::Normal,
        a if is_movement(a) => {
            let scroll = step(open.scroll, help::shown(app).len(), a, page(app));
            app.ui.mode = Mode::Help(Help { scroll });
        }
        _ => return None,
    }
    Some(Vec::new())
}
