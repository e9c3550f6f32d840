//! The overlays over the list: key help (`?`), the validation problems
//! (`!`) and the filter menu (`f`, with its path line). Each has its own
//! state (held in [`super::app::Mode`] while it is open) and its own
//! `update`, which `update::act` asks first; an action an overlay does not
//! take falls through to the browsing actions. No I/O.

pub mod filter_menu;
pub mod help;
pub mod problems;

use super::action::Action;

/// True for the actions that move a cursor or a scroll position.
fn is_movement(action: Action) -> bool {
    matches!(
        action,
        Action::Down | Action::Up | Action::PageDown | Action::PageUp | Action::Top | Action::Bottom
    )
}

/// The lines a page of an overlay box holds.
fn page(app: &super::app::App) -> usize {
    usize::from(super::layout::Areas::inner(super::layout::overlay(app)).height)
}
