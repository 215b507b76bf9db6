//! The `prime-grundy` engine: subtract-a-prime by value classes split by residue mod 30
//! ([`prime_grundy()`]) on a 4-bit packed table, resumable.
//!
//! This file runs it on a game; `values.rs` computes the positions in increasing order,
//! `mex.rs` decides one position's value, `classes.rs` keeps the value classes' residue lists.
//! The odd primes come from the game's prime sieve, one bit a number.

mod classes;
mod mex;
mod values;

pub use values::{MAX_N, TooWide, prime_grundy};

use super::resumable::{self, Start, Storage, Width};
use crate::error::{Error, Param, Result};
use crate::game::{Game, Play, Rule, SubtractionSet};
use crate::progress::Progress;
use crate::table::packed::PackedValues;
use crate::table::{Table, ValueKind};
use crate::text;

/// Bits per value: every value below 10^10 is at most 11.
pub(crate) const BITS: u32 = 4;

/// The values of subtract-a-prime (normal play, with or without `+leave1`) below `n`.
pub fn compute(game: &Game, n: u64, storage: Storage, progress: &Progress) -> Result<Table> {
    if game.rule != Rule::Subtraction(SubtractionSet::Primes) || game.play != Play::Normal {
        return Err(super::not_for(super::EngineKind::PrimeGrundy, game));
    }
    if n > MAX_N {
        return Err(Error::invalid(
            Param::Size,
            text!(
                format!(
                    "the prime-grundy engine handles {} up to {MAX_N}; use a smaller ",
                    Param::Size.name()
                ),
                Param::Size,
            ),
        ));
    }
    let (words, Start { done, .. }) = resumable::open(game, n, Width::fixed(BITS), storage)?;
    let mut values = PackedValues::from_words(n, BITS, words);
    resumable::drive(
        game,
        n,
        BITS,
        storage,
        &mut values,
        done,
        |values, done, stop| {
            prime_grundy(n, game.leave1, values.words_mut(), done, &mut |at| {
                progress.set(at);
                stop(at)
            })
            .map_err(|TooWide { at, value }| {
                Error::unsupported(text!(
                    format!("position {at} has value {value}, more than the 4 bits of the prime-grundy engine hold (a new record worth reporting); use "),
                    Param::Engine.given("reference"),
                    " below it",
                ))
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
