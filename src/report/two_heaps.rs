//! The reports of a game of two heaps (Wythoff's): its square table of values with the rows'
//! proven periods, and its P-pairs.

use super::RunInfo;
use crate::analysis::summary::{ValueStats, summarize};
use crate::analysis::wythoff::{RowPeriod, proven_row_periods};
use crate::game::wythoff::{Pairs, p_pair, pairs_below};
use crate::progress::Progress;
use crate::table::Table;
use std::time::Instant;

/// The square table of G(x, y) and what is known of it.
#[derive(Debug)]
pub struct SquareReport {
    /// How it was computed; `n` is the side of the table.
    pub info: RunInfo,
    /// G(x, y) for 0 ≤ x, y < n at position x·n + y.
    pub table: Table,
    /// Counts of each value (over all n² cells), the largest value, the P-count.
    pub stats: ValueStats,
    /// The rows 0, 1, … whose additive periodicity the table proves.
    pub rows: Vec<RowPeriod>,
}

impl SquareReport {
    /// The report of `table` (n² values, row-major): its statistics and proven row periods.
    pub fn new(table: Table, info: RunInfo) -> SquareReport {
        let (stats, _) = summarize(&table, 1);
        let rows = proven_row_periods(&table, info.n);
        SquareReport {
            info,
            table,
            stats,
            rows,
        }
    }
}

/// The P-pairs (k, a_k, b_k) with a_k < n: generated as they are written, or read from a file.
#[derive(Debug)]
pub struct PairsReport {
    /// How they were listed; `n` bounds a_k.
    pub info: RunInfo,
    /// How many.
    pub count: u64,
    /// The last pair as [k, a_k, b_k].
    pub last: Option<[u64; 3]>,
    /// When the listing began: the pairs are made as they are written, so a summary written
    /// last gives the time they all took.
    pub started: Instant,
    /// Counts the pairs of each format as they are written.
    pub progress: Progress,
}

impl PairsReport {
    /// The pairs with a_k < `info.n`, counted on `progress` as each format writes them.
    pub fn new(info: RunInfo, progress: Progress) -> PairsReport {
        let count = pairs_below(info.n);
        let last = count
            .checked_sub(1)
            .and_then(|k| p_pair(k).map(|(a, b)| [k, a, b]));
        progress.set_total(count);
        PairsReport {
            info,
            count,
            last,
            started: Instant::now(),
            progress,
        }
    }

    /// The pairs [a_k, b_k], k = 0, 1, …, `count` of them.
    pub fn pairs(&self) -> impl Iterator<Item = [u64; 2]> + use<> {
        Pairs::default()
            .take(self.count as usize)
            .map(|(_, a, b)| [a, b])
    }

    /// The pairs read from a file (`pairs`, listed from k = 0), bounded by `info.n`, their
    /// report begun at `started`.
    pub fn of_list(info: RunInfo, pairs: &[[u64; 2]], started: Instant) -> PairsReport {
        let count = pairs.len() as u64;
        PairsReport {
            info,
            count,
            last: pairs.last().map(|&[a, b]| [count - 1, a, b]),
            started,
            progress: Progress::hidden(),
        }
    }
}
