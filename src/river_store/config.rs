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
//! YAML is read as River reads it (js-yaml 4, YAML 1.2): any block or flow
//! form, quoted keys, JSON; the booleans `false`/`False`/`FALSE`; anything
//! that cannot be read counts as not set.
//! [`read`] does the file I/O; the parsing is pure.

use crate::model::fingerprint::js_trim;
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

/// YAML's booleans under js-yaml's default schema (a plain scalar only: a
/// quoted `"false"` is a string, which River's `=== false` does not match).
fn yaml_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// At most this many parser events are read from one file.
const MAX_EVENTS: usize = 100_000;

/// The events of the first document, without resolving aliases (so an
/// alias bomb costs no more than its text); `None` on a syntax error or
/// past [`MAX_EVENTS`].
struct Events<'a> {
    parser: yaml_rust2::parser::Parser<std::str::Chars<'a>>,
    left: usize,
}

impl Events<'_> {
    fn next(&mut self) -> Option<Event> {
        self.left = self.left.checked_sub(1)?;
        self.parser.next_token().ok().map(|(event, _)| event)
    }

    /// Skips the node that `first` starts.
    fn skip(&mut self, first: Event) -> Option<()> {
        let mut depth = usize::from(matches!(first, Event::MappingStart(..) | Event::SequenceStart(..)));
        while depth > 0 {
            match self.next()? {
                Event::MappingStart(..) | Event::SequenceStart(..) => depth += 1,
                Event::MappingEnd | Event::SequenceEnd => depth -= 1,
                Event::StreamEnd => return None,
                _ => {}
            }
        }
        Some(())
    }

    /// The pairs of the mapping just started: `on_key` is given each plain
    /// key (any scalar style) and reads or skips its value; other keys and
    /// their values are skipped.
    fn pairs(&mut self, mut on_key: impl FnMut(&mut Self, &str) -> Option<()>) -> Option<()> {
        loop {
            match self.next()? {
                Event::MappingEnd => return Some(()),
                Event::Scalar(key, ..) => on_key(self, &key)?,
                other => {
                    self.skip(other)?;
                    let value = self.next()?;
                    self.skip(value)?;
                }
            }
        }
    }
}

use yaml_rust2::parser::Event;

/// `memory.suppressionEnabled` of a YAML document (JSON is YAML too), read
/// with a YAML parser: block or flow style, quoted keys, the value on its
/// own line, comments. An alias, a tag or anything else unreadable counts
/// as not set. The last of repeated keys counts (js-yaml refuses them).
fn yaml_setting(text: &str) -> Option<bool> {
    let mut events = Events {
        parser: yaml_rust2::parser::Parser::new_from_str(text),
        left: MAX_EVENTS,
    };
    loop {
        match events.next()? {
            Event::StreamStart | Event::DocumentStart => {}
            Event::MappingStart(..) => break,
            _ => return None,
        }
    }
    let mut found = None;
    events.pairs(|events, key| {
        let value = events.next()?;
        match (key, value) {
            ("memory", Event::MappingStart(..)) => events.pairs(|events, key| match (key, events.next()?) {
                ("suppressionEnabled", Event::Scalar(v, yaml_rust2::scanner::TScalarStyle::Plain, _, None)) => {
                    found = yaml_bool(&v);
                    Some(())
                }
                (_, other) => events.skip(other),
            }),
            (_, other) => events.skip(other),
        }
    })?;
    found
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
        // Aliases are not followed (and never expanded: a bomb costs its text).
        let bomb = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n\
                    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nmemory: {suppressionEnabled: false}\n";
        assert_eq!(suppression_enabled("config.yaml", bomb), Some(false));
        assert_eq!(
            suppression_enabled("config.yaml", "m: &m {suppressionEnabled: false}\nmemory: *m\n"),
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
