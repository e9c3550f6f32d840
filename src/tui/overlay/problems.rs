//! The problems overlay (`!`): every validation problem and angle error, scrolled.

use super::{is_movement, page};
use crate::tui::action::Action;
use crate::tui::app::{App, Level, Mode};
use crate::tui::effect::Effect;
use crate::tui::nav::step;
use crate::tui::present::problems;
use crate::tui::update::flash;

/// The open problems overlay: how far it is scrolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Problems {
    pub scroll: usize,
}

/// `!`: opens the overlay at its top, or says there is nothing to show.
pub fn open(app: &mut App) {
    let any = !app.doc.problems.is_empty() || app.doc.set.as_ref().is_some_and(|s| !s.angle_errors.is_empty());
    if any {
        app.ui.mode = Mode::Problems(Problems::default());
    } else {
        flash(app, Level::Info, "No validation problems and no angle errors.");
    }
}

/// An action while the overlay is open: movement scrolls, Esc closes it;
/// `None` for any other action.
pub fn update(app: &mut App, open: Problems, action: Action) -> Option<Vec<Effect>> {
    match action {
        Action::Back => app.ui.mode = Mode::Normal,
        a if is_movement(a) => {
            let scroll = step(open.scroll, problems::shown(app).len(), a, page(app));
            app.ui.mode = Mode::Problems(Problems { scroll });
        }
        _ => return None,
    }
    Some(Vec::new())
}
