//! The block kernels of the `value-layers` engine: ORing the 64-byte windows of a layer's
//! byte-shifted copies, one step after another, into a block's hits or into a chunk of block
//! accumulators; portable bodies (compiled for each instruction set by
//! [`isa`](super::isa)) and the AVX-512 ones written with intrinsics.

use super::layers::{BYTES, CHUNK, WORDS, Win};

/// OR of the windows of all `wins` at byte offset `a8` (portable body).
#[inline(always)]
pub(super) fn hits_body(copies: &[u8], wins: &[Win], a8: usize) -> [u64; WORDS] {
    let mut acc = [0u64; WORDS];
    for w in wins {
        let start = w.base + a8 - w.lag;
        let chunk: &[u8; BYTES] = copies[start..start + BYTES].try_into().unwrap();
        for (k, x) in acc.iter_mut().enumerate() {
            *x |= u64::from_le_bytes(chunk[8 * k..8 * k + 8].try_into().unwrap());
        }
    }
    acc
}

/// ORs the windows of every step in `wins` into `CHUNK` consecutive block
/// accumulators starting at byte offset `a8` (portable body).
#[inline(always)]
pub(super) fn batch_body(copies: &[u8], wins: &[Win], a8: usize, acc: &mut [[u64; WORDS]; CHUNK]) {
    let mut loc = *acc;
    for w in wins {
        let start = w.base + a8 - w.lag;
        let run: &[u8; BYTES * CHUNK] = copies[start..start + BYTES * CHUNK].try_into().unwrap();
        for (j, a) in loc.iter_mut().enumerate() {
            for (k, x) in a.iter_mut().enumerate() {
                let o = BYTES * j + 8 * k;
                *x |= u64::from_le_bytes(run[o..o + 8].try_into().unwrap());
            }
        }
    }
    *acc = loc;
}

/// [`batch_body`] with aligned reads: a window straddles two cache lines, so reading the
/// aligned lines around it and picking its bytes out of each pair with a byte permute
/// (VBMI) costs fewer cache accesses than unaligned reads (squares at 2^24: 14–14.4 s
/// against 16.2–17 s). `copies` must start on a 64-byte boundary.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) fn batch_avx512(
    copies: &[u8],
    wins: &[Win],
    a8: usize,
    acc: &mut [[u64; WORDS]; CHUNK],
) {
    use std::arch::x86_64::*;
    let base = copies.as_ptr();
    assert_eq!(base as usize % BYTES, 0, "copies must be 64-byte aligned");
    // Line j of a run of CHUNK + 1 lines.
    let line = |run: &[u8; BYTES * (CHUNK + 1)], j: usize| -> __m512i {
        let bytes: &[u8; BYTES] = run[BYTES * j..BYTES * (j + 1)].try_into().unwrap();
        // SAFETY: the 64 bytes are in bounds, and a multiple of 64 from an aligned start.
        unsafe { _mm512_load_si512(bytes.as_ptr().cast()) }
    };
    let iota: [u8; BYTES] = std::array::from_fn(|i| i as u8);
    // SAFETY: 64 bytes in bounds.
    let iota = unsafe { _mm512_loadu_si512(iota.as_ptr().cast()) };
    let mut r: [__m512i; CHUNK] = std::array::from_fn(|j| {
        // SAFETY: 64 bytes in bounds.
        unsafe { _mm512_loadu_si512(acc[j].as_ptr().cast()) }
    });
    for w in wins {
        let start = w.base + a8 - w.lag;
        let aligned = start - start % BYTES;
        let run: &[u8; BYTES * (CHUNK + 1)] = copies[aligned..aligned + BYTES * (CHUNK + 1)]
            .try_into()
            .unwrap();
        // Byte i of the window is byte (start % 64 + i) of the line pair (a, b).
        let pick = _mm512_add_epi8(iota, _mm512_set1_epi8((start % BYTES) as i8));
        let mut a = line(run, 0);
        for (j, x) in r.iter_mut().enumerate() {
            let b = line(run, j + 1);
            *x = _mm512_or_si512(*x, _mm512_permutex2var_epi8(a, pick, b));
            a = b;
        }
    }
    for (j, x) in r.iter().enumerate() {
        // SAFETY: 64 bytes in bounds.
        unsafe { _mm512_storeu_si512(acc[j].as_mut_ptr().cast(), *x) };
    }
}

/// Bit i set when lane i of a whole group of 64 byte or halfword lanes (`BITS` words) holds
/// `value`: the window scan's mask with the vector compare.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn lanes_equal_avx512<const BITS: u32>(words: &[u64], value: u64) -> u64 {
    use std::arch::x86_64::*;
    let at = |i: usize| -> __m512i {
        let eight: &[u64; 8] = words[8 * i..8 * i + 8].try_into().unwrap();
        // SAFETY: the eight words are in bounds.
        unsafe { _mm512_loadu_epi64(eight.as_ptr().cast()) }
    };
    if BITS == 8 {
        _mm512_cmpeq_epi8_mask(at(0), _mm512_set1_epi8(value as i8))
    } else {
        let v = _mm512_set1_epi16(value as i16);
        let low = _mm512_cmpeq_epi16_mask(at(0), v);
        let high = _mm512_cmpeq_epi16_mask(at(1), v);
        u64::from(low) | u64::from(high) << 32
    }
}

#[cfg(test)]
mod tests {
    use super::super::isa::batch;
    use super::super::layers::Line;
    use super::*;
    use crate::engine::isa::{Isa, detect, lacking};

    /// The vector batch reads the same windows as the portable one, at every byte offset.
    #[test]
    fn aligned_batch_equals_portable_batch() {
        let Isa::Avx512 = detect() else {
            lacking("AVX-512 F, BW and VBMI");
            return;
        };
        let mut next = crate::xorshift::xorshift(0x9e37_79b9_7f4a_7c15);
        let copy_len = BYTES * 48;
        let mut lines = vec![Line([0; BYTES]); 3 * copy_len / BYTES];
        let copies: &mut [u8] = bytemuck::cast_slice_mut(&mut lines);
        // Sparse bits, few windows a call: a wrong byte must not hide under the OR.
        copies
            .iter_mut()
            .for_each(|b| *b = (next() & next() & next()) as u8);
        for trial in 0..300 {
            let a8 = BYTES * (17 + trial % 14);
            let wins: Vec<Win> = (0..1 + trial % 3)
                .map(|i| Win {
                    base: (i % 3) * copy_len,
                    lag: (next() as usize) % a8,
                })
                .collect();
            let start: [[u64; WORDS]; CHUNK] =
                std::array::from_fn(|_| std::array::from_fn(|_| next() & next() & next()));
            let (mut want, mut got) = (start, start);
            batch_body(copies, &wins, a8, &mut want);
            batch(Isa::Avx512, copies, &wins, a8, &mut got);
            assert_eq!(got, want, "trial {trial}");
        }
    }
}
