//! The JSON summaries of Wythoff's game: of the table (counts, largest value, proven row
//! periods) and of the P-pairs (how many, the last).

use super::GAME;
use crate::analysis::wythoff::RowPeriod;
use crate::game::wythoff::p_pair;
use crate::report::wythoff::{WythoffPairs, WythoffTable};
use serde::Serialize;
use std::io::{self, Write};

/// The summary of a table, field by field in the order written.
#[derive(Debug, Clone, Serialize)]
pub struct TableSummary {
    /// `wythoff`.
    pub game: &'static str,
    /// The side of the table: 0 ≤ x, y < n.
    pub n: u64,
    /// n².
    pub cells: u64,
    /// `grundy`.
    pub values: &'static str,
    /// The largest value.
    pub max_value: u32,
    /// `counts[v]`: cells with value v.
    pub counts: Vec<u64>,
    /// Cells with value 0 (P-positions).
    pub p_count: u64,
    /// Rows 0, 1, … with their proven additive periodicity, up to the first the table cannot
    /// prove.
    pub row_periods: Vec<RowPeriod>,
    /// `wythoff`.
    pub engine: &'static str,
    /// Worker threads.
    pub threads: usize,
    /// Wall-clock seconds of the computation.
    pub elapsed_s: f64,
}

/// The summary of the P-pairs, field by field in the order written.
#[derive(Debug, Clone, Serialize)]
pub struct PairsSummary {
    /// `wythoff`.
    pub game: &'static str,
    /// The bound: the pairs with a_k < n.
    pub n: u64,
    /// How many: ⌈n/φ⌉.
    pub pairs: u64,
    /// The last pair as [k, a_k, b_k] (null for none).
    pub last: Option<[u64; 3]>,
    /// `wythoff`.
    pub engine: &'static str,
    /// Worker threads (the pairs are listed on one).
    pub threads: usize,
    /// Wall-clock seconds of the listing (0 until written: the pairs are made as they are
    /// written).
    pub elapsed_s: f64,
}

impl TableSummary {
    /// The summary of `report`.
    pub fn of(report: &WythoffTable) -> TableSummary {
        let n = report.info.n;
        TableSummary {
            game: GAME,
            n,
            cells: n * n,
            values: "grundy",
            max_value: report.stats.max_value,
            counts: report.stats.counts.clone(),
            p_count: report.stats.p_count,
            row_periods: report.rows.clone(),
            engine: report.info.engine,
            threads: report.info.threads,
            elapsed_s: report.info.elapsed_s,
        }
    }
}

impl PairsSummary {
    /// The summary of the pairs read from a file (`stats`): `pairs`, the bound `n`.
    pub fn of_list(pairs: &[[u64; 2]], n: u64, elapsed_s: f64) -> PairsSummary {
        let count = pairs.len() as u64;
        PairsSummary {
            game: GAME,
            n,
            pairs: count,
            last: pairs.last().map(|&[a, b]| [count - 1, a, b]),
            engine: "stats",
            threads: 1,
            elapsed_s,
        }
    }

    /// The summary of `report`.
    pub fn of(report: &WythoffPairs) -> PairsSummary {
        let last = (report.count.checked_sub(1)).and_then(|k| p_pair(k).map(|(a, b)| [k, a, b]));
        PairsSummary {
            game: GAME,
            n: report.info.n,
            pairs: report.count,
            last,
            engine: report.info.engine,
            threads: report.info.threads,
            elapsed_s: report.info.elapsed_s,
        }
    }
}

/// Writes `value` as pretty JSON and a newline.
pub fn write_json(value: &impl Serialize, out: &mut (dyn Write + Send)) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

/// Writes the table's summary.
pub fn write_table(report: &WythoffTable, out: &mut (dyn Write + Send)) -> io::Result<()> {
    write_json(&TableSummary::of(report), out)
}

/// Writes the pairs' summary.
pub fn write_pairs(report: &WythoffPairs, out: &mut (dyn Write + Send)) -> io::Result<()> {
    write_json(&PairsSummary::of(report), out)
}
