//! Counts per value (of the whole table and of the heaps 1 to 2^k, as published frequency
//! tables count them), first occurrences and P-count of a table. The lists indexed by value
//! are kept while every value lies below [`LISTED_VALUES`]: a game whose values grow with n
//! (Lasker's Nim, arithmetic-periodic codes) would otherwise need memory and output in
//! proportion to n for each list.

use super::counting::{PCounter, PCounts};
use crate::table::Table;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Values from which the lists indexed by value (`counts`, `counts_at_powers_of_two`,
/// `first_occurrence`) are no longer kept.
pub const LISTED_VALUES: u32 = 1 << 20;

/// Statistics of a value table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueStats {
    /// The largest value (0 for an empty table).
    pub max_value: u32,
    /// True when every value lies below [`LISTED_VALUES`] and the lists indexed by value are
    /// kept; false when they are empty for that reason.
    pub listed: bool,
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
        let mut tally = Tally::new(first);
        let mut values = values.into_iter();
        let mut batch = Vec::with_capacity(BATCH);
        loop {
            batch.clear();
            batch.extend(values.by_ref().take(BATCH));
            if batch.is_empty() {
                return tally.stats;
            }
            tally.add(&batch);
        }
    }

    /// Combines the statistics of two adjacent runs of positions, `self`'s just before
    /// `other`'s: the counts up to the powers of two in `other` add `self`'s heaps.
    fn merge(self, other: ValueStats) -> ValueStats {
        if !(self.listed && other.listed) {
            return ValueStats {
                max_value: self.max_value.max(other.max_value),
                listed: false,
                p_count: self.p_count + other.p_count,
                zero: self.zero.or(other.zero),
                ..ValueStats::of([])
            };
        }
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
            listed: true,
            p_count: counts.first().copied().unwrap_or(0),
            counts,
            counts_at_powers_of_two,
            first_occurrence,
            zero: self.zero.or(other.zero),
        }
    }
}

/// Values a pass hands over at a time: few enough to stay in the first-level cache.
const BATCH: usize = 1 << 12;

/// Statistics gathered batch by batch, in position order.
struct Tally {
    /// The position of the next value.
    next: u64,
    /// The first power of two from `next` on: the heaps up to it get a row of
    /// `counts_at_powers_of_two` once counted.
    next_power: u64,
    stats: ValueStats,
}

impl Tally {
    /// No values yet; the first to come is position `first`'s.
    fn new(first: u64) -> Tally {
        Tally {
            next: first,
            next_power: first.max(1).next_power_of_two(),
            stats: ValueStats {
                max_value: 0,
                listed: true,
                counts: Vec::new(),
                counts_at_powers_of_two: Vec::new(),
                first_occurrence: Vec::new(),
                p_count: 0,
                zero: None,
            },
        }
    }

