//! `nimsieve sweep`: a whole [`Family`] of games, one summary [`Row`] per game, computed in
//! parallel over games and returned in family order, so the rows never depend on the thread
//! count. [`Shard`] selects a contiguous part; [`RowFormat`] writes rows as CSV or JSON lines;
//! a part's files are named by [`stem`] and described by the manifest [`write_manifest`] writes
//! beside them, which [`merge`] checks before it joins the parts into the unsharded files.

mod family;
mod format;
mod merge;
mod part;
mod row;
mod shard;

pub use family::Family;
pub use format::RowFormat;
pub use merge::merge;
pub use part::{stem, write_manifest};
pub use row::{COLUMNS, FIRST_P_POSITIONS, Row};
pub use shard::Shard;

use crate::engine;
use crate::error::{Error, Param, Result};
use crate::game::Game;
use crate::progress::Progress;
use crate::text;
use rayon::prelude::*;
use row::Classes;
use std::ops::Range;

/// The positions a game of a finite family is computed to when no `-n` is given: most stop
/// much earlier, at their proven period.
pub const DEFAULT_FINITE_CAP: u64 = 1 << 20;

/// The positions a take-and-break game of a family is computed to when no `-n` is given: a
/// code without a period or sparse space costs O(n²), a second or two at 2^16.
pub const DEFAULT_TAKE_BREAK_CAP: u64 = 1 << 16;

/// True when the games of `family` run on an engine that proves periods (finite subtraction
/// sets listed element by element; games whose period a theorem gives), so that their tables
/// stop at the period.
pub fn stops_at_period(family: &Family) -> Result<bool> {
    let game = Game::parse(&family.spec(0))?;
    Ok(engine::choose(&game, DEFAULT_FINITE_CAP).proves_periods())
}

/// The number of positions to compute for each game of `family`: `n` when given; for families
/// that [stop at a proven period](stops_at_period), [`DEFAULT_FINITE_CAP`]; otherwise an error
/// asking for `-n`.
pub fn positions(family: &Family, n: Option<u64>) -> Result<u64> {
    match n {
        Some(0) => Err(crate::number::no_positions()),
        Some(n) => Ok(n),
        None if Game::parse(&family.spec(0))?.take_break().is_some() => Ok(DEFAULT_TAKE_BREAK_CAP),
        None if stops_at_period(family)? => Ok(DEFAULT_FINITE_CAP),
        None => Err(Error::invalid(
            Param::Size,
            text!(
                format!("family '{}' needs ", family.text),
                Param::Size,
                format!(
                    ": its games (e.g. {}) do not stop at a proven period; give the number of positions, e.g. ",
                    family.spec(0)
                ),
                Param::Size.given("1e6"),
            ),
        )),
    }
}

/// The most games one run computes, 2^20: their rows are held until the end (about 1 KB a
/// game, so up to about 1 GiB), and at tens of thousands of games a second a run takes
/// minutes. Larger families run in parts with `--shard`.
pub const MAX_GAMES: u64 = 1 << 20;

/// The rows of the games at `range` of `family`, each computed up to `n` positions (stopping
/// at a proven period), in family order, each naming the first game of the range with the
/// same values (`equivalent_to`); `progress` counts games. More than [`MAX_GAMES`]
/// games are refused before anything is computed.
pub fn run(family: &Family, range: Range<u64>, n: u64, progress: &Progress) -> Result<Vec<Row>> {
    let count = range.end - range.start;
    if count > MAX_GAMES {
        let part = if count == family.count() {
            ""
        } else {
            "this part of "
        };
        return Err(Error::unsupported(text!(
            format!(
                "{part}family '{}' has {count} games, more than the {MAX_GAMES} (2^20) one run computes; run the family in parts with ",
                family.text
            ),
            Param::Shard.given("I/K"),
            format!(", K at least {}", family.count().div_ceil(MAX_GAMES)),
        )));
    }
    let games: Vec<(u64, String)> = range.clone().zip(family.specs(range)).collect();
    let rows: Vec<Result<Row>> = games
        .par_iter()
        .map(|(index, spec)| {
            let row = Row::compute(*index, spec, n);
            progress.inc();
            row
        })
        .collect();
    // An interrupt that found an engine saving stops the sweep once each game has answered.
    if rows.iter().any(|r| matches!(r, Err(Error::Interrupted(_)))) {
        let done = rows.iter().filter(|r| r.is_ok()).count();
        return Err(Error::Interrupted(
            format!("stopped after {done} of {count} games; the rows were in memory, so nothing is saved").into(),
        ));
    }
    let mut rows: Vec<Row> = rows.into_iter().collect::<Result<_>>()?;
    let mut classes = Classes::default();
    for row in &mut rows {
        row.equivalent_to = classes.first(&row.values_hash, &row.game);
    }
    Ok(rows)
}
