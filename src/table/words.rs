//! Storage of 64-bit words, in memory or in a memory-mapped file (so a table is bounded by
//! disk, not RAM). Words are stored little-endian.

use crate::error::{Error, Result};
use memmap2::MmapMut;
use std::fs::OpenOptions;
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
}

impl Words {
    /// `len` zero words in memory.
    pub fn in_memory(len: u64) -> Words {
        Words::Memory(vec![0; len as usize])
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
        }
    }

    /// The words, writable.
    pub fn get_mut(&mut self) -> &mut [u64] {
        match self {
            Words::Memory(words) => words,
            Words::File { map, .. } => bytemuck::cast_slice_mut(map),
        }
    }

    /// The file the words are mapped from, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Words::Memory(_) => None,
            Words::File { path, .. } => Some(path),
        }
    }

    /// Writes a file's dirty pages to disk.
    pub fn flush(&self) -> Result<()> {
        match self {
            Words::Memory(_) => Ok(()),
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
