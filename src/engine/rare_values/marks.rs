//! Bitsets of a position's option values: a value marked, the smallest value missing from a
//! value on, and the values of a run of splits marked at once.

use super::context::Value;
use super::isa::words_of_splits;
use crate::engine::isa::detect;

/// Marks every value of `values` in a bitset. When every value is below 64 (a bitset of two
/// words, the second for the bound), the marks gather in a register rather than in memory,
/// where each would wait for the one before.
#[inline]
pub(super) fn mark_all(marks: &mut [u64], values: impl Iterator<Item = u32>) {
    if let [word, _] = marks {
        *word |= values.fold(0, |w, v| w | 1 << v);
    } else {
        values.for_each(|v| mark(marks, v));
    }
}

/// Marks value v in a bitset.
#[inline]
pub(super) fn mark(marks: &mut [u64], v: u32) {
    marks[(v / 64) as usize] |= 1 << (v % 64);
}

/// The smallest value from `from` on that the bitset `marks` lacks (at most the number of its
/// bits less one: values stay below the last word's top).
#[inline]
pub(super) fn mex_from(marks: &[u64], from: u32) -> u32 {
    first_clear(from, marks.len(), |w| marks[w])
}

/// The smallest bit from `from` on that is clear in the bitset of `len` words `word(0)`,
/// `word(1)`, …; the last bit of the last word when every bit up to it is set.
#[inline]
pub(super) fn first_clear(from: u32, len: usize, word: impl Fn(usize) -> u64) -> u32 {
    let last = len * 64 - 1;
    let from = (from as usize).min(last);
    let mut w = from / 64;
    let mut clear = !word(w) & (u64::MAX << (from % 64));
    while clear == 0 && w + 1 < len {
        w += 1;
        clear = !word(w);
    }
    if clear == 0 {
        return last as u32;
    }
    (w * 64) as u32 + clear.trailing_zeros()
}

/// Marks the values of the splits (a, s − a) for the small heaps a in `heaps` (their partners
/// within `table`).
#[inline]
pub(super) fn mark_splits<V: Value>(
    table: &[V],
    s: u64,
    heaps: std::ops::Range<u64>,
    marks: &mut [u64],
) {
    let small = &table[heaps.start as usize..heaps.end as usize];
    let large = &table[(s + 1 - heaps.end) as usize..=(s - heaps.start) as usize];
    match marks {
        [word, _] => *word |= words_of_splits::<V, 1>(detect(), small, large)[0],
        [low, high, _] => {
            let [l, h] = two_words_of_splits(small, large);
            *low |= l;
            *high |= h;
        }
        _ => {
            let values = small.iter().zip(large.iter().rev());
            values.for_each(|(&a, &b)| mark(marks, (a ^ b).into()));
        }
    }
}

/// [`words_of_splits`] of two words, apart from the sweeps' code: inlined, it made the sweeps
/// of one word 3% slower (`.167` to 2^25, one thread).
#[inline(never)]
fn two_words_of_splits<V: Value>(small: &[V], large: &[V]) -> [u64; 2] {
    words_of_splits(detect(), small, large)
}
