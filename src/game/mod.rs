//! Rulesets: what the moves of each game are, parsed from spec strings such as `sub:1,3,4+misere`.
//!
//! A [`Game`] knows its moves and nothing about algorithms. [`Game::moves`] compiles it, for
//! positions below a bound, into a [`Moves`] value that engines and position evaluation consume.

mod catalogue;
mod closed_form;
pub mod code;
mod divisor;
pub mod general;
mod moves;
mod primes;
mod spec;
mod subtraction;
mod suggest;
mod take_break;
pub mod wythoff;

use crate::period::{Criterion, Period};

pub use catalogue::{CATALOGUE, CatalogueEntry, Heaps, heaps_of};
pub use closed_form::{ClosedForm, LASKER_PERIOD, lasker, prime_factor_count};
pub use divisor::{BlockFactors, DivisorRule, divisors_of};
pub use general::{General, TwoHeapRemovals};
pub use moves::{Moves, Window, WindowRule};
pub use primes::{primes_below, sieve_odd_primes};
pub use subtraction::SubtractionSet;
pub use take_break::{ONE, THREE, TWO, TakeBreak, TakeBreakOption, WHOLE};

/// Which player wins when no move is left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    /// The player who cannot move loses; tables hold Grundy values.
    Normal,
    /// The player who cannot move wins; tables hold outcomes (0 = P, 1 = N).
    Misere,
}

/// The move rule of a game, without modifiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// From n move to n − s for s in the set, s ≤ n.
    Subtraction(SubtractionSet),
    /// Moves defined by the divisors of n.
    Divisor(DivisorRule),
    /// Remove an even number but not the whole heap, or the whole heap when it is odd.
    EvenIfNotAll,
    /// Remove at least one and at most half of the heap.
    Half,
    /// Take-and-break: remove objects, leaving nothing, one heap or two heaps.
    TakeBreak(TakeBreak),
    /// Wythoff's game, of two heaps: take any number from one heap, or the same number from
    /// both. Its table is the square of G(x, y); it has no one-heap moves.
    Wythoff,
    /// Rules written down by the user (`tb:CODE`, `SET@DIGIT`, `A|B`) that no catalogued rule
    /// is ([`General`]).
    General(General),
}

/// A fully specified game: a rule plus the `+leave1` and `+misere` modifiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The move rule.
    pub rule: Rule,
    /// `+leave1`: every move must leave at least one object (no move to 0).
    pub leave1: bool,
    /// Normal or misère play.
    pub play: Play,
    /// The canonical spec text (sorted sets, modifiers in a fixed order).
    pub spec: String,
}

impl Game {
    /// Parses a spec such as `squares`, `sub:1,3,4+leave1` or `set-file:moves.txt+misere`.
    pub fn parse(text: &str) -> crate::Result<Game> {
        spec::parse(text)
    }

    /// How many heaps a position has: two for Wythoff's game (its tables are the square of
    /// G(x, y) and the P-pairs), one for every other game a table holds.
    pub fn heaps(&self) -> u32 {
        match self.rule {
            Rule::Wythoff => 2,
            _ => 1,
        }
    }

    /// The smallest position every move may reach: 1 under `+leave1`, else 0.
    pub fn min_target(&self) -> u64 {
        u64::from(self.leave1)
    }

    /// Compiles the rule into move lists for positions below `n` (sieving primes or
    /// smallest prime factors as the rule needs).
    pub fn moves(&self, n: u64) -> Moves {
        Moves::new(&self.rule, self.min_target(), n)
    }

    /// The rules written down by the user that no catalogued rule is; None for every other
    /// game.
    pub fn general(&self) -> Option<&General> {
        match &self.rule {
            Rule::General(general) => Some(general),
            _ => None,
        }
    }

    /// True for a take-and-break game: an octal or hexadecimal code, or rules written down
    /// (codes of CGSuite's grammar, digits over sets, their unions).
    pub fn is_take_and_break(&self) -> bool {
        self.take_break().is_some() || self.general().is_some()
    }

    /// The rule of a take-and-break game; None for every other game.
    pub fn take_break(&self) -> Option<&TakeBreak> {
        match &self.rule {
            Rule::TakeBreak(code) => Some(code),
            _ => None,
        }
    }

    /// The step list of a subtraction game given element by element (not a window rule),
    /// restricted to steps below `n`; None for every other game.
    pub fn listed_steps(&self, n: u64) -> Option<Vec<u64>> {
        match &self.rule {
            Rule::Subtraction(set) if set.window_rule().is_none() => Some(set.elements_below(n)),
            _ => None,
        }
    }

