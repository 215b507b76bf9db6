//! Checking a table against the definition of its game, independently of the engines.
//!
//! A Grundy table is right when, for every n, (a) no option of n has value g(n) and (b) every
//! value below g(n) is the value of some option. A P-position list or a misère outcome table is
//! checked the same way on 0 = P / 1 = N: (a) a P-position has no P option, (b) an N-position
//! has one; under misère play a position without options is N. A P-position list of a
//! take-and-break game is the exception: whether a split into two heaps is P depends on their
//! values, not only on their being P, so the values are computed and the list compared with
//! their zeros. Options come only from the game's
//! rule ([`Moves`]); each family has its own method: [`steps`] (block scatter of option values,
//! one bit per value), [`odd_steps`] (subtract-a-prime and Pim by parity classes), [`window`]
//! (range rules by sliding value counts), [`listed`] (divisor games, options one by one) and
//! [`splits`] (take-and-break games, every split); [`wythoff`] checks the square tables and
//! P-pairs of Wythoff's two-heap game. [`check_table`] takes a table of either shape.
//! Each reads the packed table (in place when it was mapped from a `.bin` file) a block at a
//! time, so memory stays bounded whatever the number of positions.

mod compare;
mod convert;
mod listed;
mod odd_steps;
mod periodic;
mod splits;
mod steps;
mod window;
mod wythoff;

pub use compare::{Comparison, compare};
pub use convert::{Source, convert};
pub use wythoff::{check_grid, check_pairs};

use crate::error::{Error, Param, Result};
use crate::format::{Contents, Loaded};
use crate::game::{DivisorRule, Game, Moves, Play, Rule, SubtractionSet};
use crate::period::Period;
use crate::progress::Progress;
use crate::table::ValueKind;
use crate::table::packed::{PackedValues, pieces};
use crate::table::passes::Behind;
use crate::text;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// What is checked at each position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// (a) applies to every value (Grundy tables), not only to P (0/1 tables).
    pub every_value: bool,
    /// Misère play: a position without options is N and needs no P option.
    pub misere: bool,
}

/// The first thing found wrong in a table.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fault {
    /// (a) failed: `option` of `n` has the same value as n (for 0/1 tables: both are P).
    Conflict {
        /// The position.
        n: u64,
        /// The option with the same value.
        option: u64,
    },
    /// (a) failed for a take-and-break game: splitting `n` into `heaps` gives value g(n).
    SplitConflict {
        /// The position.
        n: u64,
        /// The two heaps of the split (three for a hexadecimal code).
        heaps: Vec<u64>,
    },
    /// (b) failed: no option of `n` has `value`, which is below the value of n.
    Missing {
        /// The position.
        n: u64,
        /// The smallest value below g(n) that no option has.
        value: u32,
    },
    /// A P-position list of a take-and-break game disagrees at `n` with the value computed
    /// from the definition.
    Value {
        /// The position.
        n: u64,
        /// Its value.
        value: u32,
    },
    /// Misère play: `n` has no option, so it is N, but the table says P.
    Terminal {
        /// The position.
        n: u64,
    },
    /// Past the positions that prove `period` (checked by the definition), `n` differs from
    /// the position one period before it, whose value `value` it has.
    Periodic {
        /// The position.
        n: u64,
        /// Its value, by the period.
        value: u32,
        /// The proven period.
        period: u64,
        /// Its preperiod.
        preperiod: u64,
        /// The positions that prove it.
        proof: u64,
    },
}

impl Fault {
    /// The position the fault is at (for choosing the smallest).
    pub fn position(&self) -> u64 {
        match *self {
            Fault::Conflict { n, .. }
            | Fault::SplitConflict { n, .. }
            | Fault::Missing { n, .. }
            | Fault::Value { n, .. }
            | Fault::Periodic { n, .. }
            | Fault::Terminal { n } => n,
        }
    }
}

/// A table ready to be checked: one value per position (0 = P, 1 = N for P-position lists
/// and misère outcomes), packed, and read in place when it was mapped from a `.bin` file.
#[derive(Debug)]
pub struct Subject {
    /// The values.
    pub values: PackedValues,
    /// Where the values came from.
    pub form: Form,
    /// The largest value.
    max: u32,
    /// The proven period the JSON summary beside the table states: a hint, used only once the
    /// positions that prove it are checked and prove it again.
    pub period: Option<Period>,
}

impl Subject {
    /// The number of positions.
    pub fn len(&self) -> u64 {
        self.values.len()
    }

