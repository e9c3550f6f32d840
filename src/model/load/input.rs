//! The bytes of a large input file, read into memory that costs few page faults.
//!
//! Reading a file into freshly allocated memory faults once per 4 KiB page
//! touched. On the virtual machines `triage` was measured on, a fault costs
//! 1–2 µs (more when both cores fault at once), so a 1 MiB file cost about as
//! much in faults as in parsing. On Linux a large file is therefore read into
//! an anonymous mapping advised to use transparent huge pages, where one
//! fault brings in 2 MiB; `list` on a 1 MiB agent result measured 0.5–1 ms
//! faster for it (see README, Performance). Where huge pages are disabled the
//! advice is ignored and the mapping behaves like ordinary memory. Everything
//! here is safe code: the mapping is private to this process and anonymous,
//! so no other process can change the bytes while they are parsed.

use std::io::Read;

/// The contents of a file.
pub(crate) enum Input {
    /// Read into the heap (small files, and wherever a mapping is not made).
    Heap(Vec<u8>),
    /// Read into a huge-page mapping.
    #[cfg(target_os = "linux")]
    Mapped(HugeBuffer),
}

impl AsRef<[u8]> for Input {
    fn as_ref(&self) -> &[u8] {
        match self {
            Input::Heap(bytes) => bytes,
            #[cfg(target_os = "linux")]
            Input::Mapped(buffer) => buffer.bytes(),
        }
    }
}

/// Reads `file`, of `len` bytes by its metadata, but at most `limit` bytes
/// (callers pass one more than they accept, so an oversize file shows as such).
pub(crate) fn read_whole(file: std::fs::File, len: u64, limit: u64) -> std::io::Result<Input> {
    #[cfg(target_os = "linux")]
    let mut file = file;
    #[cfg(target_os = "linux")]
    if let Some(mut mapped) = (len >= MAPPED_FROM).then(|| huge_page_buffer(len.min(limit))).flatten() {
        let filled = fill(&mut file, mapped.bytes_mut())?;
        if filled < mapped.len() || filled as u64 >= limit {
            return Ok(mapped.into_input(filled));
        }
        let mut probe = [0u8; 1];
        if fill(&mut file, &mut probe)? == 0 {
            return Ok(mapped.into_input(filled));
        }
        // The file grew after its size was read: read the rest onto the heap.
        let mut bytes = Vec::with_capacity(filled + 1);
        bytes.extend_from_slice(&mapped.bytes()[..filled]);
        bytes.push(probe[0]);
        file.take(limit.saturating_sub(bytes.len() as u64))
            .read_to_end(&mut bytes)?;
        return Ok(Input::Heap(bytes));
    }
    read_heap(file, len, limit).map(Input::Heap)
}

/// Reads `file` (of `len` bytes by its metadata) onto the heap, at most
/// `limit` bytes.
pub(crate) fn read_heap(file: std::fs::File, len: u64, limit: u64) -> std::io::Result<Vec<u8>> {
    // One byte more than the file has, so its end is seen without growing.
    let mut bytes = Vec::with_capacity(len.saturating_add(1).min(limit) as usize);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads until `target` is full or the file ends; returns the bytes read.
#[cfg(target_os = "linux")]
fn fill(file: &mut std::fs::File, target: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < target.len() {
        match file.read(&mut target[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Files from this size on are read into a huge-page mapping; smaller ones
/// onto the heap, where a few dozen faults cost less than a 2 MiB page.
#[cfg(target_os = "linux")]
const MAPPED_FROM: u64 = 256 * 1024;

/// The size of a transparent huge page on x86-64 and most arm64 kernels.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// `len` bytes of an anonymous mapping, starting on a huge-page boundary.
#[cfg(target_os = "linux")]
pub(crate) struct HugeBuffer {
    map: memmap2::MmapMut,
    start: usize,
    len: usize,
}

#[cfg(target_os = "linux")]
impl HugeBuffer {
    fn len(&self) -> usize {
        self.len
    }

    fn bytes(&self) -> &[u8] {
        &self.map[self.start..self.start + self.len]
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.map[self.start..self.start + self.len]
    }

    /// The first `filled` bytes as the input.
    fn into_input(self, filled: usize) -> Input {
        Input::Mapped(HugeBuffer {
            len: filled.min(self.len),
            ..self
        })
    }
}

/// A buffer of `len` bytes in memory advised to use huge pages, or `None`
/// when no mapping can be made (the caller then reads onto the heap).
#[cfg(target_os = "linux")]
fn huge_page_buffer(len: u64) -> Option<HugeBuffer> {
    let len = usize::try_from(len).ok()?;
    let rounded = len.checked_next_multiple_of(HUGE_PAGE)?;
    // One huge page more than needed, so an aligned start always fits.
    let map = memmap2::MmapOptions::new()
        .len(rounded.checked_add(HUGE_PAGE)?)
        .map_anon()
        .ok()?;
    let start = (HUGE_PAGE - map.as_ptr() as usize % HUGE_PAGE) % HUGE_PAGE;
    // Advice only: refused (no THP support) it changes nothing but speed.
    let _ = map.advise_range(memmap2::Advice::HugePage, start, rounded);
    Some(HugeBuffer { map, start, len })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Seek, SeekFrom, Write};

    fn file_with(bytes: &[u8]) -> std::fs::File {
        let mut file = tempfile::tempfile().expect("tempfile");
        file.write_all(bytes).expect("write");
        file.seek(SeekFrom::Start(0)).expect("seek");
        file
    }

    fn pattern(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 31 % 251) as u8).collect()
    }

    #[test]
    fn a_file_is_read_whole() {
        for len in [0, 1, 4095, 256 * 1024, HUGE_PAGE_OR_4K, 3 * 1024 * 1024 + 17] {
            let bytes = pattern(len);
            let input = read_whole(file_with(&bytes), len as u64, u64::MAX).expect("read");
            assert_eq!(input.as_ref(), &bytes[..], "len {len}");
            #[cfg(target_os = "linux")]
            assert_eq!(matches!(input, Input::Mapped(_)), len >= 256 * 1024, "len {len}");
        }
    }

    #[test]
    fn a_file_longer_than_its_size_said_is_read_to_its_end() {
        let bytes = pattern(600_000);
        let input = read_whole(file_with(&bytes), 300_000, u64::MAX).expect("read");
        assert_eq!(input.as_ref(), &bytes[..]);
    }

    #[test]
    fn a_file_shorter_than_its_size_said_is_read_as_it_is() {
        let bytes = pattern(300_000);
        let input = read_whole(file_with(&bytes), 500_000, u64::MAX).expect("read");
        assert_eq!(input.as_ref(), &bytes[..]);
    }

    #[test]
    fn reading_stops_at_the_limit() {
        let bytes = pattern(700_000);
        for said in [10_000, 300_000, 400_000, 700_000] {
            let input = read_whole(file_with(&bytes), said, 400_000).expect("read");
            assert_eq!(input.as_ref(), &bytes[..400_000], "size said {said}");
        }
    }

    #[cfg(target_os = "linux")]
    const HUGE_PAGE_OR_4K: usize = HUGE_PAGE;
    #[cfg(not(target_os = "linux"))]
    const HUGE_PAGE_OR_4K: usize = 4096;
}
