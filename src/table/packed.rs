//! Values packed with the fewest bits that hold the largest value (1, 2, 4, 8, 16 or 32 bits),
//! in memory or in a memory-mapped file. Engines choose the width from a bound they know.

use super::words::Words;
use crate::analysis::period::Period;
use crate::engine::resumable::Flush;
use crate::error::Result;
use std::path::Path;

/// Values of positions 0..n, `bits` each: value x sits at bit (x·bits) mod 64 of word
/// x·bits / 64, least significant bits first.
#[derive(Debug)]
pub struct PackedValues {
    n: u64,
    bits: u32,
    words: Words,
}

impl PackedValues {
    /// The fewest bits (a power of two) that hold `max_value`.
    pub fn bits_for(max_value: u32) -> u32 {
        let needed = 32 - max_value.leading_zeros();
        needed.max(1).next_power_of_two()
    }

    /// The number of words that hold n values of `bits` bits.
    pub fn words_for(n: u64, bits: u32) -> u64 {
        (u128::from(n) * u128::from(bits)).div_ceil(64) as u64
    }

    /// Values over the given words (at least [`Self::words_for`] of them).
    pub fn from_words(n: u64, bits: u32, words: Words) -> PackedValues {
        PackedValues { n, bits, words }
    }

    /// Zeroed values in memory.
    pub fn in_memory(n: u64, bits: u32) -> PackedValues {
        PackedValues {
            n,
            bits,
            words: Words::in_memory(Self::words_for(n, bits)),
        }
    }

    /// Values in a memory-mapped file, zeroed, or kept when `keep` (for resuming).
    pub fn in_file(path: &Path, n: u64, bits: u32, keep: bool) -> Result<PackedValues> {
        Ok(PackedValues {
            n,
            bits,
            words: Words::in_file(path, Self::words_for(n, bits), keep)?,
        })
    }

    /// Zeroed values in the memory-mapped file `work_file`, or in memory when there is none.
    pub fn zeroed(n: u64, bits: u32, work_file: Option<&Path>) -> Result<PackedValues> {
        match work_file {
            Some(path) => Self::in_file(path, n, bits, false),
            None => Ok(Self::in_memory(n, bits)),
        }
    }

    /// Packs `values` in memory with the fewest bits.
    pub fn from_values<T: Copy + Into<u32>>(values: &[T]) -> PackedValues {
        let bits = Self::bits_for(values.iter().map(|&v| v.into()).max().unwrap_or(0));
        let mut packed = Self::in_memory(values.len() as u64, bits);
        for (x, &v) in values.iter().enumerate() {
            packed.set(x as u64, v.into());
        }
        packed
    }

    /// The same values with the fewest bits that hold the largest of them, repacked in memory
    /// when that is fewer bits than now (engines that store a fixed width call this when their
    /// table is in memory; a file-backed table keeps its width).
    pub fn narrowed(self) -> PackedValues {
        let largest = self.iter().max().unwrap_or(0);
        if Self::bits_for(largest) >= self.bits {
            return self;
        }
        let mut packed = Self::in_memory(self.n, Self::bits_for(largest));
        for (x, v) in self.iter().enumerate() {
            packed.set(x as u64, v);
        }
        packed
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// True for no positions.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Bits per value.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// The largest value the current width holds.
    pub fn capacity(&self) -> u32 {
        if self.bits == 32 {
            u32::MAX
        } else {
            (1 << self.bits) - 1
        }
    }

    /// The value of position x.
    #[inline]
    pub fn get(&self, x: u64) -> u32 {
        let bit = x * u64::from(self.bits);
        let word = self.words.get()[(bit / 64) as usize];
        ((word >> (bit % 64)) & u64::from(self.capacity())) as u32
    }

    /// Sets the value of position x; `value` must fit the width (see [`Self::capacity`]).
    #[inline]
    pub fn set(&mut self, x: u64, value: u32) {
        debug_assert!(value <= self.capacity());
        let bit = x * u64::from(self.bits);
        let mask = u64::from(self.capacity()) << (bit % 64);
        let word = &mut self.words.get_mut()[(bit / 64) as usize];
        *word = (*word & !mask) | (u64::from(value) << (bit % 64));
    }

    /// All values in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.n).map(|x| self.get(x))
    }

