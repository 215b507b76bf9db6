//! Values packed with the fewest bits that hold the largest value (1, 2, 4, 8, 16 or 32 bits),
//! in memory or in a memory-mapped file. Engines choose the width from a bound they know, or
//! start narrow and widen the table when a larger value appears.

use super::WorkTable;
use super::passes::Behind;
use super::reader::Values;
use super::words::Words;
use super::work_file::WorkFile;
use crate::error::Result;
use crate::period::Period;
use rayon::prelude::*;
use std::ops::Range;

/// Positions a pass over a whole table reads between two releases
/// ([`PackedValues::read_once`]): at every width a whole number of words and of
/// [`RELEASE_ALIGN`](super::words::RELEASE_ALIGN) pieces (512 KiB at 1 bit a value, 16 MiB at
/// 32).
pub const PASS: u64 = 1 << 22;

/// The positions of `range` in pieces that end at multiples of [`PASS`], in order.
pub fn pieces(range: Range<u64>) -> impl Iterator<Item = Range<u64>> {
    let end = range.end;
    let starts = std::iter::successors(Some(range.start), move |&x| {
        Some((x / PASS + 1) * PASS).filter(|&next| next < end)
    });
    starts
        .take_while(move |&x| x < end)
        .map(move |x| x..((x / PASS + 1) * PASS).min(end))
}

/// Values of positions 0..n, `bits` each: value x sits at bit (x·bits) mod 64 of word
/// x·bits / 64, least significant bits first. The storage may hold more words than the width
/// needs (room to widen into); only the first [`Self::words_for`] are the table.
#[derive(Debug)]
pub struct PackedValues {
    n: u64,
    bits: u32,
    words: Words,
    /// Every word of the storage from this one on is zero (what [`Self::widen`] need not
    /// clear): the end of the storage unless the table was made zero, and raised by every
    /// write past it.
    zero_from: u64,
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

    /// Values over the given words (at least [`Self::words_for`] of them; more leave room to
    /// [`Self::widen`] into).
    pub fn from_words(n: u64, bits: u32, words: Words) -> PackedValues {
        debug_assert!(words.get().len() as u64 >= Self::words_for(n, bits));
        let zero_from = words.get().len() as u64;
        PackedValues {
            n,
            bits,
            words,
            zero_from,
        }
    }

    /// Values over words that are zero from position `done` on, to the end of the storage:
    /// a new table (`done` 0) or one resumed at `done` from its checkpoint, everything after
    /// which was cleared. Widening does not read the words known to be zero.
    pub fn zeroed_from(n: u64, bits: u32, words: Words, done: u64) -> PackedValues {
        PackedValues {
            zero_from: Self::words_for(done, bits),
            ..Self::from_words(n, bits, words)
        }
    }

    /// Repacks the table with `bits` bits a value (more than now, and no more than its storage
    /// holds): the values of positions below `done` are kept, the rest become 0. A checkpoint
    /// describing the old width must be gone first (`engine::resumable::widen` sees to it).
    pub fn widen(&mut self, bits: u32, done: u64) {
        self.widen_kept(bits, done, std::slice::from_ref(&(0..done)));
    }

    /// [`Self::widen`] of a table that keeps only the positions of `kept` (ascending, disjoint
    /// ranges below `done`): only they are repacked, and the storage between them is released
    /// (reserved words then read as zero), as a run that keeps a window of its table needs.
    pub fn widen_kept(&mut self, bits: u32, done: u64, kept: &[Range<u64>]) {
        assert!(
            bits > self.bits,
            "widening to {bits} bits from {}",
            self.bits
        );
        let used = Self::words_for(self.n, bits) as usize;
        assert!(
            used <= self.words.get().len(),
            "no room to widen to {bits} bits"
        );
        let old = self.bits;
        let done = done.min(self.n);
        // Backwards, each value moves to a bit offset at least as high as its old one, past
        // every value still to be read; each piece of a work file is released once repacked
        // (nothing reads or writes below its new place again).
        let wide = u64::from(bits);
        for range in kept.iter().rev() {
            let range = range.start.min(done)..range.end.min(done);
            for piece in pieces(range).collect::<Vec<_>>().into_iter().rev() {
                let words = self.words.get_mut();
                for x in piece.clone().rev() {
                    write(words, bits, x, read(words, old, x));
                }
                self.words
                    .release(piece.start * wide / 8..piece.end * wide / 8);
            }
        }
        // The storage between the kept ranges holds nothing the table keeps.
        for pair in kept.windows(2) {
            self.words
                .discard(pair[0].end * wide / 8..pair[1].start * wide / 8);
        }
        // Positions from `done` on may hold values written after the last checkpoint; clear
        // them, a piece at a time, releasing each (a work file's): the positions not computed
        // yet do not stay in the process. Words known to be zero are not read.
        let start = Self::words_for(done, bits);
        self.words
            .clear(start as usize..self.zero_from.min(used as u64) as usize);
        self.zero_from = match self.zero_from > used as u64 {
            true => self.zero_from,
            false => start,
        };
        self.bits = bits;
        self.clear_past_end_of(done);
    }

