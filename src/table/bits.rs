//! One bit per position, in memory or in a memory-mapped file (so N is bounded by disk, not
//! RAM), with a small state file beside it that lets an interrupted sieve resume.

use crate::error::{Error, Result};
use memmap2::MmapMut;
use serde::{Deserialize, Serialize};
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

/// A bit table over positions 0..n: bit x of word x/64 (least significant first, words stored
/// little-endian) is 1 iff x is a P-position.
#[derive(Debug)]
pub struct BitTable {
    n: u64,
    storage: Storage,
}

#[derive(Debug)]
enum Storage {
    Memory(Vec<u64>),
    File { map: MmapMut, path: PathBuf },
}

/// How far a file-backed sieve got: written beside the bit file after every checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Canonical game spec.
    pub game: String,
    /// Table size.
    pub n: u64,
    /// Positions below this are final.
    pub done: u64,
}

impl BitTable {
    /// The number of bytes of bit words for n positions.
    pub fn bytes_for(n: u64) -> u64 {
        n.div_ceil(64) * 8
    }

    /// A zeroed table in memory.
    pub fn in_memory(n: u64) -> BitTable {
        BitTable {
            n,
            storage: Storage::Memory(vec![0; n.div_ceil(64) as usize]),
        }
    }

    /// A table in the file at `path`: created zeroed when `keep` is false, or reopened with its
    /// contents when `keep` is true (for resuming).
    pub fn in_file(path: &Path, n: u64, keep: bool) -> Result<BitTable> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(!keep)
            .open(path)
            .map_err(|e| Error::io("cannot create", path, e))?;
        let bytes = Self::bytes_for(n);
        let len = file
            .metadata()
            .map_err(|e| Error::io("cannot read", path, e))?
            .len();
        if keep && len != bytes {
            return Err(Error::Input(format!(
                "cannot resume: '{}' holds {len} bytes, not the {bytes} of a table of {n} positions; rerun without --resume",
                path.display()
            )));
        }
        file.set_len(bytes)
            .map_err(|e| Error::io("cannot size", path, e))?;
        // SAFETY: the file was just opened read-write by this process and is not resized while
        // mapped; other processes writing to it concurrently is outside the supported use.
        let map =
            unsafe { MmapMut::map_mut(&file) }.map_err(|e| Error::io("cannot map", path, e))?;
        Ok(BitTable {
            n,
            storage: Storage::File {
                map,
                path: path.to_path_buf(),
            },
        })
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// True for a table of no positions.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The bit words.
    pub fn words(&self) -> &[u64] {
        match &self.storage {
            Storage::Memory(words) => words,
            Storage::File { map, .. } => bytemuck::cast_slice(map),
        }
    }

    /// The bit words, writable.
    pub fn words_mut(&mut self) -> &mut [u64] {
        match &mut self.storage {
            Storage::Memory(words) => words,
            Storage::File { map, .. } => bytemuck::cast_slice_mut(map),
        }
    }

    /// Writes a file-backed table's pages to disk.
    pub fn flush(&self) -> Result<()> {
        match &self.storage {
            Storage::Memory(_) => Ok(()),
            Storage::File { map, path } => {
                map.flush().map_err(|e| Error::io("cannot write", path, e))
            }
        }
    }

    /// The positions whose bit is set, ascending.
    pub fn ones(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for (i, &word) in self.words().iter().enumerate() {
            let mut w = word;
            while w != 0 {
                out.push(i as u64 * 64 + u64::from(w.trailing_zeros()));
                w &= w - 1;
            }
        }
        out.retain(|&x| x < self.n);
        out
    }
}

impl Checkpoint {
    /// The state file that belongs to the bit file `bits`.
    pub fn path_for(bits: &Path) -> PathBuf {
        let mut name = bits.as_os_str().to_owned();
        name.push(".state.json");
        PathBuf::from(name)
    }

    /// Reads the state file of `bits`, if there is one.
    pub fn load(bits: &Path) -> Result<Option<Checkpoint>> {
        let path = Self::path_for(bits);
        match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
                Error::Input(format!(
                    "cannot resume: '{}' is corrupt ({e}); delete it and rerun without --resume",
                    path.display()
                ))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io("cannot read", path, e)),
        }
    }

    /// Writes the state file of `bits` atomically.
    pub fn save(&self, bits: &Path) -> Result<()> {
        let path = Self::path_for(bits);
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".partial");
        let text = serde_json::to_string(self).expect("checkpoint serialises");
        std::fs::write(&temporary, text)
            .and_then(|_| std::fs::rename(&temporary, &path))
            .map_err(|e| Error::io("cannot write", &path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_tables_keep_their_bits_and_checkpoints() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.bits");
        let mut t = BitTable::in_file(&path, 200, false).unwrap();
        t.words_mut()[0] = 0b101;
        t.words_mut()[3] = 1 << 7;
        t.flush().unwrap();
        drop(t);
        let t = BitTable::in_file(&path, 200, true).unwrap();
        assert_eq!(t.ones(), [0, 2, 199]);
        assert!(BitTable::in_file(&path, 300, true).is_err());
        let c = Checkpoint {
            game: "squares".into(),
            n: 200,
            done: 128,
        };
        c.save(&path).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), Some(c));
        std::fs::write(Checkpoint::path_for(&path), "{").unwrap();
        assert!(Checkpoint::load(&path).is_err());
    }
}
