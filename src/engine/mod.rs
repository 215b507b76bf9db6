//! Engines: algorithms that fill a [`Table`](crate::table::Table) with the values of a game.
//!
//! [`reference`] computes any game by the definition and is the oracle every other engine is
//! tested against. [`ENGINES`] lists every engine with what it computes, and [`choose`] picks
//! the first that computes a game.

pub mod divisor_sieve;
pub mod finite;
pub mod general;
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
use crate::error::{Error, Param, Result};
use crate::game::{Game, Play, Rule, SubtractionSet};
use crate::progress::Progress;
use crate::table::{Shape, Table, ValueKind};
use crate::text;
use resumable::Storage;

/// The engines a table can be computed with, in the order of [`ENGINES`]; each one's name is
/// its module's (`-` for `_`), but `closed-form`'s, Lasker's Nim's formula, in [`lasker`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineKind {
    /// Games with a theorem g(n) = n mod p: pim, bachet:k, powers-of-2 ([`periodic`]).
    Periodic,
    /// Finite subtraction sets: a window of max(S) values and an exact period ([`finite`]).
    Finite,
    /// Divisor games by segmented divisor sieving ([`divisor_sieve`]).
    DivisorSieve,
    /// Misère outcomes of take-and-break games through the misère quotient
    /// ([`misere_quotient`]).
    MisereQuotient,
    /// Lasker's Nim by its closed form ([`lasker`]).
    ClosedForm,
    /// Take-and-break games of a finite code by sparse space ([`rare_values`]).
    RareValues,
    /// The segmented forward sieve of P-positions for subtraction games ([`psieve`]).
    Psieve,
    /// Subtract-a-prime by value classes split by residue mod 30 ([`prime_grundy`]).
    PrimeGrundy,
    /// Thin infinite subtraction sets by value layers ([`value_layers`]).
    ValueLayers,
    /// Wythoff's game of two heaps: its square table by strips of rows ([`wythoff`]).
    Wythoff,
    /// Rules written down (`tb:` codes, `SET@DIGIT`, unions): value sets of the leavings of
    /// each digit, kept for every r ([`general`]).
    General,
    /// The mex recursion over explicit options ([`reference`]).
    Reference,
}

/// What the registry knows of an engine.
pub struct Engine {
    /// Which engine.
    pub kind: EngineKind,
    /// Its name, as `engine` is given.
    pub name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// The games it computes, as a refusal says them.
    pub computes: &'static str,
    /// True for the games it computes (a forced engine is refused for the others).
    pub applies: fn(&Game) -> bool,
    /// True for the games, among those it computes, the automatic choice gives it.
    pub chosen: fn(&Game) -> bool,
    /// True when it checkpoints a work file and continues it on resume.
    pub resumes: bool,
    /// True when it proves a period and can stop there (`until_period`).
    pub proves_periods: bool,
    /// The most bits a value of its table takes (its work file has room for as many).
    pub widest_bits: u32,
    /// Computes the values of a game below n, stopping at a proven period when asked, with
    /// its table kept as the storage says.
    pub compute: fn(&Game, u64, bool, Storage, &Progress) -> Result<Table>,
}