    /// Gives back the storage of the positions of `positions` (whole pages within them) of a
    /// table in reserved words ([`Words::Reserved`]): they read as zero afterwards. A table
    /// elsewhere keeps them. Returns the bytes given back.
    pub fn discard(&mut self, positions: Range<u64>) -> u64 {
        let bits = u64::from(self.bits);
        self.words
            .discard(positions.start * bits / 8..positions.end * bits / 8)
    }

    /// The work file the table lives in, if any.
    pub fn path(&self) -> Option<&std::path::Path> {
        self.words.path()
    }

    /// Zeroed values in memory, or an input error when they cannot be allocated.
    pub fn in_memory(n: u64, bits: u32) -> Result<PackedValues> {
        let words = Words::in_memory(Self::words_for(n, bits))?;
        Ok(Self::zeroed_from(n, bits, words, 0))
    }

    /// Zeroed values of `bits` bits in the memory-mapped file `work_file`, or in memory when
    /// there is none, with room to [`Self::widen`] up to `widest` bits.
    pub fn zeroed(
        n: u64,
        bits: u32,
        widest: u32,
        work_file: Option<&WorkFile>,
    ) -> Result<PackedValues> {
        let len = Self::words_for(n, bits.max(widest));
        let words = match work_file {
            Some(work_file) => Words::in_file(work_file, len, false)?,
            None => Words::in_memory(len)?,
        };
        Ok(Self::zeroed_from(n, bits, words, 0))
    }

    /// Packs `values` in memory with the fewest bits (an input error when they cannot be
    /// allocated).
    pub fn from_values<T: Copy + Into<u32>>(values: &[T]) -> Result<PackedValues> {
        let bits = Self::bits_for(values.iter().map(|&v| v.into()).max().unwrap_or(0));
        let mut packed = Self::in_memory(values.len() as u64, bits)?;
        for (x, &v) in values.iter().enumerate() {
            packed.set(x as u64, v.into());
        }
        Ok(packed)
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
        read(self.words.get(), self.bits, x)
    }

    /// Sets the value of position x; `value` must fit the width (see [`Self::capacity`]).
    #[inline]
    pub fn set(&mut self, x: u64, value: u32) {
        debug_assert!(value <= self.capacity());
        let word = x * u64::from(self.bits) / 64;
        self.zero_from = self.zero_from.max(word + 1);
        write(self.words.get_mut(), self.bits, x, value);
    }

    /// The values as a slice of `T` when they are stored exactly `T` wide (8, 16 or 32 bits)
    /// on a little-endian machine; None otherwise.
    pub fn as_slice<T: bytemuck::Pod>(&self) -> Option<&[T]> {
        self.stored_as::<T>()
            .then(|| &bytemuck::cast_slice::<u64, T>(self.words())[..self.n as usize])
    }

    /// The values as a mutable slice of `T`, as [`PackedValues::as_slice`].
    pub fn as_mut_slice<T: bytemuck::Pod>(&mut self) -> Option<&mut [T]> {
        self.as_mut_prefix(self.n)
    }

    /// The values of the positions below `end` (within the table) as a mutable slice of `T`,
    /// as [`PackedValues::as_slice`]: an engine that writes only there keeps the rest known
    /// to be zero.
    pub fn as_mut_prefix<T: bytemuck::Pod>(&mut self, end: u64) -> Option<&mut [T]> {
        let end = end.min(self.n);
        self.zero_from = self.zero_from.max(Self::words_for(end, self.bits));
        self.stored_as::<T>().then(|| {
            let words = self.words.get_mut();
            &mut bytemuck::cast_slice_mut::<u64, T>(words)[..end as usize]
        })
    }

