//! Storage of 64-bit words, in memory or in a memory-mapped file (so a table is bounded by
//! disk, not RAM), or read in place from a file mapped read-only. Words are stored
//! little-endian.

use super::work_file::WorkFile;
use crate::error::{Error, Param, Result};
use crate::regular_file::folder_of;
use crate::text;
use fs4::FileExt;
use memmap2::{Mmap, MmapMut, UncheckedAdvice};
use std::fs::OpenOptions;
use std::ops::Range;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// A fixed number of u64 words.
#[derive(Debug)]
pub enum Words {
    /// Words on the heap.
    Memory(Vec<u64>),
    /// Words in a memory-mapped work file, whose lock they hold while mapped.
    File {
        /// The mapping.
        map: MmapMut,
        /// The file.
        work_file: WorkFile,
    },
    /// Words in an anonymous mapping reserved without swap: only the pages written are
    /// memory, and [`Words::discard`] gives them back (they read as zero afterwards). A run
    /// that keeps only a window of its table addresses all of it here.
    Reserved(MmapMut),
    /// Words read in place from a file mapped read-only (a table being read back).
    Mapped {
        /// The mapping of the whole file.
        map: Mmap,
        /// Where the words lie in the file, in bytes (the start a multiple of 8).
        bytes: Range<usize>,
    },
}

impl Words {
    /// `len` zero words in memory, or an input error when they cannot be allocated.
    pub fn in_memory(len: u64) -> Result<Words> {
        super::zeroed_words(len, "the table").map(Words::Memory)
    }

    /// `len` zero words reserved in address space, not in memory ([`Words::Reserved`]), or an
    /// input error when the system refuses the mapping.
    pub fn reserved(len: u64) -> Result<Words> {
        let out_of_memory = || Error::OutOfMemory {
            what: "the window of the table".to_string(),
            bytes: u128::from(len) * 8,
        };
        let bytes = usize::try_from(len.saturating_mul(8)).map_err(|_| out_of_memory())?;
        memmap2::MmapOptions::new()
            .len(bytes.max(8))
            .no_reserve_swap()
            .map_anon()
            .map(Words::Reserved)
            .map_err(|_| out_of_memory())
    }

    /// The words at byte range `bytes` of the read-only mapping `map`: the range starts at a
    /// multiple of 8 and holds a whole number of words. On a big-endian machine the words are
    /// copied into memory in native order (an input error when they cannot be allocated).
    pub fn mapped(map: Mmap, bytes: Range<usize>) -> Result<Words> {
        assert!(
            bytes.start.is_multiple_of(8)
                && bytes.len().is_multiple_of(8)
                && bytes.end <= map.len(),
            "mapped words must be whole, aligned words of the file"
        );
        if cfg!(target_endian = "little") {
            return Ok(Words::Mapped { map, bytes });
        }
        let mut words = super::allocate(bytes.len() as u64 / 8, 0u64, "the table")?;
        for (word, le) in words.iter_mut().zip(map[bytes].chunks_exact(8)) {
            *word = u64::from_le_bytes(le.try_into().expect("eight bytes"));
        }
        Ok(Words::Memory(words))
    }

