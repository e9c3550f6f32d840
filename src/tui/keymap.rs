//! The key table: which key means which [`Action`] in which mode.
//!
//! The defaults are data (`assets/keymap.default.json`, embedded). A user file
//! `keymap.json` in the config directory has the same shape and overrides
//! single keys; a key mapped to `null` is unbound. The help overlay and the
//! status-bar hints are generated from the table, so they never drift from it;
//! the first key listed for an action is the one the hints show.

mod file;
mod key;
mod mode;

use super::action::Action;
use file::{Bindings, KeymapFile};
use std::collections::HashMap;

pub use file::KeymapError;
pub use key::{BadKey, Code, KeySpec};
pub use mode::KeyMode;

/// The default table, as shipped.
pub const DEFAULT_KEYMAP_JSON: &str = include_str!("../../assets/keymap.default.json");

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
        self.tables.get(&mode)?.iter().find(|(k, _)| k == key).map(|(_, a)| *a)
    }

    /// The keys bound to `action` in `mode`, in table order.
    pub fn keys_for(&self, mode: KeyMode, action: Action) -> Vec<KeySpec> {
        self.tables
            .get(&mode)
            .map(|t| t.iter().filter(|(_, a)| *a == action).map(|(k, _)| *k).collect())
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
    pub fn hints_where(&self, mode: KeyMode, keep: impl Fn(Action) -> bool) -> Vec<(String, &'static str)> {
        Action::ALL
            .into_iter()
            .filter(|a| keep(*a))
            .filter_map(|a| Some((self.keys_for(mode, a).first()?.to_string(), a.hint_in(mode)?)))
            .collect()
    }
}

fn join_keys(keys: &[KeySpec]) -> String {
    keys.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> KeySpec {
        KeySpec::parse(text).unwrap_or_else(|e| panic!("{e}"))
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
        assert_eq!(map.lookup(KeyMode::Input, &key("enter")), Some(Action::Accept));
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
        assert!(map.apply_json(r#"{"normal": {"hyper-x": "quit"}}"#).is_err());
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