    /// True when each value is stored as one little-endian `T`, so the words read as `T`s.
    fn stored_as<T>(&self) -> bool {
        self.bits as usize == 8 * std::mem::size_of::<T>() && cfg!(target_endian = "little")
    }

    /// Calls `f` with the values of positions `start..end` (within the table) in order, reading
    /// each word once.
    #[inline]
    pub fn each(&self, start: u64, end: u64, mut f: impl FnMut(u32)) {
        let words = self.words.get();
        let bits = u64::from(self.bits);
        let mask = mask_of(self.bits);
        let mut x = start;
        while x < end {
            let bit = x * bits;
            let mut word = words[(bit / 64) as usize] >> (bit % 64);
            let here = ((64 - bit % 64) / bits).min(end - x);
            for _ in 0..here {
                f((word & mask) as u32);
                word >>= bits;
            }
            x += here;
        }
    }

    /// The largest value (0 for no positions), in parallel over pieces of [`PASS`] positions,
    /// each released once read ([`Self::read_once`]).
    pub fn max(&self) -> u32 {
        (0..self.n.div_ceil(PASS))
            .into_par_iter()
            .map(|c| {
                self.read_once(c * PASS..((c + 1) * PASS).min(self.n), |piece| {
                    let mut max = 0;
                    self.each(piece.start, piece.end, |v| max = max.max(v));
                    max
                })
            })
            .max()
            .unwrap_or(0)
    }

