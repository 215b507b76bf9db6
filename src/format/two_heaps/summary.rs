//! The JSON summaries of a game of two heaps: of the square table (counts, largest value,
//! proven row periods) and of the P-pairs (how many, the last).

use crate::analysis::wythoff::RowPeriod;
use crate::provenance::Provenance;
use crate::report::{PairsReport, SquareReport};
use serde::Serialize;
use std::io::{self, Write};

/// The summary of a table, field by field in the order written.
#[derive(Debug, Clone, Serialize)]
pub struct TableSummary {
    /// The game, `wythoff`.
    pub game: String,
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
    /// The engine, `wythoff` (`stats` for a summary of a file).
    pub engine: &'static str,
    /// Worker threads.
    pub threads: usize,
    /// Wall-clock seconds of the computation.
    pub elapsed_s: f64,
    /// How the table was made (for `stats`, what the file records).
    pub provenance: Option<Provenance>,
}

/// The summary of the P-pairs, field by field in the order written.
#[derive(Debug, Clone, Serialize)]
pub struct PairsSummary {
    /// The game, `wythoff`.
    pub game: String,
    /// The bound: the pairs with a_k < n.
    pub n: u64,
    /// How many: ⌈n/φ⌉.
    pub pairs: u64,
    /// The last pair as [k, a_k, b_k] (null for none).
    pub last: Option<[u64; 3]>,
    /// The engine, `wythoff` (`stats` for a summary of a file).
    pub engine: &'static str,
    /// Worker threads (the pairs are listed on one).
    pub threads: usize,
    /// Wall-clock seconds of the listing (0 until written: the pairs are made as they are
    /// written).
    pub elapsed_s: f64,
    /// How the table was made (for `stats`, what the file records).
    pub provenance: Option<Provenance>,
}

impl TableSummary {
    /// The summary of `report`.
    pub fn of(report: &SquareReport) -> TableSummary {
        let n = report.info.n;
        TableSummary {
            game: report.info.game.clone(),
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
            provenance: report.info.made.clone(),
        }
    }
}

impl PairsSummary {
    /// The summary of `report`, timed to now (the pairs are made as they are written).
    pub fn of(report: &PairsReport) -> PairsSummary {
        PairsSummary {
            game: report.info.game.clone(),
            n: report.info.n,
            pairs: report.count,
            last: report.last,
            engine: report.info.engine,
            threads: report.info.threads,
            elapsed_s: report.started.elapsed().as_secs_f64(),
            provenance: report.info.made.clone(),
        }
    }
}

/// Writes `value` as pretty JSON and a newline.
pub fn write_json(value: &impl Serialize, out: &mut (dyn Write + Send)) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}