    /// `len` words in the locked work file `work_file`: zeroed when `keep` is false; when
    /// `keep` is true the file must already hold exactly `len` words, which are kept (for
    /// resuming). The file's blocks are reserved on disk before it is mapped, so a disk that
    /// fills up later cannot fault the mapping; a table that does not fit is refused with one
    /// line and its new file removed.
    pub fn in_file(work_file: &WorkFile, len: u64, keep: bool) -> Result<Words> {
        let path = work_file.path();
        let bytes = len.checked_mul(8).ok_or_else(|| {
            Error::invalid(
                Param::Size,
                text!(
                    "the table is larger than 2^64 bytes; use a smaller ",
                    Param::Size
                ),
            )
        })?;
        if !keep {
            check_free_space(path, bytes)?;
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(!keep)
            .open(path)
            .map_err(|e| Error::io("cannot create", path, e))?;
        let found = file
            .metadata()
            .map_err(|e| Error::io("cannot read", path, e))?
            .len();
        if keep && found != bytes {
            return Err(Error::cannot_resume(
                path,
                format!("holds {found} bytes, not the expected {bytes}"),
            ));
        }
        let sized = file.set_len(bytes).and_then(|_| reserve(&file, bytes));
        if let Err(e) = sized {
            if !keep {
                let _ = std::fs::remove_file(path);
            }
            return Err(match e.raw_os_error() {
                Some(code) if code == ENOSPC => no_room(path, bytes),
                _ => Error::io("cannot size", path, e),
            });
        }
        // SAFETY: the file was opened read-write by this process, is locked against other
        // nimsieve runs for as long as it is mapped, and is not resized while mapped.
        let map = unsafe { MmapMut::map_mut(&file) }.map_err(|e| {
            if !keep {
                let _ = std::fs::remove_file(path);
            }
            Error::io("cannot map", path, e)
        })?;
        Ok(Words::File {
            map,
            work_file: work_file.clone(),
        })
    }

    /// The words.
    pub fn get(&self) -> &[u64] {
        match self {
            Words::Memory(words) => words,
            Words::File { map, .. } => bytemuck::cast_slice(map),
            Words::Reserved(map) => &bytemuck::cast_slice(map)[..map.len() / 8],
            Words::Mapped { map, bytes } => bytemuck::cast_slice(&map[bytes.clone()]),
        }
    }

    /// The words, writable. Panics for words mapped read-only, which are only ever read.
    pub fn get_mut(&mut self) -> &mut [u64] {
        match self {
            Words::Memory(words) => words,
            Words::File { map, .. } => bytemuck::cast_slice_mut(map),
            Words::Reserved(map) => bytemuck::cast_slice_mut(map),
            Words::Mapped { .. } => panic!("words mapped read-only cannot be written"),
        }
    }

    /// The file the words are mapped from, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Words::Memory(_) | Words::Reserved(_) | Words::Mapped { .. } => None,
            Words::File { work_file, .. } => Some(work_file.path()),
        }
    }

    /// Writes a file's dirty pages to disk.
    pub fn flush(&self) -> Result<()> {
        match self {
            Words::Memory(_) | Words::Reserved(_) | Words::Mapped { .. } => Ok(()),
            Words::File { map, work_file } => map
                .flush()
                .map_err(|e| Error::io("cannot write", work_file.path(), e)),
        }
    }

    /// Drops from the process the pages of the mapping that lie wholly within the byte range
    /// `bytes` of the words (cut to whole [`RELEASE_ALIGN`] pieces of the file): the process no
    /// longer holds them, while their contents stay in the file and the page cache (a work
    /// file's written or not yet written back), and the next access maps them again. Words in
    /// memory and reserved words are kept as they are. Returns the bytes released, 0 when the
    /// system refused (the advice changes no value, so a refusal only keeps the pages).
    pub fn release(&self, bytes: Range<u64>) -> u64 {
        match self {
            Words::Memory(_) | Words::Reserved(_) => 0,
            // SAFETY: the mapping is shared and backed by the work file, so dropping its pages
            // loses nothing (dirty pages stay dirty in the page cache) and they read back the
            // same bytes afterwards: slices borrowed from the mapping see no change.
            Words::File { map, .. } => release_pages(map.len(), bytes, |at, len| unsafe {
                map.unchecked_advise_range(UncheckedAdvice::DontNeed, at, len)
            }),
            Words::Mapped { map, bytes: words } => {
                let start = words.start as u64;
                let end = bytes.end.saturating_add(start).min(words.end as u64);
                release_mapped(map, bytes.start + start..end)
            }
        }
    }

    /// Gives the whole pages within the byte range `bytes` of reserved words back to the system:
    /// they read as zero afterwards, and the process no longer holds them. Other words are
    /// kept. Returns the bytes given back.
    pub fn discard(&mut self, bytes: Range<u64>) -> u64 {
        match self {
            // SAFETY: the mapping is private and anonymous, borrowed mutably here: no slice of
            // it is read while its pages are given back, and they read as zero afterwards.
            Words::Reserved(map) => release_pages(map.len(), bytes, |at, len| unsafe {
                map.unchecked_advise_range(UncheckedAdvice::DontNeed, at, len)
            }),
            _ => 0,
        }
    }

    /// Zeroes every bit from bit `from` of the words on (bit b being bit b % 64 of word
    /// b / 64), as [`Words::clear`] does.
    pub fn clear_from_bit(&mut self, from: u64) {
        let first = (from / 64) as usize;
        let len = self.get().len();
        if first >= len {
            return;
        }
        if !from.is_multiple_of(64) {
            self.get_mut()[first] &= (1u64 << (from % 64)) - 1;
        }
        let whole = first + usize::from(!from.is_multiple_of(64));
        self.clear(whole..len);
    }

    /// Zeroes the words of `range`, writing only words that are not zero already (so that
    /// unwritten parts of a work file stay holes), a piece at a time, each released from the
    /// process once clear ([`Words::release`]): clearing the rest of a work file does not bring
    /// it into the process.
    pub fn clear(&mut self, range: Range<usize>) {
        let piece = (16 * RELEASE_ALIGN / 8) as usize;
        let mut start = range.start;
        while start < range.end {
            let end = ((start / piece + 1) * piece).min(range.end);
            for word in &mut self.get_mut()[start..end] {
                if *word != 0 {
                    *word = 0;
                }
            }
            self.release(8 * start as u64..8 * end as u64);
            start = end;
        }
    }
}

