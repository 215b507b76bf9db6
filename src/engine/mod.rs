//! Engines: algorithms that fill a [`Table`](crate::table::Table) with the values of a game.
//!
//! [`reference`] computes any game by the definition and is the oracle every other engine is
//! tested against. [`choose`] picks the engine a command uses.

pub mod divisor_sieve;
pub mod finite;
pub mod isa;
pub mod lasker;
pub mod misere_quotient;
pub mod periodic;
pub mod prime_grundy;
pub mod psieve;
pub mod rare_values;
pub mod reference;
pub mod resumable;
pub mod value_layers;
mod window;
pub mod wythoff;

use crate::choice::Choice;
use crate::error::{Error, Result};
use crate::game::{Game, Play, Rule, SubtractionSet};
use crate::progress::Progress;
use crate::table::Table;
use resumable::Storage;

/// The engines a table can be computed with; each one's name is its module's (`-` for `_`),
/// but `closed-form`'s, Lasker's Nim's formula, in [`lasker`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineKind {
    /// The mex recursion over explicit options ([`reference`]).
    Reference,
    /// Finite subtraction sets: a window of max(S) values and an exact period ([`finite`]).
    Finite,
    /// Games with a theorem g(n) = n mod p: pim, bachet:k, powers-of-2 ([`periodic`]).
    Periodic,
    /// Thin infinite subtraction sets by value layers ([`value_layers`]).
    ValueLayers,
    /// Subtract-a-prime by value classes split by residue mod 30 ([`prime_grundy`]).
    PrimeGrundy,
    /// Divisor games by segmented divisor sieving ([`divisor_sieve`]).
    DivisorSieve,
    /// The segmented forward sieve of P-positions for subtraction games ([`psieve`]).
    Psieve,
    /// Take-and-break games of a finite code by sparse space ([`rare_values`]).
    RareValues,
    /// Lasker's Nim by its closed form ([`lasker`]).
    ClosedForm,
    /// Misère outcomes of take-and-break games through the misère quotient
    /// ([`misere_quotient`]).
    MisereQuotient,
}

impl Choice for EngineKind {
    const ALL: &'static [EngineKind] = &[
        EngineKind::Reference,
        EngineKind::Finite,
        EngineKind::Periodic,
        EngineKind::ValueLayers,
        EngineKind::PrimeGrundy,
        EngineKind::DivisorSieve,
        EngineKind::Psieve,
        EngineKind::RareValues,
        EngineKind::ClosedForm,
        EngineKind::MisereQuotient,
    ];

    fn name(self) -> &'static str {
        match self {
            EngineKind::Reference => "reference",
            EngineKind::Finite => "finite",
            EngineKind::Periodic => "periodic",
            EngineKind::ValueLayers => "value-layers",
            EngineKind::PrimeGrundy => "prime-grundy",
            EngineKind::DivisorSieve => "divisor-sieve",
            EngineKind::Psieve => "psieve",
            EngineKind::RareValues => "rare-values",
            EngineKind::ClosedForm => "closed-form",
            EngineKind::MisereQuotient => "misere-quotient",
        }
    }

    fn help(self) -> &'static str {
        match self {
            EngineKind::Reference => {
                "The mex recursion over explicit options: any game (and hex codes that split into three)"
            }
            EngineKind::Finite => {
                "Finite subtraction sets: a window of max(S) values and an exact period"
            }
            EngineKind::Periodic => "pim, bachet:k, powers-of-2: g(n) = n mod p by a theorem",
            EngineKind::ValueLayers => {
                "Squares, cubes, powers:k, triangular, fibonacci: value layers"
            }
            EngineKind::PrimeGrundy => "Subtract-a-prime: value classes split by residue mod 30",
            EngineKind::DivisorSieve => "Divisor games: segmented divisor sieving",
            EngineKind::Psieve => {
                "P-positions of listed subtraction sets (ppos; grundy of their misère outcomes)"
            }
            EngineKind::RareValues => {
                "Take-and-break games of a finite code (octal:…): sparse space, Guy–Smith periods"
            }
            EngineKind::ClosedForm => "lasker: g(n) by Lasker's formula",
            EngineKind::MisereQuotient => {
                "Misère outcomes of take-and-break games (kayles+misere): the misère quotient"
            }
        }
    }
}

impl EngineKind {
    /// True for the engines that checkpoint a work file and continue it under `--resume`.
    pub fn resumes(self) -> bool {
        matches!(
            self,
            EngineKind::ValueLayers
                | EngineKind::PrimeGrundy
                | EngineKind::DivisorSieve
                | EngineKind::Psieve
                | EngineKind::RareValues
        )
    }

    /// True for the engines that prove a period and can stop there (`--until-period`).
    pub fn proves_periods(self) -> bool {
        matches!(
            self,
            EngineKind::Finite
                | EngineKind::Periodic
                | EngineKind::RareValues
                | EngineKind::ClosedForm
        )
    }

    /// The most bits a value of this engine's table takes (its work file has room for as
    /// many), for estimates of a table's size.
    pub fn widest_bits(self) -> u32 {
        match self {
            EngineKind::ValueLayers => value_layers::WIDEST,
            EngineKind::PrimeGrundy => prime_grundy::BITS,
            EngineKind::DivisorSieve => divisor_sieve::WIDEST,
            EngineKind::RareValues => rare_values::WIDEST,
            EngineKind::Psieve => 1,
            _ => 32,
        }
    }

