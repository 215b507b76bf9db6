//! The JSON summary of a run: statistics, not the table itself. [`Summary`] is the one type it
//! is written from and read back into (by `load`, which checks a table against the summary
//! beside it).

use super::{Emitter, Format, two_heaps};
use crate::analysis::counting::PCounts;
use crate::analysis::growth::{self, Growth};
use crate::analysis::sparse_space::SparseSpace;
use crate::period::Period;
use crate::provenance::Provenance;
use crate::report::{Report, RunInfo};
use crate::table::ValueKind;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::io::{self, Write};

/// The JSON summary emitter.
pub struct Json;

impl Emitter for Json {
    fn write(&self, report: &Report, out: &mut (dyn Write + Send)) -> io::Result<()> {
        match report {
            Report::Square(r) => two_heaps::write_square(Format::Json, r, out),
            Report::Pairs(r) => two_heaps::write_pairs(Format::Json, r, out),
            _ => {
                serde_json::to_writer_pretty(&mut *out, &Summary::of(report))?;
                writeln!(out)
            }
        }
    }
}

/// The JSON summary, field by field in the order written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The canonical game spec.
    pub game: String,
    /// Positions covered (0..n).
    pub n: u64,
    /// `normal` or `misere`.
    pub play: String,
    /// What the values are: `grundy`, or `outcome (0 = P, 1 = N)` under misère play.
    pub values: String,
    /// The fields of a table of values, or of a list of P-positions.
    #[serde(flatten)]
    pub listing: Listed,
    /// Element k: the number of P-positions below 2^k.
    pub p_count_at_powers_of_two: Vec<u64>,
    /// The modulus of `p_count_by_residue`.
    pub modulus: u64,
    /// Element r: the number of P-positions ≡ r (mod `modulus`).
    pub p_count_by_residue: Vec<u64>,
    /// How the P-position count grows over √N ≤ x ≤ N, fitted through the counts at powers
    /// of two: a density and a power law with their errors, and the one that fits (null when
    /// the count does not grow there).
    #[serde(default)]
    pub p_count_growth: Option<Growth>,
    /// The engine's name (`stats` for a summary of a table file).
    pub engine: String,
    /// Worker threads.
    pub threads: usize,
    /// Wall-clock seconds of the computation.
    pub elapsed_s: f64,
    /// How the table was made: version, commit, command, engine, threads and date (for
    /// `stats`, what the file records; null when it records nothing).
    #[serde(default)]
    pub provenance: Option<Provenance>,
}

/// The fields that differ between `grundy` and `ppos` summaries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Listed {
    /// A table of values.
    Values {
        /// The largest value.
        max_value: u32,
        /// False (and written only then) when a value reaches
        /// [`LISTED_VALUES`](crate::analysis::summary::LISTED_VALUES): `counts`,
        /// `counts_at_powers_of_two` and `first_occurrence` are then empty.
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        counts_listed: bool,
        /// `counts[v]`: positions with value v.
        counts: Vec<u64>,
        /// Element k: `counts` of the first 2^k positions, for every 2^k ≤ n (each list up to
        /// the largest value among those positions).
        #[serde(default)]
        counts_at_powers_of_two: Vec<Vec<u64>>,
        /// `first_occurrence[v]`: the smallest position with value v (null if none).
        first_occurrence: Vec<Option<u64>>,
        /// Positions with value 0.
        p_count: u64,
        /// The proven period, if any.
        period: Option<Period>,
        /// True when `--until-period` ended the table early.
        stopped_at_period: bool,
        /// Rules no criterion proves periods of (rules written down with repeating tails,
        /// infinite sets or constrained splits, rules in Python): the period the values appear
        /// to have ([`crate::period::apparent`]); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        apparent_period: Option<Period>,
        /// Take-and-break games: the mask with the fewest rare positions, their number, the
        /// last one and the largest value (absent for other games).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sparse_space: Option<SparseSpace>,
    },
    /// A list of P-positions.
    Positions {
        /// How many.
        p_count: u64,
        /// The largest (null for none).
        last: Option<u64>,
    },
}

impl Summary {
    /// The summary of `report`.
    pub fn of(report: &Report) -> Summary {
        match report {
            Report::Grundy(r) => Self::with(
                &r.info,
                Listed::Values {
                    max_value: r.stats.max_value,
                    counts_listed: r.stats.listed,
                    counts: r.stats.counts.clone(),
                    counts_at_powers_of_two: r.stats.counts_at_powers_of_two.clone(),
                    first_occurrence: r.stats.first_occurrence.clone(),
                    p_count: r.stats.p_count,
                    period: r.period,
                    stopped_at_period: r.stopped_at_period,
                    apparent_period: r.apparent_period,
                    sparse_space: r.sparse_space,
                },
                &r.p_counts,
                r.stats.p_count,
            ),
            Report::Ppos(r) => Self::with(
                &r.info,
                Listed::Positions {
                    p_count: r.positions.len() as u64,
                    last: r.positions.last().copied(),
                },
                &r.p_counts,
                r.positions.len() as u64,
            ),
            Report::Square(_) | Report::Pairs(_) => {
                unreachable!("the summary of two heaps is two_heaps::TableSummary or PairsSummary")
            }
        }
    }

    fn with(info: &RunInfo, listing: Listed, p_counts: &PCounts, p_count: u64) -> Summary {
        let (play, values) = match info.kind {
            ValueKind::Grundy => ("normal", "grundy"),
            ValueKind::MisereOutcome => ("misere", "outcome (0 = P, 1 = N)"),
        };
        Summary {
            game: info.game.clone(),
            n: info.n,
            play: play.into(),
            values: values.into(),
            listing,
            p_count_at_powers_of_two: p_counts.at_powers_of_two.clone(),
            modulus: p_counts.modulus,
            p_count_by_residue: p_counts.by_residue.clone(),
            p_count_growth: Growth::of(&growth::summary_points(
                &p_counts.at_powers_of_two,
                p_count,
                info.n,
            )),
            engine: info.engine.into(),
            threads: info.threads,
            elapsed_s: info.elapsed_s,
            provenance: info.made.clone(),
        }
    }

    /// What the values mean, from `play`.
    pub fn kind(&self) -> ValueKind {
        match self.play.as_str() {
            "misere" => ValueKind::MisereOutcome,
            _ => ValueKind::Grundy,
        }
    }
}

/// The summary's fields in order, as a JSON object (the xlsx summary sheet lays them out).
pub fn summary(report: &Report) -> Map<String, Value> {
    match serde_json::to_value(Summary::of(report)) {
        Ok(Value::Object(map)) => map,
        _ => unreachable!("a summary serialises to an object"),
    }
}

/// The default of a flag written only when false.
fn yes() -> bool {
    true
}

/// True when a flag written only when false is true.
fn is_true(flag: &bool) -> bool {
    *flag
}