/// The granularity of [`Words::release`]: a multiple of every page size of the systems nimsieve
/// runs on (4 KiB, 16 KiB, 64 KiB), so that a piece never reaches outside its range.
pub const RELEASE_ALIGN: u64 = 1 << 16;

/// Drops from the process the pages of the read-only mapping `map` that lie wholly within its
/// byte range `bytes` (whole [`RELEASE_ALIGN`] pieces), as [`Words::release`] does: a file
/// being read back holds only the part not read yet. Returns the bytes released.
pub fn release_mapped(map: &Mmap, bytes: Range<u64>) -> u64 {
    // SAFETY: the mapping is shared and read-only: its pages read back the file's bytes,
    // unchanged.
    release_pages(map.len(), bytes, |at, len| unsafe {
        map.unchecked_advise_range(UncheckedAdvice::DontNeed, at, len)
    })
}

/// Advises away the whole [`RELEASE_ALIGN`] pieces of the byte range `bytes` of a mapping of
/// `len` bytes with `advise(offset, len)`; returns the bytes advised, 0 when it failed.
fn release_pages(
    len: usize,
    bytes: Range<u64>,
    advise: impl FnOnce(usize, usize) -> std::io::Result<()>,
) -> u64 {
    let start = bytes.start.next_multiple_of(RELEASE_ALIGN);
    let end = (bytes.end.min(len as u64) / RELEASE_ALIGN) * RELEASE_ALIGN;
    if start >= end {
        return 0;
    }
    match advise(start as usize, (end - start) as usize) {
        Ok(()) => end - start,
        Err(_) => 0,
    }
}

/// The error number of a full disk (Linux and the BSDs agree on it).
const ENOSPC: i32 = 28;

/// Reserves the blocks of the file's first `bytes`; file systems without `fallocate` keep the
/// sparse file (the free-space check before is then the only guard).
fn reserve(file: &std::fs::File, bytes: u64) -> std::io::Result<()> {
    const EOPNOTSUPP: i32 = 95;
    match file.allocate(bytes) {
        Err(e) if e.raw_os_error() == Some(EOPNOTSUPP) => Ok(()),
        other => other,
    }
}

/// The one-line error of a table that does not fit on its disk.
fn no_room(path: &Path, bytes: u64) -> Error {
    let folder = folder_of(path);
    let free = fs4::available_space(folder).unwrap_or(0);
    Error::NoRoom {
        what: "the table".into(),
        folder: folder.to_path_buf(),
        needed: u128::from(bytes),
        free: u128::from(free),
        fix: crate::text!("use a smaller ", Param::Size, " or free disk space"),
    }
}

/// Refuses a table file that would not fit on its disk, counting the blocks of an old file at
/// `path` (left by an earlier run) as free, since it is replaced.
fn check_free_space(path: &Path, bytes: u64) -> Result<()> {
    let folder = folder_of(path);
    let free = fs4::available_space(folder)
        .map_err(|e| Error::io("cannot query free space of", folder, e))?;
    let replaced = std::fs::metadata(path).map_or(0, |m| m.blocks() * 512);
    if bytes > free.saturating_add(replaced) {
        return Err(no_room(path, bytes));
    }
    Ok(())
}
