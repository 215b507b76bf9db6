//! A set of nim-values as bits, with the operations the recursions over partitions use.

/// A set of values, as bits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct ValueSet(Vec<u64>);

/// The bits of a word whose index has bit i clear, for each i below 6: swapping the halves
/// they pick out XORs every bit's index with 2^i.
const HALVES: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// `word` with bit b moved to bit b ⊕ low, for the swaps `(shift, half)` of the bits of low.
fn xor_bit_indices(mut word: u64, swaps: &[(u32, u64)]) -> u64 {
    for &(shift, half) in swaps {
        word = ((word & half) << shift) | ((word >> shift) & half);
    }
    word
}

impl ValueSet {
    /// Adds value `v`.
    pub(super) fn insert(&mut self, v: u32) {
        let word = (v >> 6) as usize;
        if self.0.len() <= word {
            self.0.resize(word + 1, 0);
        }
        self.0[word] |= 1 << (v & 63);
    }

    /// Adds every value of `other` XOR `x`, a word of 64 values at a time.
    pub(super) fn add_xor(&mut self, other: &ValueSet, x: u32) {
        if x == 0 {
            return self.add(other);
        }
        let (high, low) = ((x >> 6) as usize, x & 63);
        let Some(last) = other.0.iter().rposition(|&w| w != 0) else {
            return;
        };
        let mut swaps = [(0, 0); 6];
        let mut count = 0;
        for (i, &half) in HALVES.iter().enumerate() {
            if low >> i & 1 == 1 {
                swaps[count] = (1 << i, half);
                count += 1;
            }
        }
        let swaps = &swaps[..count];
        // Word w goes to w ⊕ high: below the next power of two above both.
        let room = match high {
            0 => last + 1,
            _ => (last.max(high) + 1).next_power_of_two(),
        };
        if self.0.len() < room {
            self.0.resize(room, 0);
        }
        for (w, &word) in other.0[..=last].iter().enumerate() {
            if word != 0 {
                self.0[w ^ high] |= xor_bit_indices(word, swaps);
            }
        }
    }

    /// Adds every value of `other`.
    pub(super) fn add(&mut self, other: &ValueSet) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    /// The smallest value not in the set.
    pub(super) fn mex(&self) -> u32 {
        let word = self.0.iter().position(|&w| w != u64::MAX);
        match word {
            Some(w) => (w * 64) as u32 + self.0[w].trailing_ones(),
            None => (self.0.len() * 64) as u32,
        }
    }

    /// True when it holds no value.
    pub(super) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Its values, ascending.
    #[cfg(test)]
    pub(super) fn values(&self) -> Vec<u32> {
        (0..self.0.len() as u32 * 64)
            .filter(|&v| self.0[(v >> 6) as usize] >> (v & 63) & 1 == 1)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Adding `other` XOR x a word at a time adds exactly the values v ⊕ x, v in `other`,
        /// whatever the lengths of the two sets.
        #[test]
        fn adding_a_set_xor_x_adds_each_value_xor_x(
            mine in proptest::collection::vec(0u32..600, 0..20),
            other in proptest::collection::vec(0u32..600, 0..40),
            x in 0u32..700,
        ) {
            let set = |values: &[u32]| {
                let mut set = ValueSet::default();
                values.iter().for_each(|&v| set.insert(v));
                set
            };
            let mut got = set(&mine);
            got.add_xor(&set(&other), x);
            let mut want: Vec<u32> = mine.iter().chain(&other.iter().map(|v| v ^ x).collect::<Vec<_>>()).copied().collect();
            want.sort_unstable();
            want.dedup();
            prop_assert_eq!(got.values(), want);
        }
    }

    #[test]
    fn the_mex_is_the_least_value_missing() {
        let mut set = ValueSet::default();
        assert_eq!(set.mex(), 0);
        (0..64).for_each(|v| set.insert(v));
        assert_eq!(set.mex(), 64);
        set.insert(65);
        assert_eq!(set.mex(), 64);
        assert!(!set.is_empty() && ValueSet::default().is_empty());
    }
}
