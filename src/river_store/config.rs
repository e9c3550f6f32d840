//! Whether River Review's configuration turns suppressions off
//! (`memory.suppressionEnabled: false`), read the way River's config loader
//! finds its files:
//! - the repository file: the first of `.river-review.json`,
//!   `.river-review.yaml`, `.river-review.yml` in the repository root;
//! - the user file: the first of `config.json`, `config.yaml`, `config.yml`
//!   in `~/.river-review/`, unless `RIVER_REVIEW_DISABLE_GLOBAL_CONFIG` is
//!   `1` or `true` (any case, surrounding space ignored);
//! - the repository file wins over the user file; only the boolean `false`
//!   turns suppressions off (River checks `=== false`).
//!
//! YAML is read with a small line reader that understands exactly the
//! shapes this setting is written in (a top-level `memory:` block holding
//! `suppressionEnabled: <bool>`, or a flow mapping `memory: {...}`), with
//! YAML's `false`/`False`/`FALSE`; anything it cannot read counts as not set.
//! [`read`] does the file I/O; the parsing is pure.

use std::path::{Path, PathBuf};

/// Where the setting came from, when it turns suppressions off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SuppressionSetting {
    /// Not turned off (the default).
    Enabled,
    /// `memory.suppressionEnabled: false` in this file.
    Disabled(PathBuf),
}

/// The repository's config file names, in River's order.
pub const REPO_FILES: [&str; 3] = [".river-review.json", ".river-review.yaml", ".river-review.yml"];
/// The user config file names in `~/.river-review/`.
pub const USER_FILES: [&str; 3] = ["config.json", "config.yaml", "config.yml"];

/// `memory.suppressionEnabled` of one config file's text, if it is a boolean.
pub fn suppression_enabled(name: &str, text: &str) -> Option<bool> {
    if name.ends_with(".json") {
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        return value.get("memory")?.get("suppressionEnabled")?.as_bool();
    }
    yaml_setting(text)
}

fn yaml_bool(s: &str) -> Option<bool> {
    let s = s.split(" #").next().unwrap_or(s).trim();
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

fn yaml_setting(text: &str) -> Option<bool> {
    let mut in_memory = false;
    let mut found = None;
    for raw in text.lines() {
        let line = raw.trim_end();
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let indented = line.len() != content.len();
        if !indented {
            in_memory = false;
            if let Some(rest) = content.strip_prefix("memory:") {
                let rest = rest.trim();
                if let Some(flow) = rest.strip_prefix('{') {
                    let body = flow.split('}').next().unwrap_or("");
                    for pair in body.split(',') {
                        if let Some((k, v)) = pair.split_once(':')
                            && k.trim().trim_matches(['"', '\'']) == "suppressionEnabled"
                        {
                            found = yaml_bool(v);
                        }
                    }
                } else {
                    in_memory = rest.is_empty() || rest.starts_with('#');
                }
            }
            continue;
        }
        if in_memory
            && let Some((k, v)) = content.split_once(':')
            && k.trim().trim_matches(['"', '\'']) == "suppressionEnabled"
        {
            found = yaml_bool(v);
        }
    }
    found
}

/// The first existing file of `names` in `dir` and its text.
fn first_file(dir: &Path, names: &[&str]) -> Option<(PathBuf, String)> {
    names.iter().map(|n| dir.join(n)).find(|p| p.is_file()).and_then(|p| {
        let text = std::fs::read_to_string(&p).ok()?;
        Some((p, text))
    })
}

/// Whether `RIVER_REVIEW_DISABLE_GLOBAL_CONFIG` turns the user file off.
pub fn global_opt_out(value: Option<&str>) -> bool {
    value.is_some_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true"))
}

/// Reads the setting for a repository root (`home` is the user's home
/// directory, `None` when unknown or opted out).
pub fn read(root: &Path, home: Option<&Path>) -> SuppressionSetting {
    let repo = first_file(root, &REPO_FILES);
    let user = home.and_then(|h| first_file(&h.join(".river-review"), &USER_FILES));
    for (path, text) in repo.into_iter().chain(user) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        match suppression_enabled(name, &text) {
            Some(false) => return SuppressionSetting::Disabled(path),
            Some(true) => return SuppressionSetting::Enabled,
            None => {}
        }
    }
    SuppressionSetting::Enabled
}

/// The user's home directory for [`read`], honouring River's opt-out.
pub fn user_home() -> Option<PathBuf> {
    if global_opt_out(std::env::var("RIVER_REVIEW_DISABLE_GLOBAL_CONFIG").ok().as_deref()) {
        return None;
    }
    directories::BaseDirs::new().map(|d| d.home_dir().to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_in_each_syntax() {
        let json = r#"{"memory": {"suppressionEnabled": false}}"#;
        assert_eq!(suppression_enabled(".river-review.json", json), Some(false));
        assert_eq!(suppression_enabled(".river-review.json", "{\"memory\":{}}"), None);
        let yaml = "model: x\nmemory:\n  # off for now\n  suppressionEnabled: false # until 2027\nreview: {}\n";
        assert_eq!(suppression_enabled(".river-review.yaml", yaml), Some(false));
        assert_eq!(
            suppression_enabled("config.yml", "memory: { suppressionEnabled: False }\n"),
            Some(false)
        );
        assert_eq!(
            suppression_enabled("config.yml", "memory:\n  suppressionEnabled: true\n"),
            Some(true)
        );
        // Only under `memory:`.
        assert_eq!(
            suppression_enabled("config.yml", "other:\n  suppressionEnabled: false\n"),
            None
        );
        assert_eq!(
            suppression_enabled("config.yml", "memory:\n  suppressionEnabled: no\n"),
            None
        );
    }

    #[test]
    fn repository_file_wins_over_the_user_file() {
        let root = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir(home.path().join(".river-review")).unwrap();
        let user = home.path().join(".river-review").join("config.yaml");
        std::fs::write(&user, "memory:\n  suppressionEnabled: false\n").unwrap();
        assert_eq!(
            read(root.path(), Some(home.path())),
            SuppressionSetting::Disabled(user.clone())
        );
        assert_eq!(read(root.path(), None), SuppressionSetting::Enabled);
        std::fs::write(
            root.path().join(".river-review.json"),
            r#"{"memory":{"suppressionEnabled":true}}"#,
        )
        .unwrap();
        assert_eq!(read(root.path(), Some(home.path())), SuppressionSetting::Enabled);
        // The first repository file found is the only one River reads.
        std::fs::write(
            root.path().join(".river-review.yml"),
            "memory:\n  suppressionEnabled: false\n",
        )
        .unwrap();
        assert_eq!(read(root.path(), Some(home.path())), SuppressionSetting::Enabled);
        assert!(global_opt_out(Some(" TRUE ")) && global_opt_out(Some("1")) && !global_opt_out(Some("yes")));
    }
}
