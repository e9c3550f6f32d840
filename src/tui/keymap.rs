//! The key table: which key means which [`Action`] in which mode.
//!
//! The defaults are data (`assets/keymap.default.json`, embedded). A user file
//! `keymap.json` in the config directory has the same shape and overrides
//! single keys; a key mapped to `null` is unbound. The help overlay and the
//! status-bar hints are generated from the table, so they never drift from it;
//! the first key listed for an action is the one the hints show.

use super::action::Action;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// The default table, as shipped.
pub const DEFAULT_KEYMAP_JSON: &str = include_str!("../../assets/keymap.default.json");

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
            KeyMode::Outbox => "Outbox: kept decisions",
            KeyMode::Ask => "Questions",
        }
    }
}

/// A key without the keyboard's details: code plus Ctrl/Alt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeySpec {
    pub code: Code,
    pub ctrl: bool,
    pub alt: bool,
}

/// Key codes the table can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    Char(char),
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
    Enter,
    Tab,
    BackTab,
    Esc,
    Backspace,
    Delete,
    F(u8),
}

const NAMED: [(&str, Code); 16] = [
    ("up", Code::Up),
    ("down", Code::Down),
    ("left", Code::Left),
    ("right", Code::Right),
    ("pgup", Code::PageUp),
    ("pgdn", Code::PageDown),
    ("home", Code::Home),
    ("end", Code::End),
    ("enter", Code::Enter),
    ("tab", Code::Tab),
    ("backtab", Code::BackTab),
    ("esc", Code::Esc),
    ("backspace", Code::Backspace),
    ("delete", Code::Delete),
    ("space", Code::Char(' ')),
    ("minus", Code::Char('-')),
];

/// A key name that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown key name {0:?} (examples: j, G, ctrl-d, alt-x, pgdn, enter, space, f1)")]
pub struct BadKey(pub String);

impl KeySpec {
    /// Reads `j`, `G`, `?`, `ctrl-d`, `alt-enter`, `pgdn`, `space`, `f5` ...
    pub fn parse(text: &str) -> Result<KeySpec, BadKey> {
        let bad = || BadKey(text.to_string());
        let (mut ctrl, mut alt, mut rest) = (false, false, text);
        loop {
            if let Some(r) = rest.strip_prefix("ctrl-").filter(|r| !r.is_empty()) {
                (ctrl, rest) = (true, r);
            } else if let Some(r) = rest.strip_prefix("alt-").filter(|r| !r.is_empty()) {
                (alt, rest) = (true, r);
            } else {
                break;
            }
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_control() => Code::Char(c),
            _ => match NAMED.iter().find(|(n, _)| *n == rest) {
                Some((_, code)) => *code,
                None => {
                    let n: u8 = rest
                        .strip_prefix('f')
                        .and_then(|n| n.parse().ok())
                        .ok_or_else(bad)?;
                    if !(1..=24).contains(&n) {
                        return Err(bad());
                    }
                    Code::F(n)
                }
            },
        };
        Ok(KeySpec { code, ctrl, alt })
    }

    /// The key of a terminal event (Shift is part of the character).
    pub fn from_event(key: &KeyEvent) -> Option<KeySpec> {
        let code = match key.code {
            KeyCode::Char(c) => Code::Char(c),
            KeyCode::Up => Code::Up,
            KeyCode::Down => Code::Down,
            KeyCode::Left => Code::Left,
            KeyCode::Right => Code::Right,
            KeyCode::PageUp => Code::PageUp,
            KeyCode::PageDown => Code::PageDown,
            KeyCode::Home => Code::Home,
            KeyCode::End => Code::End,
            KeyCode::Enter => Code::Enter,
            KeyCode::Tab => Code::Tab,
            KeyCode::BackTab => Code::BackTab,
            KeyCode::Esc => Code::Esc,
            KeyCode::Backspace => Code::Backspace,
            KeyCode::Delete => Code::Delete,
            KeyCode::F(n) => Code::F(n),
            _ => return None,
        };
        Some(KeySpec {
            code,
            ctrl: key.modifiers.contains(KeyModifiers::CONTROL),
            alt: key.modifiers.contains(KeyModifiers::ALT),
        })
    }
}

