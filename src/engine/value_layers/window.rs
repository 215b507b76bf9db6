//! The window of a `value-layers` segment's layer: the layer's bitset below the segment, rebuilt
//! from the final values stored in the table into the layer's byte-shifted copies. Scanning
//! the values is bound by memory bandwidth, so plain word arithmetic does it, for each width
//! compiled on its own, except that 8- and 16-bit values are compared 64 or 32 at a time with
//! AVX-512 (the scan was 12 % of squares at 2^24, then 6.5 %).

#[cfg(target_arch = "x86_64")]
use super::kernels::lanes_equal_avx512;
use super::layers::{BYTES, Shared, WORDS, write_copies};
use crate::engine::isa::Isa;

/// Writes the copies of layer `v` over the window (the blocks below the segment) from the
/// final values in the table, and clears the padding before block 0.
#[inline(always)]
pub(super) fn write_window_body(sh: &Shared, isa: Isa, copies: &mut [u8], v: usize) {
    for c in 0..sh.residues.len() {
        let base = c * sh.copy_len;
        copies[base..base + BYTES].fill(0);
    }
    match sh.table.bits() {
        1 => write_window_at::<1>(sh, isa, copies, v as u64),
        2 => write_window_at::<2>(sh, isa, copies, v as u64),
        4 => write_window_at::<4>(sh, isa, copies, v as u64),
        8 => write_window_at::<8>(sh, isa, copies, v as u64),
        bits => {
            assert_eq!(
                bits, 16,
                "the value-layers engine's tables hold at most 16 bits"
            );
            write_window_at::<16>(sh, isa, copies, v as u64)
        }
    }
}

/// [`write_window_body`] from a table of `BITS` bits a value.
#[inline(always)]
fn write_window_at<const BITS: u32>(sh: &Shared, isa: Isa, copies: &mut [u8], v: u64) {
    let words = sh.table.words();
    // Table positions are plain positions plus `shift`: a plain block spans two runs of 64
    // table positions when the shift is not a multiple of 64.
    let lane = sh.shift % 64;
    let mut group = sh.shift / 64;
    let mut low = equal_mask::<BITS>(isa, words, group, v);
    for blk in 0..sh.first {
        let mut lb = [0u64; WORDS];
        for x in lb.iter_mut() {
            group += 1;
            let high = equal_mask::<BITS>(isa, words, group, v);
            *x = if lane == 0 {
                low
            } else {
                (low >> lane) | (high << (64 - lane))
            };
            low = high;
        }
        write_copies(sh, copies, &lb, BYTES * (blk + 1));
    }
}

/// Bit i set when table position `64 * group + i` of a table of `BITS` bits a value holds
/// `value` (positions past the table count as not holding it): every lane of a word at once.
#[inline(always)]
fn equal_mask<const BITS: u32>(isa: Isa, table: &[u64], group: usize, value: u64) -> u64 {
    let lane = u64::MAX >> (64 - BITS);
    if value > lane {
        return 0;
    }
    let words = table.get(BITS as usize * group..).unwrap_or(&[]);
    let words = &words[..words.len().min(BITS as usize)];
    #[cfg(target_arch = "x86_64")]
    if let (Isa::Avx512, 8 | 16) = (isa, BITS)
        && words.len() == BITS as usize
    {
        // SAFETY: the feature was detected at run time, and `words` holds 64 lanes.
        return unsafe { lanes_equal_avx512::<BITS>(words, value) };
    }
    let ones = u64::MAX / lane;
    let pattern = value * ones;
    let low = (lane >> 1) * ones;
    let high = (lane ^ (lane >> 1)) * ones;
    let per_word = 64 / BITS as usize;
    let mut mask = 0u64;
    for (j, &w) in words.iter().enumerate() {
        let x = w ^ pattern;
        // The top bit of each lane of `nonzero` is set when that lane of x is not zero.
        let nonzero = ((x & low).wrapping_add(low)) | x;
        let mut zero = (!nonzero & high) >> (BITS - 1);
        // Gather one bit a lane into consecutive bits: runs of `got` bits every `span` bits
        // merge into runs of 2·`got` bits every 2·`span` bits.
        let (mut got, mut span) = (1u32, BITS);
        while span > 1 && span < 64 {
            let every = if 2 * span == 64 {
                1
            } else {
                u64::MAX / ((1u64 << (2 * span)) - 1)
            };
            zero = (zero | (zero >> (span - got))) & (((1u64 << (2 * got)) - 1) * every);
            got *= 2;
            span *= 2;
        }
        mask |= zero << (j * per_word);
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::isa::every_here;

    /// The lanes holding a value, found 64 at a time with every instruction set this
    /// processor has, are those a plain comparison of each value finds, the table's end
    /// included.
    #[test]
    fn lanes_holding_a_value_are_found_with_every_instruction_set() {
        fn check<const BITS: u32>(isas: &[Isa]) {
            let mut next = crate::xorshift::xorshift(0x2545_F491_4F6C_DD1D + u64::from(BITS));
            let lane = u64::MAX >> (64 - BITS);
            // Few distinct values, so that every group holds some of the one looked for.
            let values: Vec<u64> = (0..64 * 5 + 17).map(|_| (next() % 5) & lane).collect();
            let mut words = vec![0u64; (values.len() * BITS as usize).div_ceil(64)];
            for (i, &v) in values.iter().enumerate() {
                let bit = i * BITS as usize;
                words[bit / 64] |= v << (bit % 64);
            }
            for group in 0..values.len().div_ceil(64) + 1 {
                for value in [0, 1, 4, lane] {
                    // The last word's lanes past the values hold 0; past the words, nothing.
                    let held = |p: usize| {
                        (p < words.len() * 64 / BITS as usize)
                            .then(|| values.get(p).copied().unwrap_or(0))
                    };
                    let want = (0..64)
                        .filter(|i| held(64 * group + i) == Some(value))
                        .fold(0u64, |m, i| m | 1 << i);
                    for &isa in isas {
                        let got = equal_mask::<BITS>(isa, &words, group, value);
                        assert_eq!(got, want, "{BITS} bits, {isa:?}, group {group}, {value}");
                    }
                }
            }
        }
        let isas = every_here();
        check::<1>(&isas);
        check::<2>(&isas);
        check::<4>(&isas);
        check::<8>(&isas);
        check::<16>(&isas);
    }
}
