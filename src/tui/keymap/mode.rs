//! The modes a key is looked up in, with their help-overlay headings.

use serde::Deserialize;

/// Which table a key is looked up in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyMode {
    /// Browsing the list and panes.
    Normal,
    /// A scrollable overlay (help, problems).
    Overlay,
    /// The filter menu.
    Filter,
    /// Typing text (search, path filter); unmapped printable keys insert text.
    Input,
    /// The composer's status list.
    StatusPicker,
    /// The composer's evidence editor; unmapped keys edit the text.
    Editor,
    /// The composer's preview and yes/no confirmation.
    Confirm,
    /// The outbox overlay: kept decisions for this review.
    Outbox,
    /// A question with one-key answers (quit with drafts, escalation target, undo).
    Ask,
}

impl KeyMode {
    /// Every mode, in help order.
    pub const ALL: [KeyMode; 9] = [
        KeyMode::Normal,
        KeyMode::Filter,
        KeyMode::Input,
        KeyMode::Overlay,
        KeyMode::StatusPicker,
        KeyMode::Editor,
        KeyMode::Confirm,
        KeyMode::Outbox,
        KeyMode::Ask,
    ];

    /// Heading of the mode's section in the help overlay.
    pub fn title(self) -> &'static str {
        match self {
            KeyMode::Normal => "List and panes",
            KeyMode::Overlay => "Help and problem overlays",
            KeyMode::Filter => "Filter menu",
            KeyMode::Input => "Search and path input",
            KeyMode::StatusPicker => "Decide: choose the status",
            KeyMode::Editor => "Decide: evidence editor (other keys edit the text)",
            KeyMode::Confirm => "Decide: preview and confirmation (defaults to No)",
            KeyMode::Outbox => "Outbox: kept decisions and thread actions",
            KeyMode::Ask => "Questions",
        }
    }
}
