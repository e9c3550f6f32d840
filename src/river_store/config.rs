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
//! YAML is read as River reads it (js-yaml 4, YAML 1.2; see [`yaml`]): any
//! block or flow form, quoted keys, JSON, aliases, merge keys and `!!bool`;
//! the booleans `false`/`False`/`FALSE`; anything js-yaml refuses or that
//! cannot be read counts as not set.
//! [`read`] does the file I/O; the parsing is pure.

use crate::model::fingerprint::js_trim;
use std::path::{Path, PathBuf};

mod yaml;

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
    yaml::setting(text)
}

/// A config file larger than this is not read (counts as not set).
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The first existing file of `names` in `dir` and its text. The files come
/// with the repository under review: opened without waiting on a FIFO, and
/// read only when they are regular files of a sane size.
fn first_file(dir: &Path, names: &[&str]) -> Option<(PathBuf, String)> {
    use std::io::Read;
    names.iter().map(|n| dir.join(n)).find(|p| p.is_file()).and_then(|p| {
        let file = crate::open_file::open_without_waiting(&p).ok()?;
        let meta = file.metadata().ok()?;
        if !meta.is_file() || meta.len() > MAX_CONFIG_BYTES {
            return None;
        }
        let mut text = String::new();
        file.take(MAX_CONFIG_BYTES).read_to_string(&mut text).ok()?;
        Some((p, text))
    })
}

/// Whether `RIVER_REVIEW_DISABLE_GLOBAL_CONFIG` turns the user file off.
pub fn global_opt_out(value: Option<&str>) -> bool {
    value.is_some_and(|v| matches!(js_trim(v).to_ascii_lowercase().as_str(), "1" | "true"))
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

    /// Forms js-yaml 4 reads as `{"memory": {"suppressionEnabled": false}}`.
    #[test]
    fn every_yaml_form_of_the_setting_is_read() {
        for text in [
            "\"memory\":\n  suppressionEnabled: false\n",
            "{\"memory\": {\"suppressionEnabled\": false}}",
            "memory:\n  suppressionEnabled:\n    false\n",
            "'memory': {'suppressionEnabled': FALSE}\n",
            "---\nmemory:\n    other: [1, {a: b}]\n    suppressionEnabled: false\n...\n",
            "memory: {suppressionEnabled: false}\n",
        ] {
            assert_eq!(suppression_enabled(".river-review.yaml", text), Some(false), "{text}");
        }
        // A quoted "false" is a string, not River's `=== false`.
        assert_eq!(
            suppression_enabled("config.yaml", "memory:\n  suppressionEnabled: \"false\"\n"),
            None
        );
        // Not YAML, or not a mapping at the top: not set.
        assert_eq!(suppression_enabled("config.yaml", "memory: [\n"), None);
        assert_eq!(suppression_enabled("config.yaml", "- memory\n"), None);
        // Aliases are followed, never expanded: a bomb costs its text.
        let bomb = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n\
                    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nmemory: {suppressionEnabled: false}\n";
        assert_eq!(suppression_enabled("config.yaml", bomb), Some(false));
    }

    /// Aliases, merge keys and tags, as js-yaml 4 builds the value (each
    /// form checked against River's loader); what js-yaml refuses (a
    /// repeated key, a second document, a local tag) is not set.
    #[test]
    fn aliases_merges_and_tags_are_read_as_js_yaml_reads_them() {
        let off = |text: &str| suppression_enabled("config.yaml", text);
        assert_eq!(off("m: &m {suppressionEnabled: false}\nmemory: *m\n"), Some(false));
        assert_eq!(off("x: &f false\nmemory: {suppressionEnabled: *f}\n"), Some(false));
        assert_eq!(off("memory: {suppressionEnabled: !!bool false}\n"), Some(false));
        assert_eq!(off("memory: {suppressionEnabled: !!bool \"false\"}\n"), Some(false));
        assert_eq!(off("memory: {suppressionEnabled: !!str false}\n"), None);
        assert_eq!(
            off("base: &b {suppressionEnabled: false}\nmemory:\n  <<: *b\n"),
            Some(false)
        );
        // The mapping's own key wins over a merged one, wherever it stands.
        assert_eq!(
            off("base: &b {suppressionEnabled: false}\nmemory:\n  suppressionEnabled: true\n  <<: *b\n"),
            Some(true)
        );
        // Among merged mappings, the first with the key wins.
        assert_eq!(
            off("a: &a {suppressionEnabled: true}\nb: &b {suppressionEnabled: false}\nmemory:\n  <<: [*a, *b]\n"),
            Some(true)
        );
        // A top-level merge brings `memory` in.
        assert_eq!(
            off("base: &b {memory: {suppressionEnabled: false}}\n<<: *b\n"),
            Some(false)
        );
        // A quoted "<<" is an ordinary key.
        assert_eq!(
            off("base: &b {suppressionEnabled: false}\nmemory:\n  \"<<\": *b\n"),
            None
        );
        // Refused by js-yaml, so River's configuration does not load.
        assert_eq!(off("memory: {suppressionEnabled: false}\nmemory: {}\n"), None);
        assert_eq!(
            off("memory: {suppressionEnabled: false, suppressionEnabled: false}\n"),
            None
        );
        assert_eq!(off("memory: {suppressionEnabled: false}\n---\nx: 1\n"), None);
        assert_eq!(off("memory: {suppressionEnabled: false}\nx: !custom 1\n"), None);
        // An alias to an anchor that is not defined (yet) is not read.
        assert_eq!(off("memory: *m\nm: &m {suppressionEnabled: false}\n"), None);
        // An anchor that holds its own alias is followed a bounded way.
        assert_eq!(off("memory: &m {a: *m, suppressionEnabled: false}\n"), Some(false));
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
