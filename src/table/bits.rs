//! One bit per position, in memory or in a memory-mapped file; read as a `bitvec` slice.

use super::WorkTable;
use super::words::Words;
use super::work_file::WorkFile;
use crate::error::Result;
use bitvec::order::Lsb0;
use bitvec::slice::BitSlice;
use bitvec::view::BitView;

/// A bit table over positions 0..n: bit x of word x/64 (least significant first, words stored
/// little-endian) is 1 iff x is a P-position.
#[derive(Debug)]
pub struct BitTable {
    n: u64,
    words: Words,
}

impl BitTable {
    /// A table over the given words (at least ⌈n/64⌉ of them).
    pub fn from_words(n: u64, words: Words) -> BitTable {
        BitTable { n, words }
    }

    /// A zeroed table in memory, or an input error when it cannot be allocated.
    pub fn in_memory(n: u64) -> Result<BitTable> {
        Ok(Self::from_words(n, Words::in_memory(n.div_ceil(64))?))
    }

    /// A table in the locked work file `work_file`: zeroed when `keep` is false, or reopened
    /// with its contents when `keep` is true.
    pub fn in_file(work_file: &WorkFile, n: u64, keep: bool) -> Result<BitTable> {
        Ok(Self::from_words(
            n,
            Words::in_file(work_file, n.div_ceil(64), keep)?,
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

    /// The table as bits, position x at index x (n of them).
    pub fn bits(&self) -> &BitSlice<u64, Lsb0> {
        &self.words().view_bits::<Lsb0>()[..self.n as usize]
    }

    /// The positions whose bit is set, ascending.
    pub fn ones(&self) -> Vec<u64> {
        ones(self.words()).filter(|&x| x < self.n).collect()
    }
}

/// The indexes of the set bits of `words` (bit x of word x/64, least significant first),
/// ascending. A word at a time with `trailing_zeros`: `bitvec`'s `iter_ones` takes 2.3 to 3.2
/// times as long (`cargo bench --bench bits`).
pub fn ones(words: &[u64]) -> impl Iterator<Item = u64> + '_ {
    words.iter().enumerate().flat_map(|(i, &word)| {
        let base = i as u64 * 64;
        std::iter::successors(Some(word).filter(|&w| w != 0), |&w| {
            Some(w & (w - 1)).filter(|&w| w != 0)
        })
        .map(move |w| base + u64::from(w.trailing_zeros()))
    })
}

impl WorkTable for BitTable {
    fn flush(&self) -> Result<()> {
        self.words.flush()
    }

    fn bits(&self) -> u32 {
        1
    }

    fn words(&self) -> &[u64] {
        BitTable::words(self)
    }

    fn release_bytes(&self, bytes: std::ops::Range<u64>) {
        self.words.release(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_tables_keep_their_bits() {
        let dir = tempfile::tempdir().unwrap();
        let path = WorkFile::acquire(&dir.path().join("t.bits")).unwrap();
        let mut t = BitTable::in_file(&path, 200, false).unwrap();
        t.words_mut()[0] = 0b101;
        t.words_mut()[3] = 1 << 7;
        t.flush().unwrap();
        drop(t);
        let t = BitTable::in_file(&path, 200, true).unwrap();
        assert_eq!(t.ones(), [0, 2, 199]);
        assert!(BitTable::in_file(&path, 300, true).is_err());
    }
}
