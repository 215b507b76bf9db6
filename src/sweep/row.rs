//! One game of a sweep: its table, computed by the automatic engine choice (finite
//! subtraction sets stop at their proven period), reduced to one summary row; and the census
//! of a family, [`Classes`] of games whose values are the same up to n, found by their rows'
//! values hashes.

use crate::analysis::sparse_space::SparseSpace;
use crate::analysis::summary::ValueStats;
use crate::engine;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::period::Period;
use crate::progress::Progress;
use crate::run::{Request, Run};
use crate::table::Table;
use serde::Serialize;
use std::collections::HashMap;
use xxhash_rust::xxh3::Xxh3;

/// How many P-positions a row lists.
pub const FIRST_P_POSITIONS: usize = 10;

/// The summary of one game. Field order is the column order of both formats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The game's index in its family, from 0.
    pub index: u64,
    /// The canonical game spec.
    pub game: String,
    /// The first game of the family, in family order, whose values up to the requested n are
    /// the same as this game's (this game itself when none before it has them).
    pub equivalent_to: String,
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
    /// The 128-bit XXH3 hash of the values up to the requested n, as 32 hexadecimal digits
    /// (see [`values_hash`]): what [`Classes`] groups games by (empty for a refused game).
    pub values_hash: String,
    /// `computed`, or `refused: ` and why, for a game whose table is refused (a take-and-break
    /// code in misère play whose misère quotient is refused); its other columns are then empty
    /// or zero, and it is equivalent to itself alone.
    pub status: String,
}

/// The status of a row whose table was computed.
pub const COMPUTED: &str = "computed";

/// The proven period of `table` when the table holds its preperiod and a whole period (a
/// theorem's period can be longer than the table: `bachet:k` below k + 1).
fn period_held(table: &Table) -> Option<Period> {
    table
        .period
        .filter(|p| p.preperiod.saturating_add(p.period) <= table.len())
}

/// The game's value at `x`: from the table, or past its end by its proven `period` (which the
/// table holds), adding its saltus; None past 2^64 − 1.
fn value_at(table: &Table, period: Option<Period>, x: u64) -> Option<u64> {
    match period {
        Some(p) => p.value_at(x, table.len(), |y| table.get(y)),
        None => Some(u64::from(table.get(x))),
    }
}

/// The first [`FIRST_P_POSITIONS`] P-positions of the game, continuing the table past its end
/// by its proven period when it holds a whole one.
fn first_p_positions(table: &Table) -> Vec<u64> {
    let period = period_held(table);
    // A value past 2^64 − 1 (None) is no P-position.
    let value = |x: u64| value_at(table, period, x);
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

/// The shortest description of the game's values w(0), …, w(n − 1): the period p and the
/// prefix length e + p such that w(x + p) = w(x) for e ≤ x < n − p, with e + p smallest (then
/// p smallest), so that it depends on the values alone. A table stopped at its proven period
/// (reduced to the smallest, with the smallest preperiod) gives it at once when n ≥
/// 2·preperiod + 3·period (Fine and Wilf: no other period of the values can start sooner);
/// otherwise it is found from the Z-function of the reversed values, in O(n).
fn shortest_description(table: &Table, n: u64) -> (u64, u64) {
    let period = period_held(table);
    let w = |x: u64| value_at(table, period, x);
    // An arithmetic period's values do not repeat: they are described by the scan below.
    let pure = period.filter(|p| p.saltus == 0 && table.len() < n);
    if let Some(Period {
        preperiod, period, ..
    }) = pure
    {
        let smallest = (1..=period)
            .filter(|d| period % d == 0)
            .find(|d| (preperiod..preperiod + period - d).all(|x| w(x) == w(x + d)))
            .unwrap_or(period);
        let mut start = preperiod;
        while start > 0 && w(start - 1) == w(start - 1 + smallest) {
            start -= 1;
        }
        if n >= 2 * start + 3 * smallest {
            return (smallest, start + smallest);
        }
    }
    // z[i]: the longest common prefix of the reversed values and their suffix from i; period
    // p leaves a prefix of n − z[p] values to describe.
    let r = |i: u64| w(n - 1 - i);
    let mut z = vec![0u64; n as usize];
    let (mut left, mut right) = (0u64, 0u64);
    let mut best = (n, 1);
    for i in 1..n {
        let mut k = if i < right {
            (right - i).min(z[(i - left) as usize])
        } else {
            0
        };
        while i + k < n && r(k) == r(i + k) {
            k += 1;
        }
        z[i as usize] = k;
        if i + k > right {
            (left, right) = (i, i + k);
        }
        if n - k < best.0 {
            best = (n - k, i);
        }
    }
    (best.1, best.0)
}

/// The 128-bit XXH3 hash, as 32 hexadecimal digits, of the game's values below `n` (continued
/// past the table's end by its proven period): of their [`shortest_description`], n, the
/// period and the prefix, each value as the fewest little-endian bytes (1, 2 or 4) that hold
/// the prefix's largest. Equal values give equal hashes however the tables were stored or
/// where they stopped, at the cost of the prefix alone for a table that stopped early.
fn values_hash(table: &Table, n: u64) -> String {
    let (period, prefix) = shortest_description(table, n);
    let held = period_held(table);
    let values: Vec<u64> = (0..prefix)
        .map(|x| value_at(table, held, x).unwrap_or(u64::MAX))
        .collect();
    let width = match values.iter().max() {
        Some(0x100..=0xffff) => 2,
        Some(0x1_0000..=0xffff_ffff) => 4,
        Some(0x1_0000_0000..) => 8,
        _ => 1,
    };
    let mut hasher = Xxh3::new();
    hasher.update(&n.to_le_bytes());
    hasher.update(&period.to_le_bytes());
    let mut bytes = Vec::with_capacity(values.len() * width);
    values
        .iter()
        .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()[..width]));
    hasher.update(&bytes);
    format!("{:032x}", hasher.digest128())
}

