//! Lasker's Nim (remove any number from a heap, or split it into two non-empty heaps) by its
//! closed form: g(0) = 0 and, for k ≥ 0, g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4,
//! g(4k+4) = 4k+3 (Lasker; Berlekamp, Conway and Guy, *Winning Ways*, ch. 4). The tests check
//! it against the reference engine. The formula is an arithmetic period ([`LASKER_PERIOD`]):
//! the first five values are written from it and the rest copied from them, and with
//! `until_period` the table ends there.
//!
//! Cost: one pass writing the table. Single-threaded.

use crate::error::{Error, Param, Result};
use crate::game::{Game, LASKER_PERIOD, lasker};
use crate::interrupt;
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use crate::table::work_file::WorkFile;
use crate::table::{Table, ValueKind};
use crate::text;

/// The values of Lasker's Nim below `n`, in memory or, with `work_file`, in that
/// memory-mapped file; with `until_period`, only the five that hold its arithmetic period.
pub fn compute(
    game: &Game,
    n: u64,
    until_period: bool,
    work_file: Option<&WorkFile>,
    progress: &Progress,
) -> Result<Table> {
    if !game.take_break().is_some_and(|code| code.is_lasker()) {
        return Err(super::not_for(super::EngineKind::ClosedForm, game));
    }
    let p = LASKER_PERIOD;
    let first_period_end = p.preperiod + p.period;
    let n = if until_period {
        n.min(first_period_end)
    } else {
        n
    };
    let largest = (0..n).rev().take(4).map(lasker).max().unwrap_or(0);
    let largest = u32::try_from(largest).map_err(|_| {
        Error::invalid(
            Param::Size,
            text!(
                format!("lasker has values up to {largest} below "),
                Param::Size.given(n),
                ", more than a table holds (2^32 − 1); use ",
                Param::Size,
                " <= 2^32 − 2",
            ),
        )
    })?;
    let bits = PackedValues::bits_for(largest);
    let mut values = PackedValues::zeroed(n, bits, bits, work_file)?;
    let first = n.min(first_period_end);
    for x in 0..first {
        values.set(x, lasker(x) as u32);
    }
    // Stretches of 2^24 positions, between which an interrupt is answered.
    let mut done = first;
    while done < n {
        progress.set(done);
        interrupt::check(done, n)?;
        let end = n.min(done + (1 << 24));
        values.extend_arithmetically(done..end, p);
        done = end;
    }
    progress.set(n);
    Ok(Table {
        kind: ValueKind::Grundy,
        values,
        period: Some(p),
        shape: crate::table::Shape::Line,
    })
}
