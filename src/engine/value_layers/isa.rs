//! The dispatch of the `value-layers` engine's kernels to each one compiled for the instruction set
//! detected at run time.

use super::kernels::{batch_avx512, batch_body, hits_body};
use super::layers::{CHUNK, Shared, WORDS, Win};
use super::window::write_window_body;
use crate::engine::isa::Isa;

/// [`batch_body`] compiled for `isa`, or its AVX-512 kernel.
#[inline(always)]
pub(super) fn batch(
    isa: Isa,
    copies: &[u8],
    wins: &[Win],
    a8: usize,
    acc: &mut [[u64; WORDS]; CHUNK],
) {
    match isa {
        Isa::Portable => batch_body(copies, wins, a8, acc),
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { batch_avx2(copies, wins, a8, acc) },
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { batch_avx512(copies, wins, a8, acc) },
    }
}

/// [`batch_body`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn batch_avx2(copies: &[u8], wins: &[Win], a8: usize, acc: &mut [[u64; WORDS]; CHUNK]) {
    batch_body(copies, wins, a8, acc)
}

/// [`hits_body`] compiled for `isa`.
#[inline(always)]
pub(super) fn hits(isa: Isa, copies: &[u8], wins: &[Win], a8: usize) -> [u64; WORDS] {
    match isa {
        Isa::Portable => hits_body(copies, wins, a8),
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { hits_avx2(copies, wins, a8) },
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { hits_avx512(copies, wins, a8) },
    }
}

/// [`hits_body`] compiled with AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn hits_avx512(copies: &[u8], wins: &[Win], a8: usize) -> [u64; WORDS] {
    hits_body(copies, wins, a8)
}

/// [`hits_body`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn hits_avx2(copies: &[u8], wins: &[Win], a8: usize) -> [u64; WORDS] {
    hits_body(copies, wins, a8)
}

/// [`write_window_body`] compiled for `isa` (AVX-512 or the baseline).
pub(super) fn write_window(sh: &Shared, isa: Isa, copies: &mut [u8], v: usize) {
    match isa {
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { write_window_avx512(sh, isa, copies, v) },
        _ => write_window_body(sh, isa, copies, v),
    }
}

/// [`write_window_body`] compiled with AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn write_window_avx512(sh: &Shared, isa: Isa, copies: &mut [u8], v: usize) {
    write_window_body(sh, isa, copies, v)
}