    /// The packed words (bits past the last value are zero).
    pub fn words(&self) -> &[u64] {
        self.words.get()
    }

    /// The packed words, for engines that write whole words.
    pub fn words_mut(&mut self) -> &mut [u64] {
        self.words.get_mut()
    }

    /// Fills positions `computed..` from one period back (positions below `computed` hold at
    /// least `p.preperiod + p.period` values): value by value up to a word
    /// boundary, then whole words from one block back (a block being the shortest whole number of
    /// words that is also a whole number of periods).
    pub fn extend_periodically(&mut self, computed: u64, p: Period) {
        let n = self.len();
        let bits = u64::from(self.bits());
        let per_word = 64 / bits;
        let block_values = lcm(p.period, per_word);
        let block_words = (block_values / per_word) as usize;
        // Word copies start at the first word whose values all lie a block past the preperiod.
        let first_word = (computed.max(p.preperiod + block_values)).div_ceil(per_word);
        let by_value_end = (first_word * per_word).min(n);
        for x in computed..by_value_end {
            let v = self.get(x - p.period);
            self.set(x, v);
        }
        if by_value_end == n {
            return;
        }
        let words = self.words_mut();
        let start = first_word as usize;
        // words[start - block_words..w] repeats with period block_words; copy it forward, doubling.
        let mut w = start;
        while w < words.len() {
            let len = (w + block_words - start).min(words.len() - w);
            words.copy_within(start - block_words..start - block_words + len, w);
            w += len;
        }
        self.clear_past_end();
    }

    /// Zeroes the bits after the last position, which every table keeps zero (for engines
    /// that write whole words).
    pub fn clear_past_end(&mut self) {
        let used = self.n * u64::from(self.bits);
        if let (false, Some(last)) = (used.is_multiple_of(64), self.words.get_mut().last_mut()) {
            *last &= (1u64 << (used % 64)) - 1;
        }
    }
}

/// Least common multiple.
fn lcm(a: u64, b: u64) -> u64 {
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    a / gcd(a, b) * b
}

impl Flush for PackedValues {
    fn flush(&self) -> Result<()> {
        self.words.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::PackedValues;
    use crate::engine::resumable::Flush;

    #[test]
    fn widths_and_round_trips() {
        assert_eq!(
            [0, 1, 2, 3, 4, 15, 16, 255, 256, 65536].map(PackedValues::bits_for),
            [1, 1, 2, 2, 4, 4, 8, 8, 16, 32]
        );
        for bits in [1, 2, 4, 8, 16, 32] {
            let mut p = PackedValues::in_memory(1000, bits);
            let cap = p.capacity();
            for x in 0..1000u64 {
                p.set(x, (x as u32 * 7919) & cap);
            }
            assert!(
                (0..1000u64).all(|x| p.get(x) == (x as u32 * 7919) & cap),
                "{bits} bits"
            );
        }
        let values = [0, 3, 1, 2, 0];
        assert_eq!(PackedValues::from_values(&values).bits(), 2);
        assert!(PackedValues::from_values(&values).iter().eq(values));
    }

    #[test]
    fn narrowing_keeps_values_and_takes_the_fewest_bits() {
        let mut wide = PackedValues::in_memory(1000, 16);
        for x in 0..1000u64 {
            wide.set(x, (x % 11) as u32);
        }
        let narrow = wide.narrowed();
        assert_eq!(narrow.bits(), 4);
        assert!(narrow.iter().eq((0..1000u32).map(|x| x % 11)));
        let mut full = PackedValues::in_memory(10, 2);
        full.set(9, 3);
        assert_eq!(full.narrowed().bits(), 2);
    }

    #[test]
    fn file_backed_values_persist() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.bin");
        let mut p = PackedValues::in_file(&path, 100, 4, false).unwrap();
        p.set(99, 11);
        p.flush().unwrap();
        drop(p);
        assert_eq!(
            PackedValues::in_file(&path, 100, 4, true).unwrap().get(99),
            11
        );
        assert!(PackedValues::in_file(&path, 200, 4, true).is_err());
    }
}
