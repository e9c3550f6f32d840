//! User settings from the config directory: `keymap.json` and `theme.json`
//! in `$XDG_CONFIG_HOME/triage/` (or the platform's equivalent). JSON because
//! the project reads JSON already; the shapes are documented in the README.
//! A broken file never stops the screen: the defaults stay and the status bar
//! says what was wrong.

use super::app::Settings;
use super::keymap::Keymap;
use super::theme::Theme;
use std::path::{Path, PathBuf};

/// The directory the settings files live in, when the platform has one.
pub fn config_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "triage").map(|d| d.config_dir().to_path_buf())
}

/// Settings with the user's files applied, and a warning per file that could not be used.
pub fn load(dir: Option<&Path>, no_color: bool) -> anyhow::Result<(Settings, Vec<String>)> {
    let mut keymap = Keymap::builtin()?;
    let mut theme = Theme::for_terminal(no_color);
    let mut warnings = Vec::new();
    if let Some(dir) = dir {
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
        },
        warnings,
    ))
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
    }
}
