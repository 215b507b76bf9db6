//! Lasker's Nim (remove any number from a heap, or split it into two non-empty heaps) by its
//! closed form: g(0) = 0 and, for k ≥ 0, g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4,
//! g(4k+4) = 4k+3 (Lasker; Berlekamp, Conway and Guy, *Winning Ways*, ch. 4). The tests check
//! it against the reference engine.
//!
//! Cost: one pass writing the table. Single-threaded.

use crate::error::{Error, Result};
use crate::game::{Game, lasker};
use crate::interrupt;
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use crate::table::work_file::WorkFile;
use crate::table::{Table, ValueKind};

/// The values of Lasker's Nim below `n`, in memory or, with `work_file`, in that
/// memory-mapped file.
pub fn compute(
    game: &Game,
    n: u64,
    work_file: Option<&WorkFile>,
    progress: &Progress,
) -> Result<Table> {
    if !game.take_break().is_some_and(|code| code.is_lasker()) {
        return Err(Error::Input(format!(
            "the closed-form engine computes lasker, not '{}'",
            game.spec
        )));
    }
    let largest = (0..n).rev().take(4).map(lasker).max().unwrap_or(0);
    let largest = u32::try_from(largest).map_err(|_| {
        Error::Input(format!(
            "lasker has values up to {largest} below n = {n}, more than a table holds (2^32 − 1); use n <= 2^32 − 2"
        ))
    })?;
    let bits = PackedValues::bits_for(largest);
    let mut values = PackedValues::zeroed(n, bits, bits, work_file)?;
    for x in 0..n {
        values.set(x, lasker(x) as u32);
        if x % (1 << 24) == 0 {
            progress.set(x);
            interrupt::check(x, n)?;
        }
    }
    progress.set(n);
    Ok(Table {
        kind: ValueKind::Grundy,
        values,
        period: None,
    })
}
