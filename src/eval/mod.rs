//! Evaluation of one position: who wins and every winning move.
//!
//! A position of a one-heap game with several heaps is a sum ([`sum`]): each heap's value comes
//! from a closed form, a proven period or a table ([`heap_values`]), whatever the heap's size
//! allows. The games of several heaps that are not sums of one-heap games (Moore's Nim_k,
//! Wythoff's game, Fibonacci Nim, and Nim in disguise: staircase Nim, Northcott's game, Nimble,
//! Poker Nim, Turning Turtles) have their own rules ([`position_games`]).

mod disguise;
mod fibonacci_nim;
mod heap_options;
mod heap_values;
mod misere;
mod moore;
mod position_games;
mod split_classes;
mod sum;
mod wythoff;

pub use heap_values::{Method, TABLE_LIMIT, TableOptions};
pub use misere::{MisereEvaluation, QUOTIENT_HEAPS};
pub use moore::is_p as moore_is_p;
pub use position_games::PositionGame;
pub use split_classes::SplitClass;
pub use sum::{
    HeapMove, HeapReport, OPTION_BUDGET, SumEvaluation, WinningMoves, evaluate as evaluate_sum,
};

use crate::error::{Error, Param, Result};
use crate::game::Game;
use crate::number::parse_u64;
use crate::text;
use serde::Serialize;

/// Who wins a position with best play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// The previous player (the one who just moved) wins.
    P,
    /// The next player (the one to move) wins.
    N,
}

impl Outcome {
    /// P when `is_p`, else N.
    pub fn of(is_p: bool) -> Outcome {
        if is_p { Outcome::P } else { Outcome::N }
    }
}

/// One entry of a position that a move changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Change {
    /// Index of the entry in the position, from 0.
    pub index: usize,
    /// The entry before the move.
    pub from: u64,
    /// The entry after it.
    pub to: u64,
}

/// One move of a position of a game that is not a sum of one-heap games.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PositionMove {
    /// The entries it changes, by index.
    pub changes: Vec<Change>,
    /// The move in the game's own words.
    pub says: String,
}

/// The evaluation of a position of a game that is not a sum of one-heap games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionEvaluation {
    /// The game's name, e.g. `moore:2` or `staircase`.
    pub game: String,
    /// The position as numbers (heaps, coins on steps, squares of coins, gaps, …).
    pub position: Vec<u64>,
    /// How the game's positions map to Nim, when they do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nim_heaps: Option<Vec<u64>>,
    /// The Grundy value of the whole position, when known.
    pub value: Option<u64>,
    /// How the outcome was decided (a theorem's name, or a table).
    pub method: String,
    /// P when the player to move loses.
    pub outcome: Outcome,
    /// The moves to a P-position.
    pub winning_moves: Vec<PositionMove>,
    /// The number of winning moves, when counted (it can be more than are listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_move_count: Option<u64>,
    /// False when `winning_moves` lists only some of them.
    pub all_winning_moves: bool,
}

/// What an evaluation prints: a sum of heaps, or a position of another multi-heap game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Evaluation {
    /// A sum of heaps of a one-heap game.
    Sum(SumEvaluation),
    /// A position of a game of its own kind.
    Position(PositionEvaluation),
    /// A misère sum of heaps, through the game's misère quotient.
    Misere(MisereEvaluation),
}

impl Evaluation {
    /// Who wins.
    pub fn outcome(&self) -> Outcome {
        match self {
            Evaluation::Sum(e) => e.outcome,
            Evaluation::Position(e) => e.outcome,
            Evaluation::Misere(e) => e.outcome,
        }
    }
}

/// What an evaluation may use besides the position.
#[derive(Debug, Clone)]
pub struct Options {
    /// Tables of one-heap games: a table file, the work folder, the progress.
    pub tables: TableOptions,
    /// Fibonacci Nim: the number of objects the previous move took (None: the first move).
    pub last: Option<u64>,
}

/// True for a misère spec that the misère quotient evaluates: every one-heap game but Nim,
/// whose misère sums Bouton's rule decides for heaps of any size.
fn by_quotient(spec: &str) -> Result<bool> {
    let spec = spec.trim();
    if !spec.ends_with("+misere") && !spec.contains("+misere+") {
        return Ok(false);
    }
    let game = crate::misere::parse_game(spec)?;
    Ok(game.spec != "nim")
}

/// Evaluates the position `args` (heap sizes, or what the game's position is made of) of the
/// game `spec`: a one-heap game's spec (see `nimsieve games`), or a game of two or several
/// heaps of the catalogue ([`crate::game::CATALOGUE`]).
pub fn evaluate(spec: &str, args: &[String], options: &Options) -> Result<Evaluation> {
    if let Some(game) = PositionGame::parse(spec)? {
        if options.tables.file.is_some() {
            return Err(Error::invalid(
                Param::Table,
                text!(
                    Param::Table,
                    format!(
                        " applies to one-heap games, not to {}; leave it out",
                        game.name()
                    ),
                ),
            ));
        }
        return game.evaluate(args, options.last).map(Evaluation::Position);
    }
    if options.last.is_some() {
        return Err(Error::invalid(
            Param::Last,
            text!(Param::Last, " applies to fibonacci-nim only; leave it out"),
        ));
    }
    let heaps = args
        .iter()
        .map(|h| heap_size(h))
        .collect::<Result<Vec<u64>>>()?;
    if by_quotient(spec)? {
        if options.tables.file.is_some() {
            return Err(Error::invalid(
                Param::Table,
                text!(
                    Param::Table,
                    " holds Grundy values, which do not decide misère sums; leave it out"
                ),
            ));
        }
        return misere::evaluate(spec, &heaps).map(Evaluation::Misere);
    }
    let game = Game::parse(spec)?;
    sum::evaluate(&game, &heaps, &options.tables).map(Evaluation::Sum)
}

/// One number of a position, a size as the command line reads it; several written as one
/// with commas (`3,5,7`) are refused with the spaced form that works.
fn heap_size(text: &str) -> Result<u64> {
    parse_u64(text).map_err(|e| {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let thousands = parts[1..].iter().all(|p| p.len() == 3);
        if parts.len() > 1 && parts.iter().all(|p| parse_u64(p).is_ok()) {
            Error::Input(format!(
                "'{text}' is not a heap size: heaps are separated by spaces, not commas; write {}{}",
                parts.join(" "),
                match thousands {
                    true => format!(" (or {} for one heap)", parts.join("_")),
                    false => String::new(),
                }
            ))
        } else {
            e
        }
    })
}