    /// True for a table of no positions.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// What a [`Subject`]'s numbers are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Grundy values.
    Grundy,
    /// Misère outcomes, 0 = P, 1 = N.
    Outcomes,
    /// A P-position list, turned into 0 = listed, 1 = not listed.
    PList,
}

/// The verdict of a check.
#[derive(Debug)]
pub struct Verdict {
    /// Positions checked.
    pub positions: u64,
    /// The fault at the smallest position, if any.
    pub fault: Option<Fault>,
    /// What the method cost, for step sets: option reads, or the pair tests and class-member
    /// tests of subtract-a-prime and Pim.
    pub cost: Option<String>,
}

/// A table checked against its game: how many entries of what, the first wrong one described,
/// and what the method cost, when it says.
#[derive(Debug)]
pub struct Checked {
    /// Entries checked.
    pub count: u64,
    /// What they are: values, outcomes, positions, cells or pairs.
    pub what: &'static str,
    /// The first wrong entry, described; None when the table is right.
    pub fault: Option<String>,
    /// What the method cost, when it says.
    pub cost: Option<String>,
}

/// Checks the table `loaded` of `game` on the rayon pool, counting on `progress`: a one-heap
/// table position by position ([`verify`]), a square of two heaps cell by cell
/// ([`check_grid`]), P-pairs against their closed form ([`check_pairs`]).
pub fn check_table(loaded: Loaded, game: &Game, progress: &Progress) -> Result<Checked> {
    match (&loaded.contents, game.heaps()) {
        (Contents::Grid(grid), 2) => {
            progress.set_total(grid.n * grid.n);
            Ok(Checked {
                count: grid.n * grid.n,
                what: "cells",
                fault: check_grid(grid, progress)?,
                cost: None,
            })
        }
        (Contents::Pairs(pairs), 2) => Ok(Checked {
            count: pairs.len() as u64,
            what: "pairs",
            fault: check_pairs(pairs, loaded.n.unwrap_or(0)),
            cost: None,
        }),
        (_, 2) => Err(Error::invalid(
            Param::Game,
            text!(
                format!(
                    "the file holds a table of one heap, not one of {}; give the game of the table with ",
                    game.spec
                ),
                Param::Game,
            ),
        )),
        _ => {
            let subject = subject(loaded, game)?;
            progress.set_total(subject.len());
            let verdict = verify(&subject, game, progress)?;
            Ok(Checked {
                count: verdict.positions,
                what: match subject.form {
                    Form::Grundy => "values",
                    Form::Outcomes => "outcomes",
                    Form::PList => "positions",
                },
                fault: verdict.fault.map(|fault| describe(&fault, &subject, game)),
                cost: verdict.cost,
            })
        }
    }
}

/// Turns a loaded table into a [`Subject`] for `game`: a P-position list becomes a 0/1 table of
/// n positions, one bit a position (n from the bin header or JSON summary, required). A listed
/// position at or beyond n, or a misère outcome other than 0 or 1, is a wrong table
/// ([`Error::WrongTable`]).
pub fn subject(loaded: Loaded, game: &Game) -> Result<Subject> {
    let misere = game.play == Play::Misere;
    if crate::engine::misere_quotient::applies(game) {
        return Err(Error::unsupported(format!(
            "verify checks each position from its options' values, but a split of {} leaves a misère sum, whose outcome no table holds; verify checks the Grundy values of take-and-break games (leave +misere out)",
            game.spec
        )));
    }
    if loaded.kind == ValueKind::MisereOutcome && !misere {
        return Err(Error::invalid(
            Param::Game,
            format!(
                "the file holds misère outcomes, but the game {} is played normally",
                game.spec
            ),
        ));
    }
    match loaded.contents {
        Contents::Values(values) => {
            let max = values.max();
            if misere && max > 1 {
                let x = (0..values.len())
                    .find(|&x| values.get(x) > 1)
                    .expect("a value above 1 exists");
                return Err(Error::WrongTable(format!(
                    "outcome({x}) = {} in the file, but outcomes are 0 (P) or 1 (N)",
                    values.get(x)
                )));
            }
            let form = if misere { Form::Outcomes } else { Form::Grundy };
            Ok(Subject {
                values,
                form,
                max,
                period: loaded.period,
            })
        }
        Contents::Positions(positions) => {
            let n = loaded.n.ok_or_else(|| {
                Error::unsupported(
                    "a P-position list needs its n (the number of positions it covers) from a .bin header or the JSON summary beside it",
                )
            })?;
            if let Some(&p) = positions.get(positions.partition_point(|&p| p < n)) {
                return Err(Error::WrongTable(format!(
                    "{p} is listed as a P-position, but the list covers only n = {n} positions"
                )));
            }
            let mut values = PackedValues::in_memory(n, 1)?;
            values.words_mut().fill(u64::MAX);
            values.clear_past_end();
            for &p in &positions {
                values.set(p, 0);
            }
            Ok(Subject {
                values,
                form: Form::PList,
                max: u32::from(positions.len() as u64 != n),
                period: None,
            })
        }
        Contents::Grid(_) | Contents::Pairs(_) => Err(Error::invalid(
            Param::Game,
            text!(
                format!(
                    "the file holds a table of Wythoff's two-heap game, not of {}; check it with ",
                    game.spec
                ),
                Param::Game.given("wythoff"),
                " (or without ",
                Param::Game,
                ")",
            ),
        )),
    }
}

