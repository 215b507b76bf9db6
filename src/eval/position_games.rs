//! The games `eval` knows besides sums of one-heap games: their names, how their positions are
//! written, and which evaluation each uses.

use super::{PositionEvaluation, disguise, fibonacci_nim, moore, wythoff};
use crate::error::{Error, Param, Result};
use crate::game::{Heaps, heaps_of};
use crate::text;

/// A game of several heaps (or coins, or rows) that is not a sum of one-heap games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionGame {
    /// `moore:K`: take from up to K heaps at once.
    Moore(u64),
    /// `staircase`: coins on steps 1, 2, …; move coins from a step to the one below.
    Staircase,
    /// `northcott`: rows with a checker of each player; move your own along its row.
    Northcott,
    /// `nimble`: coins on squares 0, 1, …; move a coin to any square on its left.
    Nimble,
    /// `poker-nim`: Nim in which a player may also add objects from a private supply.
    PokerNim,
    /// `turning-turtles`: a row of coins; turn a head over, and perhaps one coin to its left.
    TurningTurtles,
    /// `fibonacci-nim`: one heap; take up to twice the previous take (not all at first).
    FibonacciNim,
    /// `wythoff`: two heaps; take from one, or the same number from both.
    Wythoff,
}

impl PositionGame {
    /// The game named by `spec`, or None when the catalogue lists its name as a one-heap game
    /// (or not at all).
    pub fn parse(spec: &str) -> Result<Option<PositionGame>> {
        let spec = spec.trim();
        let (name, args) = match spec.split_once(':') {
            Some((name, args)) => (name.trim(), Some(args.trim())),
            None => (spec, None),
        };
        if !matches!(heaps_of(name), Some(Heaps::Two | Heaps::Several)) {
            return Ok(None);
        }
        let game = match name {
            "moore" => {
                let k = args.ok_or_else(|| {
                    Error::spec(
                        spec,
                        "'moore' needs K, the most heaps a move may take from, e.g. moore:2",
                    )
                })?;
                let k = crate::number::parse_u64(k)
                    .ok()
                    .filter(|&k| k >= 1)
                    .ok_or_else(|| {
                        Error::spec(spec, format!("K must be a whole number from 1, not '{k}'"))
                    })?;
                return Ok(Some(PositionGame::Moore(k)));
            }
            "staircase" => PositionGame::Staircase,
            "northcott" => PositionGame::Northcott,
            "nimble" => PositionGame::Nimble,
            "poker-nim" => PositionGame::PokerNim,
            "turning-turtles" => PositionGame::TurningTurtles,
            "fibonacci-nim" => PositionGame::FibonacciNim,
            "wythoff" => PositionGame::Wythoff,
            _ => return Ok(None),
        };
        match args {
            None => Ok(Some(game)),
            Some(a) => Err(Error::spec(
                spec,
                format!("'{name}' takes no arguments, but ':{a}' was given"),
            )),
        }
    }

    /// The game's name as written.
    pub fn name(self) -> String {
        match self {
            PositionGame::Moore(k) => format!("moore:{k}"),
            PositionGame::Staircase => "staircase".into(),
            PositionGame::Northcott => "northcott".into(),
            PositionGame::Nimble => "nimble".into(),
            PositionGame::PokerNim => "poker-nim".into(),
            PositionGame::TurningTurtles => "turning-turtles".into(),
            PositionGame::FibonacciNim => "fibonacci-nim".into(),
            PositionGame::Wythoff => "wythoff".into(),
        }
    }

    /// Evaluates the position written as `args`; `last` is Fibonacci Nim's previous take.
    pub fn evaluate(self, args: &[String], last: Option<u64>) -> Result<PositionEvaluation> {
        if last.is_some() && self != PositionGame::FibonacciNim {
            return Err(Error::invalid(
                Param::Last,
                text!(
                    Param::Last,
                    format!(
                        " applies to fibonacci-nim only, not to {}; leave it out",
                        self.name()
                    ),
                ),
            ));
        }
        match self {
            PositionGame::Moore(k) => moore::evaluate(k, &numbers(args)?),
            PositionGame::Staircase => Ok(disguise::staircase(&numbers(args)?)),
            PositionGame::Northcott => disguise::northcott(args),
            PositionGame::Nimble => Ok(disguise::nimble(&numbers(args)?)),
            PositionGame::PokerNim => Ok(disguise::poker_nim(&numbers(args)?)),
            PositionGame::TurningTurtles => disguise::turning_turtles(args),
            PositionGame::Wythoff => wythoff::evaluate(&numbers(args)?),
            PositionGame::FibonacciNim => match numbers(args)?.as_slice() {
                [n] => fibonacci_nim::evaluate(*n, last),
                _ => Err(Error::Input(
                    "fibonacci-nim has one heap: give its size, e.g. eval fibonacci-nim 100".into(),
                )),
            },
        }
    }
}

/// The numbers of a position, each a size as the command line reads them.
fn numbers(args: &[String]) -> Result<Vec<u64>> {
    args.iter().map(|a| super::heap_size(a)).collect()
}