    /// All values in order, read a word at a time. A pass over a file-backed or mapped table
    /// holds one piece of it at a time: each piece of [`PASS`] positions is released once read
    /// ([`Self::read_once`]).
    pub fn iter(&self) -> Values<'_> {
        Values::new(self)
    }

    /// The positions whose value is 0 (P-positions), ascending.
    pub fn zero_positions(&self) -> Vec<u64> {
        (self.iter().enumerate())
            .filter(|(_, v)| *v == 0)
            .map(|(x, _)| x as u64)
            .collect()
    }

    /// As [`Self::each`], releasing each piece of [`PASS`] positions once read
    /// ([`Self::read_once`]): a pass over a file-backed or mapped table that holds one piece
    /// of it at a time.
    pub fn each_once(&self, start: u64, end: u64, mut f: impl FnMut(u32)) {
        for piece in pieces(start..end) {
            self.read_once(piece, |piece| self.each(piece.start, piece.end, &mut f));
        }
    }

    /// Calls `read` on the positions `range`, then releases them from the process (a
    /// file-backed or mapped table's, [`Self::release`]), so that a pass over the table in
    /// pieces of [`PASS`] positions (in order or in parallel) does not keep what it read.
    pub fn read_once<R>(&self, range: Range<u64>, read: impl FnOnce(Range<u64>) -> R) -> R {
        let read = read(range.clone());
        self.release(range);
        read
    }

    /// The words that hold the positions `range`, which starts at a word boundary (a multiple
    /// of [`PASS`], say).
    pub fn words_of(&self, range: Range<u64>) -> &[u64] {
        let bits = u64::from(self.bits);
        debug_assert!((range.start * bits).is_multiple_of(64));
        let start = (range.start * bits / 64) as usize;
        &self.words()[start..Self::words_for(range.end, self.bits) as usize]
    }

    /// Drops from the process the storage of the positions in `positions` (within the table)
    /// of a file-backed table, at the current width ([`Words::release`]: whole pieces inside
    /// the range only; nothing for a table in memory); a range to the end of the table also
    /// drops the room to widen into after it. Returns the bytes released.
    pub fn release(&self, positions: Range<u64>) -> u64 {
        let bits = u64::from(self.bits);
        let end = if positions.end >= self.n {
            u64::MAX
        } else {
            positions.end * bits / 8
        };
        self.words.release(positions.start * bits / 8..end)
    }

    /// The packed words (bits past the last value are zero).
    pub fn words(&self) -> &[u64] {
        &self.words.get()[..Self::words_for(self.n, self.bits) as usize]
    }

    /// The packed words, for engines that write whole words.
    pub fn words_mut(&mut self) -> &mut [u64] {
        let used = Self::words_for(self.n, self.bits);
        self.zero_from = self.zero_from.max(used);
        &mut self.words.get_mut()[..used as usize]
    }

    /// Fills positions `computed..` (none when `computed` is the length) from one period back
    /// (positions below `computed` hold at least `p.preperiod + p.period` values): value by
    /// value up to a word
    /// boundary, then whole words from one block back (a block being the shortest whole number of
    /// words that is also a whole number of periods). An arithmetic period adds its saltus to
    /// each value it copies, value by value; the table must already be wide enough for the
    /// last period's values (the largest it writes).
    pub fn extend_periodically(&mut self, computed: u64, p: Period) {
        let n = self.len();
        if computed >= n {
            return;
        }
        if p.saltus != 0 {
            self.extend_arithmetically(computed..n, p);
            return;
        }
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
        let used = self.words_mut().len();
        let start = first_word as usize;
        // words[start - block_words..w] repeats with period block_words; copy it forward,
        // doubling up to a piece of PASS positions, then a piece at a time from the same
        // source, each piece written released (a work file's): the process keeps the source.
        let most = block_words.max(PASS as usize / per_word as usize / block_words * block_words);
        let source = start - block_words;
        let mut behind = Behind::keeping((source + most) as u64 * per_word);
        let mut w = start;
        while w < used {
            let len = (w - source).min(most).min(used - w);
            self.words.get_mut().copy_within(source..source + len, w);
            w += len;
            behind.passed(self, w as u64 * per_word);
        }
        self.clear_past_end();
    }

    /// Fills the positions of `range` value by value from one period back, adding the saltus
    /// (positions below the range hold at least `p.preperiod + p.period` values, and the table
    /// is wide enough for what it writes).
    pub fn extend_arithmetically(&mut self, range: Range<u64>, p: Period) {
        let saltus = u32::try_from(p.saltus).expect("the table is wide enough for the saltus");
        // Each piece written is released (a work file's) once the copies no longer read it,
        // and the one before the range once they are past it.
        let mut behind = Behind::keeping(range.start.saturating_sub(p.period) / PASS * PASS);
        for piece in pieces(range) {
            for x in piece.clone() {
                let v = self.get(x - p.period) + saltus;
                self.set(x, v);
            }
            behind.passed(self, piece.end.saturating_sub(p.period));
        }
    }

    /// Keeps only the first `len` values (no more than now); the storage stays as it is.
    pub fn truncate(&mut self, len: u64) {
        self.n = self.n.min(len);
        self.clear_past_end();
    }

    /// Zeroes the bits after the last position, which every table keeps zero (for engines
    /// that write whole words).
    pub fn clear_past_end(&mut self) {
        self.clear_past_end_of(self.n);
    }

    /// Zeroes the bits after position `end - 1` in the word that holds it.
    fn clear_past_end_of(&mut self, end: u64) {
        let used = end * u64::from(self.bits);
        if !used.is_multiple_of(64) {
            self.words.get_mut()[(used / 64) as usize] &= (1u64 << (used % 64)) - 1;
        }
    }
}

/// The largest value of `bits` bits.
#[inline]
fn mask_of(bits: u32) -> u64 {
    u64::MAX >> (64 - bits)
}

/// The value of position x in words packed `bits` a value.
#[inline]
fn read(words: &[u64], bits: u32, x: u64) -> u32 {
    let bit = x * u64::from(bits);
    ((words[(bit / 64) as usize] >> (bit % 64)) & mask_of(bits)) as u32
}

/// Sets the value of position x in words packed `bits` a value (`value` fits).
#[inline]
fn write(words: &mut [u64], bits: u32, x: u64, value: u32) {
    let bit = x * u64::from(bits);
    let word = &mut words[(bit / 64) as usize];
    *word = (*word & !(mask_of(bits) << (bit % 64))) | (u64::from(value) << (bit % 64));
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

impl WorkTable for PackedValues {
    fn flush(&self) -> Result<()> {
        self.words.flush()
    }

    fn bits(&self) -> u32 {
        self.bits
    }

    fn words(&self) -> &[u64] {
        PackedValues::words(self)
    }

    fn release_bytes(&self, bytes: std::ops::Range<u64>) {
        self.words.release(bytes);
    }
}

#[cfg(test)]
mod tests;