/// Every engine, in the order the automatic choice tries them ([`choose`]): the first whose
/// `applies` and `chosen` hold computes the table, the reference engine when none does.
pub const ENGINES: &[Engine] = &[
    Engine {
        kind: EngineKind::Periodic,
        name: "periodic",
        help: "pim, bachet:k, powers-of-2: g(n) = n mod p by a theorem",
        computes: "pim, bachet:k and powers-of-2 in normal play",
        applies: |game| game.proven_period().is_some(),
        chosen: |_| true,
        resumes: false,
        proves_periods: true,
        widest_bits: 32,
        compute: |game, n, until_period, storage, progress| {
            periodic::compute(game, n, until_period, storage.work_file, progress)
        },
    },
    Engine {
        kind: EngineKind::Finite,
        name: "finite",
        help: "Finite subtraction sets: a window of max(S) values and an exact period",
        computes: "finite subtraction sets",
        applies: |game| game.listed_steps(0).is_some() && game.finite_set_max().is_some(),
        chosen: |_| true,
        resumes: false,
        proves_periods: true,
        widest_bits: 32,
        compute: |game, n, until_period, storage, progress| {
            let finite = game.listed_steps(n).zip(game.period_criterion());
            let (steps, criterion) = finite.ok_or_else(|| not_for(EngineKind::Finite, game))?;
            let work_file = storage.work_file;
            finite::compute(
                game,
                &steps,
                &criterion,
                n,
                until_period,
                work_file,
                progress,
            )
        },
    },
    Engine {
        kind: EngineKind::DivisorSieve,
        name: "divisor-sieve",
        help: "Divisor games: segmented divisor sieving",
        computes: "divisor games",
        applies: |game| matches!(game.rule, Rule::Divisor(_)),
        chosen: |_| true,
        resumes: true,
        proves_periods: false,
        widest_bits: divisor_sieve::WIDEST,
        compute: |game, n, _, storage, progress| match game.rule {
            Rule::Divisor(rule) => divisor_sieve::compute(game, rule, n, storage, progress),
            _ => Err(not_for(EngineKind::DivisorSieve, game)),
        },
    },
    Engine {
        kind: EngineKind::MisereQuotient,
        name: "misere-quotient",
        help: "Misère outcomes of take-and-break games (kayles+misere): the misère quotient",
        computes: "misère outcomes of take-and-break games (e.g. kayles+misere)",
        applies: misere_quotient::applies,
        chosen: |_| true,
        resumes: false,
        proves_periods: false,
        widest_bits: 32,
        compute: |game, n, _, storage, progress| {
            misere_quotient::compute(game, n, storage.work_file, progress)
        },
    },
    Engine {
        kind: EngineKind::ClosedForm,
        name: "closed-form",
        help: "lasker: g(n) by Lasker's formula",
        computes: "lasker in normal play",
        applies: |game| {
            game.play == Play::Normal && game.take_break().is_some_and(|code| code.is_lasker())
        },
        chosen: |_| true,
        resumes: false,
        proves_periods: true,
        widest_bits: 32,
        compute: |game, n, until_period, storage, progress| {
            lasker::compute(game, n, until_period, storage.work_file, progress)
        },
    },
    Engine {
        kind: EngineKind::RareValues,
        name: "rare-values",
        help: "Take-and-break games of a finite code (octal:…, tb: codes of at most two heaps): sparse space, Guy–Smith periods",
        computes: "normal play of take-and-break games of a finite code whose moves leave at most two heaps, each split free, ! or ? (the general engine computes those that split into three or into equal heaps only)",
        applies: rare_values::applies,
        chosen: |_| true,
        resumes: true,
        proves_periods: true,
        widest_bits: rare_values::WIDEST,
        compute: rare_values::compute,
    },
    Engine {
        kind: EngineKind::Psieve,
        name: "psieve",
        help: "P-positions of listed subtraction sets (ppos; grundy of their misère outcomes)",
        computes: "the outcome tables of subtraction sets listed element by element under +misere (and the P-positions of any play, for ppos)",
        applies: |game| psieve::applies(game) && game.play == Play::Misere,
        chosen: |_| true,
        resumes: true,
        proves_periods: false,
        widest_bits: 1,
        compute: |game, n, _, storage, progress| {
            psieve::misere_outcomes(game, n, storage, progress)
        },
    },
    Engine {
        kind: EngineKind::PrimeGrundy,
        name: "prime-grundy",
        help: "Subtract-a-prime: value classes split by residue mod 30",
        computes: "primes and primes+leave1 in normal play",
        applies: |game| {
            game.rule == Rule::Subtraction(SubtractionSet::Primes) && game.play == Play::Normal
        },
        chosen: |_| true,
        resumes: true,
        proves_periods: false,
        widest_bits: prime_grundy::BITS,
        compute: |game, n, _, storage, progress| prime_grundy::compute(game, n, storage, progress),
    },
    Engine {
        kind: EngineKind::ValueLayers,
        name: "value-layers",
        help: "Squares, cubes, powers:k, triangular, fibonacci: value layers",
        computes: "subtraction sets listed element by element in normal play",
        applies: |game| psieve::applies(game) && game.play == Play::Normal,
        chosen: |game| matches!(&game.rule, Rule::Subtraction(set) if thins_out(set)),
        resumes: true,
        proves_periods: false,
        widest_bits: value_layers::WIDEST,
        compute: |game, n, _, storage, progress| value_layers::compute(game, n, storage, progress),
    },
    Engine {
        kind: EngineKind::Wythoff,
        name: "wythoff",
        help: "Wythoff's game: the square table of G(x, y) by strips of rows",
        computes: "Wythoff's game",
        applies: |game| game.rule == Rule::Wythoff,
        chosen: |_| true,
        resumes: false,
        proves_periods: false,
        widest_bits: 32,
        compute: |_, n, _, storage, progress| {
            progress.set_total(n * (n + 1) / 2);
            Ok(Table {
                kind: ValueKind::Grundy,
                shape: Shape::Square { side: n },
                values: wythoff::table(n, storage.work_file, progress)?,
                period: None,
            })
        },
    },
    Engine {
        kind: EngineKind::General,
        name: "general",
        help: "Rules written down (tb: codes, SET@DIGIT, A|B) and hex codes that split into three: value sets of each digit's splits",
        computes: "rules written down (tb: codes that are not octal codes, SET@DIGIT, unions A|B) and the normal play of hex codes that split into three heaps",
        applies: general::applies,
        chosen: |_| true,
        resumes: false,
        proves_periods: true,
        widest_bits: 32,
        compute: |game, n, _, _, progress| {
            let rules =
                general::rules_of(game).ok_or_else(|| not_for(EngineKind::General, game))?;
            general::compute(&rules, game.play, n, game.period_criterion(), progress)
        },
    },
    Engine {
        kind: EngineKind::Reference,
        name: "reference",
        help: "The mex recursion over explicit options: any game of one heap (and hex codes that split into three)",
        computes: "every game of one heap but misère play of take-and-break games, whose splits leave misère sums that the misere-quotient engine decides",
        applies: |game| game.heaps() == 1 && !misere_quotient::applies(game),
        chosen: |_| true,
        resumes: false,
        proves_periods: false,
        widest_bits: 32,
        compute: |game, n, _, _, progress| reference::compute(game, n, progress),
    },
];

