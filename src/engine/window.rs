//! Counts of the values in a sliding window of positions, so that the mex of a window of
//! options (Nim, all-but sets, `half`, …) costs O(log) per position instead of O(n).

use std::collections::BTreeSet;

/// The multiset of values of positions lo, lo+step, … below hi.
#[derive(Debug)]
pub struct WindowCounts {
    /// Next position to remove.
    lo: u64,
    /// Next position to add.
    hi: u64,
    /// Positions currently inside.
    size: u64,
    /// How many positions inside have each value.
    counts: Vec<u64>,
    /// The values below `counts.len()` with count 0.
    absent: BTreeSet<u32>,
}

impl WindowCounts {
    /// An empty window whose first position is `first`.
    pub fn new(first: u64) -> Self {
        WindowCounts {
            lo: first,
            hi: first,
            size: 0,
            counts: Vec::new(),
            absent: BTreeSet::new(),
        }
    }

    /// Moves the window to [lo, hi) with the given step; neither end may move backwards.
    pub fn slide(&mut self, lo: u64, hi: u64, step: u64, values: &[u32]) {
        let hi = hi.max(lo);
        while self.hi < hi {
            self.add(values[self.hi as usize]);
            self.hi += step;
        }
        while self.lo < lo {
            self.remove(values[self.lo as usize]);
            self.lo += step;
        }
    }

    /// Whether the window less `removed` plus `added` is non-empty, and its mex.
    pub fn mex_adjusted(&mut self, removed: &[u32], added: Option<u32>) -> (bool, u32) {
        removed.iter().for_each(|&v| self.remove(v));
        added.into_iter().for_each(|v| self.add(v));
        let result = (
            self.size > 0,
            self.absent
                .first()
                .copied()
                .unwrap_or(self.counts.len() as u32),
        );
        added.into_iter().for_each(|v| self.remove(v));
        removed.iter().for_each(|&v| self.add(v));
        result
    }

    fn add(&mut self, value: u32) {
        let v = value as usize;
        if v >= self.counts.len() {
            self.absent.extend(self.counts.len() as u32..value);
            self.counts.resize(v + 1, 0);
        }
        if self.counts[v] == 0 {
            self.absent.remove(&value);
        }
        self.counts[v] += 1;
        self.size += 1;
    }

    fn remove(&mut self, value: u32) {
        let v = value as usize;
        self.counts[v] -= 1;
        if self.counts[v] == 0 {
            self.absent.insert(value);
        }
        self.size -= 1;
    }
}
