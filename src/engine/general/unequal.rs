//! The nim-sums of the partitions of every r into pairwise unequal parts (digits with `!` into
//! three or more heaps, or `{k+}!`), by number of parts: a 0/1 knapsack over the parts, each
//! heap taken in once its value is known. Every r below the table's length is kept, so a part
//! costs O(n) unions of sets and the whole table O(n²) of them, where listing the partitions
//! one at a time grows as their number does.

use super::value_set::ValueSet;

/// What the parts taken in so far reach, for every r below the table's length.
#[derive(Debug, Default)]
pub(super) struct UnequalParts {
    /// `layers[c][r]` for 1 ≤ c < top: the nim-sums of the partitions of r into exactly c
    /// pairwise unequal parts; `layers[top][r]`: into `top` or more. Empty when no digit needs
    /// them.
    layers: Vec<Vec<ValueSet>>,
}

impl UnequalParts {
    /// Sets for every r below `n`, exact up to `top` − 1 parts and one for `top` or more
    /// (`top` at least 2; none at all for 0).
    pub(super) fn new(top: usize, n: u64) -> UnequalParts {
        let sets = |_| vec![ValueSet::default(); n as usize];
        UnequalParts {
            layers: match top {
                0 => Vec::new(),
                _ => (0..=top).map(sets).collect(),
            },
        }
    }

    /// Takes in heap p (larger than every part before it) of value `value`.
    pub(super) fn add_part(&mut self, p: u64, value: u32) {
        let Some(top) = self.layers.len().checked_sub(1) else {
            return;
        };
        let n = self.layers[1].len();
        let p = p as usize;
        // Down from the largest r, so that each reads the sets without part p.
        for r in (p + 1..n).rev() {
            let (below, top_layer) = self.layers.split_at_mut(top);
            let (before, at) = top_layer[0].split_at_mut(r);
            at[0].add_xor(&before[r - p], value);
            at[0].add_xor(&below[top - 1][r - p], value);
            for c in (2..top).rev() {
                let (fewer, these) = below.split_at_mut(c);
                these[0][r].add_xor(&fewer[c - 1][r - p], value);
            }
        }
        if p < n {
            self.layers[1][p].insert(value);
        }
    }

    /// Adds the nim-sums of the partitions of r into exactly k unequal parts (k below the top)
    /// to `set`, or into k or more when `more`.
    pub(super) fn reach(&self, r: u64, k: u64, more: bool, set: &mut ValueSet) {
        let (r, k) = (r as usize, k as usize);
        let top = self.layers.len() - 1;
        debug_assert!(k < top || (more && k <= top), "{k} parts, top {top}");
        let last = if more { top } else { k };
        for layer in &self.layers[k..=last] {
            set.add(&layer[r]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every partition of r into pairwise unequal parts, listed.
    fn partitions(r: u64, least: u64) -> Vec<Vec<u64>> {
        let mut all = vec![];
        for a in least..=r {
            if a == r {
                all.push(vec![a]);
            }
            for mut rest in partitions(r - a, a + 1).into_iter().filter(|_| a < r) {
                rest.insert(0, a);
                all.push(rest);
            }
        }
        all
    }

    /// The knapsack's sets are those of the partitions listed one by one, for each number of
    /// parts, with values that repeat and values that do not.
    #[test]
    fn the_sets_are_those_of_the_partitions_listed() {
        let n = 40;
        let g: Vec<u32> = (0..n).map(|x| ((x * 7) % 11 + x / 9) as u32).collect();
        let top = 4;
        let mut parts = UnequalParts::new(top, n);
        for p in 1..n {
            parts.add_part(p, g[p as usize]);
        }
        for r in 1..n {
            let listed = partitions(r, 1);
            for (k, more) in [
                (1, false),
                (2, false),
                (3, false),
                (2, true),
                (3, true),
                (4, true),
            ] {
                let mut want = ValueSet::default();
                listed
                    .iter()
                    .filter(|parts| parts.len() == k || (more && parts.len() > k))
                    .for_each(|parts| want.insert(parts.iter().fold(0, |x, &a| x ^ g[a as usize])));
                let mut got = ValueSet::default();
                parts.reach(r, k as u64, more, &mut got);
                assert_eq!(
                    got.values(),
                    want.values(),
                    "r = {r}, {k} parts, more: {more}"
                );
            }
        }
    }
}
