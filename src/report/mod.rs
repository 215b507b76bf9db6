//! Reports: a run's table or P-positions with what analysis finds in them (statistics, counts,
//! the proven period, the sparse space), built once from the analysis results; the formats
//! only write them. `wythoff.rs`: the reports of Wythoff's two-heap game.

pub mod wythoff;

use crate::analysis::counting::PCounts;
use crate::analysis::sparse_space::SparseSpace;
use crate::analysis::summary::{ValueStats, summarize};
use crate::game::Game;
use crate::period::Period;
use crate::table::{Table, ValueKind};

/// What was computed and how, shared by every report.
#[derive(Debug, Clone)]
pub struct RunInfo {
    /// Canonical game spec.
    pub game: String,
    /// Number of positions computed (0..n).
    pub n: u64,
    /// What the table values mean.
    pub kind: ValueKind,
    /// Engine name.
    pub engine: &'static str,
    /// Worker threads available to the engine.
    pub threads: usize,
    /// Wall-clock seconds of the computation.
    pub elapsed_s: f64,
}

/// A table of values with its statistics (`nimsieve grundy`).
#[derive(Debug)]
pub struct GrundyReport {
    /// How it was computed.
    pub info: RunInfo,
    /// The values.
    pub table: Table,
    /// Counts and first occurrences.
    pub stats: ValueStats,
    /// The proven period, for games where one can be proven.
    pub period: Option<Period>,
    /// The P-position counting function.
    pub p_counts: PCounts,
    /// True when `--until-period` ended the table early, the period being proven.
    pub stopped_at_period: bool,
    /// The sparse space of a take-and-break game's table (None for other games).
    pub sparse_space: Option<SparseSpace>,
}

/// The P-positions below n (`nimsieve ppos`).
#[derive(Debug)]
pub struct PposReport {
    /// How it was computed.
    pub info: RunInfo,
    /// The P-positions, ascending.
    pub positions: Vec<u64>,
    /// Index of the first P-position in b-files (`--offset`).
    pub offset: u64,
    /// The P-position counting function.
    pub p_counts: PCounts,
}

impl GrundyReport {
    /// The report of `table`: its value statistics and P-position counts by residue
    /// `modulus`, in one pass.
    pub fn new(table: Table, info: RunInfo, stopped_at_period: bool, modulus: u64) -> Self {
        let (stats, p_counts) = summarize(&table, modulus);
        GrundyReport {
            info,
            stats,
            period: table.period,
            stopped_at_period,
            table,
            p_counts,
            sparse_space: None,
        }
    }
}

impl GrundyReport {
    /// The report with what is known of `game`'s tables besides their values: the
    /// sparse-space facts of a take-and-break game.
    pub fn of_game(mut self, game: &Game) -> Self {
        if game.take_break().is_some() {
            self.sparse_space = SparseSpace::of(&self.table, &self.stats.counts);
        }
        self
    }
}

impl PposReport {
    /// The report of the P-positions below `info.n`.
    pub fn new(positions: Vec<u64>, info: RunInfo, offset: u64, modulus: u64) -> Self {
        PposReport {
            p_counts: PCounts::of(&positions, info.n, modulus),
            info,
            positions,
            offset,
        }
    }
}

/// A report any emitter can write.
// One report a run, made once and passed by reference: the size of its largest variant costs
// nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Report {
    /// All values.
    Grundy(GrundyReport),
    /// P-positions only.
    Ppos(PposReport),
}

impl Report {
    /// The number of positions the report covers (0..n).
    pub fn n(&self) -> u64 {
        match self {
            Report::Grundy(r) => r.info.n,
            Report::Ppos(r) => r.info.n,
        }
    }
}
