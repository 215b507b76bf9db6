//! The `value-layers` engine: exact values of thin infinite subtraction sets (squares, cubes,
//! triangular numbers, …) value by value, segment by segment ([`layered_grundy`]), on a packed
//! table that widens as larger values appear (1 to 16 bits), resumable.
//!
//! This file runs it resumably and picks the segment length; `segments.rs` is the segment loop,
//! `layers.rs` the value layers' forward sieve of one segment, `window.rs` the rebuilding of a
//! layer's bitset below the segment from the stored values, `kernels.rs` the block kernels and
//! `isa.rs` the instruction set they run with, `direct.rs` the direct mex recursion for the
//! positions the layers leave.

mod direct;
mod isa;
mod kernels;
mod layers;
mod segments;
mod window;

pub use segments::{LayeredGrundyError, Pace, layered_grundy};

use super::resumable::{self, Storage};
use crate::error::{Error, Result};
use crate::game::{Game, Play};
use crate::interrupt;
use crate::progress::Progress;
use crate::table::{Table, ValueKind};

/// The widest table: the engine's values are u16.
pub(crate) const WIDEST: u32 = 16;
/// The positions of a segment: a quarter of the run, from 2^21 to 2^24 positions, a whole
/// number of 512-position blocks (a run of up to 2^21 positions is one segment). Every layer
/// of a segment rebuilds its bitset from the values below the segment (2 bytes a position),
/// which segments this long keep small against the sieve (measured with one thread: two
/// segments of 2^21 cost nothing at N = 2^22, four cost 15–20 %); the segment ends are where
/// a run saves a checkpoint and can resume.
pub fn segment_for(n: u64) -> u64 {
    (n / 4).clamp(1 << 21, 1 << 24).next_multiple_of(512)
}

/// The values of `game`, a subtraction game listed element by element in normal play, below
/// `n`, kept and resumed as `storage` says.
pub fn compute(game: &Game, n: u64, storage: Storage, progress: &Progress) -> Result<Table> {
    compute_in_segments(game, n, segment_for(n), storage, progress)
}

/// [`compute`] with segments of `segment` positions (results do not depend on it).
pub fn compute_in_segments(
    game: &Game,
    n: u64,
    segment: u64,
    storage: Storage,
    progress: &Progress,
) -> Result<Table> {
    if !super::psieve::applies(game) || game.play != Play::Normal {
        return Err(super::not_for(super::EngineKind::ValueLayers, game));
    }
    if storage.work_file.is_none() {
        super::check_in_memory_size(n)?;
    }
    let (mut values, done) = resumable::open_packed(game, n, WIDEST, storage)?;
    // Listed only once the table is known to fit: a huge n has a long step list.
    let steps = game.listed_steps(n).unwrap_or_default();
    resumable::drive(
        game,
        n,
        WIDEST,
        storage,
        &mut values,
        done,
        |values, done, stop| {
            layered_grundy(
                &steps,
                n,
                game.min_target(),
                values,
                done,
                Pace {
                    segment,
                    stop: &mut |at| {
                        progress.set(at);
                        stop(at)
                    },
                    abandon: &interrupt::requested,
                    resolved: &|at| progress.set(at),
                },
            )
            .map_err(|e| match e {
                LayeredGrundyError::Table(e) => e,
                e => Error::unsupported(format!(
                    "the value-layers engine cannot compute '{}': {e}",
                    game.spec
                )),
            })
        },
    )?;
    Ok(Table {
        kind: ValueKind::Grundy,
        values,
        period: None,
        shape: crate::table::Shape::Line,
    })
}
