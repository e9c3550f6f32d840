//! Reading `result.json` out of a downloaded artifact zip, defensively.
//!
//! The archive comes from the network: its headers may lie. Nothing here
//! trusts a declared size; the one entry read is decompressed through a hard
//! cap of [`MAX_RESULT_BYTES`] + 1 bytes, so a zip bomb costs at most that much
//! memory. Entries with unsafe names (absolute, `..`, NUL), symbolic links,
//! encrypted entries, nested archives and archives with too many entries are
//! refused before anything is decompressed.

use std::io::{Cursor, Read};

/// The agent result limit (rule R1): 1 MiB.
pub const MAX_RESULT_BYTES: usize = 1024 * 1024;

/// At most this many entries in an artifact (ReviewGate uploads one file).
pub const MAX_ENTRIES: usize = 16;

/// The one file the artifact must contain, at its root.
pub const RESULT_NAME: &str = "result.json";

/// Why an artifact zip was refused. Each message is one sentence ending with what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArtifactZipError {
    /// Not a zip archive, or a damaged one.
    #[error("the artifact download is not a readable zip archive ({detail}); download it again or rerun the review")]
    Unreadable { detail: String },
    /// More entries than an agent-result artifact ever has.
    #[error(
        "the artifact has {count} entries (at most {MAX_ENTRIES} expected); it is not a ReviewGate result artifact"
    )]
    TooManyEntries { count: usize },
    /// A name that could escape the extraction directory.
    #[error("the artifact contains an entry with an unsafe name ({name}); refusing to read it")]
    UnsafeName { name: String },
    /// A symlink, encrypted entry or archive inside the archive.
    #[error("the artifact contains {what} ({name}); refusing to read it")]
    Forbidden { what: &'static str, name: String },
    /// More than one `result.json`.
    #[error("the artifact contains more than one result.json; refusing to guess which one is real")]
    Duplicate,
    /// No `result.json` at the root.
    #[error("the artifact has no result.json at its root; it is not a ReviewGate agent result artifact")]
    Missing,
    /// `result.json` decompresses to more than 1 MiB.
    #[error("result.json in the artifact is larger than 1 MiB, the agent result limit; it cannot be a valid result")]
    TooLarge,
    /// Decompression failed part-way (bad data, CRC mismatch).
    #[error("result.json in the artifact could not be decompressed ({detail}); download it again or rerun the review")]
    Corrupt { detail: String },
}

/// File name endings of archives that must not be nested in the artifact.
const ARCHIVE_SUFFIXES: [&str; 12] = [
    ".zip", ".jar", ".gz", ".tgz", ".tar", ".7z", ".rar", ".bz2", ".xz", ".zst", ".lz4", ".br",
];

/// Extracts the bytes of `result.json` from an artifact zip held in memory.
pub fn read_result_json(zip_bytes: &[u8]) -> Result<Vec<u8>, ArtifactZipError> {
    let mut archive = zip::ZipArchive::new(Cursor::new(zip_bytes))
        .map_err(|e| ArtifactZipError::Unreadable { detail: e.to_string() })?;
    if archive.len() > MAX_ENTRIES {
        return Err(ArtifactZipError::TooManyEntries { count: archive.len() });
    }
    let index = find_result(&mut archive)?;
    let entry = archive
        .by_index(index)
        .map_err(|e| ArtifactZipError::Corrupt { detail: e.to_string() })?;
    let mut bytes = Vec::with_capacity(64 * 1024);
    entry
        .take(MAX_RESULT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ArtifactZipError::Corrupt { detail: e.to_string() })?;
    if bytes.len() > MAX_RESULT_BYTES {
        return Err(ArtifactZipError::TooLarge);
    }
    Ok(bytes)
}

/// Checks every entry's metadata (nothing is decompressed) and returns the
/// index of the root `result.json`.
fn find_result(archive: &mut zip::ZipArchive<Cursor<&[u8]>>) -> Result<usize, ArtifactZipError> {
    let mut found = None;
    for i in 0..archive.len() {
        let entry = archive
            .by_index_raw(i)
            .map_err(|e| ArtifactZipError::Unreadable { detail: e.to_string() })?;
        let raw_name = entry
            .name()
            .map(|n| n.into_owned())
            .unwrap_or_else(|_| "(undecodable name)".to_owned());
        let shown = printable(&raw_name);
        if entry.enclosed_name().is_none() || !is_plain_relative(&raw_name) {
            return Err(ArtifactZipError::UnsafeName { name: shown });
        }
        if entry.is_symlink() {
            return Err(ArtifactZipError::Forbidden {
                what: "a symbolic link",
                name: shown,
            });
        }
        if entry.encrypted() {
            return Err(ArtifactZipError::Forbidden {
                what: "an encrypted entry",
                name: shown,
            });
        }
        let lower = raw_name.to_ascii_lowercase();
        if ARCHIVE_SUFFIXES.iter().any(|s| lower.ends_with(s)) {
            return Err(ArtifactZipError::Forbidden {
                what: "a nested archive",
                name: shown,
            });
        }
        if raw_name == RESULT_NAME && !entry.is_dir() {
            if found.is_some() {
                return Err(ArtifactZipError::Duplicate);
            }
            found = Some(i);
        }
    }
    found.ok_or(ArtifactZipError::Missing)
}

