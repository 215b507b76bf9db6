//! The in-order scan of a `psieve` segment: its unmarked positions are P-positions, each
//! marking its targets inside the segment, and the segment's words of the bit table are
//! written.

use super::sieve::Pos;

/// Mask of the bits of the word covering `[base, base + 64)` that lie in `[a, b)`.
#[inline]
pub(super) fn range_mask(base: u64, a: u64, b: u64) -> u64 {
    let a = a.clamp(base, base + 64) - base;
    let b = b.clamp(base, base + 64) - base;
    if a >= b {
        return 0;
    }
    let hi = if b == 64 { !0 } else { (1u64 << b) - 1 };
    hi & (!0u64 << a)
}

/// Bits of `map[64 * i..64 * i + 64]` (bytes that are 0 or 1) that are zero.
#[inline(always)]
fn zero_bits<const B: usize>(map: &[u8; B], i: usize) -> u64 {
    let mut m = 0u64;
    for k in 0..8 {
        let o = 64 * i + 8 * k;
        let x = u64::from_le_bytes(map[o..o + 8].try_into().expect("8 bytes"));
        let z = !x & 0x0101_0101_0101_0101;
        m |= (z.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    m
}

/// Scans segment `[lo, hi)`: unmarked positions `>= start` are P-positions; each
/// is appended to `found` and marks its targets inside the segment. Writes the
/// segment's words of the bit table and returns their number of set bits.
pub(super) fn scan<T: Pos, const B: usize>(
    map: &mut [u8; B],
    steps: &[u64],
    (lo, hi): (u64, u64),
    start: u64,
    words: &mut [u64],
    found: &mut Vec<T>,
) -> u64 {
    let q0 = lo.max(start);
    let seg_len = hi - lo;
    let nw = (hi - lo).div_ceil(64) as usize;
    let w0 = (lo / 64) as usize;
    let keep_end = start.min(hi);
    let mut count = 0;
    for (wi, out) in words[w0..w0 + nw].iter_mut().enumerate() {
        let base = lo + 64 * wi as u64;
        let valid = range_mask(base, q0, hi);
        let mut pbits = 0u64;
        if valid != 0 {
            let word_end = 64 * (wi as u64 + 1);
            let mut w = zero_bits(map, wi) & valid;
            while w != 0 {
                let b = w.trailing_zeros() as u64;
                pbits |= 1 << b;
                let q = base + b;
                found.push(T::from_u64(q));
                let off = q - lo;
                let mut touched = false;
                for &s in steps {
                    let t = off + s;
                    if t >= seg_len {
                        break;
                    }
                    map[t as usize % B] = 1;
                    touched |= t < word_end;
                }
                w &= w - 1;
                if touched {
                    w &= zero_bits(map, wi);
                }
            }
        }
        let v = (*out & range_mask(base, base, keep_end)) | pbits;
        *out = v;
        count += v.count_ones() as u64;
    }
    count
}
