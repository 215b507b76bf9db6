//! One bit per position, in memory or in a memory-mapped file, and the small state file beside
//! a table file that lets an interrupted run resume.

use super::words::Words;
use crate::engine::resumable::WorkTable;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A bit table over positions 0..n: bit x of word x/64 (least significant first, words stored
/// little-endian) is 1 iff x is a P-position.
#[derive(Debug)]
pub struct BitTable {
    n: u64,
    words: Words,
}

/// How far a file-backed run got: written beside its table file after every checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Canonical game spec.
    pub game: String,
    /// Table size.
    pub n: u64,
    /// Positions below this are final.
    pub done: u64,
    /// Bits a value of a packed table whose width can grow (absent for fixed widths).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bits: Option<u32>,
}

impl BitTable {
    /// The number of bytes of bit words for n positions.
    pub fn bytes_for(n: u64) -> u64 {
        n.div_ceil(64) * 8
    }

    /// A table over the given words (at least ⌈n/64⌉ of them).
    pub fn from_words(n: u64, words: Words) -> BitTable {
        BitTable { n, words }
    }

    /// A zeroed table in memory.
    pub fn in_memory(n: u64) -> BitTable {
        Self::from_words(n, Words::in_memory(n.div_ceil(64)))
    }

    /// A table in the file at `path`: zeroed when `keep` is false, or reopened with its
    /// contents when `keep` is true.
    pub fn in_file(path: &Path, n: u64, keep: bool) -> Result<BitTable> {
        Ok(Self::from_words(
            n,
            Words::in_file(path, n.div_ceil(64), keep)?,
        ))
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
        self.words.get()
    }

    /// The bit words, writable.
    pub fn words_mut(&mut self) -> &mut [u64] {
        self.words.get_mut()
    }

    /// The bit words, given up.
    pub fn into_words(self) -> Words {
        self.words
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

impl WorkTable for BitTable {
    fn flush(&self) -> Result<()> {
        self.words.flush()
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
            bits: Some(8),
        };
        c.save(&path).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), Some(c));
        std::fs::write(Checkpoint::path_for(&path), "{").unwrap();
        assert!(Checkpoint::load(&path).is_err());
    }
}
