//! User settings from the config directory: `keymap.json` and `theme.json`
//! in `$XDG_CONFIG_HOME/triage/` (or the platform's equivalent). JSON because
//! the project reads JSON already; the shapes are documented in the README.
//! A broken file never stops the screen: the defaults stay and the status bar
//! says what was wrong.
//!
//! `layout.json` is written by the screen itself: `{"split": n}` remembers the
//! `<`/`>` split as n tenths of the body added to (or, negative, taken from)
//! the list's default share. It is saved each time the split changes and read
//! at start; a value outside -6..=6 or a broken file is ignored with a warning.

use super::app::Settings;
use super::keymap::Keymap;
use super::theme::Theme;
use crate::atomic_write::{Access, write_atomic};
use std::path::{Path, PathBuf};

/// The file the split is remembered in.
const LAYOUT: &str = "layout.json";

/// The widest remembered split shift either way (the share is clamped to 20–80% anyway).
const MAX_SHIFT: i8 = 6;

/// The directory the settings files live in, when the platform has one.
pub fn config_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "triage").map(|d| d.config_dir().to_path_buf())
}

/// Settings with the user's files applied, and a warning per file that could not be used.
pub fn load(dir: Option<&Path>, no_color: bool) -> anyhow::Result<(Settings, Vec<String>)> {
    let mut keymap = Keymap::builtin()?;
    let mut theme = Theme::for_terminal(no_color);
    let mut warnings = Vec::new();
    let mut split_shift = 0;
    if let Some(dir) = dir {
        if let Some(text) = read(&dir.join(LAYOUT), &mut warnings) {
            match parse_split(&text) {
                Ok(shift) => split_shift = shift,
                Err(e) => warnings.push(format!("{LAYOUT} ignored: {e}")),
            }
        }
        if let Some(text) = read(&dir.join("keymap.json"), &mut warnings) {
            let mut candidate = keymap.clone();
            match candidate.apply_json(&text) {
                Ok(()) => keymap = candidate,
                Err(e) => warnings.push(format!("keymap.json ignored: {e}")),
            }
        }
        // NO_COLOR wins over a theme file: the user asked for no colour.
        if !no_color && let Some(text) = read(&dir.join("theme.json"), &mut warnings) {
            let mut candidate = theme.clone();
            match candidate.apply_json(&text) {
                Ok(()) => theme = candidate,
                Err(e) => warnings.push(format!("theme.json ignored: {e}")),
            }
        }
    }
    Ok((
        Settings {
            keymap,
            theme,
            color: !no_color,
            split_shift,
        },
        warnings,
    ))
}

fn parse_split(text: &str) -> Result<i8, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let split = value.get("split").ok_or("no \"split\" member")?;
    split
        .as_i64()
        .and_then(|n| i8::try_from(n).ok())
        .filter(|n| (-MAX_SHIFT..=MAX_SHIFT).contains(n))
        .ok_or_else(|| format!("\"split\" must be a whole number from -{MAX_SHIFT} to {MAX_SHIFT}"))
}

/// Remembers the split in `dir` (created when missing), replacing the file atomically.
pub fn save_split(dir: &Path, shift: i8) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let text = serde_json::json!({ "split": shift.clamp(-MAX_SHIFT, MAX_SHIFT) }).to_string();
    write_atomic(&dir.join(LAYOUT), format!("{text}\n").as_bytes(), Access::Ordinary)
}

/// Remembers the split in the config directory; a message only on failure.
pub fn remember_split(shift: i8) -> Option<super::update::Msg> {
    let result = match config_dir() {
        Some(dir) => save_split(&dir, shift),
        None => Err(std::io::Error::other("no config directory on this platform")),
    };
    result
        .err()
        .map(|e| super::update::Msg::Notice(super::message::notice::Notice::SplitNotKept(e.into())))
}

fn read(path: &Path, warnings: &mut Vec<String>) -> Option<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            warnings.push(format!("{} ignored: {e}", path.display()));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_override_and_bad_files_warn() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.path().join("keymap.json"), r#"{"normal": {"x": "quit"}}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.path().join("theme.json"), r#"{"p0": "nonsense-colour"}"#).unwrap_or_else(|e| panic!("{e}"));
        let (settings, warnings) = load(Some(dir.path()), false).unwrap_or_else(|e| panic!("{e}"));
        let x = super::super::keymap::KeySpec::parse("x").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            settings.keymap.lookup(super::super::keymap::KeyMode::Normal, &x),
            Some(super::super::action::Action::Quit)
        );
        assert_eq!(settings.theme, Theme::colored());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("theme.json"));
        let (plain, _) = load(Some(dir.path()), true).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(plain.theme, Theme::plain());
        assert_eq!(settings.split_shift, 0, "no layout file: the default split");
    }

    #[test]
    fn the_split_is_saved_and_read_back_and_bad_values_warn() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let config = dir.path().join("triage");
        save_split(&config, -2).unwrap_or_else(|e| panic!("{e}"));
        let (settings, warnings) = load(Some(&config), false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((settings.split_shift, warnings.len()), (-2, 0));
        save_split(&config, 3).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(load(Some(&config), false).map(|l| l.0.split_shift).ok(), Some(3));
        for bad in [r#"{"split": 40}"#, r#"{"split": "wide"}"#, "[", "{}"] {
            std::fs::write(config.join(LAYOUT), bad).unwrap_or_else(|e| panic!("{e}"));
            let (settings, warnings) = load(Some(&config), false).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(settings.split_shift, 0, "{bad}");
            assert!(
                warnings.len() == 1 && warnings[0].starts_with("layout.json ignored"),
                "{bad}: {warnings:?}"
            );
        }
    }
}
