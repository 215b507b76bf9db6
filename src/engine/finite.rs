//! Finite subtraction sets: g(x) depends only on the previous max(S) values, so values are
//! computed from a prefix held in memory while the exact period is searched for (at doubling
//! lengths, with the window proof of [`period`]); once a period is proven, the rest of the
//! table is copied word by word from one period back, at memory speed. Sets whose period is
//! not found within [`PREFIX_LIMIT`] positions continue value by value from the packed table.
//!
//! Cost: O(|S|) per position until the period is proven, then a memory copy. Single-threaded.

use super::resumable;
use crate::error::Result;
use crate::game::{Game, Play};
use crate::interrupt;
use crate::period::{self, Criterion};
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use crate::table::work_file::WorkFile;
use crate::table::{Table, ValueKind};

/// Positions kept in memory for the period search.
pub const PREFIX_LIMIT: u64 = 1 << 25;

/// The table of a finite subtraction game with `steps` (sorted, all ≥ 1) below `n`, in memory
/// or, with `work_file`, in that memory-mapped file, its period proven by `criterion` (the
/// game's). With `until_period`, the table stops at the shortest length that proves the
/// period, if one is proven below `n`.
pub fn compute(
    game: &Game,
    steps: &[u64],
    criterion: &Criterion,
    n: u64,
    until_period: bool,
    work_file: Option<&WorkFile>,
    progress: &Progress,
) -> Result<Table> {
    let kind = ValueKind::of(game.play);
    // Checks start once a few windows (the largest element of the whole set) are computed.
    let window = game.finite_set_max().unwrap_or(1);
    // The mex of |S| options is at most |S|.
    let largest = match kind {
        ValueKind::Grundy => steps.len() as u32,
        ValueKind::MisereOutcome => 1,
    };
    let mut recurrence = Recurrence::new(game, steps);
    let mut prefix: Vec<u32> = Vec::new();
    let mut next_check = window.saturating_mul(4).max(64);
    let mut found = None;
    while (prefix.len() as u64) < n.min(PREFIX_LIMIT) {
        let x = prefix.len() as u64;
        let v = recurrence.value(x, |y| prefix[y as usize]);
        prefix.push(v);
        if x.is_multiple_of(1 << 16) {
            interrupt::check(x, n)?;
        }
        if x + 1 == next_check || x + 1 == n.min(PREFIX_LIMIT) {
            progress.set(x + 1);
            found = period::find_in(&prefix, criterion, &|_| ()).proven();
            if found.is_some() {
                break;
            }
            next_check = next_check.saturating_mul(2);
        }
    }
    if let (Some(p), true) = (found, until_period) {
        let proof = criterion.proof_length(p);
        prefix.truncate(proof.expect("a proven period's proof lies in the table") as usize);
        return Ok(Table {
            kind,
            values: PackedValues::from_values(&prefix)?,
            period: found,
            shape: crate::table::Shape::Line,
        });
    }
    // A periodic table holds the values of its prefix; past the prefix, the table widens
    // when a larger value appears, up to the bound.
    let seen = prefix.iter().copied().max().unwrap_or(0);
    let mut values = PackedValues::zeroed(
        n,
        PackedValues::bits_for(seen),
        PackedValues::bits_for(largest),
        work_file,
    )?;
    for (x, &v) in prefix.iter().enumerate() {
        values.set(x as u64, v);
    }
    let computed = prefix.len() as u64;
    drop(prefix);
    match found {
        Some(p) => values.extend_periodically(computed, p),
        None => {
            for x in computed..n {
                let v = recurrence.value(x, |y| values.get(y));
                if v > values.capacity() {
                    resumable::widen(&mut values, PackedValues::bits_for(v), x)?;
                }
                values.set(x, v);
                if x % (1 << 20) == 0 {
                    progress.set(x);
                    interrupt::check(x, n)?;
                }
            }
        }
    }
    progress.set(n);
    Ok(Table {
        kind,
        values,
        period: found,
        shape: crate::table::Shape::Line,
    })
}

/// One step of the recurrence: the value of x from the values of its options.
struct Recurrence<'a> {
    steps: &'a [u64],
    min_target: u64,
    play: Play,
    seen: Vec<u64>,
}

impl<'a> Recurrence<'a> {
    fn new(game: &Game, steps: &'a [u64]) -> Self {
        Recurrence {
            steps,
            min_target: game.min_target(),
            play: game.play,
            seen: vec![u64::MAX; steps.len() + 1],
        }
    }

    /// The value (normal play) or outcome (misère) of x, reading earlier values with `value_of`.
    #[inline]
    fn value(&mut self, x: u64, value_of: impl Fn(u64) -> u32) -> u32 {
        let mut mask = 0u64;
        let mut options = 0;
        for &s in self.steps {
            if s + self.min_target > x {
                break;
            }
            options += 1;
            let v = value_of(x - s) as usize;
            if v < 64 {
                mask |= 1 << v;
            } else if v < self.seen.len() {
                self.seen[v] = x;
            }
        }
        let mut mex = (!mask).trailing_zeros();
        if mex == 64 {
            mex = (64..self.seen.len())
                .find(|&v| self.seen[v] != x)
                .unwrap_or(self.seen.len()) as u32;
        }
        match self.play {
            Play::Normal => mex,
            Play::Misere => u32::from(options == 0 || mex > 0),
        }
    }
}
