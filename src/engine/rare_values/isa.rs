//! The dispatch of the `rare-values` engine's kernels to each one compiled for the instruction
//! set detected at run time.

use super::context::Value;
use super::kernels::{Lane, far_marks_body, find_in_region_body, words_of_splits_body};
use crate::engine::isa::Isa;

/// [`find_in_region_body`] compiled for `isa`.
#[inline]
pub(super) fn find_in_region<V: Value>(
    isa: Isa,
    reversed: &[V],
    table: &[V],
    s: u64,
    v: V,
) -> Option<u64> {
    match isa {
        Isa::Portable => find_in_region_body(reversed, table, s, v),
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { find_in_region_avx2(reversed, table, s, v) },
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { find_in_region_avx512(reversed, table, s, v) },
    }
}

/// [`find_in_region_body`] compiled with AVX-512: 32 values of 16 bits a comparison.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn find_in_region_avx512<V: Value>(reversed: &[V], table: &[V], s: u64, v: V) -> Option<u64> {
    find_in_region_body(reversed, table, s, v)
}

/// [`find_in_region_body`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn find_in_region_avx2<V: Value>(reversed: &[V], table: &[V], s: u64, v: V) -> Option<u64> {
    find_in_region_body(reversed, table, s, v)
}

/// [`far_marks_body`] compiled for `isa`.
#[inline]
pub(super) fn far_marks<V: Value, L: Lane, const WL: usize, const P: usize>(
    isa: Isa,
    table: &[V],
    x0: usize,
    pairs: &[(usize, u32)],
) -> [[L; P]; WL] {
    far_marks_with::<V, L, WL, P, false>(isa, table, x0, pairs).0
}

/// [`far_marks_body`] of one word of 64-bit lanes compiled for `isa`, with the OR of every
/// value marked: the marks are those of the values when it lies below 64.
#[inline]
pub(super) fn far_marks_reaching<V: Value, const P: usize>(
    isa: Isa,
    table: &[V],
    x0: usize,
    pairs: &[(usize, u32)],
) -> ([u64; P], u64) {
    let ([marks], reach) = far_marks_with::<V, u64, 1, P, true>(isa, table, x0, pairs);
    (marks, reach)
}

/// [`far_marks_body`] compiled for `isa`, with or without the OR of the values marked.
#[inline]
fn far_marks_with<V: Value, L: Lane, const WL: usize, const P: usize, const REACH: bool>(
    isa: Isa,
    table: &[V],
    x0: usize,
    pairs: &[(usize, u32)],
) -> ([[L; P]; WL], L) {
    match isa {
        Isa::Portable => far_marks_body::<V, L, WL, P, REACH>(table, x0, pairs),
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { far_marks_avx2::<V, L, WL, P, REACH>(table, x0, pairs) },
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { far_marks_avx512::<V, L, WL, P, REACH>(table, x0, pairs) },
    }
}

/// [`far_marks_body`] compiled with AVX-512: one variable shift marks eight positions (lanes of
/// 64 bits) or 16 (lanes of 32).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn far_marks_avx512<V: Value, L: Lane, const WL: usize, const P: usize, const REACH: bool>(
    table: &[V],
    x0: usize,
    pairs: &[(usize, u32)],
) -> ([[L; P]; WL], L) {
    far_marks_body::<V, L, WL, P, REACH>(table, x0, pairs)
}

/// [`far_marks_body`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn far_marks_avx2<V: Value, L: Lane, const WL: usize, const P: usize, const REACH: bool>(
    table: &[V],
    x0: usize,
    pairs: &[(usize, u32)],
) -> ([[L; P]; WL], L) {
    far_marks_body::<V, L, WL, P, REACH>(table, x0, pairs)
}

/// [`words_of_splits_body`] compiled for `isa` (AVX2's also where AVX-512 is there).
#[inline]
pub(super) fn words_of_splits<V: Value, const W: usize>(
    isa: Isa,
    small: &[V],
    large: &[V],
) -> [u64; W] {
    match isa {
        Isa::Portable => words_of_splits_body(small, large),
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 => unsafe { words_of_splits_avx2(small, large) },
    }
}

/// [`words_of_splits_body`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn words_of_splits_avx2<V: Value, const W: usize>(small: &[V], large: &[V]) -> [u64; W] {
    words_of_splits_body(small, large)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::isa::every_here;
    use crate::xorshift::xorshift;

    /// The bitset of a run of splits is that of their values, for every length (the vector
    /// loops' remainders included), both widths of values, one word and two, and every
    /// instruction set here.
    #[test]
    fn the_words_of_splits_are_the_same_with_every_instruction_set() {
        fn check<V: Value, const W: usize>(table: &[V]) {
            for len in 0..=70 {
                for start in [0, 1, 5] {
                    let small = &table[start..start + len];
                    let large = &table[200 - len..200];
                    let mut want = [0u64; W];
                    for i in 0..len {
                        let v: u32 = (small[i] ^ large[len - 1 - i]).into();
                        want[v as usize / 64] |= 1 << (v % 64);
                    }
                    for isa in every_here() {
                        let words: [u64; W] = words_of_splits(isa, small, large);
                        assert_eq!(words, want, "{isa:?}, {len}");
                    }
                }
            }
        }
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let values: Vec<u32> = (0..200).map(|_| (next() % 128) as u32).collect();
        let below_64: Vec<u32> = values.iter().map(|&v| v % 64).collect();
        check::<u8, 1>(&below_64.iter().map(|&v| v as u8).collect::<Vec<_>>());
        check::<u16, 1>(&below_64.iter().map(|&v| v as u16).collect::<Vec<_>>());
        check::<u8, 2>(&values.iter().map(|&v| v as u8).collect::<Vec<_>>());
        check::<u16, 2>(&values.iter().map(|&v| v as u16).collect::<Vec<_>>());
    }
}
