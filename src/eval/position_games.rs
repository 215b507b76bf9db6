//! The games `eval` knows besides sums of one-heap games: their names, how their positions are
//! written, and which evaluation each uses.

use super::{PositionEvaluation, disguise, fibonacci_nim, moore, wythoff};
use crate::error::{Error, Result};
use crate::game::CatalogueEntry;

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

/// The games of [`PositionGame`] that only `eval` takes, as `nimsieve games` lists them
/// (`wythoff` is listed with the one-heap games, since `grundy` and `ppos` take it too).
pub const POSITION_GAMES: &[CatalogueEntry] = &[
    CatalogueEntry {
        syntax: "moore:K",
        description: "eval only. Moore's Nim_K: remove from 1 to K heaps at once; P iff every binary column sum of the heaps is 0 mod K+1",
    },
    CatalogueEntry {
        syntax: "staircase",
        description: "eval only. Coins on steps 1, 2, ... (eval staircase C1 C2 ...); a move takes coins from one step to the step below (from step 1 to the ground). Nim on the odd steps",
    },
    CatalogueEntry {
        syntax: "northcott",
        description: "eval only. Rows with a white and a black checker (eval northcott W,B ... gives their columns); a player moves one of their own checkers along its row, never past the other. Nim on the gaps between the checkers",
    },
    CatalogueEntry {
        syntax: "nimble",
        description: "eval only. Coins on squares 0, 1, 2, ... (eval nimble Q1 Q2 ... gives each coin's square); a move takes one coin to any square on its left. Nim with a heap per coin, its square",
    },
    CatalogueEntry {
        syntax: "poker-nim",
        description: "eval only. Nim in which a move may also add objects to a heap from the player's own supply. Nim: an addition can be undone",
    },
    CatalogueEntry {
        syntax: "turning-turtles",
        description: "eval only. A row of coins (eval turning-turtles THHTH); a move turns a head to a tail and may turn one coin to its left either way. Nim with a heap per head, its place counted from 1",
    },
    CatalogueEntry {
        syntax: "fibonacci-nim",
        description: "eval only. One heap (eval fibonacci-nim N [--last M]); the first move takes at least one but not all, each later move at most twice the previous one. P iff the smallest term of N's Zeckendorf sum exceeds what may be taken",
    },
];

impl PositionGame {
    /// The game named by `spec`, or None when the spec names no such game (a one-heap game).
    pub fn parse(spec: &str) -> Result<Option<PositionGame>> {
        let spec = spec.trim();
        let (name, args) = match spec.split_once(':') {
            Some((name, args)) => (name.trim(), Some(args.trim())),
            None => (spec, None),
        };
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
            return Err(Error::Input(format!(
                "--last applies to fibonacci-nim only, not to {}; leave it out",
                self.name()
            )));
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