impl fmt::Display for KeySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("ctrl-")?;
        }
        if self.alt {
            f.write_str("alt-")?;
        }
        if let Some((name, _)) = NAMED.iter().find(|(_, c)| *c == self.code) {
            return f.write_str(name);
        }
        match self.code {
            Code::Char(c) => write!(f, "{c}"),
            Code::F(n) => write!(f, "f{n}"),
            _ => Ok(()),
        }
    }
}

/// A keymap file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum KeymapError {
    /// Not JSON of the expected shape.
    #[error("keymap is not valid: {0}")]
    Json(#[from] serde_json::Error),
    /// A key name is unknown.
    #[error("keymap: {0}")]
    Key(#[from] BadKey),
}

/// One mode's bindings as written: key name -> action (`null` unbinds), in file order.
struct Bindings(Vec<(String, Option<Action>)>);

impl<'de> Deserialize<'de> for Bindings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Bindings;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object mapping key names to actions")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Bindings, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, Option<Action>>()? {
                    out.push(entry);
                }
                Ok(Bindings(out))
            }
        }
        d.deserialize_map(InOrder)
    }
}

/// The file shape: mode -> bindings.
type KeymapFile = BTreeMap<KeyMode, Bindings>;

/// The table: per mode, (key, action) in the order the files list them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Keymap {
    tables: HashMap<KeyMode, Vec<(KeySpec, Action)>>,
}

impl Keymap {
    /// The shipped defaults.
    pub fn builtin() -> Result<Keymap, KeymapError> {
        let mut map = Keymap::default();
        map.apply_json(DEFAULT_KEYMAP_JSON)?;
        Ok(map)
    }

    /// Applies a keymap file's text over this table (later wins, `null` unbinds).
    pub fn apply_json(&mut self, text: &str) -> Result<(), KeymapError> {
        let file: KeymapFile = serde_json::from_str(text)?;
        for (mode, Bindings(keys)) in file {
            for (name, action) in keys {
                let key = KeySpec::parse(&name)?;
                let table = self.tables.entry(mode).or_default();
                let at = table.iter().position(|(k, _)| *k == key);
                match (at, action) {
                    (Some(i), Some(a)) => table[i].1 = a,
                    (Some(i), None) => {
                        table.remove(i);
                    }
                    (None, Some(a)) => table.push((key, a)),
                    (None, None) => {}
                }
            }
        }
        Ok(())
    }