impl Choice for EngineKind {
    const ALL: &'static [EngineKind] = &[
        EngineKind::Periodic,
        EngineKind::Finite,
        EngineKind::DivisorSieve,
        EngineKind::MisereQuotient,
        EngineKind::ClosedForm,
        EngineKind::RareValues,
        EngineKind::Psieve,
        EngineKind::PrimeGrundy,
        EngineKind::ValueLayers,
        EngineKind::Wythoff,
        EngineKind::General,
        EngineKind::Reference,
    ];

    fn name(self) -> &'static str {
        self.entry().name
    }

    fn help(self) -> &'static str {
        self.entry().help
    }
}

impl EngineKind {
    /// This engine's entry in [`ENGINES`].
    pub fn entry(self) -> &'static Engine {
        &ENGINES[self as usize]
    }

    /// True for the engines that checkpoint a work file and continue it on resume.
    pub fn resumes(self) -> bool {
        self.entry().resumes
    }

    /// True for the engines that prove a period and can stop there (`until_period`).
    pub fn proves_periods(self) -> bool {
        self.entry().proves_periods
    }

    /// The most bits a value of this engine's table takes (its work file has room for as
    /// many), for estimates of a table's size.
    pub fn widest_bits(self) -> u32 {
        self.entry().widest_bits
    }

    /// Computes the values of `game` for positions below `n`; with `until_period`, engines that
    /// prove periods stop at the shortest table that proves one. Engines that can keep their
    /// table in a memory-mapped file follow `storage` (the resumable ones resume). An engine
    /// that does not compute `game` is refused.
    pub fn grundy(
        self,
        game: &Game,
        n: u64,
        until_period: bool,
        storage: Storage,
        progress: &Progress,
    ) -> Result<Table> {
        let engine = self.entry();
        if !(engine.applies)(game) {
            return Err(not_for(self, game));
        }
        (engine.compute)(game, n, until_period, storage, progress)
    }
}

/// The error of an engine asked for a game it does not compute.
pub fn not_for(engine: EngineKind, game: &Game) -> Error {
    let engine = engine.entry();
    let why = match misere_quotient::applies(game) {
        true => format!(
            "the {} engine does not compute misère play of take-and-break games: a split leaves a misère sum, so the outcomes of '{}' come from the misere-quotient engine; leave ",
            engine.name, game.spec
        ),
        false => format!(
            "the {} engine computes {}, not '{}'; leave ",
            engine.name, engine.computes, game.spec
        ),
    };
    Error::invalid(
        Param::Engine,
        text!(
            why,
            Param::Engine,
            " out and the engine that computes it is chosen"
        ),
    )
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

/// The engine `grundy` uses for `game`: the first of [`ENGINES`] that computes it and is chosen
/// for it.
pub fn choose(game: &Game, _n: u64) -> EngineKind {
    ENGINES
        .iter()
        .find(|engine| (engine.applies)(game) && (engine.chosen)(game))
        .map_or(EngineKind::Reference, |engine| engine.kind)
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
        return Err(Error::invalid(
            Param::Size,
            text!(
                Param::Size.given(n),
                " is too large for an in-memory table (4 bytes per position); use ",
                Param::Size,
                " <= 2^32",
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_lists_each_engine_in_its_place() {
        assert_eq!(ENGINES.len(), EngineKind::ALL.len());
        for (i, (engine, kind)) in ENGINES.iter().zip(EngineKind::ALL).enumerate() {
            assert_eq!(engine.kind, *kind);
            assert_eq!(*kind as usize, i);
        }
    }
}
