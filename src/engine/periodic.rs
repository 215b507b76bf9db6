//! Games whose values a theorem gives as g(n) = (n − a) mod p past a preperiod a of zeros
//! ([`Game::proven_period`]: `pim`, `bachet:k`, `powers-of-2`, with or without `+leave1`): the
//! preperiod and first period are written from the formula, the rest is copied word by word
//! from one period back, at memory speed; the table carries the period.
//!
//! Cost: a memory copy. Single-threaded.

use crate::error::{Error, Param, Result};
use crate::game::Game;
use crate::period::Period;
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use crate::table::work_file::WorkFile;
use crate::table::{Table, ValueKind};
use crate::text;

/// The values of `game` below `n`, in memory or, with `work_file`, in that memory-mapped file.
/// With `until_period`, the table stops after the preperiod and one period (the theorem proves
/// the rest).
pub fn compute(
    game: &Game,
    n: u64,
    until_period: bool,
    work_file: Option<&WorkFile>,
    progress: &Progress,
) -> Result<Table> {
    let Some(period) = game.proven_period() else {
        return Err(super::not_for(super::EngineKind::Periodic, game));
    };
    let Period {
        preperiod,
        period: p,
        ..
    } = period;
    // Past 2^64 − 1 (bachet:k with k near 2^64), the first period outlasts every table.
    let first_period_end = preperiod.saturating_add(p);
    let n = if until_period {
        n.min(first_period_end)
    } else {
        n
    };
    let first = n.min(first_period_end);
    let value = |x: u64| x.saturating_sub(preperiod) % p;
    let largest = first.saturating_sub(preperiod).min(p).saturating_sub(1);
    let largest = u32::try_from(largest).map_err(|_| {
        Error::invalid(
            Param::Size,
            text!(
                format!("'{}' has values up to {largest} below ", game.spec),
                Param::Size.given(n),
                ", more than a table holds (2^32 − 1); use a smaller ",
                Param::Size,
            ),
        )
    })?;
    let bits = PackedValues::bits_for(largest);
    let mut values = PackedValues::zeroed(n, bits, bits, work_file)?;
    for x in 0..first {
        values.set(x, value(x) as u32);
    }
    values.extend_periodically(first, period);
    progress.set(n);
    Ok(Table {
        kind: ValueKind::Grundy,
        values,
        period: Some(period),
        shape: crate::table::Shape::Line,
    })
}