    /// The action of a key in a mode.
    pub fn lookup(&self, mode: KeyMode, key: &KeySpec) -> Option<Action> {
        self.tables
            .get(&mode)?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, a)| *a)
    }

    /// The keys bound to `action` in `mode`, in table order.
    pub fn keys_for(&self, mode: KeyMode, action: Action) -> Vec<KeySpec> {
        self.tables
            .get(&mode)
            .map(|t| {
                t.iter()
                    .filter(|(_, a)| *a == action)
                    .map(|(k, _)| *k)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Help rows of a mode: (keys, description), in [`Action::ALL`] order.
    pub fn help_rows(&self, mode: KeyMode) -> Vec<(String, &'static str)> {
        Action::ALL
            .into_iter()
            .filter_map(|a| {
                let keys = self.keys_for(mode, a);
                (!keys.is_empty()).then(|| (join_keys(&keys), a.describe()))
            })
            .collect()
    }

    /// Status-bar hints of a mode: (first key, short label).
    pub fn hints(&self, mode: KeyMode) -> Vec<(String, &'static str)> {
        self.hints_where(mode, |_| true)
    }

    /// Status-bar hints of a mode for the actions `keep` accepts.
    pub fn hints_where(
        &self,
        mode: KeyMode,
        keep: impl Fn(Action) -> bool,
    ) -> Vec<(String, &'static str)> {
        Action::ALL
            .into_iter()
            .filter(|a| keep(*a))
            .filter_map(|a| {
                Some((
                    self.keys_for(mode, a).first()?.to_string(),
                    a.hint_in(mode)?,
                ))
            })
            .collect()
    }
}

fn join_keys(keys: &[KeySpec]) -> String {
    keys.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> KeySpec {
        KeySpec::parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn key_names_round_trip() {
        for name in [
            "j",
            "G",
            "?",
            "/",
            "ctrl-d",
            "alt-x",
            "ctrl-alt-k",
            "pgdn",
            "space",
            "enter",
            "f5",
            "minus",
            "backtab",
        ] {
            assert_eq!(key(name).to_string(), name);
        }
        assert!(KeySpec::parse("hyper-x").is_err());
        assert!(KeySpec::parse("f0").is_err());
        assert!(KeySpec::parse("").is_err());
        assert_eq!(key("-"), key("minus"));
    }

    #[test]
    fn events_map_to_specs() {
        let ev = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(KeySpec::from_event(&ev), Some(key("G")));
        let ev = KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert_eq!(KeySpec::from_event(&ev), Some(key("ctrl-d")));
    }

    #[test]
    fn builtin_binds_the_documented_keys() {
        let map = Keymap::builtin().unwrap_or_else(|e| panic!("{e}"));
        let n = KeyMode::Normal;
        for (k, a) in [
            ("j", Action::Down),
            ("down", Action::Down),
            ("k", Action::Up),
            ("g", Action::Top),
            ("G", Action::Bottom),
            ("pgdn", Action::PageDown),
            ("tab", Action::FocusNext),
            ("?", Action::Help),
            ("o", Action::OpenInBrowser),
            ("e", Action::OpenInEditor),
            ("y", Action::CopyFingerprint),
            ("q", Action::Quit),
            ("esc", Action::Back),
            ("space", Action::ToggleMark),
            ("/", Action::StartSearch),
        ] {
            assert_eq!(map.lookup(n, &key(k)), Some(a), "{k}");
        }
        assert_eq!(
            map.lookup(KeyMode::Input, &key("enter")),
            Some(Action::Accept)
        );
        assert_eq!(
            map.lookup(KeyMode::Input, &key("j")),
            None,
            "letters type text in input"
        );
    }

    #[test]
    fn user_file_overrides_and_unbinds() {
        let mut map = Keymap::builtin().unwrap_or_else(|e| panic!("{e}"));
        map.apply_json(r#"{"normal": {"X": "quit", "q": null}}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(map.lookup(KeyMode::Normal, &key("X")), Some(Action::Quit));
        assert_eq!(map.lookup(KeyMode::Normal, &key("q")), None);
        assert!(
            map.help_rows(KeyMode::Normal)
                .iter()
                .any(|(k, d)| k == "ctrl-c X" && *d == "quit")
        );
        map.apply_json(r#"{"normal": {"j": "quit"}}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            map.keys_for(KeyMode::Normal, Action::Down)
                .first()
                .map(ToString::to_string)
                .as_deref(),
            Some("down")
        );
        assert!(map.apply_json(r#"{"normal": {"x": "explode"}}"#).is_err());
        assert!(map.apply_json(r#"{"sideways": {}}"#).is_err());
        assert!(
            map.apply_json(r#"{"normal": {"hyper-x": "quit"}}"#)
                .is_err()
        );
    }

    #[test]
    fn hints_use_the_first_listed_key() {
        let map = Keymap::builtin().unwrap_or_else(|e| panic!("{e}"));
        let hints = map.hints(KeyMode::Normal);
        assert!(hints.iter().any(|(k, l)| k == "?" && *l == "help"));
        assert!(hints.iter().any(|(k, l)| k == "q" && *l == "quit"));
        assert!(
            map.hints(KeyMode::Overlay)
                .iter()
                .any(|(k, l)| k == "esc" && *l == "back")
        );
    }
}
