//! Storage of 64-bit words, in memory or in a memory-mapped file (so a table is bounded by
//! disk, not RAM), or read in place from a file mapped read-only. Words are stored
//! little-endian.

use crate::error::{Error, Result};
use memmap2::{Mmap, MmapMut};
use std::fs::OpenOptions;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A fixed number of u64 words.
#[derive(Debug)]
pub enum Words {
    /// Words on the heap.
    Memory(Vec<u64>),
    /// Words in a memory-mapped file.
    File {
        /// The mapping.
        map: MmapMut,
        /// The file.
        path: PathBuf,
    },
    /// Words read in place from a file mapped read-only (a table being read back).
    Mapped {
        /// The mapping of the whole file.
        map: Mmap,
        /// Where the words lie in the file, in bytes (the start a multiple of 8).
        bytes: Range<usize>,
    },
}

impl Words {
    /// `len` zero words in memory.
    pub fn in_memory(len: u64) -> Words {
        Words::Memory(vec![0; len as usize])
    }

    /// `len` zero words in memory, or an input error when they cannot be allocated.
    pub fn try_in_memory(len: u64) -> Result<Words> {
        super::allocate(len, 0u64, "the table").map(Words::Memory)
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

    /// `len` words in the file at `path`: zeroed when `keep` is false; when `keep` is true the
    /// file must already hold exactly `len` words, which are kept (for resuming).
    /// A new file must fit in the free space of its disk.
    pub fn in_file(path: &Path, len: u64, keep: bool) -> Result<Words> {
        let bytes = len.checked_mul(8).ok_or_else(|| {
            Error::Input("the table is larger than 2^64 bytes; use a smaller -n".into())
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
            return Err(Error::Input(format!(
                "cannot resume: '{}' holds {found} bytes, not the expected {bytes}; rerun without --resume",
                path.display()
            )));
        }
        file.set_len(bytes)
            .map_err(|e| Error::io("cannot size", path, e))?;
        // SAFETY: the file was opened read-write by this process and is not resized while
        // mapped; another process writing to it at the same time is outside supported use.
        let map =
            unsafe { MmapMut::map_mut(&file) }.map_err(|e| Error::io("cannot map", path, e))?;
        Ok(Words::File {
            map,
            path: path.to_path_buf(),
        })
    }

    /// The words.
    pub fn get(&self) -> &[u64] {
        match self {
            Words::Memory(words) => words,
            Words::File { map, .. } => bytemuck::cast_slice(map),
            Words::Mapped { map, bytes } => bytemuck::cast_slice(&map[bytes.clone()]),
        }
    }

    /// The words, writable. Panics for words mapped read-only, which are only ever read.
    pub fn get_mut(&mut self) -> &mut [u64] {
        match self {
            Words::Memory(words) => words,
            Words::File { map, .. } => bytemuck::cast_slice_mut(map),
            Words::Mapped { .. } => panic!("words mapped read-only cannot be written"),
        }
    }

    /// The file the words are mapped from, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Words::Memory(_) | Words::Mapped { .. } => None,
            Words::File { path, .. } => Some(path),
        }
    }

    /// Writes a file's dirty pages to disk.
    pub fn flush(&self) -> Result<()> {
        match self {
            Words::Memory(_) | Words::Mapped { .. } => Ok(()),
            Words::File { map, path } => {
                map.flush().map_err(|e| Error::io("cannot write", path, e))
            }
        }
    }
}

/// Refuses a table file that would not fit on its disk.
fn check_free_space(path: &Path, bytes: u64) -> Result<()> {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let free = fs4::available_space(folder)
        .map_err(|e| Error::io("cannot query free space of", folder, e))?;
    if bytes > free {
        let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
        return Err(Error::Input(format!(
            "the table needs {:.2} GiB in '{}' but only {:.2} GiB are free; use a smaller -n or free disk space",
            gib(bytes),
            folder.display(),
            gib(free)
        )));
    }
    Ok(())
}
