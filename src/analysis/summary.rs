//! Counts per value (of the whole table and of the heaps 1 to 2^k, as published frequency
//! tables count them), first occurrences and P-count of a table.

use super::counting::{PCounter, PCounts};
use crate::table::Table;
use rayon::prelude::*;
use serde::Serialize;

/// Statistics of a value table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueStats {
    /// The largest value (0 for an empty table).
    pub max_value: u32,
    /// `counts[v]`: how many positions have value v.
    pub counts: Vec<u64>,
    /// Element k: the counts (as `counts`, up to the largest value among them) of the heaps
    /// 1 to 2^k (position 0 is no heap), for every 2^k below the number of positions.
    pub counts_at_powers_of_two: Vec<Vec<u64>>,
    /// `first_occurrence[v]`: the smallest position with value v (None if v never occurs).
    pub first_occurrence: Vec<Option<u64>>,
    /// How many positions have value 0.
    pub p_count: u64,
    /// The value of position 0 when these positions hold it: the one counted in `counts` that
    /// no heap of `counts_at_powers_of_two` has.
    #[serde(skip)]
    zero: Option<u32>,
}

impl ValueStats {
    /// Gathers the statistics of `values` (in position order) in one pass.
    pub fn of(values: impl IntoIterator<Item = u32>) -> ValueStats {
        Self::of_chunk(0, values)
    }

    /// Statistics of `values` whose first position is `first`; `counts_at_powers_of_two` holds
    /// the counts of the chunk's own heaps up to each power of two within it.
    fn of_chunk(first: u64, values: impl IntoIterator<Item = u32>) -> ValueStats {
        let mut counts: Vec<u64> = Vec::new();
        let mut first_occurrence: Vec<Option<u64>> = Vec::new();
        let mut counts_at_powers_of_two = Vec::new();
        let mut zero = None;
        for (i, v) in values.into_iter().enumerate() {
            let v = v as usize;
            if v >= counts.len() {
                counts.resize(v + 1, 0);
                first_occurrence.resize(v + 1, None);
            }
            counts[v] += 1;
            let x = first + i as u64;
            first_occurrence[v].get_or_insert(x);
            if x == 0 {
                zero = Some(v as u32);
            } else if x.is_power_of_two() {
                counts_at_powers_of_two.push(heaps(&counts, zero));
            }
        }
        ValueStats {
            max_value: counts.len().saturating_sub(1) as u32,
            p_count: counts.first().copied().unwrap_or(0),
            counts,
            counts_at_powers_of_two,
            first_occurrence,
            zero,
        }
    }

    /// Combines the statistics of two adjacent runs of positions, `self`'s just before
    /// `other`'s: the counts up to the powers of two in `other` add `self`'s heaps.
    fn merge(self, other: ValueStats) -> ValueStats {
        let counts = add(&self.counts, &other.counts);
        let before = heaps(&self.counts, self.zero);
        let counts_at_powers_of_two = (self.counts_at_powers_of_two.into_iter())
            .chain((other.counts_at_powers_of_two.iter()).map(|counts| add(&before, counts)))
            .collect();
        let len = counts.len();
        let first_occurrence = (0..len)
            .map(|v| {
                let a = self.first_occurrence.get(v).copied().flatten();
                let b = other.first_occurrence.get(v).copied().flatten();
                a.into_iter().chain(b).min()
            })
            .collect();
        ValueStats {
            max_value: len.saturating_sub(1) as u32,
            p_count: counts.first().copied().unwrap_or(0),
            counts,
            counts_at_powers_of_two,
            first_occurrence,
            zero: self.zero.or(other.zero),
        }
    }
}

/// `counts` without position 0, whose value is `zero` when they count it, up to the largest
/// value left.
fn heaps(counts: &[u64], zero: Option<u32>) -> Vec<u64> {
    let mut heaps = counts.to_vec();
    if let Some(v) = zero {
        heaps[v as usize] -= 1;
    }
    while heaps.last() == Some(&0) {
        heaps.pop();
    }
    heaps
}

/// The sum of two count lists, as long as the longer.
fn add(a: &[u64], b: &[u64]) -> Vec<u64> {
    (0..a.len().max(b.len()))
        .map(|v| a.get(v).unwrap_or(&0) + b.get(v).unwrap_or(&0))
        .collect()
}

/// Value statistics and the P-position counting function of a table, in one parallel pass over
/// chunks (merged in position order).
pub fn summarize(table: &Table, modulus: u64) -> (ValueStats, PCounts) {
    const CHUNK: u64 = 1 << 20;
    let (stats, counter) = (0..table.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(table.len());
            // A file-backed or mapped table does not keep the chunks read.
            table.values.read_once(range, |range| {
                let mut counter = PCounter::new(modulus);
                let values = range.clone().map(|x| {
                    let v = table.get(x);
                    if v == 0 {
                        counter.add(x);
                    }
                    v
                });
                let stats = ValueStats::of_chunk(range.start, values);
                (stats, counter)
            })
        })
        .reduce(
            || (ValueStats::of([]), PCounter::new(modulus)),
            |(s1, c1), (s2, c2)| (s1.merge(s2), c1.merge(c2)),
        );
    (stats, counter.finish(table.len()))
}

#[cfg(test)]
mod tests {
    use super::ValueStats;

    #[test]
    fn counts_and_first_occurrences() {
        let s = ValueStats::of([0, 1, 0, 3, 1]);
        assert_eq!(s.max_value, 3);
        assert_eq!(s.counts, [2, 2, 0, 1]);
        assert_eq!(s.first_occurrence, [Some(0), Some(1), None, Some(3)]);
        assert_eq!(s.p_count, 2);
        // Heaps 1, 1..2 and 1..4 (the last value 1).
        assert_eq!(
            s.counts_at_powers_of_two,
            [vec![0, 1], vec![1, 1], vec![1, 2, 0, 1]]
        );
        assert_eq!(ValueStats::of([]).counts, Vec::<u64>::new());
        let merged = ValueStats::of([0, 1, 0]).merge(ValueStats::of_chunk(3, [3, 1]));
        assert_eq!(merged, s);
        let merged = ValueStats::of([0]).merge(ValueStats::of_chunk(1, [1, 0, 3, 1]));
        assert_eq!(merged, s);
    }
}