/// Checks every entry of `subject` against `game`'s definition, on the rayon pool. An input
/// error when the memory a method needs (a step bitmap, value counts) cannot be allocated.
pub fn verify(subject: &Subject, game: &Game, progress: &Progress) -> Result<Verdict> {
    let n = subject.len();
    let rules = Rules {
        every_value: subject.form == Form::Grundy,
        misere: game.play == Play::Misere,
    };
    let first = FirstFault::new();
    let (values, max) = (&subject.values, subject.max);
    let min_target = game.min_target();
    let mut cost = None;
    match &game.rule {
        Rule::TakeBreak(code) if subject.form == Form::PList => {
            cost = Some(splits::check_positions(values, code, &first, progress)?)
        }
        Rule::TakeBreak(code) => {
            cost = Some(match periodic::proof(game, subject.period, n) {
                Some((period, proof)) => {
                    periodic::check(values, code, game, period, proof, &first, progress)?
                }
                None => splits::check(values, code, &first, progress)?,
            })
        }
        Rule::General(general) => {
            let every_value = subject.form == Form::Grundy;
            let found = crate::engine::general::first_difference(
                general,
                game.play,
                values,
                every_value,
                progress,
            )?;
            if let Some((n, value)) = found {
                first.record(Fault::Value { n, value });
            }
            cost = Some(format!(
                "{} values computed from the definition",
                found.map_or(n, |(at, _)| at + 1)
            ));
        }
        Rule::Divisor(rule) => {
            let options = listed::Options::Divisors(*rule, min_target);
            listed::check(values, &options, rules, &first, progress);
        }
        Rule::Subtraction(set @ (SubtractionSet::Primes | SubtractionSet::Pim)) if max < 64 => {
            let steps = odd_steps::OddSteps::new(set, n)?;
            cost = Some(odd_steps::check(
                values, max, &steps, min_target, rules, &first, progress,
            )?);
        }
        _ => match game.moves(n) {
            Moves::Steps { steps, min_target } if max < 1 << 16 => {
                cost = Some(steps::check(
                    values, max, &steps, min_target, rules, &first, progress,
                ));
            }
            Moves::Window { rule, min_target } => {
                window::check(values, max, &rule, min_target, rules, &first, progress)?
            }
            // Only huge finite sets (or wrong tables) have values of 2^16 or more.
            moves => listed::check(
                values,
                &listed::Options::Moves(&moves),
                rules,
                &first,
                progress,
            ),
        },
    }
    progress.set(n);
    Ok(Verdict {
        positions: n,
        fault: first.take(),
        cost,
    })
}

/// The fault at the smallest position found so far, shared by the workers: work on positions
/// beyond it can be skipped, and the result does not depend on the order of the work.
#[derive(Debug)]
pub(crate) struct FirstFault {
    at: AtomicU64,
    fault: std::sync::Mutex<Option<Fault>>,
}

impl FirstFault {
    fn new() -> Self {
        FirstFault {
            at: AtomicU64::new(u64::MAX),
            fault: std::sync::Mutex::new(None),
        }
    }

    /// True once a fault is recorded.
    pub(crate) fn found(&self) -> bool {
        self.at.load(Ordering::Relaxed) != u64::MAX
    }

    /// True when position `n` can no longer change the verdict.
    pub(crate) fn beyond(&self, n: u64) -> bool {
        n > self.at.load(Ordering::Relaxed)
    }

    /// Records `fault` if it is at a smaller position (or the same position, ordered first).
    pub(crate) fn record(&self, fault: Fault) {
        let mut slot = self.fault.lock().expect("no worker panics");
        let smaller = slot
            .as_ref()
            .is_none_or(|f| (fault.position(), &fault) < (f.position(), f));
        if smaller {
            self.at.store(fault.position(), Ordering::Relaxed);
            *slot = Some(fault);
        }
    }