/// The first game met of each class of games whose values hash alike: the census of a family
/// when the rows are met in family order (by [`crate::sweep::run`], and again across the parts of
/// a sharded run by `sweep-merge`).
#[derive(Debug, Default)]
pub struct Classes(HashMap<String, String>);

impl Classes {
    /// The first game met whose values hash to `hash`: `game` itself when it is the first, or
    /// when the hash is empty (a refused game, whose values are not known).
    pub fn first(&mut self, hash: &str, game: &str) -> String {
        if hash.is_empty() {
            return game.to_owned();
        }
        (self.0.entry(hash.to_owned()))
            .or_insert_with(|| game.to_owned())
            .clone()
    }
}

/// The column names, in order (the JSON keys).
pub const COLUMNS: [&str; 18] = [
    "index",
    "game",
    "equivalent_to",
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
    "values_hash",
    "status",
];

impl Row {
    /// Computes game `spec` (index `index` in its family) up to `n` positions with the engine
    /// [`engine::choose`] picks, stopping at a proven period. A take-and-break code in misère
    /// play whose misère quotient is refused gives a row that says so ([`Row::refused`]).
    pub fn compute(index: u64, spec: &str, n: u64) -> Result<Row> {
        let game = Game::parse(spec)?;
        let by_quotient = engine::misere_quotient::applies(&game);
        let request = Request {
            until_period: engine::choose(&game, n).proves_periods(),
            ..Request::grundy(game.clone(), n)
        };
        let table = Run::start(request).and_then(|run| run.table(&Progress::hidden()));
        match table {
            Ok(table) => Ok(Row::of(index, &game, &table, n)),
            Err(Error::Limit(reason)) if by_quotient => {
                Ok(Row::refused(index, &game, &reason.to_string()))
            }
            Err(e) => Err(e),
        }
    }

    /// The row of a game whose table is refused for `reason`.
    fn refused(index: u64, game: &Game, reason: &str) -> Row {
        Row {
            index,
            game: game.spec.clone(),
            equivalent_to: game.spec.clone(),
            n: 0,
            max_value: 0,
            distinct_values: 0,
            p_count: 0,
            preperiod: None,
            period: None,
            saltus: None,
            p_residues: None,
            stopped_at_period: false,
            first_p_positions: Vec::new(),
            mask: None,
            rare_positions: None,
            last_rare_position: None,
            values_hash: String::new(),
            status: format!("refused: {reason}"),
        }
    }

    /// The row of `table`, computed for `game` with `requested` positions asked for.
    fn of(index: u64, game: &Game, table: &Table, requested: u64) -> Row {
        let stats = ValueStats::of(table.iter());
        let sparse = game
            .is_take_and_break()
            .then(|| SparseSpace::of(table, &stats.counts))
            .flatten();
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
            equivalent_to: game.spec.clone(),
            n: table.len(),
            max_value: stats.max_value,
            distinct_values: if stats.listed {
                stats.counts.iter().filter(|&&c| c > 0).count() as u64
            } else {
                // Values past the listed ones are counted apart.
                table.iter().collect::<std::collections::HashSet<_>>().len() as u64
            },
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
            values_hash: values_hash(table, requested),
            status: COMPUTED.to_owned(),
        }
    }

    /// The CSV fields, in [`COLUMNS`] order: empty for none, lists separated by spaces.
    pub fn csv_fields(&self) -> [String; 18] {
        let optional = |v: Option<u64>| v.map_or_else(String::new, |v| v.to_string());
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        [
            self.index.to_string(),
            self.game.clone(),
            self.equivalent_to.clone(),
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
            self.values_hash.clone(),
            self.status.clone(),
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
        assert_eq!(row.csv_fields()[10], "0 2");
    }

    #[test]
    fn a_table_stopped_at_its_period_hashes_as_the_whole_table() {
        // Past 2^16 positions, and not a whole number of periods (7) or blocks.
        let n = 200_003;
        let stopped = Row::compute(0, "sub:1,3,4", n).unwrap();
        assert!(stopped.stopped_at_period);
        let run = Run::start(Request::grundy(Game::parse("sub:1,3,4").unwrap(), n)).unwrap();
        let whole = run.table(&Progress::hidden()).unwrap();
        assert_eq!(whole.len(), n);
        let row = Row::of(0, &run.request().game, &whole, n);
        assert_eq!(row.values_hash, stopped.values_hash);
        assert_eq!(row.values_hash.len(), 32);
        let other = Row::compute(0, "sub:1,3,4", n - 1).unwrap();
        assert_ne!(other.values_hash, stopped.values_hash);
    }
}