    /// The largest element of a finite subtraction set, which is the window length of its
    /// periodicity proof; None for every other game.
    pub fn finite_set_max(&self) -> Option<u64> {
        match &self.rule {
            Rule::Subtraction(set) => set.finite_max(),
            _ => None,
        }
    }

    /// What proves a period of this game from a finite table: the window of a finite
    /// subtraction set, or the Guy–Smith criterion of a finite take-and-break code in normal
    /// play; None for every other game, for a take-and-break code in misère play (its outcomes
    /// are those of sums), and for a code that splits into three heaps under `+unequal`
    /// (shifting the largest of three heaps by a period can make it equal to another, and no
    /// criterion here covers that).
    pub fn period_criterion(&self) -> Option<Criterion> {
        if let Some(m) = self.finite_set_max() {
            // Saturated at 2^64 − 1 for m = 2^64 − 1 under `+leave1`: no table proves a
            // period of that set either way.
            return Some(Criterion::Window {
                window: m,
                uniform_from: m.saturating_add(self.min_target()),
            });
        }
        if let Some(general) = self.general().filter(|_| self.play == Play::Normal) {
            // The Guy–Smith criterion for splits into at most k heaps of any sizes, or into
            // two heaps some of which must be unequal.
            let (last_removal, parts) = (general.last_removal()?, general.max_heaps()?);
            let unequal_splits = match general.splits_are_free() {
                true => Vec::new(),
                false => general.two_heap_removals()?.unequal_splits,
            };
            return Some(Criterion::TakeBreak {
                last_removal,
                parts: parts.max(1),
                unequal_splits,
            });
        }
        let code = self.take_break().filter(|_| self.play == Play::Normal)?;
        let last_removal = code.last_removal()?;
        if code.unequal && code.splits_in_three() {
            return None;
        }
        let unequal_splits = match code.unequal {
            true => code.removals(TWO, last_removal + 1),
            false => Vec::new(),
        };
        Some(Criterion::TakeBreak {
            last_removal,
            parts: if code.splits_in_three() { 3 } else { 2 },
            unequal_splits,
        })
    }

    /// The period when a theorem gives every value (normal play; see
    /// [`SubtractionSet::proven_period`]): g(n) = (n − a) mod p for n ≥ a, and 0 below a, where
    /// a is the preperiod — 0, or 1 under `+leave1`, which shifts a subtraction game by one
    /// position (n ≥ 1 moving to n − s ≥ 1 is n − 1 moving to n − 1 − s ≥ 0). None for every
    /// other game.
    pub fn proven_period(&self) -> Option<Period> {
        match &self.rule {
            Rule::Subtraction(set) if self.play == Play::Normal => set
                .proven_period()
                .map(|period| Period::pure(self.min_target(), period)),
            _ => None,
        }
    }

    /// What the rules are made of, for checkpoints: the spec, and for a set file also the
    /// number of its elements and a checksum of them, so that a run resumed after the file
    /// changed is refused.
    pub fn content_key(&self) -> String {
        match &self.rule {
            Rule::Subtraction(SubtractionSet::File { elements, .. }) => {
                let mut crc = crc32fast::Hasher::new();
                elements.iter().for_each(|e| crc.update(&e.to_le_bytes()));
                format!(
                    "{} [{} elements, crc32 {:08x}]",
                    self.spec,
                    elements.len(),
                    crc.finalize()
                )
            }
            _ => self.spec.clone(),
        }
    }

    /// A file-name-safe form of the spec: letters, digits, `.`, `_`, `-` and `+` only.
    pub fn file_stem(&self) -> String {
        let text = match &self.rule {
            Rule::Subtraction(SubtractionSet::File { path, .. }) => {
                let stem = std::path::Path::new(path)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let modifiers = self.spec.find('+').map_or("", |i| &self.spec[i..]);
                format!("set-file_{stem}{modifiers}")
            }
            _ => self.spec.clone(),
        };
        file_safe(&text)
    }
}

/// `text` with only letters, digits, `.`, `_`, `-` and `+`: `:` becomes `_`, `,` becomes `-`,
/// anything else `_`.
pub fn file_safe(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            ':' => '_',
            ',' => '-',
            c if c.is_ascii_alphanumeric() || "._-+".contains(c) => c,
            _ => '_',
        })
        .collect()
}
