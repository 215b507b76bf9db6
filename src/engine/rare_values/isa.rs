//! The dispatch of the `rare-values` engine's kernels to each one compiled for the instruction
//! set detected at run time.

use super::context::Value;
use super::kernels::{Lane, far_marks_body, find_in_region_body};
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
