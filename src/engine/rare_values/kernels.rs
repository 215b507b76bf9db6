//! The kernels of the `rare-values` engine, as portable bodies that [`isa`](super::isa)
//! compiles for each instruction set: the search of a region for a split of one value, the
//! marks of the lanes of the in-order path and of a chunk's rows, and the bitset of a run of
//! splits' values below 128.

use super::context::Value;
use super::region::{LANES, REGION_FIRST};

/// The small heap a of a split (a, s − a) of value v whose small heap the region's reversed
/// values `reversed` hold, if there is one.
#[inline(always)]
pub(super) fn find_in_region_body<V: Value>(
    reversed: &[V],
    table: &[V],
    s: u64,
    v: V,
) -> Option<u64> {
    // reversed[i] is heap end − 1 − i, whose partner is s − end + 1 + i.
    let len = reversed.len();
    let end = REGION_FIRST + len as u64;
    let first = (s + 1 - end) as usize;
    let partners = &table[first..first + len];
    let chunks = partners
        .chunks_exact(LANES)
        .zip(reversed.chunks_exact(LANES));
    for (c, (p, r)) in chunks.enumerate() {
        if p.iter()
            .zip(r)
            .fold(false, |hit, (&x, &y)| hit | (x ^ y == v))
        {
            let i = c * LANES + p.iter().zip(r).position(|(&x, &y)| x ^ y == v)?;
            return Some(end - 1 - i as u64);
        }
    }
    None
}

/// A word of the lanes that [`far_marks_body`] marks: 32 bits where the processor has a masked
/// OR of 32-bit lanes (AVX-512: 16 positions a vector), else 64.
pub(super) trait Lane:
    Copy
    + Default
    + PartialEq
    + std::ops::BitXor<Output = Self>
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::Shl<Self, Output = Self>
    + std::ops::Shr<Self, Output = Self>
    + Into<u64>
{
    /// Bits in a word.
    const BITS: u32;
    /// The word holding `v`'s low bits.
    fn low(v: u32) -> Self;
}

impl Lane for u32 {
    const BITS: u32 = 32;
    #[inline(always)]
    fn low(v: u32) -> Self {
        v
    }
}

impl Lane for u64 {
    const BITS: u32 = 64;
    #[inline(always)]
    fn low(v: u32) -> Self {
        v as u64
    }
}

/// The marks of the pairs (d, c) at positions x0..x0 + `P` (each pair's partners x − d
/// below x0 + `P` − d in `table`), as bitsets of `WL` words of type `L` (a power of two of
/// them), word by word: word w of position i is `marks[w][i]`. A value v's bit goes into word
/// (v / `L::BITS`) mod `WL` by a masked OR, one vector shift serving all `WL` words: values
/// below `WL` · `L::BITS` each have their own bit, larger ones share the bit of v modulo that.
/// A pair's partners of all `P` positions are read at once, so that each cache line of the
/// table is fetched once a pair. With `REACH`, also the OR of every value marked (else 0): the
/// marks are those of the values when it lies below `WL` · `L::BITS`.
#[inline(always)]
pub(super) fn far_marks_body<
    V: Value,
    L: Lane,
    const WL: usize,
    const P: usize,
    const REACH: bool,
>(
    table: &[V],
    x0: usize,
    pairs: &[(usize, u32)],
) -> ([[L; P]; WL], L) {
    let mut marks = [[L::default(); P]; WL];
    let mut reach = [L::default(); P];
    let (low_bits, word_shift) = (L::low(L::BITS - 1), L::low(L::BITS.trailing_zeros()));
    let word_of = L::low(WL as u32 - 1);
    for &(d, c) in pairs {
        let partners = &table[x0 - d..x0 - d + P];
        let c = L::low(c);
        let mut values = [L::default(); P];
        for (value, &partner) in values.iter_mut().zip(partners) {
            *value = L::low(partner.into()) ^ c;
        }
        if REACH {
            for (reach, &v) in reach.iter_mut().zip(&values) {
                *reach |= v;
            }
        }
        for (w, words) in marks.iter_mut().enumerate() {
            for (word, &v) in words.iter_mut().zip(&values) {
                let bit = L::low(1) << (v & low_bits);
                *word |= if WL == 1 || (v >> word_shift) & word_of == L::low(w as u32) {
                    bit
                } else {
                    L::default()
                };
            }
        }
    }
    let reach = reach.into_iter().fold(L::default(), |all, r| all | r);
    (marks, reach)
}

/// Word w (of 64 bits) of position i of marks of [`far_marks_body`].
#[inline(always)]
pub(super) fn far_word<L: Lane, const WL: usize, const P: usize>(
    marks: &[[L; P]; WL],
    w: usize,
    i: usize,
) -> u64 {
    let per_word = (64 / L::BITS) as usize;
    (0..per_word).fold(0, |word, k| {
        let lane: u64 = marks[(w * per_word + k) % WL][i].into();
        word | lane << (k as u32 * L::BITS)
    })
}

/// The bitset of `W` words of the values (all below 64 · `W`) of the splits of `small`'s heaps
/// with their partners, `large` reversed: with AVX2 a variable shift of each 64-bit lane makes
/// four bits at once, a count of 64 or more giving none (`.167`, whose sweeps of the first
/// splits took 45% of its time, went 1.17 times as fast to 2^25 on one thread, and so with two
/// words past 2^35).
#[inline(always)]
pub(super) fn words_of_splits_body<V: Value, const W: usize>(small: &[V], large: &[V]) -> [u64; W] {
    let pairs = small.iter().zip(large.iter().rev());
    let mut words = [0; W];
    if let [word] = words.as_mut_slice() {
        // Values below 64 need no check of the count (with one, `.167` to 2^25 took 6% longer).
        *word = pairs.fold(0, |w, (&a, &b)| w | 1 << Into::<u32>::into(a ^ b));
        return words;
    }
    pairs.fold(words, |mut words, (&a, &b)| {
        let v: u32 = (a ^ b).into();
        for (w, word) in words.iter_mut().enumerate() {
            let d = v.wrapping_sub(64 * w as u32);
            *word |= if d < 64 { 1 << d } else { 0 };
        }
        words
    })
}