    /// Computes the values of `game` for positions below `n`; with `until_period`, engines that
    /// prove periods stop at the shortest table that proves one. Engines that can keep their
    /// table in a memory-mapped file follow `storage` (the resumable ones resume).
    pub fn grundy(
        self,
        game: &Game,
        n: u64,
        until_period: bool,
        storage: Storage,
        progress: &Progress,
    ) -> Result<Table> {
        if misere_quotient::applies(game) && self != EngineKind::MisereQuotient {
            return Err(Error::Input(format!(
                "the {} engine does not compute misère play of take-and-break games: a split leaves a misère sum, so the outcomes of '{}' come from the misere-quotient engine; leave --engine out",
                self.name(),
                game.spec
            )));
        }
        match self {
            EngineKind::Reference => reference::compute(game, n, progress),
            EngineKind::Finite => {
                // A game of listed steps with a period criterion is a finite set.
                let finite = game.listed_steps(n).zip(game.period_criterion());
                let (steps, criterion) = finite.ok_or_else(|| {
                    Error::Input(format!(
                        "the finite engine needs a finite subtraction set, not '{}'",
                        game.spec
                    ))
                })?;
                finite::compute(
                    game,
                    &steps,
                    &criterion,
                    n,
                    until_period,
                    storage.work_file,
                    progress,
                )
            }
            EngineKind::Periodic => {
                periodic::compute(game, n, until_period, storage.work_file, progress)
            }
            EngineKind::PrimeGrundy => prime_grundy::compute(game, n, storage, progress),
            EngineKind::ValueLayers => value_layers::compute(game, n, storage, progress),
            EngineKind::DivisorSieve => match game.rule {
                Rule::Divisor(rule) => divisor_sieve::compute(game, rule, n, storage, progress),
                _ => Err(Error::Input(format!(
                    "the divisor-sieve engine needs a divisor game, not '{}'",
                    game.spec
                ))),
            },
            EngineKind::Psieve => psieve::misere_outcomes(game, n, storage, progress),
            EngineKind::RareValues => {
                rare_values::compute(game, n, until_period, storage, progress)
            }
            EngineKind::ClosedForm => {
                lasker::compute(game, n, until_period, storage.work_file, progress)
            }
            EngineKind::MisereQuotient => {
                misere_quotient::compute(game, n, storage.work_file, progress)
            }
        }
    }
}

/// The infinite sets listed element by element whose elements thin out (the `value-layers` engine's).
fn thins_out(set: &SubtractionSet) -> bool {
    matches!(
        set,
        SubtractionSet::Powers(2..)
            | SubtractionSet::Triangular
            | SubtractionSet::Fibonacci
            | SubtractionSet::PowersOfTwo
    )
}

/// The engine `grundy` uses for `game` up to `n`.
pub fn choose(game: &Game, _n: u64) -> EngineKind {
    if game.proven_period().is_some() {
        return EngineKind::Periodic;
    }
    match &game.rule {
        Rule::Subtraction(set) if set.window_rule().is_none() && set.finite_max().is_some() => {
            EngineKind::Finite
        }
        Rule::Divisor(_) => EngineKind::DivisorSieve,
        // A split leaves a misère sum, which only the quotient decides.
        Rule::TakeBreak(_) if game.play == Play::Misere => EngineKind::MisereQuotient,
        Rule::TakeBreak(code) if code.is_lasker() => EngineKind::ClosedForm,
        // The rare-values engine's sparse space assumes at most two heaps a move.
        Rule::TakeBreak(code) if code.splits_in_three() => EngineKind::Reference,
        Rule::TakeBreak(code) if code.last_removal().is_some() => EngineKind::RareValues,
        // Misère outcomes are the complement of the P-positions, which the sieve computes.
        Rule::Subtraction(_) if game.play == Play::Misere && psieve::applies(game) => {
            EngineKind::Psieve
        }
        Rule::Subtraction(SubtractionSet::Primes) if game.play == Play::Normal => {
            EngineKind::PrimeGrundy
        }
        Rule::Subtraction(set) if game.play == Play::Normal && thins_out(set) => {
            EngineKind::ValueLayers
        }
        _ => EngineKind::Reference,
    }
}

/// The engine `ppos` uses for `game` up to `n`: the Grundy route where a theorem or a dedicated
/// engine makes it O(1) a position whatever the P-positions' density (a period a theorem
/// gives, subtract-a-prime's value classes), the sieve for the other subtraction games given
/// by their elements (the sieve's cost grows with the number of P-positions times the steps,
/// quadratic where they are dense; it keeps one bit a position and resumes), the Grundy route
/// for the rest. `scripts/bench-ppos-choice.py` measures the choice over the catalogue and
/// finite sets.
pub fn choose_ppos(game: &Game, n: u64) -> EngineKind {
    match choose(game, n) {
        linear @ (EngineKind::Periodic | EngineKind::PrimeGrundy) => linear,
        _ if psieve::applies(game) => EngineKind::Psieve,
        other => other,
    }
}

/// Rejects sizes the in-memory engines cannot hold.
pub fn check_in_memory_size(n: u64) -> Result<()> {
    const LIMIT: u64 = 1 << 32;
    if n > LIMIT {
        return Err(Error::Input(format!(
            "n = {n} is too large for an in-memory table (4 bytes per position); use n <= 2^32"
        )));
    }
    Ok(())
}
