//! The sparse-space facts researchers publish for a take-and-break game's table: the mask with
//! the fewest rare positions, how many there are, the last one, and the largest value.

use crate::sparse_space::{best_split, is_rare};
use crate::table::Table;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The sparse space of a table (see [`crate::sparse_space`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SparseSpace {
    /// The mask with the fewest rare positions (the smallest such mask on ties; bits above the
    /// largest value's do not matter).
    pub mask: u32,
    /// Positions x (0 included) whose value v has popcount(v & mask) even.
    pub rare_positions: u64,
    /// The largest rare position.
    pub last_rare_position: u64,
    /// The largest value.
    pub max_value: u32,
}

/// Positions read by one task when looking for the last rare position.
const CHUNK: u64 = 1 << 20;
/// Positions read forward at a time, from the end of a chunk back, when looking for the last
/// rare position in it: a word holds several values, so reading forward is the fast way.
const STRETCH: u64 = 1 << 12;

impl SparseSpace {
    /// The facts of `table`, whose value histogram is `counts`; None when every value is 0.
    pub fn of(table: &Table, counts: &[u64]) -> Option<SparseSpace> {
        let split = best_split(counts)?;
        let chunks = table.len().div_ceil(CHUNK);
        // Rare positions thin out: the last is found scanning chunks from the end.
        let last = (0..chunks).into_par_iter().find_map_last(|c| {
            let start = c * CHUNK;
            let end = (start + CHUNK).min(table.len());
            table
                .values
                .read_once(start..end, |range| last_rare(table, range, split.mask))
        })?;
        Some(SparseSpace {
            mask: split.mask,
            rare_positions: split.rare,
            last_rare_position: last,
            max_value: counts.len().saturating_sub(1) as u32,
        })
    }
}

impl SparseSpace {
    /// The facts of a table that is not kept, from its value histogram `counts` and the last
    /// position of each value: the same as [`SparseSpace::of`] finds in the table.
    pub fn of_last(counts: &[u64], last: &[u64]) -> Option<SparseSpace> {
        let split = best_split(counts)?;
        let rare = (0..counts.len()).filter(|&v| counts[v] > 0 && is_rare(v as u32, split.mask));
        Some(SparseSpace {
            mask: split.mask,
            rare_positions: split.rare,
            last_rare_position: rare.map(|v| last[v]).max()?,
            max_value: counts.len().saturating_sub(1) as u32,
        })
    }
}

/// The last position of `range` whose value is rare under `mask`: stretches of [`STRETCH`]
/// positions are read from the end back, each forward, until one holds a rare position.
fn last_rare(table: &Table, range: Range<u64>, mask: u32) -> Option<u64> {
    let stretches = (range.end - range.start).div_ceil(STRETCH);
    (0..stretches).rev().find_map(|i| {
        let start = range.start + i * STRETCH;
        let (mut x, mut last) = (start, None);
        table
            .values
            .each(start, (start + STRETCH).min(range.end), |v| {
                if is_rare(v, mask) {
                    last = Some(x);
                }
                x += 1;
            });
        last
    })
}

#[cfg(test)]
mod tests {
    use super::{CHUNK, STRETCH, SparseSpace};
    use crate::analysis::summary::ValueStats;
    use crate::sparse_space::{best_split, is_rare};
    use crate::table::packed::PackedValues;
    use crate::table::{Table, ValueKind};

    /// The last rare position, wherever it lies among the stretches and chunks read, is the
    /// one a plain search back from the end finds.
    #[test]
    fn the_last_rare_position_is_the_last_one_searching_back() {
        let n = CHUNK + 3 * STRETCH + 5;
        // Values 1 and 2, and 3 (the rare one under mask 3, the best) now and then up to
        // `last`.
        for last in [
            0,
            7,
            STRETCH - 1,
            STRETCH,
            CHUNK - 1,
            CHUNK,
            CHUNK + STRETCH + 3,
            n - 1,
        ] {
            let values: Vec<u32> = (0..n)
                .map(|x| match x {
                    x if x == last || (x < last && x % 1000 == 999) => 3,
                    x => 1 + (x % 3 == 0) as u32,
                })
                .collect();
            let stats = ValueStats::of(values.iter().copied());
            let table = Table {
                kind: ValueKind::Grundy,
                values: PackedValues::from_values(&values).unwrap(),
                period: None,
                shape: crate::table::Shape::Line,
            };
            let mask = best_split(&stats.counts).unwrap().mask;
            assert_eq!(mask, 3);
            let want = (0..n).rev().find(|&x| is_rare(values[x as usize], mask));
            assert_eq!(want, Some(last));
            let found = SparseSpace::of(&table, &stats.counts).map(|s| s.last_rare_position);
            assert_eq!(found, want, "last {last}");
        }
    }
}
