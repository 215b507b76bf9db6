//! Reports: a run's table or P-positions with what analysis finds in them (statistics, counts,
//! the proven period, the sparse space), built once from the analysis results; the formats
//! only write them. `two_heaps.rs`: the reports of a game of two heaps (Wythoff's).

pub mod two_heaps;

use crate::analysis::counting::PCounts;
use crate::analysis::sparse_space::SparseSpace;
use crate::analysis::summary::{ValueStats, ValueStream, summarize};
use crate::game::Game;
use crate::period::Period;
use crate::provenance::Provenance;
use crate::table::{Table, ValueKind};

/// What was computed and how, shared by every report.
#[derive(Debug, Clone)]
pub struct RunInfo {
    /// Canonical game spec.
    pub game: String,
    /// The heaps below n: the positions 0..n of one heap, the square 0 ≤ x, y < n of two
    /// (the pairs with a_k < n of its P-positions).
    pub n: u64,
    /// What the table values mean.
    pub kind: ValueKind,
    /// Engine name.
    pub engine: &'static str,
    /// Worker threads available to the engine.
    pub threads: usize,
    /// Wall-clock seconds of the computation.
    pub elapsed_s: f64,
    /// How the table was made (for a table read from a file, what the file records of it; None
    /// when it records nothing).
    pub made: Option<Provenance>,
}

/// A table of values with its statistics (`nimsieve grundy`).
#[derive(Debug)]
pub struct GrundyReport {
    /// How it was computed.
    pub info: RunInfo,
    /// The values; None for a run that kept no table (its summary only).
    pub table: Option<Table>,
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
    /// The period the values appear to have, for rules no criterion proves periods of (None
    /// for the others).
    pub apparent_period: Option<Period>,
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
            table: Some(table),
            p_counts,
            sparse_space: None,
            apparent_period: None,
        }
    }

    /// The report of a take-and-break game's run that kept no table, from the statistics of
    /// its values as they came ([`ValueStream`]) and the period it proved.
    pub fn of_stream(info: RunInfo, stream: ValueStream, period: Option<Period>) -> Self {
        let (stats, p_counts, last) = stream.finish();
        GrundyReport {
            sparse_space: SparseSpace::of_last(&stats.counts, &last),
            info,
            stats,
            period,
            stopped_at_period: false,
            table: None,
            p_counts,
            apparent_period: None,
        }
    }

    /// The table, or an error for a run that kept none (whose formats are refused before it
    /// runs unless they need no table).
    pub fn values(&self) -> std::io::Result<&Table> {
        self.table.as_ref().ok_or_else(|| {
            std::io::Error::other(
                "the run kept no table: only its summary (json, freq) can be written",
            )
        })
    }

    /// The report with the period its values appear to have, for rules no criterion proves
    /// periods of.
    pub fn with_apparent_period(mut self) -> Self {
        if let Some(table) = &self.table {
            let values: Vec<u32> = table.iter().collect();
            self.apparent_period = crate::period::apparent(&values);
        }
        self
    }
}

impl GrundyReport {
    /// The report with what is known of `game`'s tables besides their values: the
    /// sparse-space facts of a take-and-break game.
    pub fn of_game(mut self, game: &Game) -> Self {
        if let Some(table) = self.table.as_ref().filter(|_| game.is_take_and_break()) {
            self.sparse_space = SparseSpace::of(table, &self.stats.counts);
        }
        if game.general().is_some() && game.period_criterion().is_none() {
            self = self.with_apparent_period();
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

pub use two_heaps::{PairsReport, SquareReport};

/// What a report holds, as the formats see it: each format holds some of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The value of every position of one heap.
    Values,
    /// The P-positions of one heap.
    Positions,
    /// The value of every position of two heaps below a side.
    Square,
    /// The P-positions of two heaps, as pairs (a_k, b_k).
    Pairs,
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
    /// All values of a game of two heaps.
    Square(SquareReport),
    /// The P-positions of a game of two heaps.
    Pairs(PairsReport),
}

impl Report {
    /// How it was computed.
    pub fn info(&self) -> &RunInfo {
        match self {
            Report::Grundy(r) => &r.info,
            Report::Ppos(r) => &r.info,
            Report::Square(r) => &r.info,
            Report::Pairs(r) => &r.info,
        }
    }

    /// The number of positions the report covers (0..n), or of heaps below which it covers
    /// every position of two heaps (the side of a square, the bound of a_k).
    pub fn n(&self) -> u64 {
        self.info().n
    }

    /// What it holds.
    pub fn kind(&self) -> Kind {
        match self {
            Report::Grundy(_) => Kind::Values,
            Report::Ppos(_) => Kind::Positions,
            Report::Square(_) => Kind::Square,
            Report::Pairs(_) => Kind::Pairs,
        }
    }
}