    fn take(self) -> Option<Fault> {
        self.fault.into_inner().expect("no worker panics")
    }
}

/// Calls `each(state, b)` on every block b of `block` positions of `g` (a power of two, at
/// most [`PASS`](crate::table::packed::PASS)), in parallel a piece of `PASS` positions at a
/// time, each worker with its `init()` state; after each piece the positions more than `reach` below the next one, which
/// no later block reads, are released (a file-backed or mapped table's), so a check whose
/// options lie at most `reach` back holds about `reach` positions of the table and a piece.
pub(crate) fn by_pieces<T>(
    g: &PackedValues,
    block: u64,
    reach: u64,
    init: impl Fn() -> T + Sync + Send,
    each: impl Fn(&mut T, u64) + Sync + Send,
) {
    let mut behind = Behind::default();
    for piece in pieces(0..g.len()) {
        (piece.start / block..piece.end.div_ceil(block))
            .into_par_iter()
            .for_each_init(&init, &each);
        behind.passed(g, piece.end.saturating_sub(reach));
    }
}

/// The check at one position, given which values its options have: `has(v)` says whether
/// some option has value v, `terminal` whether n has no option at all.
pub(crate) fn judge(
    n: u64,
    g: u32,
    terminal: bool,
    rules: Rules,
    has: impl Fn(u32) -> bool,
    conflict: impl FnOnce() -> u64,
) -> Option<Fault> {
    if rules.misere && terminal {
        return (g == 0).then_some(Fault::Terminal { n });
    }
    if (rules.every_value || g == 0) && has(g) {
        return Some(Fault::Conflict {
            n,
            option: conflict(),
        });
    }
    (0..g)
        .find(|&w| !has(w))
        .map(|value| Fault::Missing { n, value })
}

/// One line saying what is wrong with `subject`, e.g. `g(1234) = 5 in the file, but option
/// 1225 (1234 − 9) also has value 5`.
pub fn describe(fault: &Fault, subject: &Subject, game: &Game) -> String {
    let value = |n: u64| subject.values.get(n);
    let how = |n: u64, m: u64| match game.rule {
        Rule::Divisor(DivisorRule::ToDivisor) => format!("{m} (a divisor of {n})"),
        _ => format!("{m} ({n} − {})", n - m),
    };
    let entry = |n: u64| match subject.form {
        Form::Grundy => format!("g({n}) = {} in the file", value(n)),
        Form::Outcomes => format!(
            "outcome({n}) = {} in the file",
            if value(n) == 0 { "P" } else { "N" }
        ),
        Form::PList if value(n) == 0 => format!("{n} is listed as a P-position"),
        Form::PList => format!("{n} is not listed as a P-position"),
    };
    match *fault {
        Fault::Conflict { n, option } => match subject.form {
            Form::Grundy => format!(
                "{}, but option {} also has value {}",
                entry(n),
                how(n, option),
                value(n)
            ),
            _ => format!(
                "{}, but its option {} is a P-position too",
                entry(n),
                how(n, option)
            ),
        },
        Fault::SplitConflict { n, ref heaps } => {
            let sizes: Vec<String> = heaps.iter().map(u64::to_string).collect();
            let values: Vec<String> = heaps.iter().map(|&h| value(h).to_string()).collect();
            format!(
                "{}, but the split into {} (removing {}) has value {} = {}",
                entry(n),
                sizes.join(" + "),
                n - heaps.iter().sum::<u64>(),
                values.join(" XOR "),
                heaps.iter().fold(0, |x, &h| x ^ value(h))
            )
        }
        Fault::Missing { n, value } => match subject.form {
            Form::Grundy => format!("{}, but no option has value {value}", entry(n)),
            _ => format!("{}, but none of its options is a P-position", entry(n)),
        },
        Fault::Value { n, value } => format!(
            "{}, but g({n}) = {value}, computed from the game's definition",
            entry(n)
        ),
        Fault::Periodic {
            n,
            value,
            period,
            preperiod,
            proof,
        } => format!(
            "{}, but the period {period} from {preperiod} that positions 0 to {} prove gives g({n}) = {value}, that of {}",
            entry(n),
            proof - 1,
            n - period
        ),
        Fault::Terminal { n } => format!(
            "{}, but {n} has no option, so it is an N-position under misère play",
            entry(n)
        ),
    }
}
