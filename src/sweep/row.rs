//! One game of a sweep: its table, computed by the automatic engine choice (finite
//! subtraction sets stop at their proven period), reduced to one summary row.

use crate::analysis::sparse_space::SparseSpace;
use crate::analysis::summary::ValueStats;
use crate::engine;
use crate::error::Result;
use crate::game::Game;
use crate::period::Period;
use crate::progress::Progress;
use crate::run::{Request, Run};
use crate::table::Table;
use serde::Serialize;

/// How many P-positions a row lists.
pub const FIRST_P_POSITIONS: usize = 10;

/// The summary of one game. Field order is the column order of both formats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The game's index in its family, from 0.
    pub index: u64,
    /// The canonical game spec.
    pub game: String,
    /// Positions computed (0..n): the proof length when the period stopped the table.
    pub n: u64,
    /// The largest value (1 under misère play, where values are outcomes).
    pub max_value: u32,
    /// How many different values occur.
    pub distinct_values: u64,
    /// P-positions below n.
    pub p_count: u64,
    /// The proven preperiod, if a period was proven.
    pub preperiod: Option<u64>,
    /// The proven smallest period.
    pub period: Option<u64>,
    /// What the period adds to the values (0 for a pure period).
    pub saltus: Option<u64>,
    /// The residues modulo the period of the P-positions from the preperiod on, ascending
    /// (None when the table holds less than one period, or the period is arithmetic: its
    /// values grow, so its P-positions do not repeat).
    pub p_residues: Option<Vec<u64>>,
    /// True when the proven period ended the table before the requested n.
    pub stopped_at_period: bool,
    /// The first P-positions (at most [`FIRST_P_POSITIONS`]).
    pub first_p_positions: Vec<u64>,
    /// Take-and-break games: the mask with the fewest rare positions.
    pub mask: Option<u32>,
    /// Take-and-break games: the positions with rare values.
    pub rare_positions: Option<u64>,
    /// Take-and-break games: the last rare position.
    pub last_rare_position: Option<u64>,
}

/// The proven period of `table` when the table holds its preperiod and a whole period (a
/// theorem's period can be longer than the table: `bachet:k` below k + 1).
fn period_held(table: &Table) -> Option<Period> {
    table
        .period
        .filter(|p| p.preperiod.saturating_add(p.period) <= table.len())
}

/// The first [`FIRST_P_POSITIONS`] P-positions of the game, continuing the table past its end
/// by its proven period when it holds a whole one.
fn first_p_positions(table: &Table) -> Vec<u64> {
    let period = period_held(table);
    // A value past 2^64 − 1 (None) is no P-position.
    let value = |x: u64| match period {
        Some(p) => p.value_at(x, table.len(), |y| table.get(y)),
        None => Some(u64::from(table.get(x))),
    };
    // Ten periods hold ten P-positions when the period holds one.
    let end = period.map_or(table.len(), |p| {
        table
            .len()
            .max(p.preperiod + FIRST_P_POSITIONS as u64 * p.period)
    });
    (0..end)
        .filter(|&x| value(x) == Some(0))
        .take(FIRST_P_POSITIONS)
        .collect()
}

/// The column names, in order (the JSON keys).
pub const COLUMNS: [&str; 15] = [
    "index",
    "game",
    "n",
    "max_value",
    "distinct_values",
    "p_count",
    "preperiod",
    "period",
    "saltus",
    "p_residues",
    "stopped_at_period",
    "first_p_positions",
    "mask",
    "rare_positions",
    "last_rare_position",
];

impl Row {
    /// Computes game `spec` (index `index` in its family) up to `n` positions with the engine
    /// [`engine::choose`] picks, stopping at a proven period.
    pub fn compute(index: u64, spec: &str, n: u64) -> Result<Row> {
        let game = Game::parse(spec)?;
        let request = Request {
            until_period: engine::choose(&game, n).proves_periods(),
            ..Request::grundy(game, n)
        };
        let run = Run::start(request)?;
        let table = run.table(&Progress::hidden())?;
        Ok(Row::of(index, &run.request().game, &table, n))
    }

    /// The row of `table`, computed for `game` with `requested` positions asked for.
    fn of(index: u64, game: &Game, table: &Table, requested: u64) -> Row {
        let stats = ValueStats::of(table.iter());
        let sparse = game
            .take_break()
            .and_then(|_| SparseSpace::of(table, &stats.counts));
        let pure = period_held(table).filter(|p| p.saltus == 0);
        let p_residues = pure.map(|p| {
            let mut residues: Vec<u64> = (p.preperiod..p.preperiod + p.period)
                .filter(|&x| table.get(x) == 0)
                .map(|x| x % p.period)
                .collect();
            residues.sort_unstable();
            residues
        });
        Row {
            index,
            game: game.spec.clone(),
            n: table.len(),
            max_value: stats.max_value,
            distinct_values: stats.counts.iter().filter(|&&c| c > 0).count() as u64,
            p_count: stats.p_count,
            preperiod: table.period.map(|p| p.preperiod),
            period: table.period.map(|p| p.period),
            saltus: table.period.map(|p| p.saltus),
            p_residues,
            stopped_at_period: table.len() < requested,
            first_p_positions: first_p_positions(table),
            mask: sparse.map(|s| s.mask),
            rare_positions: sparse.map(|s| s.rare_positions),
            last_rare_position: sparse.map(|s| s.last_rare_position),
        }
    }

    /// The CSV fields, in [`COLUMNS`] order: empty for none, lists separated by spaces.
    pub fn csv_fields(&self) -> [String; 15] {
        let optional = |v: Option<u64>| v.map_or_else(String::new, |v| v.to_string());
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        [
            self.index.to_string(),
            self.game.clone(),
            self.n.to_string(),
            self.max_value.to_string(),
            self.distinct_values.to_string(),
            self.p_count.to_string(),
            optional(self.preperiod),
            optional(self.period),
            optional(self.saltus),
            self.p_residues.as_deref().map_or_else(String::new, list),
            self.stopped_at_period.to_string(),
            list(&self.first_p_positions),
            optional(self.mask.map(u64::from)),
            optional(self.rare_positions),
            optional(self.last_rare_position),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_the_json_keys_in_order() {
        let row = Row::compute(0, "sub:1,3,4", 1000).unwrap();
        let json = serde_json::to_value(&row).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, COLUMNS);
        assert_eq!(row.period, Some(7));
        assert_eq!(row.preperiod, Some(0));
        assert_eq!(row.saltus, Some(0));
        assert_eq!(row.p_residues, Some(vec![0, 2]), "P = 0, 2 mod 7");
        assert_eq!(row.first_p_positions, [0, 2, 7, 9, 14, 16, 21, 23, 28, 30]);
        assert!(row.stopped_at_period);
        assert_eq!(row.csv_fields()[9], "0 2");
    }
}
