//! The filter menu (`f`): a cursor over the facets, each toggled in place;
//! the path facet opens a line to type the path filter into.

use super::is_movement;
use crate::tui::action::Action;
use crate::tui::app::{App, Mode};
use crate::tui::effect::Effect;
use crate::tui::filter::FilterItem;
use crate::tui::nav::step;

/// Items one page of the menu moves by.
const PAGE: usize = 10;

/// The open filter menu: the highlighted item (kept while the path is typed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FilterMenu {
    pub cursor: usize,
}

/// `f`: opens the menu at its first item.
pub fn open(app: &mut App) {
    app.ui.mode = Mode::Filter(FilterMenu::default());
}

/// An action while the menu is open: movement moves the cursor, space and
/// Enter toggle the item (the path item opens its line), Esc closes the
/// menu; `None` for any other action.
pub fn update(app: &mut App, menu: FilterMenu, action: Action) -> Option<Vec<Effect>> {
    match action {
        Action::Back => app.ui.mode = Mode::Normal,
        Action::ToggleFilter => toggle(app, menu),
        a if is_movement(a) => {
            let cursor = step(menu.cursor, FilterItem::all().len(), a, PAGE);
            app.ui.mode = Mode::Filter(FilterMenu { cursor });
        }
        _ => return None,
    }
    Some(Vec::new())
}

/// Esc on the path line: back to the menu, at the path item.
pub fn leave_path(app: &mut App, menu: FilterMenu) {
    app.ui.mode = Mode::Filter(menu);
}

fn toggle(app: &mut App, menu: FilterMenu) {
    let Some(item) = FilterItem::all().get(menu.cursor).copied() else {
        return;
    };
    if item == FilterItem::Path {
        app.ui.mode = Mode::PathInput(menu);
    } else {
        app.browse.filters.toggle(item);
        app.refilter();
    }
}
