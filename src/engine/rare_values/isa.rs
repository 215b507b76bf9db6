//! The dispatch of the `rare-values` engine's kernels to each one compiled for the instruction
//! set detected at run time.

use super::context::Value;
use super::kernels::{Lane, far_marks_body, find_in_region_body, word_of_splits_body};
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
    match isa {
        Isa::Portable => far_marks_body(table, x0, pairs),
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { far_marks_avx2(table, x0, pairs) },
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { far_marks_avx512(table, x0, pairs) },
    }
}

/// [`far_marks_body`] compiled with AVX-512: one variable shift marks eight positions (lanes of
/// 64 bits) or 16 (lanes of 32).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn far_marks_avx512<V: Value, L: Lane, const WL: usize, const P: usize>(
    table: &[V],
    x0: usize,
    pairs: &[(usize, u32)],
) -> [[L; P]; WL] {
    far_marks_body(table, x0, pairs)
}

/// [`far_marks_body`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn far_marks_avx2<V: Value, L: Lane, const WL: usize, const P: usize>(
    table: &[V],
    x0: usize,
    pairs: &[(usize, u32)],
) -> [[L; P]; WL] {
    far_marks_body(table, x0, pairs)
}

/// [`word_of_splits_body`] compiled for `isa` (AVX2's also where AVX-512 is there).
#[inline]
pub(super) fn word_of_splits<V: Value>(isa: Isa, small: &[V], large: &[V]) -> u64 {
    match isa {
        Isa::Portable => word_of_splits_body(small, large),
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 => unsafe { word_of_splits_avx2(small, large) },
    }
}

/// [`word_of_splits_body`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn word_of_splits_avx2<V: Value>(small: &[V], large: &[V]) -> u64 {
    word_of_splits_body(small, large)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::isa::every_here;
    use crate::xorshift::xorshift;

    /// The word of a run of splits is the bits of their values, for every length (the vector
    /// loops' remainders included), both widths of values and every instruction set here.
    #[test]
    fn the_word_of_splits_is_the_same_with_every_instruction_set() {
        fn check<V: Value>(table: &[V]) {
            for len in 0..=70 {
                for start in [0, 1, 5] {
                    let small = &table[start..start + len];
                    let large = &table[200 - len..200];
                    let want = (0..len).fold(0u64, |w, i| {
                        let v: u32 = (small[i] ^ large[len - 1 - i]).into();
                        w | 1 << v
                    });
                    for isa in every_here() {
                        assert_eq!(word_of_splits(isa, small, large), want, "{isa:?}, {len}");
                    }
                }
            }
        }
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let values: Vec<u32> = (0..200).map(|_| (next() % 64) as u32).collect();
        check(&values.iter().map(|&v| v as u8).collect::<Vec<_>>());
        check(&values.iter().map(|&v| v as u16).collect::<Vec<_>>());
    }
}
