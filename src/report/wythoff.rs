//! The reports of Wythoff's game: its table of values with the rows' proven periods, and its
//! P-pairs.

use super::RunInfo;
use crate::analysis::summary::{ValueStats, summarize};
use crate::analysis::wythoff::{RowPeriod, proven_row_periods};
use crate::game::wythoff::pairs_below;
use crate::table::Table;

/// The Grundy table of Wythoff's game and what is known of it.
#[derive(Debug)]
pub struct WythoffTable {
    /// How it was computed; `n` is the side of the table.
    pub info: RunInfo,
    /// G(x, y) for 0 ≤ x, y < n at position x·n + y.
    pub table: Table,
    /// Counts of each value (over all n² cells), the largest value, the P-count.
    pub stats: ValueStats,
    /// The rows 0, 1, … whose additive periodicity the table proves.
    pub rows: Vec<RowPeriod>,
}

impl WythoffTable {
    /// The report of `table` (n² values, row-major): its statistics and proven row periods.
    pub fn new(table: Table, info: RunInfo) -> WythoffTable {
        let (stats, _) = summarize(&table, 1);
        let rows = proven_row_periods(&table, info.n);
        WythoffTable {
            info,
            table,
            stats,
            rows,
        }
    }
}

/// The P-pairs (k, a_k, b_k) with a_k < n, generated as they are written.
#[derive(Debug)]
pub struct WythoffPairs {
    /// How they were listed; `n` bounds a_k.
    pub info: RunInfo,
    /// How many: ⌈n/φ⌉.
    pub count: u64,
}

impl WythoffPairs {
    /// The pairs with a_k < `info.n`.
    pub fn new(info: RunInfo) -> WythoffPairs {
        WythoffPairs {
            count: pairs_below(info.n),
            info,
        }
    }
}
