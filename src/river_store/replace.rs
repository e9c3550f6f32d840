//! Replacing River's memory index while River itself may be rewriting it.
//!
//! River Review 1.15.0 takes no lock on `.river/memory/index.json`: its
//! `appendEntry`, `supersede` and `expireEntries` read the file, change it
//! and write it back in place (`fs.writeFileSync`). The directory lock
//! `triage` holds ([`super::files::lock_dir`]) keeps other `triage`
//! processes out, not River, so an entry River writes between `triage`'s
//! read of the index and its rename would be lost.
//!
//! So the read-modify-write is kept as short as honest code can make it.
//! The slow work (the feedback append and its flush) is done before it, and
//! the change is a merge, a function of the index as read, that can be done
//! again: the new index is written and flushed next to the old one
//! ([`crate::atomic_write::stage`]); then the index is read once more, and
//! only when it is byte for byte what the merge started from is the new one
//! renamed over it. When it changed (River wrote meanwhile), the merge is
//! done again on the new content, a few times at most
//! ([`MERGE_TRIES`]); an index caught half-written (River writes in place) is
//! waited for briefly. If it keeps changing, nothing is written to it and the
//! caller is told ([`StoreError::IndexBusy`]).
//!
//! What remains: River writing between that last read and the rename, a
//! window of one `read` and one `rename` system call (microseconds, not the
//! milliseconds of a flush). Without a lock River honours, no writer can
//! close it.

use super::StoreError;
use super::files;
use super::index::{self, Malformed};
use super::ordered::Json;
use std::io;
use std::path::Path;
use std::time::Duration;

/// How often the merge is done before a changing index is given up on.
pub const MERGE_TRIES: u32 = 8;
/// The pause after an index caught half-written.
const TORN_PAUSE: Duration = Duration::from_millis(5);

/// The index as read: its bytes (`None`: there is none yet) and their parse.
#[derive(Debug, Clone)]
pub struct Read {
    bytes: Option<Vec<u8>>,
    /// The parsed index (a new one when there was none).
    pub index: Json,
}

/// Reads the index at `path`; a malformed one is an error and is left as it is.
pub fn read(path: &Path) -> Result<Read, StoreError> {
    let bytes = files::read_optional(path).map_err(StoreError::io("read", path))?;
    parse(path, bytes)
}

fn parse(path: &Path, bytes: Option<Vec<u8>>) -> Result<Read, StoreError> {
    let index = match &bytes {
        None => index::new_index(),
        Some(b) => index::parse_index(b).map_err(|Malformed { location, problem }| StoreError::MalformedIndex {
            file: path.to_path_buf(),
            location,
            problem,
        })?,
    };
    Ok(Read { bytes, index })
}

/// Applies `merge` to the index at `path`, which was `base` when read, and
/// replaces the index with the result (see the module documentation);
/// returns what the last merge returned. A merge error stops it, nothing
/// written.
pub fn update<T>(
    path: &Path,
    base: Read,
    merge: impl FnMut(&mut Json) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    update_with(path, base, merge, files::read_optional)
}

/// [`update`] with the read of the index passed in (the one read that is
/// raced with River's writes).
fn update_with<T>(
    path: &Path,
    mut base: Read,
    mut merge: impl FnMut(&mut Json) -> Result<T, StoreError>,
    mut reread: impl FnMut(&Path) -> io::Result<Option<Vec<u8>>>,
) -> Result<T, StoreError> {
    for _ in 0..MERGE_TRIES {
        let mut index = base.index.clone();
        let merged = merge(&mut index)?;
        let staged = files::stage(path, index::render(&index).as_bytes()).map_err(StoreError::io("write", path))?;
        let now = reread(path).map_err(StoreError::io("read", path))?;
        if now == base.bytes {
            staged.commit().map_err(StoreError::io("write", path))?;
            return Ok(merged);
        }
        drop(staged);
        match parse(path, now) {
            Ok(fresh) => base = fresh,
            Err(_) => std::thread::sleep(TORN_PAUSE),
        }
    }
    Err(StoreError::IndexBusy {
        file: path.to_path_buf(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    const EMPTY: &str = "{\n  \"entries\": [],\n  \"version\": \"1\"\n}\n";

    /// River's appendEntry: load, push, write in place.
    fn river_appends(path: &Path, id: &str) {
        let mut index: serde_json::Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
        let entry = serde_json::json!({"id": id, "type": "pattern", "title": "t", "content": "c",
            "metadata": {"createdAt": "2026-11-01T00:00:00.000Z", "author": "river"}});
        index["entries"].as_array_mut().unwrap().push(entry);
        fs::write(path, serde_json::to_string_pretty(&index).unwrap() + "\n").unwrap();
    }

    fn ids(path: &Path) -> Vec<String> {
        let index: serde_json::Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
        let entries = index["entries"].as_array().unwrap();
        entries.iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect()
    }

    fn ours() -> Json {
        index::to_json(&serde_json::json!({"id": "suppression-ours", "type": "suppression"}))
    }

    #[test]
    fn an_entry_river_writes_while_the_new_index_is_flushed_is_merged_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index.json");
        fs::write(&path, EMPTY).unwrap();
        let base = read(&path).unwrap();
        let mut merges = 0;
        let mut reads = 0;
        let merged = update_with(
            &path,
            base,
            |index| {
                merges += 1;
                index::append(index, ours());
                Ok(merges)
            },
            |p| {
                reads += 1;
                if reads == 1 {
                    // River writes after the merge was flushed, before the rename.
                    river_appends(p, "pattern-river");
                }
                files::read_optional(p)
            },
        )
        .unwrap();
        assert_eq!(merged, 2, "merged again on River's index");
        assert_eq!(ids(&path), ["pattern-river", "suppression-ours"]);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
    }

    #[test]
    fn a_half_written_index_is_waited_for_and_an_unchanged_one_replaced_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index.json");
        fs::write(&path, EMPTY).unwrap();
        let mut reads = 0;
        update_with(
            &path,
            read(&path).unwrap(),
            |index| {
                index::append(index, ours());
                Ok(())
            },
            |p| {
                reads += 1;
                match reads {
                    // River has truncated the file and not yet written it.
                    1 => Ok(Some(b"{\n  \"entr".to_vec())),
                    2 => {
                        river_appends(p, "pattern-river");
                        files::read_optional(p)
                    }
                    _ => files::read_optional(p),
                }
            },
        )
        .unwrap();
        assert_eq!(ids(&path), ["pattern-river", "suppression-ours"]);

        let mut once = 0;
        update(&path, read(&path).unwrap(), |_| {
            once += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(once, 1);
    }

    #[test]
    fn an_index_that_keeps_changing_is_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index.json");
        fs::write(&path, EMPTY).unwrap();
        let mut n = 0;
        let busy = update_with(
            &path,
            read(&path).unwrap(),
            |index| {
                index::append(index, ours());
                Ok(())
            },
            |p| {
                n += 1;
                river_appends(p, &format!("pattern-river-{n}"));
                files::read_optional(p)
            },
        );
        assert!(matches!(busy, Err(StoreError::IndexBusy { .. })), "{busy:?}");
        assert_eq!(ids(&path).len(), MERGE_TRIES as usize, "River's entries all there");
        assert!(!ids(&path).contains(&"suppression-ours".to_owned()));
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
    }
}