    /// Counts the values of the next positions. A value past [`LISTED_VALUES`] drops the lists
    /// indexed by value, which stay empty from then on.
    fn add(&mut self, values: &[u32]) {
        let (first, s) = (self.next, &mut self.stats);
        self.next += values.len() as u64;
        if first == 0 {
            s.zero = s.zero.or(values.first().copied());
        }
        s.max_value = s.max_value.max(values.iter().copied().max().unwrap_or(0));
        s.p_count += values.iter().filter(|&&v| v == 0).count() as u64;
        if s.listed && s.max_value >= LISTED_VALUES {
            s.listed = false;
            s.counts = Vec::new();
            s.counts_at_powers_of_two = Vec::new();
            s.first_occurrence = Vec::new();
        }
        if !s.listed || values.is_empty() {
            return;
        }
        let len = s.max_value as usize + 1;
        if s.counts.len() < len {
            s.counts.resize(len, 0);
            s.first_occurrence.resize(len, None);
        }
        for (x, &v) in (first..).zip(values) {
            let count = &mut s.counts[v as usize];
            if *count == 0 {
                s.first_occurrence[v as usize] = Some(x);
            }
            *count += 1;
            if x == self.next_power {
                s.counts_at_powers_of_two.push(heaps(&s.counts, s.zero));
                self.next_power = self.next_power.saturating_mul(2);
            }
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

/// What a [`ValueStream`] has gathered, as a checkpoint saves it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StreamState {
    next: u64,
    next_power: u64,
    max_value: u32,
    listed: bool,
    counts: Vec<u64>,
    counts_at_powers_of_two: Vec<Vec<u64>>,
    first_occurrence: Vec<Option<u64>>,
    p_count: u64,
    zero: Option<u32>,
    modulus: u64,
    p_counts: (Vec<u64>, Vec<u64>),
    last: Vec<u64>,
}

/// Statistics of values handed on in position order by a run that keeps no table: what
/// [`summarize`] finds in a table, and the last position of each value (for
/// [`SparseSpace::of_last`](super::sparse_space::SparseSpace::of_last)).
pub struct ValueStream {
    tally: Tally,
    counter: PCounter,
    /// `last[v]`: the last position of value v so far, while the lists are kept.
    last: Vec<u64>,
}

impl ValueStream {
    /// No values yet; P-positions counted by residue `modulus`.
    pub fn new(modulus: u64) -> ValueStream {
        ValueStream {
            tally: Tally::new(0),
            counter: PCounter::new(modulus),
            last: Vec::new(),
        }
    }

    /// Counts the values of the next positions.
    pub fn add(&mut self, values: &[u32]) {
        let first = self.tally.next;
        self.counter.add_zeros(first, values);
        self.tally.add(values);
        if !self.tally.stats.listed {
            self.last = Vec::new();
            return;
        }
        self.last.resize(self.tally.stats.counts.len(), 0);
        for (x, &v) in (first..).zip(values) {
            self.last[v as usize] = x;
        }
    }

    /// The count of each value among the heaps 1 to 2^k, for every 2^k counted so far (none
    /// once the values reach [`LISTED_VALUES`]).
    pub fn counts_at_powers_of_two(&self) -> &[Vec<u64>] {
        &self.tally.stats.counts_at_powers_of_two
    }

    /// What it has gathered, to save.
    pub fn state(&self) -> StreamState {
        let s = &self.tally.stats;
        StreamState {
            next: self.tally.next,
            next_power: self.tally.next_power,
            max_value: s.max_value,
            listed: s.listed,
            counts: s.counts.clone(),
            counts_at_powers_of_two: s.counts_at_powers_of_two.clone(),
            first_occurrence: s.first_occurrence.clone(),
            p_count: s.p_count,
            zero: s.zero,
            modulus: self.counter.modulus(),
            p_counts: self.counter.parts(),
            last: self.last.clone(),
        }
    }

    /// The stream that had gathered `state`, when its P-position counts are by residue
    /// `modulus`; None for another modulus or a state that does not hold together.
    pub fn restored(state: StreamState, modulus: u64) -> Option<ValueStream> {
        let counter =
            PCounter::from_parts(modulus, state.p_counts).filter(|_| state.modulus == modulus)?;
        let whole =
            state.counts.len() == state.first_occurrence.len() && state.next_power >= state.next;
        whole.then_some(())?;
        Some(ValueStream {
            tally: Tally {
                next: state.next,
                next_power: state.next_power,
                stats: ValueStats {
                    max_value: state.max_value,
                    listed: state.listed,
                    counts: state.counts,
                    counts_at_powers_of_two: state.counts_at_powers_of_two,
                    first_occurrence: state.first_occurrence,
                    p_count: state.p_count,
                    zero: state.zero,
                },
            },
            counter,
            last: state.last,
        })
    }

    /// The statistics, the P-position counts and the last position of each value (empty when
    /// the lists are not kept) of the values handed on.
    pub fn finish(self) -> (ValueStats, PCounts, Vec<u64>) {
        let n = self.tally.next;
        (self.tally.stats, self.counter.finish(n), self.last)
    }
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
                let mut tally = Tally::new(range.start);
                let mut batch = Vec::with_capacity(BATCH);
                for start in range.clone().step_by(BATCH) {
                    batch.clear();
                    let end = (start + BATCH as u64).min(range.end);
                    table.values.each(start, end, |v| batch.push(v));
                    counter.add_zeros(start, &batch);
                    tally.add(&batch);
                }
                (tally.stats, counter)
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
    use super::{LISTED_VALUES, ValueStats};

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

    /// Past [`LISTED_VALUES`] only the largest value and the P-count are kept, in one chunk or
    /// merged from several, whichever holds the large value.
    #[test]
    fn values_past_the_listed_ones_keep_only_the_largest_and_the_p_count() {
        let big = LISTED_VALUES + 5;
        let whole = ValueStats::of([0, 1, big, 0, 2]);
        let unlisted = |s: &ValueStats| {
            s.max_value == big
                && s.p_count == 2
                && !s.listed
                && s.counts.is_empty()
                && s.first_occurrence.is_empty()
                && s.counts_at_powers_of_two.is_empty()
        };
        assert!(unlisted(&whole), "{whole:?}");
        let merged = ValueStats::of([0, 1]).merge(ValueStats::of_chunk(2, [big, 0, 2]));
        assert!(unlisted(&merged), "{merged:?}");
        let merged = ValueStats::of([0, 1, big]).merge(ValueStats::of_chunk(3, [0, 2]));
        assert!(unlisted(&merged), "{merged:?}");
        let below = ValueStats::of([0, LISTED_VALUES - 1]);
        assert!(below.listed && below.counts.len() == LISTED_VALUES as usize);
    }
}
