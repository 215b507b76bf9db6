//! The `psieve` engine: P-positions of subtraction games by the segmented forward sieve
//! ([`sieve_ppos`]) on a bit table in memory or in a memory-mapped file, resumable; misère
//! outcome tables as the complement of the bits.
//!
//! This file runs it on a game; `sieve.rs` is the pipeline of batches of segments, `mark.rs`
//! marks a segment's targets from the P-positions already known, `scan.rs` scans a segment in
//! order.

mod mark;
mod scan;
mod sieve;

pub use sieve::{DEFAULT_SEGMENT, sieve_ppos, sieve_ppos_seg};

use super::resumable::{self, Checkpoint, Start, Storage, Width};
use crate::error::Result;
use crate::game::{Game, Play, Rule};
use crate::progress::Progress;
use crate::table::bits::BitTable;
use crate::table::packed::PackedValues;
use crate::table::{Table, ValueKind};

/// Whether the sieve computes `game`: a subtraction game given element by element.
pub fn applies(game: &Game) -> bool {
    matches!(&game.rule, Rule::Subtraction(set) if set.window_rule().is_none())
}

/// The P-positions below `n` of `game`, a subtraction game for which [`applies`] holds, on a
/// bit table kept as `storage` says (see [`resumable`]).
pub fn sieve(game: &Game, n: u64, storage: Storage, progress: &Progress) -> Result<Vec<u64>> {
    Ok(sieve_bits(game, n, storage, progress)?.ones())
}

/// The misère outcomes (0 = P, 1 = N) below `n` of `game`, a subtraction game in misère play for
/// which [`applies`] holds: the complement of its P-position bits, one bit a position.
pub fn misere_outcomes(
    game: &Game,
    n: u64,
    storage: Storage,
    progress: &Progress,
) -> Result<Table> {
    if game.play != Play::Misere {
        return Err(super::not_for(super::EngineKind::Psieve, game));
    }
    let bits = sieve_bits(game, n, storage, progress)?;
    // The bits are complemented in place: without its checkpoint, a later --resume starts over
    // instead of continuing from complemented bits.
    if let Some(work_file) = storage.work_file {
        Checkpoint::remove(work_file.path())?;
    }
    let mut values = PackedValues::from_words(n, 1, bits.into_words());
    values.words_mut().iter_mut().for_each(|w| *w = !*w);
    values.clear_past_end();
    Ok(Table {
        kind: ValueKind::MisereOutcome,
        values,
        period: None,
        shape: crate::table::Shape::Line,
    })
}

/// The P-position bits of [`sieve()`].
fn sieve_bits(game: &Game, n: u64, storage: Storage, progress: &Progress) -> Result<BitTable> {
    if !applies(game) {
        return Err(super::not_for(super::EngineKind::Psieve, game));
    }
    let (words, Start { done, .. }) = resumable::open(game, n, Width::fixed(1), storage)?;
    let mut table = BitTable::from_words(n, words);
    // Listed only once the table is known to fit: a huge n has a long step list.
    let steps = game.listed_steps(n).unwrap_or_default();
    let min_target = game.min_target();
    // Positions below `start` are fixed before the sieve: under misère play they have no move
    // and are N; under +leave1 position 0 is P but no move may reach it.
    let start = match game.play {
        Play::Normal => min_target,
        Play::Misere => steps.first().map_or(n, |s| s + min_target).min(n),
    };
    if done == 0 && game.play == Play::Normal && min_target == 1 && n > 0 {
        table.words_mut()[0] |= 1;
    }
    resumable::drive(
        game,
        n,
        1,
        storage,
        &mut table,
        done,
        |table, done, stop| {
            Ok(sieve_ppos(
                &steps,
                n,
                start,
                table.words_mut(),
                done,
                &mut |at, count| {
                    progress.set(at);
                    progress.message(format!("{count} P-positions"));
                    stop(at)
                },
            ))
        },
    )?;
    Ok(table)
}
