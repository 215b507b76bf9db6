//! Sparse space (Berlekamp): for a mask m, a value v is *rare* when v & m has an even number of
//! 1-bits and *common* otherwise. Rare values form a group under XOR and common values its
//! other coset, so a common value is the XOR of one rare and one common value. In many
//! take-and-break games almost every position has a common value for some mask, and the rare
//! positions are few.
//!
//! The mask with the fewest rare positions comes from the value histogram by a Walsh–Hadamard
//! transform: with counts c(v), Σ_v c(v)·(−1)^popcount(v & m) is (rare − common) positions, for
//! every m at once in O(K log K), K the power of two above the largest value.

/// A mask and how many positions of a table have rare values under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// The mask m (bits above the largest value do not matter).
    pub mask: u32,
    /// Positions whose value v has popcount(v & m) even.
    pub rare: u64,
}

/// True when `value` is rare under `mask`.
#[inline]
pub fn is_rare(value: u32, mask: u32) -> bool {
    (value & mask).count_ones().is_multiple_of(2)
}

/// The rare values below 64·`words` under `mask` as a bitset: bit v % 64 of word v / 64 is set
/// when v is rare. A word is the pattern of the mask's low six bits, complemented when the
/// word's own index bits under the mask are odd.
pub fn rare_values(mask: u32, words: usize) -> Vec<u64> {
    let low = (0..64u32)
        .filter(|&i| is_rare(i, mask))
        .fold(0u64, |w, i| w | 1 << i);
    (0..words as u32)
        .map(|w| if is_rare(w * 64, mask) { low } else { !low })
        .collect()
}

/// The non-zero mask with the fewest rare positions for the histogram `counts` (`counts[v]`:
/// positions of value v), the smallest such mask on ties; None when every value is 0 (no
/// non-zero mask separates anything).
pub fn best_split(counts: &[u64]) -> Option<Split> {
    let size = counts.len().next_power_of_two().max(2);
    if counts.iter().skip(1).all(|&c| c == 0) {
        return None;
    }
    let mut h: Vec<i64> = (0..size)
        .map(|v| counts.get(v).map_or(0, |&c| c as i64))
        .collect();
    let mut half = 1;
    while half < size {
        for block in h.chunks_exact_mut(2 * half) {
            let (lo, hi) = block.split_at_mut(half);
            for (a, b) in lo.iter_mut().zip(hi) {
                (*a, *b) = (*a + *b, *a - *b);
            }
        }
        half *= 2;
    }
    let total: i64 = counts.iter().map(|&c| c as i64).sum();
    (1..size)
        .map(|m| Split {
            mask: m as u32,
            rare: ((total + h[m]) / 2) as u64,
        })
        .min_by_key(|s| (s.rare, s.mask))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transform_counts_rare_positions_of_every_mask() {
        let counts = [3u64, 0, 7, 1, 0, 4, 2, 9];
        let best = best_split(&counts).unwrap();
        let rare_of = |m: u32| -> u64 {
            (0..counts.len())
                .filter(|&v| is_rare(v as u32, m))
                .map(|v| counts[v])
                .sum()
        };
        assert_eq!(best.rare, rare_of(best.mask));
        assert!((1..8).all(|m| rare_of(m) >= best.rare));
        assert_eq!(best_split(&[5]), None);
        assert_eq!(best_split(&[5, 0, 0]), None);
    }

    #[test]
    fn the_rare_bitset_lists_exactly_the_rare_values() {
        for mask in [1u32, 6, 61, 254, 0x1234] {
            let bits = rare_values(mask, 80);
            for v in 0..80 * 64u32 {
                let bit = bits[(v / 64) as usize] >> (v % 64) & 1 == 1;
                assert_eq!(bit, is_rare(v, mask), "mask {mask}, value {v}");
            }
        }
    }
}