/// Stricter than `enclosed_name` (which accepts `/x` as `x` and `a/../b`):
/// relative, `/`-separated, no `.`/`..` or empty components, no `\`, `:` or NUL.
fn is_plain_relative(name: &str) -> bool {
    !name.is_empty()
        && !name.contains(['\\', ':', '\0'])
        && name
            .trim_end_matches('/')
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != "..")
}

/// An entry name safe to quote in a message: control characters replaced, length capped.
fn printable(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .take(80)
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    if name.chars().count() > 80 {
        format!("{cleaned}…")
    } else {
        cleaned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use zip::write::SimpleFileOptions;

    /// Builds a deflated zip from (name, content) pairs.
    pub(crate) fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        for (name, content) in entries {
            w.start_file(*name, opts).expect("start entry");
            w.write_all(content).expect("write entry");
        }
        w.finish().expect("finish zip").into_inner()
    }

    #[test]
    fn reads_result_json() {
        let z = zip_of(&[("result.json", b"{\"a\":1}")]);
        assert_eq!(read_result_json(&z), Ok(b"{\"a\":1}".to_vec()));
    }

    #[test]
    fn exactly_one_mebibyte_is_accepted_one_more_byte_is_not() {
        let ok = vec![b' '; MAX_RESULT_BYTES];
        assert_eq!(
            read_result_json(&zip_of(&[("result.json", &ok)])).map(|b| b.len()),
            Ok(MAX_RESULT_BYTES)
        );
        let big = vec![b' '; MAX_RESULT_BYTES + 1];
        assert_eq!(
            read_result_json(&zip_of(&[("result.json", &big)])),
            Err(ArtifactZipError::TooLarge)
        );
    }

    #[test]
    fn zip_bomb_is_refused_after_reading_the_cap() {
        let zeros = vec![0u8; 64 * 1024 * 1024];
        let z = zip_of(&[("result.json", &zeros)]);
        assert!(z.len() < 1024 * 1024, "compressed to {} bytes", z.len());
        assert_eq!(read_result_json(&z), Err(ArtifactZipError::TooLarge));
    }

    #[test]
    fn lying_size_headers_do_not_help_a_bomb() {
        let zeros = vec![0u8; 4 * 1024 * 1024];
        let mut z = zip_of(&[("result.json", &zeros)]);
        // Rewrite every declared uncompressed size (local header offset 22,
        // central directory offset 24) to 100 bytes.
        let declared = (zeros.len() as u32).to_le_bytes();
        let small = 100u32.to_le_bytes();
        let mut patched = 0;
        for i in 0..z.len().saturating_sub(4) {
            if z[i..i + 4] == declared {
                z[i..i + 4].copy_from_slice(&small);
                patched += 1;
            }
        }
        assert!(patched >= 2, "patched {patched} size fields");
        let out = read_result_json(&z);
        assert!(
            matches!(out, Err(ArtifactZipError::TooLarge | ArtifactZipError::Corrupt { .. })),
            "{out:?}"
        );
    }

    #[test]
    fn unsafe_names_are_refused() {
        for name in [
            "../result.json",
            "/result.json",
            "a/../../result.json",
            "a/../result.json",
            "C:result.json",
        ] {
            let z = zip_of(&[(name, b"{}")]);
            assert!(
                matches!(read_result_json(&z), Err(ArtifactZipError::UnsafeName { .. })),
                "{name}"
            );
        }
        let z = zip_of(&[("result.json", b"{}"), ("..\\evil", b"x")]);
        assert!(matches!(read_result_json(&z), Err(ArtifactZipError::UnsafeName { .. })));
    }

    #[test]
    fn nested_archives_too_many_entries_missing_and_duplicates() {
        let inner = zip_of(&[("result.json", b"{}")]);
        let z = zip_of(&[("result.json", b"{}"), ("inner.zip", &inner)]);
        assert!(matches!(
            read_result_json(&z),
            Err(ArtifactZipError::Forbidden {
                what: "a nested archive",
                ..
            })
        ));
        let names: Vec<String> = (0..=MAX_ENTRIES).map(|i| format!("f{i}.txt")).collect();
        let many: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x"[..])).collect();
        assert_eq!(
            read_result_json(&zip_of(&many)),
            Err(ArtifactZipError::TooManyEntries { count: MAX_ENTRIES + 1 })
        );
        assert_eq!(
            read_result_json(&zip_of(&[("sub/result.json", b"{}")])),
            Err(ArtifactZipError::Missing)
        );
        assert_eq!(
            read_result_json(&zip_of(&[("other.json", b"{}")])),
            Err(ArtifactZipError::Missing)
        );
        assert!(matches!(
            read_result_json(b"not a zip"),
            Err(ArtifactZipError::Unreadable { .. })
        ));
    }

    #[test]
    fn messages_are_single_sentences_with_a_next_step() {
        let e = ArtifactZipError::UnsafeName {
            name: printable("../x\u{1b}[31m"),
        };
        let text = e.to_string();
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(!text.contains('\n'));
    }
}
